import DBusSupport
import DesktopPresence
import Foundation
import I3Detector
import VigilCore
import WaylandDetector
import X11Detector

/// A window as the window actions see it: the desktop's handle, the application's class, and the
/// title for the `apps:` rules only (never kept or logged).
public struct ShownWindow: Sendable, Equatable {
    public var id: String
    public var appClass: String
    public var title: String?
    public var focused: Bool

    public init(id: String, appClass: String, title: String?, focused: Bool) {
        self.id = id
        self.appClass = appClass
        self.title = title
        self.focused = focused
    }
}

/// What the window actions need from a desktop (issue 36, docs/actions-design.md): its windows,
/// the most recently focused first; to focus one; to hide one out of sight without closing it,
/// and to put it back where it was. Each desktop's adapter is one (i3 and sway so far).
public protocol WindowControl: AnyObject, Sendable {
    /// The desktop, for messages ("i3", "sway").
    var name: String { get }
    func windows() throws(AlarmChannelUnavailable) -> [ShownWindow]
    func focus(_ id: String) throws(AlarmChannelUnavailable)
    /// What `hide` and `restore` need to find the window and put it back where it is now.
    func token(_ id: String) throws(AlarmChannelUnavailable) -> String
    /// Hides the window `token` names.
    func hide(_ token: String) throws(AlarmChannelUnavailable)
    /// Puts a hidden window back; false when it is gone or the person brought it back already.
    func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool
    /// Dims the window `token` names, or brightens it again; false when it is gone. Only where
    /// the desktop lets a program change a window's opacity (GNOME's extension, KWin's scripts).
    func dim(_ token: String, _ on: Bool) throws(AlarmChannelUnavailable) -> Bool
}

extension WindowControl {
    public func dim(_ token: String, _ on: Bool) throws(AlarmChannelUnavailable) -> Bool {
        throw AlarmChannelUnavailable("\(name) lets no program dim a window: dim works on GNOME and KDE Plasma")
    }
}

/// The desktop's window control for the window actions.
public enum WindowControls {
    static let unsupported =
        "moving windows needs i3, sway, GNOME (Vigil's Shell extension), KDE Plasma, a wlroots compositor or an X11 window manager for now (Hyprland is to come)"

    /// The one this session's desktop offers, found as the focus detector finds the window in
    /// front (`apps.backend`, else the desktop's own): i3's or sway's IPC socket, Vigil's GNOME
    /// Shell extension, an EWMH window manager on the X display. Nil for the others.
    public static func forDesktop(
        backend: AppBackend? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (any WindowControl)? {
        let x11 = environment["DISPLAY"].map { X11Display.probe(display: $0) }
        switch backend ?? DetectorCatalog.autoAppBackend(x11: x11, environment: environment) {
        case .i3?:
            if let windows = I3Windows(environment: environment) { return I3WindowControl(windows) }
            return x11?.i3Socket.map { I3WindowControl(I3Windows(socketPath: $0)) }
        case .gnome?:
            return GnomeWindowControl(GnomeShellWindows())
        case .x11?:
            return X11Windows(environment: environment).flatMap(X11WindowControl.init)
        case .kwin?:
            return KWinWindowControl(KWinWindows())
        case .wlroots?:
            return WaylandWindows(environment: environment).map(WaylandWindowControl.init)
        case .hyprland?, nil:
            return nil
        }
    }
}

/// i3 and sway through their IPC socket (`I3Windows`): hidden in the scratchpad.
public final class I3WindowControl: WindowControl, @unchecked Sendable {
    private let windowManager: I3Windows
    public var name: String { windowManager.socketPath.split(separator: "/").last?.hasPrefix("sway-ipc") == true ? "sway" : "i3" }

    public init(_ windows: I3Windows) { windowManager = windows }

    public func windows() throws(AlarmChannelUnavailable) -> [ShownWindow] {
        do {
            return try windowManager.windows().filter { $0.workspace != nil }.map {
                ShownWindow(id: String($0.id), appClass: $0.appClass, title: $0.title, focused: $0.focused)
            }
        } catch { throw AlarmChannelUnavailable("\(name) at \(windowManager.socketPath): \(error)") }
    }

