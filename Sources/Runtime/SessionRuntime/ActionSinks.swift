import DBusSupport
import Foundation
import I3Detector
import MediaControl
import VigilCore
import X11Detector

/// A channel that acts on a distraction instead of (or beside) telling it (issue 36): what it did
/// goes into the log with each delivery ("paused mpv"), so the record says what Vigil changed on
/// the person's desktop. `act` runs at the levels `alarms.channels` gives it; `undo` when the
/// episode is over. Both return nil when there was nothing to do (nothing playing, no window to
/// hide): that is no delivery.
public protocol ActionSink: AlarmSink {
    func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String?
    func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String?
    /// The session is over: whatever is still changed is put back.
    func sessionEnded()
}

extension ActionSink {
    public func sessionEnded() {}

    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) { _ = try act(alarm) }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        try undo(episode: episode, closedBy: closedBy) != nil
    }
}

/// `pause_media`: the media players that are playing (MPRIS) are paused at the alarm's level, and
/// exactly those resumed when the person is back; a player the person played, paused or stopped
/// meanwhile is left as the person left it (`MediaPauser`). At a Pomodoro break the players are
/// paused too, and resumed when the person is back for the next work period (not when the break's
/// time is up: the person may still be away). Without a session bus there is no player Vigil could
/// pause: nothing to do, not a failure.
public final class MediaPauseSink: ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.pauseMedia
    private let pauser: MediaPauser
    private let available: Bool
    /// In a Pomodoro break: an episode the break ends leaves the players paused for it.
    private var onBreak = false

    public init(address: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        available = address != nil || (try? MessageBus.session.address(environment: environment)) != nil
        pauser = MediaPauser(address: address)
    }

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        try pause()
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? {
        guard !(onBreak && closedBy == .onBreak) else { return nil }
        return try resume()
    }

    /// Players still paused when the session ends (in a break) play again.
    public func sessionEnded() {
        onBreak = false
        _ = try? resume()
    }

    /// A break pauses the players; the next work period, once the person is back, resumes them.
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        switch cue {
        case .breakStarts:
            onBreak = true
            _ = try pause()
        case .breakOver:
            break
        case .workStarts:
            onBreak = false
            _ = try resume()
        }
        // The cue itself is told by the other channels.
        return false
    }

    private func pause() throws(AlarmChannelUnavailable) -> String? {
        guard available else { return nil }
        do {
            let paused = try pauser.pausePlaying()
            return paused.isEmpty ? nil : "paused " + paused.map(\.identity).joined(separator: ", ")
        } catch {
            throw AlarmChannelUnavailable("cannot reach the media players on the session bus: \(error)")
        }
    }

    private func resume() throws(AlarmChannelUnavailable) -> String? {
        guard available, !pauser.pausedPlayers.isEmpty else { return nil }
        do {
            let (resumed, left) = try pauser.resume()
            let words =
                (resumed.isEmpty ? [] : ["resumed " + resumed.map(\.identity).joined(separator: ", ")])
                + (left.isEmpty ? [] : ["left to you: " + left.map(\.identity).joined(separator: ", ")])
            return words.isEmpty ? nil : words.joined(separator: "; ")
        } catch {
            throw AlarmChannelUnavailable("cannot reach the media players on the session bus: \(error)")
        }
    }
}

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
}

/// `hide`: the distracting window in front is moved out of sight, never closed, and put back where
/// it was (behind the window the person is on) at a break, a pause, the session's end, or when
/// the person asks (`vigil restore`). Not when the person is back at work: that is what hiding
/// brought about, and the distraction put back beside the work would undo it (and, in front,
/// open the next episode at once). Only an application distraction is acted on, and only a
/// window the rules call distracting.
public final class HideSink: ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.hide
    private let control: (any WindowControl)?
    private let apps: VigilConfiguration.Apps
    /// Where each window is written down before it is hidden (nil: nowhere, in tests).
    private let journal: HiddenWindows?
    /// What it hid and has not put back: the desktop's restore token and the application's class.
    private var hidden: [(token: String, appClass: String)] = []

    public init(control: (any WindowControl)?, apps: VigilConfiguration.Apps, journal: HiddenWindows? = nil) {
        self.control = control
        self.apps = apps
        self.journal = journal
    }

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        guard alarm.cause == .app else { return nil }
        guard let control else { throw AlarmChannelUnavailable(WindowControls.unsupported) }
        guard let front = try control.windows().first(where: \.focused),
            apps.categorize(appClass: front.appClass, title: front.title).category == .distracting
        else { return nil }
        // Written down first: a window is hidden only once it can be found again after a crash.
        let token = try control.token(front.id)
        do {
            try journal?.add(.init(pid: getpid(), desktop: control.name, token: token, appClass: front.appClass))
        } catch {
            throw AlarmChannelUnavailable("not hiding \(front.appClass): \(error)")
        }
        do {
            try control.hide(token)
        } catch {
            journal?.remove(token: token)
            throw error
        }
        hidden.append((token, front.appClass))
        return "hid \(front.appClass) (\(control.name))"
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? {
        guard closedBy != .back else { return nil }
        return try restoreAll()
    }

    /// A Pomodoro break puts the windows back.
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        if case .breakStarts = cue { _ = try restoreAll() }
        return false
    }

    public func sessionEnded() { _ = try? restoreAll() }

    private func restoreAll() throws(AlarmChannelUnavailable) -> String? {
        guard let control, !hidden.isEmpty else { return nil }
        var back: [String] = []
        while let w = hidden.first {
            if try control.restore(w.token) { back.append(w.appClass) }
            journal?.remove(token: w.token)
            hidden.removeFirst()
        }
        return back.isEmpty ? nil : "restored " + back.joined(separator: ", ")
    }
}

/// `refocus`: the last window of a `work` application the person used comes back to the front.
/// Nothing to undo.
public final class RefocusSink: ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.refocus
    private let control: (any WindowControl)?
    private let apps: VigilConfiguration.Apps

    public init(control: (any WindowControl)?, apps: VigilConfiguration.Apps) {
        self.control = control
        self.apps = apps
    }

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        guard alarm.cause == .app else { return nil }
        guard let control else { throw AlarmChannelUnavailable(WindowControls.unsupported) }
        let windows = try control.windows()
        guard let work = windows.first(where: { apps.categorize(appClass: $0.appClass, title: $0.title).category == .work }), !work.focused
        else { return nil }
        try control.focus(work.id)
        return "brought back \(work.appClass) (\(control.name))"
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? { nil }
}

/// The desktop's window control for the window actions.
public enum WindowControls {
    static let unsupported = "moving windows needs i3 or sway for now (GNOME, KDE, X11 and other Wayland desktops are to come)"

    /// The one this session's desktop offers: i3's or sway's IPC socket ($I3SOCK, $SWAYSOCK, or the
    /// one i3 names on the X display's root window, as the focus detector finds it).
    public static func forDesktop(environment: [String: String] = ProcessInfo.processInfo.environment) -> (any WindowControl)? {
        if let windows = I3Windows(environment: environment) { return I3WindowControl(windows) }
        guard let display = environment["DISPLAY"], let socket = X11Display.probe(display: display).i3Socket else { return nil }
        return I3WindowControl(I3Windows(socketPath: socket))
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
