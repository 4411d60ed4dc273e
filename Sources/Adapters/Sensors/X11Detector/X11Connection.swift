import CXCB
import DetectorSupport
import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to an X server. Owns the `xcb_connection_t` and closes it in `deinit`.
///
/// Used from the one thread of the detector that made it. Requests that need a reply are made
/// and answered one at a time (the detectors ask little, rarely); events are read without
/// blocking after `wait` says the socket is readable; `wait` also wakes when the session stops.
final class X11Connection {
    let connection: OpaquePointer
    let root: xcb_window_t
    /// The display as the person knows it (`:0`): the name passed in, or $DISPLAY.
    let displayName: String

    /// Connects to `display`, or to $DISPLAY when it is nil.
    init(display: String?) throws(XCBError) {
        displayName = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        // libxcb is opened now, not at Vigil's start (CSensorLibraries).
        if let problem = SensorLibrary.open([(.xcb, vigil_load_libxcb), (.xcbScreensaver, vigil_load_libxcb_screensaver)]) {
            throw .library(problem)
        }
        var screen: Int32 = 0
        // xcb_connect never returns NULL: a failed connection is an object in an error state.
        let c = xcb_connect(display, &screen)!
        if let error = XCBError.check(c) {
            xcb_disconnect(c)
            throw error
        }
        connection = c
        root = vigil_xcb_root(c, screen)
    }

    deinit { xcb_disconnect(connection) }

    /// Nil while the connection is healthy; the reason once the server has gone.
    var failure: XCBError? { XCBError.check(connection) }

    /// The MIT-SCREEN-SAVER extension's first event code, nil when the server lacks it.
    var screenSaverFirstEvent: UInt8? {
        var first: UInt8 = 0
        return vigil_xcb_screensaver_present(connection, &first) ? first : nil
    }