    public func focus(_ id: String) throws(AlarmChannelUnavailable) {
        guard let n = Int(id) else { return }
        do { try windowManager.focus(n) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }

    public func token(_ id: String) throws(AlarmChannelUnavailable) -> String {
        let found: I3Window?
        do { found = try windowManager.windows().first { String($0.id) == id } } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
        guard let window = found else { throw AlarmChannelUnavailable("\(name): the window closed before it could be hidden") }
        let place = windowManager.place(of: window)
        return (try? JSONEncoder().encode(place)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    public func hide(_ token: String) throws(AlarmChannelUnavailable) {
        guard let window = try? JSONDecoder().decode(I3HiddenWindow.self, from: Data(token.utf8)) else { return }
        do { try windowManager.hide(id: window.id) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }

    public func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool {
        guard let window = try? JSONDecoder().decode(I3HiddenWindow.self, from: Data(hidden.utf8)) else { return false }
        do { return try windowManager.restore(window) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }
}

/// An EWMH window manager on an X display (`X11Windows`): hidden by minimising, put back behind
/// the window in front.
public final class X11WindowControl: WindowControl, @unchecked Sendable {
    private let x: X11Windows
    /// "Openbox on :0": X window ids belong to one display, so a window hidden on one is put back
    /// only from there.
    public let name: String

    /// Nil when no EWMH window manager runs on the display.
    public init?(_ windows: X11Windows) {
        guard let manager = (try? windows.windowManager()) ?? nil else { return nil }
        x = windows
        name = "\(manager) on \(windows.display)"
    }

    public func windows() throws(AlarmChannelUnavailable) -> [ShownWindow] {
        do {
            return try x.windows(readTitles: true).filter { !$0.iconic }.map {
                ShownWindow(id: String($0.id), appClass: $0.appClass, title: $0.title, focused: $0.focused)
            }
        } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }

    public func focus(_ id: String) throws(AlarmChannelUnavailable) {
        guard let window = UInt32(id) else { return }
        do { try x.activate(window) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }

    /// The window manager remembers where a minimised window was: the id is all it takes, with
    /// the class, so that an id the server gave a new window after a restart is not taken for it.
    public func token(_ id: String) throws(AlarmChannelUnavailable) -> String {
        let found: X11Window?
        do { found = try x.windows(readTitles: false).first { String($0.id) == id } } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
        guard let window = found else { throw AlarmChannelUnavailable("\(name): the window closed before it could be hidden") }
        return WindowToken(id: id, appClass: window.appClass).text
    }

    public func hide(_ token: String) throws(AlarmChannelUnavailable) {
        guard let window = WindowToken(token).flatMap({ UInt32($0.id) }) else { return }
        do { try x.minimise(window) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }

    public func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool {
        guard let token = WindowToken(hidden), let window = UInt32(token.id) else { return false }
        do { return try x.unminimise(window, appClass: token.appClass) } catch { throw AlarmChannelUnavailable("\(name): \(error)") }
    }
}

/// GNOME Shell through Vigil's extension (`GnomeShellWindows`): hidden by minimising, put back
/// behind the window in front.
public final class GnomeWindowControl: WindowControl, @unchecked Sendable {
    private let shell: GnomeShellWindows
    public let name = "GNOME"

    public init(_ shell: GnomeShellWindows) { self.shell = shell }

    public func windows() throws(AlarmChannelUnavailable) -> [ShownWindow] {
        try reach { () throws(DBusFailure) in
            try shell.windows().filter { !$0.minimised }.map {
                ShownWindow(id: String($0.id), appClass: $0.appClass, title: $0.title, focused: $0.focused)
            }
        }
    }

    public func focus(_ id: String) throws(AlarmChannelUnavailable) {
        guard let window = UInt64(id) else { return }
        _ = try reach { () throws(DBusFailure) in try shell.activate(window) }
    }

    /// The id and the class: mutter numbers windows afresh in each session of the shell.
    public func token(_ id: String) throws(AlarmChannelUnavailable) -> String {
        guard let window = try listed().first(where: { String($0.id) == id }) else {
            throw AlarmChannelUnavailable("GNOME: the window closed before it could be hidden")
        }
        return WindowToken(id: id, appClass: window.appClass).text
    }

    public func hide(_ token: String) throws(AlarmChannelUnavailable) {
        guard let window = WindowToken(token).flatMap({ UInt64($0.id) }) else { return }
        guard try reach({ () throws(DBusFailure) in try shell.minimise(window) }) else {
            throw AlarmChannelUnavailable("GNOME: the window closed, or cannot be minimised")
        }
    }

    public func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool {
        guard let token = WindowToken(hidden), let window = UInt64(token.id) else { return false }
        let found = try listed().first { $0.id == window }
        guard let listed = found, listed.appClass == token.appClass else { return false }
        return try reach { () throws(DBusFailure) in try shell.unminimise(window) }
    }

    public func dim(_ token: String, _ on: Bool) throws(AlarmChannelUnavailable) -> Bool {
        guard let window = WindowToken(token).flatMap({ UInt64($0.id) }) else { return false }
        return try reach { () throws(DBusFailure) in try shell.dim(window, on) }
    }

    private func listed() throws(AlarmChannelUnavailable) -> [ShellListedWindow] {
        try reach { () throws(DBusFailure) in try shell.windows() }
    }

    /// A failed call says whether the extension is there at all, and what to do.
    private func reach<T>(_ body: () throws(DBusFailure) -> T) throws(AlarmChannelUnavailable) -> T {
        do { return try body() } catch {
            throw AlarmChannelUnavailable("GNOME: " + (shell.check() ?? error.message))
        }
    }
}

/// KDE Plasma's KWin through one-shot scripts (`KWinWindows`): hidden by minimising, put back
/// behind the window in front.
public final class KWinWindowControl: WindowControl, @unchecked Sendable {
    private let kwin: KWinWindows
    public let name = "KDE"

    public init(_ kwin: KWinWindows) { self.kwin = kwin }

    public func windows() throws(AlarmChannelUnavailable) -> [ShownWindow] {
        try listed().filter { !$0.minimised }.map { ShownWindow(id: $0.id, appClass: $0.appClass, title: $0.title, focused: $0.focused) }
    }

    public func focus(_ id: String) throws(AlarmChannelUnavailable) {
        _ = try reach { () throws(DBusFailure) in try kwin.activate(id) }
    }

    /// The id and the class: an id names one window for one run of KWin.
    public func token(_ id: String) throws(AlarmChannelUnavailable) -> String {
        guard let window = try listed().first(where: { $0.id == id }) else {
            throw AlarmChannelUnavailable("KDE: the window closed before it could be hidden")
        }
        return WindowToken(id: id, appClass: window.appClass).text
    }

    public func hide(_ token: String) throws(AlarmChannelUnavailable) {
        guard let window = WindowToken(token) else { return }
        guard try reach({ () throws(DBusFailure) in try kwin.minimise(window.id) }) else {
            throw AlarmChannelUnavailable("KDE: the window closed, or cannot be minimised")
        }
    }

    public func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool {
        guard let window = WindowToken(hidden) else { return false }
        return try reach { () throws(DBusFailure) in try kwin.unminimise(window.id, appClass: window.appClass) }
    }

    public func dim(_ token: String, _ on: Bool) throws(AlarmChannelUnavailable) -> Bool {
        guard let window = WindowToken(token) else { return false }
        return try reach { () throws(DBusFailure) in try kwin.dim(window.id, on) }
    }

    private func listed() throws(AlarmChannelUnavailable) -> [KWinListedWindow] {
        try reach { () throws(DBusFailure) in try kwin.windows() }
    }

    private func reach<T>(_ body: () throws(DBusFailure) -> T) throws(AlarmChannelUnavailable) -> T {
        do { return try body() } catch { throw AlarmChannelUnavailable("KDE: \(error.message)") }
    }
}

/// A wlroots compositor through wlr-foreign-toplevel-management (`WaylandWindows`): hidden by
/// minimising, put back behind the window in front. The window's name ("2 org.example.Videos")
/// is its token too: the app_id is in it.
public final class WaylandWindowControl: WindowControl, @unchecked Sendable {
    private let wayland: WaylandWindows
    public var name: String { "Wayland \(wayland.display)" }

    public init(_ wayland: WaylandWindows) { self.wayland = wayland }

    public func windows() throws(AlarmChannelUnavailable) -> [ShownWindow] {
        try reach { () throws(WaylandWindows.Failure) in
            try wayland.windows().filter { !$0.minimised }.map { ShownWindow(id: $0.id, appClass: $0.appClass, title: $0.title, focused: $0.focused) }
        }
    }

    public func focus(_ id: String) throws(AlarmChannelUnavailable) {
        _ = try reach { () throws(WaylandWindows.Failure) in try wayland.activate(id) }
    }

    public func token(_ id: String) throws(AlarmChannelUnavailable) -> String { id }

    public func hide(_ token: String) throws(AlarmChannelUnavailable) {
        guard try reach({ () throws(WaylandWindows.Failure) in try wayland.minimise(token) }) else {
            throw AlarmChannelUnavailable("\(name): the window closed, or the compositor does not minimise windows")
        }
    }

    public func restore(_ hidden: String) throws(AlarmChannelUnavailable) -> Bool {
        try reach { () throws(WaylandWindows.Failure) in try wayland.unminimise(hidden) }
    }

    private func reach<T>(_ body: () throws(WaylandWindows.Failure) -> T) throws(AlarmChannelUnavailable) -> T {
        do { return try body() } catch { throw AlarmChannelUnavailable(error.description) }
    }
}

/// A hidden window as the journal keeps it for X11 and GNOME: the desktop's window id and the
/// application's class ("12582919 Videos"); an id alone may name another window after a restart.
struct WindowToken: Equatable {
    var id: String
    var appClass: String

    init(id: String, appClass: String) {
        self.id = id
        self.appClass = appClass
    }

    /// Nil when `text` is not one (a journal written by hand, or by another version).
    init?(_ text: String) {
        guard let space = text.firstIndex(of: " "), space != text.startIndex else { return nil }
        id = String(text[..<space])
        appClass = String(text[text.index(after: space)...])
    }

    var text: String { id + " " + appClass }
}
