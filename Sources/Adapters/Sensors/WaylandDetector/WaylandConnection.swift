import CWayland
import DetectorSupport
import Foundation
import SystemCalls

/// One connection to a Wayland compositor, with its registry. Owns the `wl_display` (and the
/// socket under it) and disconnects in `deinit`.
///
/// Used from the one thread that made it. Connecting is Vigil's own `connect` on the socket, handed
/// to libwayland with `wl_display_connect_to_fd`, rather than `wl_display_connect`: that one first
/// takes $WAYLAND_SOCKET (a descriptor a compositor passes to a child it started) whatever name it
/// is given, and unsets it, so a probe would use up a descriptor that was never Vigil's; and its
/// failure says only NULL, where `connect` says which path and why.
///
/// Events are read the way libwayland asks of a program that polls the socket itself:
/// `wl_display_prepare_read`, flush, `poll` (with the session's stop pipe), then
/// `wl_display_read_events` or `wl_display_cancel_read`, then `wl_display_dispatch_pending`, which
/// calls the listeners on this thread.
final class WaylandConnection {
    let display: OpaquePointer
    /// The display as the person named it (`wayland-1`, or a path).
    let displayName: String
    /// Readable once the session stops; -1 for none (a probe).
    let stop: Int32
    let registry: OpaquePointer
    /// The compositor's globals as the registry announced them; the listeners write here.
    let globals = Globals()
    private let registryListener: UnsafeMutablePointer<wl_registry_listener>

    /// What the registry announced: each global's name (its number) and interface. Vigil binds
    /// every global at version 1, which each one has.
    final class Globals {
        var announced: [(name: UInt32, interface: String)] = []
        /// The names Vigil has bound, to notice their removal.
        var bound: [UInt32: String] = [:]
        /// The interface of a bound global the compositor has withdrawn.
        var withdrawn: String?

        /// The first global of `interface`, by its name.
        func first(_ interface: String) -> UInt32? { announced.first { $0.interface == interface }?.name }
        func offers(_ interface: String) -> Bool { first(interface) != nil }
    }

    /// Connects to `display`, or to $WAYLAND_DISPLAY when it is nil, and reads the registry
    /// (waiting at most `timeout` seconds for the compositor to answer). `environment` is where
    /// $WAYLAND_DISPLAY and $XDG_RUNTIME_DIR are read: the process's unless a test gives another.
    init(display: String?, timeout: Double, stop: Int32 = -1, environment: [String: String]? = nil) throws(WaylandError) {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let name = try Self.displayName(display, environment)
        let path = try Self.socketPath(name, environment)
        let fd: Int32
        do {
            fd = try connectUnixSocket(path)
        } catch { throw .connect(error) }
        // Takes the descriptor: closes it when it fails, and at wl_display_disconnect.
        guard let display = wl_display_connect_to_fd(fd) else {
            throw .connect(SystemError.current(call: "wl_display_connect_to_fd", path: path))
        }
        guard let registry = wl_display_get_registry(display) else {
            let error = WaylandError.check(display) ?? .broken(errno: ENOMEM)
            wl_display_disconnect(display)
            throw error
        }
        self.display = display
        displayName = name
        self.stop = stop
        self.registry = registry
        registryListener = .allocate(capacity: 1)
        registryListener.initialize(
            to: wl_registry_listener(
                global: { data, _, name, interface, _ in
                    guard let data, let interface else { return }
                    Unmanaged<Globals>.fromOpaque(data).takeUnretainedValue().announced.append((name, String(cString: interface)))
                },
                global_remove: { data, _, name in
                    guard let data else { return }
                    let globals = Unmanaged<Globals>.fromOpaque(data).takeUnretainedValue()
                    globals.announced.removeAll { $0.name == name }
                    if let interface = globals.bound[name] { globals.withdrawn = interface }
                }))
        wl_registry_add_listener(registry, registryListener, Unmanaged.passUnretained(globals).toOpaque())
        try roundtrip(timeout: timeout)
    }

    deinit {
        wl_registry_destroy(registry)
        // Closes the socket too.
        wl_display_disconnect(display)
        registryListener.deallocate()
    }

    /// Nil while the connection is healthy and every global Vigil bound is still there.
    var failure: WaylandError? {
        WaylandError.check(display) ?? globals.withdrawn.map { .withdrawn(interface: $0) }
    }

