import CWayland
import Foundation

/// A window of a wlroots compositor as the window actions see it.
public struct WaylandListedWindow: Sendable, Equatable {
    /// "2 org.example.Videos": the window's place among the windows of its app_id, in the order
    /// the compositor lists them, then the app_id. The protocol gives a window no name that
    /// outlives a connection, and the actions connect once for each thing they do.
    public var id: String
    public var appClass: String
    public var title: String
    public var focused: Bool
    public var minimised: Bool
}

/// The windows of a wlroots compositor (labwc, river, wayfire, phoc…; sway is reached through its
/// IPC) for the window actions (issue 36), through `zwlr_foreign_toplevel_manager_v1`, as a taskbar
/// does: bring one to the front (`activate` on the seat), minimise one, show it again behind the
/// window in front. Each call connects, reads the list, asks, waits for the compositor's answer
/// and disconnects: a connection kept open would have to read every title change of every window
/// for the whole session, or be dropped by the compositor when its buffer filled.
///
/// What the protocol does not give: the order the windows were used in (the list is the order
/// they were opened; the one in front comes first), and a lasting name for a window (a window is
/// told by its app_id and its place among that application's windows).
public final class WaylandWindows: Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let environment: [String: String]
    public let display: String

    /// Nil when there is no Wayland display ($WAYLAND_DISPLAY not set).
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else { return nil }
        self.environment = environment
        self.display = display
    }

    /// The windows, the one in front first, then the others newest first.
    public func windows() throws(Failure) -> [WaylandListedWindow] {
        try connected { (toplevels) throws(WaylandError) in
            let listed = Self.named(toplevels.list.toplevels).map { name, w in
                WaylandListedWindow(id: name, appClass: w.appID, title: w.title, focused: w.activated, minimised: w.minimized)
            }
            return listed.filter(\.focused) + listed.filter { !$0.focused }.reversed()
        }
    }

    /// Brings the window to the front; false when it is gone (or there is no seat).
    public func activate(_ id: String) throws(Failure) -> Bool {
        try connected { (toplevels) throws(WaylandError) in
            guard let window = Self.find(id, in: toplevels), toplevels.activate(window) else { return false }
            try toplevels.connection.roundtrip(timeout: 2)
            return window.activated
        }
    }

    /// Minimises the window; false when it is gone, or the compositor did not minimise it.
    public func minimise(_ id: String) throws(Failure) -> Bool {
        try connected { (toplevels) throws(WaylandError) in
            guard let window = Self.find(id, in: toplevels) else { return false }
            toplevels.setMinimized(window, true)
            try toplevels.connection.roundtrip(timeout: 2)
            return window.minimized
        }
    }

    /// Shows a minimised window again behind the window in front, which keeps the focus; false
    /// when it is gone or is not minimised any more (the person brought it back).
    public func unminimise(_ id: String) throws(Failure) -> Bool {
        try connected { (toplevels) throws(WaylandError) in
            guard let window = Self.find(id, in: toplevels), window.minimized else { return false }
            let front = toplevels.active
            toplevels.setMinimized(window, false)
            try toplevels.connection.roundtrip(timeout: 2)
            if let front, front !== window {
                _ = toplevels.activate(front)
                try toplevels.connection.roundtrip(timeout: 2)
            }
            return !window.minimized
        }
    }

    /// Each window with its name ("2 org.example.Videos").
    private static func named(_ windows: [ToplevelList.Toplevel]) -> [(String, ToplevelList.Toplevel)] {
        var seen: [String: Int] = [:]
        return windows.map { w in
            let n = seen[w.appID, default: 0]
            seen[w.appID] = n + 1
            return ("\(n) \(w.appID)", w)
        }
    }

    private static func find(_ id: String, in toplevels: ForeignToplevels) -> ToplevelList.Toplevel? {
        named(toplevels.list.toplevels).first { $0.0 == id }?.1
    }

    private func connected<T>(_ body: (ForeignToplevels) throws(WaylandError) -> T) throws(Failure) -> T {
        do {
            let connection = try WaylandConnection(display: nil, timeout: 5, environment: environment)
            guard let toplevels = try ForeignToplevels(on: connection, timeout: 5) else {
                throw Failure(description: "the Wayland compositor at \(display) does not list its windows (no wlr-foreign-toplevel-management)")
            }
            return try body(toplevels)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the Wayland compositor at \(display): \(error)")
        }
    }
}
