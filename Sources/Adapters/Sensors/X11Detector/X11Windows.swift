import CXCB
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A window of an X11 window manager, as the window actions see it: its id, class, title (for the
/// rules only) and state.
public struct X11Window: Sendable, Equatable {
    public var id: UInt32
    public var appClass: String
    public var title: String?
    public var focused: Bool
    /// Minimised (ICCCM's IconicState).
    public var iconic: Bool
}

/// The windows of an EWMH window manager on an X display, and what a pager may ask of it (issue
/// 36's window actions on X11): focus a window (`_NET_ACTIVE_WINDOW`), minimise one (ICCCM's
/// `WM_CHANGE_STATE` to IconicState) and show it again. Nothing is closed, killed or moved to
/// another desktop; the window manager does each, as it does for a taskbar.
///
/// Each call connects, asks and disconnects: the actions are rare, and a connection kept open
/// would have to be watched for the server going away.
public final class X11Windows: Sendable {
    /// The display as the person knows it (`:0`).
    public let display: String

    /// Nil when `display` (or $DISPLAY) names none.
    public init?(display: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let name = display ?? environment["DISPLAY"], !name.isEmpty else { return nil }
        self.display = name
    }

    /// The window manager's name, as it announces itself to EWMH (`_NET_SUPPORTING_WM_CHECK`'s
    /// `_NET_WM_NAME`: "Openbox", "Xfwm4"); nil when no EWMH window manager runs.
    public func windowManager() throws(XCBError) -> String? {
        try connected { x in
            guard let check = x.property32(x.root, x.atom("_NET_SUPPORTING_WM_CHECK")).first, check != 0 else { return nil }
            return x.title(of: check)
        }
    }

    /// The managed windows, the top of the stack first (for a window manager that raises what it
    /// focuses, the most recently used first), minimised ones included.
    public func windows(readTitles: Bool) throws(XCBError) -> [X11Window] {
        try connected { x in
            let active = x.property32(x.root, x.atom("_NET_ACTIVE_WINDOW")).first ?? 0
            let wmState = x.atom("WM_STATE")
            return x.property32(x.root, x.atom("_NET_CLIENT_LIST_STACKING"), maxBytes: 65536).reversed().map { id in
                X11Window(
                    id: id, appClass: x.appClass(of: id), title: readTitles ? x.title(of: id) : nil, focused: id == active,
                    iconic: x.property32(id, wmState).first == iconicState)
            }
        }
    }

    /// Asks the window manager to focus `window` (and show it, raised, on its desktop), and waits
    /// (up to a second) until it has.
    public func activate(_ window: UInt32) throws(XCBError) {
        let done: Bool = try connected { x in
            activate(window, on: x)
            return waitUntil { x.property32(x.root, x.atom("_NET_ACTIVE_WINDOW")).first == window }
        }
        guard done else { throw .refused("the window manager did not bring the window to the front") }
    }

    /// Asks the window manager to minimise `window`, and waits (up to a second) until it has: a
    /// window manager without icons (some tiling ones) ignores the request, and that is said.
    public func minimise(_ window: UInt32) throws(XCBError) {
        let done: Bool = try connected { x in
            let active = x.atom("_NET_ACTIVE_WINDOW")
            let wasActive = x.property32(x.root, active).first == window
            _ = vigil_xcb_send_client_message(x.connection, x.root, window, x.atom("WM_CHANGE_STATE"), iconicState, 0, 0)
            _ = xcb_flush(x.connection)
            // Minimised, and (when it had the focus) the focus given to another window: a window
            // manager moves the focus when the server tells it the window lost it, after the state
            // changed, and a window focused before that would lose the focus to its choice.
            return waitUntil { state(of: window, on: x) != normalState && (!wasActive || x.property32(x.root, active).first != window) }
        }
        guard done else { throw .refused("the window manager did not minimise the window (it may not minimise windows)") }
    }

    /// Shows a minimised window again behind the window in front, which keeps the focus. False
    /// when the window is gone, is another application's now (ids are reused), or is not
    /// minimised any more (the person brought it back).
    public func unminimise(_ window: UInt32, appClass: String) throws(XCBError) -> Bool {
        try connected { x in
            guard state(of: window, on: x) == iconicState, x.appClass(of: window) == appClass else { return false }
            let front = x.property32(x.root, x.atom("_NET_ACTIVE_WINDOW")).first ?? 0
            // EWMH's way to show a minimised window is to activate it; the window the person is on
            // is activated again at once, and so stays in front with the focus.
            // The second waits until the first is done: a window manager focuses a window it
            // shows again once it is mapped, which would otherwise come after.
            let active = x.atom("_NET_ACTIVE_WINDOW")
            activate(window, on: x)
            _ = waitUntil { state(of: window, on: x) != iconicState && x.property32(x.root, active).first == window }
            if front != 0, front != window {
                activate(front, on: x)
                _ = waitUntil { x.property32(x.root, active).first == front }
            }
            return true
        }
    }

    /// The window's ICCCM state (1 normal, 3 iconic); nil when it is gone or unmanaged.
    public func state(of window: UInt32) throws(XCBError) -> UInt32? {
        try connected { x in state(of: window, on: x) }
    }

    private func state(of window: UInt32, on x: X11Connection) -> UInt32? {
        x.property32(window, x.atom("WM_STATE")).first
    }

    /// `_NET_ACTIVE_WINDOW` from a pager (source indication 2), which window managers honour
    /// without focus-stealing checks.
    private func activate(_ window: UInt32, on x: X11Connection) {
        let current = x.property32(x.root, x.atom("_NET_ACTIVE_WINDOW")).first ?? 0
        _ = vigil_xcb_send_client_message(x.connection, x.root, window, x.atom("_NET_ACTIVE_WINDOW"), 2, 0, current)
        _ = xcb_flush(x.connection)
    }

    /// Polls `done` every 10 ms for up to a second: the window manager answers a client message
    /// when it gets to it, and says nothing back.
    private func waitUntil(_ done: () -> Bool) -> Bool {
        for _ in 0..<100 {
            if done() { return true }
            usleep(10_000)
        }
        return done()
    }

    private func connected<T>(_ body: (X11Connection) throws(XCBError) -> T) throws(XCBError) -> T {
        let result: Result<T, XCBError> = withSIGPIPEBlocked {
            do throws(XCBError) {
                let x = try X11Connection(display: display)
                let value = try body(x)
                if let failure = x.failure { return .failure(failure) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// ICCCM's WM_STATE values.
private let normalState: UInt32 = 1
private let iconicState: UInt32 = 3