    /// Sends what is queued, waits until the compositor has sent something, the session stops or
    /// `seconds` have passed, and calls the listeners for what came. False once the connection has
    /// failed (`failure` says why).
    @discardableResult
    func wait(seconds: Double) -> Bool {
        // Events already read into the queue (by a round trip) are handed out before blocking.
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        // A full socket buffer (EAGAIN) is flushed on the next turn; a closed one (EPIPE) is left
        // for the read to find, which then also takes any error the compositor sent before closing.
        _ = wl_display_flush(display)
        if waitReadable(wl_display_get_fd(display), orStop: stop, seconds: seconds) {
            guard wl_display_read_events(display) >= 0 else { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_pending(display) >= 0
    }

    /// Waits until the compositor has handled every request sent so far (`wl_display_sync`), at most
    /// `timeout` seconds; libwayland's own `wl_display_roundtrip` would wait for ever on a compositor
    /// that hangs. Returns early, without an error, when the session stops.
    func roundtrip(timeout: Double) throws(WaylandError) {
        // libwayland keeps the listener's address: it must outlive the callback object.
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        defer { listener.deallocate() }
        listener.initialize(
            to: wl_callback_listener(done: { data, _, _ in
                guard let data else { return }
                Unmanaged<Flag>.fromOpaque(data).takeUnretainedValue().raised = true
            }))
        guard let callback = wl_display_sync(display) else { throw failure ?? .broken(errno: ENOMEM) }
        defer { wl_callback_destroy(callback) }
        let done = Flag()
        wl_callback_add_listener(callback, listener, Unmanaged.passUnretained(done).toOpaque())
        let deadline = monotonicSeconds() + timeout
        while !done.raised {
            if let failure { throw failure }
            if stop >= 0, waitReadable(stop, orStop: -1, seconds: 0) { return }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw .noAnswer(seconds: timeout) }
            guard wait(seconds: left) else { throw failure ?? .broken(errno: EPIPE) }
        }
    }

    /// Records that Vigil uses the global `name`, so that its removal ends the connection's use.
    func bound(_ name: UInt32, _ interface: String) { globals.bound[name] = interface }

    /// A flag a listener raises, passed as its user data.
    final class Flag {
        var raised = false
    }

    /// `display`, or $WAYLAND_DISPLAY.
    static func displayName(_ display: String?, _ environment: [String: String]) throws(WaylandError) -> String {
        guard let name = display ?? environment["WAYLAND_DISPLAY"], !name.isEmpty else { throw .noDisplay }
        return name
    }

    /// The socket of display `name`, as libwayland finds it: an absolute path as it is, else a
    /// name in $XDG_RUNTIME_DIR.
    static func socketPath(_ name: String, _ environment: [String: String]) throws(WaylandError) -> String {
        if name.hasPrefix("/") { return name }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw .noRuntimeDirectory(display: name)
        }
        return runtime + "/" + name
    }
}

extension WaylandConnection {
    /// The loop of a detector on a Wayland compositor: connects to `display`, hands the connection
    /// to `use` and, when `use` returns, reconnects with a growing delay, until the session stops.
    ///
    /// `use` returns nil once the connection broke (or the session stopped) after it had worked:
    /// reported as a loss, and the waits start again from the first. It returns a sentence
    /// when the compositor is of no use to it (no idle protocol), reported as the failure. Failing
    /// to connect at all is reported with the remedy.
    static func keepConnected(
        display: String?, environment: [String: String]?, retry: Backoff, _ context: DetectorContext,
        use: (WaylandConnection) -> String?
    ) {
        context.keepConnecting(retry: retry) {
            do throws(WaylandError) {
                let wayland = try WaylandConnection(display: display, timeout: 10, stop: context.stopDescriptor, environment: environment)
                if let problem = use(wayland) { return .failed(problem) }
                return .lost(
                    "lost the Wayland compositor at \(wayland.displayName) (\(wayland.failure?.description ?? "no answer")); reconnecting")
            } catch {
                return .failed(cannotConnect(display: display, environment: environment, error))
            }
        }
    }

    /// Why there is no connection, with what to do.
    static func cannotConnect(display: String?, environment: [String: String]?, _ error: WaylandError) -> String {
        switch error {
        case .noDisplay:
            "no Wayland display: $WAYLAND_DISPLAY is not set (not a Wayland session, or started outside it). "
                + "On X11 set desktop.backend to x11. Retrying."
        case .noRuntimeDirectory:
            "cannot find the Wayland compositor: \(error). Start Vigil from the desktop session, or name the socket's full path. Retrying."
        default:
            "cannot connect to the Wayland compositor at "
                + "\((try? displayName(display, environment ?? ProcessInfo.processInfo.environment)) ?? "$WAYLAND_DISPLAY") (\(error)); "
                + "is the compositor running? Retrying."
        }
    }
}