    /// The atom named `name`, made if the server does not know it yet; XCB_ATOM_NONE on failure.
    /// Kept once known: an atom lives as long as the server.
    func atom(_ name: String) -> xcb_atom_t {
        if let known = atoms[name] { return known }
        let cookie = xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return xcb_atom_t(XCB_ATOM_NONE.rawValue) }
        defer { free(reply) }
        atoms[name] = reply.pointee.atom
        return reply.pointee.atom
    }
    private var atoms: [String: xcb_atom_t] = [:]

    /// A property's type and bytes (at most `maxBytes`); nil when the window has no such property
    /// or is gone.
    func property(_ window: xcb_window_t, _ atom: xcb_atom_t, maxBytes: UInt32 = 4096) -> (type: xcb_atom_t, bytes: [UInt8])? {
        let cookie = xcb_get_property(connection, 0, window, atom, xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0, (maxBytes + 3) / 4)
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(connection, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != XCB_ATOM_NONE.rawValue else { return nil }
        let length = Int(xcb_get_property_value_length(reply))
        let value = xcb_get_property_value(reply)!.assumingMemoryBound(to: UInt8.self)
        return (reply.pointee.type, Array(UnsafeBufferPointer(start: value, count: length)))
    }

    /// The 32-bit values of a WINDOW, ATOM or CARDINAL property, host byte order.
    func property32(_ window: xcb_window_t, _ atom: xcb_atom_t, maxBytes: UInt32 = 4096) -> [UInt32] {
        guard let (_, bytes) = property(window, atom, maxBytes: maxBytes) else { return [] }
        return stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            bytes[i..<i + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        }
    }

    /// WM_CLASS is "instance\0class\0": the class, the second string. Empty when the window has none.
    func appClass(of window: xcb_window_t) -> String {
        guard let (_, bytes) = property(window, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue)) else { return "" }
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    }

    /// `_NET_WM_NAME`, which should be UTF8_STRING but is STRING holding UTF-8 from some tools
    /// (xdotool), else `WM_NAME`, STRING in Latin-1 (COMPOUND_TEXT is read as UTF-8, near enough
    /// for matching on ASCII words).
    func title(of window: xcb_window_t) -> String? {
        if let (type, bytes) = property(window, atom("_NET_WM_NAME")), type == atom("UTF8_STRING") || type == XCB_ATOM_STRING.rawValue {
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let (type, bytes) = property(window, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue)) else { return nil }
        let text = bytes.prefix { $0 != 0 }
        if type == XCB_ATOM_STRING.rawValue { return String(text.map { Character(Unicode.Scalar($0)) }) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Selects `mask` (XCB_EVENT_MASK_*) on `window` for this client. A window that is gone
    /// answers with an error event, which `drainEvents` drops.
    func select(_ window: xcb_window_t, mask: UInt32) {
        _ = vigil_xcb_select_events(connection, window, mask)
        _ = xcb_flush(connection)
    }

    /// The screen saver's state (`XCB_SCREENSAVER_STATE_*`) and the milliseconds since the last
    /// input; nil when the connection is gone.
    func screenSaverInfo() -> (state: UInt8, idleMilliseconds: UInt32)? {
        let cookie = xcb_screensaver_query_info(connection, root)
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_screensaver_query_info_reply(connection, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        return (reply.pointee.state, reply.pointee.ms_since_user_input)
    }

    /// Waits until the server has sent something, `stop` is readable (the session stops) or
    /// `seconds` have passed.
    func wait(seconds: Double, stop: Int32) {
        waitReadable(xcb_get_file_descriptor(connection), orStop: stop, seconds: seconds)
    }

    /// Hands every event already received to `handle` and frees it; X errors (code 0) of requests
    /// made without a reply, such as selecting events on a window that has just closed, are dropped.
    func drainEvents(_ handle: (UnsafeMutablePointer<xcb_generic_event_t>) -> Void) {
        while let event = xcb_poll_for_event(connection) {
            defer { free(event) }
            if vigil_xcb_event_code(event) != 0 { handle(event) }
        }
    }
}

extension X11Connection {
    /// The loop of a detector on an X display: connects to `display`, hands the connection to
    /// `use` and, when `use` returns, reconnects with a growing delay, until the session stops.
    ///
    /// `use` returns nil once the connection broke (or the session stopped) after it had
    /// worked: reported as a loss, and the waits start again from the first. It returns a
    /// sentence when the display is of no use to it (no extension), reported as the failure.
    /// Failing to connect at all is reported with the remedy. Runs with SIGPIPE blocked on the
    /// detector's thread (see `withSIGPIPEBlocked`).
    static func keepConnected(
        display: String?, retry: Backoff, _ context: DetectorContext, use: (X11Connection) -> String?
    ) {
        withSIGPIPEBlocked {
            context.keepConnecting(retry: retry) {
                do throws(XCBError) {
                    let x = try X11Connection(display: display)
                    if let problem = use(x) { return .failed(problem) }
                    return .lost("lost the X display \(x.displayName) (\(x.failure?.description ?? "no answer")); reconnecting")
                } catch {
                    return .failed(cannotConnect(display: display, error))
                }
            }
        }
    }

    private static func cannotConnect(display: String?, _ error: XCBError) -> String {
        let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"]
        guard let name, !name.isEmpty else {
            return "no X display: $DISPLAY is not set (not an X11 session, or started outside it). "
                + "On Wayland set desktop.backend to gnome or freedesktop. Retrying."
        }
        return "cannot connect to the X display \(name) (\(error)); is the X server running and is $XAUTHORITY set? Retrying."
    }
}

/// Runs `body` with SIGPIPE blocked on the calling thread, so a write to an X server that has gone
/// fails with EPIPE (a connection error XCB reports) instead of ending the process.
///
/// libxcb writes with plain `writev`/`sendmsg`, without MSG_NOSIGNAL, and leaves SIGPIPE to the
/// program; a detector must not depend on the process ignoring it (`vigil start` does, a probe
/// from another command may not). SIGPIPE from a write goes to the writing thread, so blocking it
/// there is enough; one left pending is taken before the mask is put back.
func withSIGPIPEBlocked<T>(_ body: () -> T) -> T {
    var pipe = sigset_t()
    var previous = sigset_t()
    sigemptyset(&pipe)
    sigaddset(&pipe, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipe, &previous)
    defer {
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1, sigismember(&previous, SIGPIPE) == 0 {
            var none = timespec()
            _ = sigtimedwait(&pipe, nil, &none)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    return body()
}

/// What an X display offers Vigil, for choosing a backend before starting a session.
public struct X11Probe: Sendable, Equatable {
    /// The display name tried (`:0`); empty when none was given and $DISPLAY is not set.
    public var display: String
    /// A connection was made.
    public var reachable: Bool
    /// The server has MIT-SCREEN-SAVER: `X11IdleDetector` works.
    public var screenSaver: Bool
    /// The window manager announces `_NET_ACTIVE_WINDOW` in `_NET_SUPPORTED` (EWMH): `X11FocusDetector`
    /// works. False when no EWMH window manager runs (yet).
    public var activeWindow: Bool
    /// The i3 IPC socket the root window names (`I3_SOCKET_PATH`), when i3 runs on this display.
    public var i3Socket: String?
    /// Why not, in a sentence, when the display was not reachable.
    public var problem: String?
}

/// Reading an X display without a detector: what it offers, and i3's socket.
public enum X11Display {
    /// Connects to `display` (or $DISPLAY), looks and disconnects. Takes a few milliseconds.
    public static func probe(display: String? = nil) -> X11Probe {
        withSIGPIPEBlocked { look(display: display) }
    }

    private static func look(display: String?) -> X11Probe {
        let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        var probe = X11Probe(display: name, reachable: false, screenSaver: false, activeWindow: false)
        guard !name.isEmpty else {
            probe.problem = "no X display: $DISPLAY is not set"
            return probe
        }
        let x: X11Connection
        do {
            x = try X11Connection(display: display)
        } catch {
            probe.problem = "cannot connect to the X display \(name): \(error)"
            return probe
        }
        probe.reachable = true
        probe.screenSaver = x.screenSaverFirstEvent != nil
        let active = x.atom("_NET_ACTIVE_WINDOW")
        probe.activeWindow = x.property32(x.root, x.atom("_NET_SUPPORTED")).contains(active)
        probe.i3Socket = x.property(x.root, x.atom("I3_SOCKET_PATH")).map { String(decoding: $0.bytes.prefix { $0 != 0 }, as: UTF8.self) }
        return probe
    }
}
