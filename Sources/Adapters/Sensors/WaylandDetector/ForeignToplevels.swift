import CWayland
import SystemCalls

/// The toplevel windows of a wlroots compositor (sway, wayfire, labwc, river, niri…) through
/// `zwlr_foreign_toplevel_manager_v1`, the protocol taskbars use: each window's app_id, title and
/// state, which says which one is activated (in front). Owns the manager, the handles and a seat
/// (to activate a window), and destroys them in `deinit`, before the connection, which it keeps.
///
/// The compositor announces each window with a `toplevel` event, then its app_id, title and state
/// followed by `done`; later changes come the same way, ended by `done`, so a window is read only
/// at its `done` (a title and a state changed together are one change). `closed` ends a window.
final class ForeignToplevels {
    let connection: WaylandConnection
    let list = ToplevelList()
    private let manager: OpaquePointer
    private let seat: OpaquePointer?
    private let managerListener: UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>

    /// The registry's interface name of the protocol's manager.
    static let managerInterface = "zwlr_foreign_toplevel_manager_v1"

    /// Binds the manager and waits (at most `timeout` s) until the compositor has told every
    /// window there is. Nil when it offers no such manager.
    init?(on connection: WaylandConnection, timeout: Double) throws(WaylandError) {
        let globals = connection.globals
        guard let managerName = globals.first(Self.managerInterface),
            let manager = vigil_wl_bind_foreign_toplevel_manager(connection.registry, managerName)
        else { return nil }
        let listener = UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>.allocate(capacity: 1)
        listener.initialize(
            to: zwlr_foreign_toplevel_manager_v1_listener(
                toplevel: { data, _, handle in
                    guard let data, let handle else { return }
                    ToplevelList.from(data).add(handle)
                },
                finished: { data, _ in
                    guard let data else { return }
                    ToplevelList.from(data).finished = true
                }))
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, listener, Unmanaged.passUnretained(list).toOpaque())
        self.connection = connection
        self.manager = manager
        managerListener = listener
        seat = globals.first("wl_seat").flatMap { name in
            connection.bound(name, "wl_seat")
            return vigil_wl_bind_seat(connection.registry, name)
        }
        connection.bound(managerName, Self.managerInterface)
        // The first round trip brings the toplevel events, the second each one's details.
        try connection.roundtrip(timeout: timeout)
        try connection.roundtrip(timeout: timeout)
    }

    /// The window in front: the one whose state says activated; nil when none is.
    var active: ToplevelList.Toplevel? { list.toplevels.first { $0.activated } }

    /// Asks the compositor to bring the window of `appID` to the front; false when there is no
    /// such window (or no seat to activate it on).
    @discardableResult
    func activate(appID: String) -> Bool {
        guard let seat, let window = list.toplevels.first(where: { $0.appID == appID }) else { return false }
        zwlr_foreign_toplevel_handle_v1_activate(window.handle, seat)
        return wl_display_flush(connection.display) >= 0
    }

    /// Asks the compositor to bring `window` to the front; false without a seat to do it on.
    func activate(_ window: ToplevelList.Toplevel) -> Bool {
        guard let seat else { return false }
        zwlr_foreign_toplevel_handle_v1_activate(window.handle, seat)
        return wl_display_flush(connection.display) >= 0
    }

    /// Asks the compositor to minimise `window`, or to show it again.
    func setMinimized(_ window: ToplevelList.Toplevel, _ minimized: Bool) {
        if minimized {
            zwlr_foreign_toplevel_handle_v1_set_minimized(window.handle)
        } else {
            zwlr_foreign_toplevel_handle_v1_unset_minimized(window.handle)
        }
        _ = wl_display_flush(connection.display)
    }

    deinit {
        for window in list.toplevels { zwlr_foreign_toplevel_handle_v1_destroy(window.handle) }
        // A manager is stopped politely; its `finished` would come after the connection is gone.
        if !list.finished { zwlr_foreign_toplevel_manager_v1_stop(manager) }
        zwlr_foreign_toplevel_manager_v1_destroy(manager)
        if let seat { wl_seat_destroy(seat) }
        _ = wl_display_flush(connection.display)
        managerListener.deallocate()
        list.releaseAll()
    }
}

/// The windows the compositor has told of, as its events say them; the listeners write here.
final class ToplevelList {
    /// One window: what its last `done` said, and what has come since.
    final class Toplevel {
        let handle: OpaquePointer
        unowned let list: ToplevelList
        var appID = ""
        var title = ""
        var activated = false
        var minimized = false
        fileprivate var pending = (appID: String?.none, title: String?.none, activated: Bool?.none, minimized: Bool?.none)

        init(handle: OpaquePointer, list: ToplevelList) {
            self.handle = handle
            self.list = list
        }

        /// The listener's user data back to the window.
        static func from(_ data: UnsafeMutableRawPointer) -> Toplevel { Unmanaged<Toplevel>.fromOpaque(data).takeUnretainedValue() }
    }

    private(set) var toplevels: [Toplevel] = []
    /// Set at each `done` or `closed`, cleared by the reader: something may have changed.
    var changed = false
    /// The compositor is done with the manager (it sends no more windows).
    var finished = false
    private let handleListener: UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener>

    init() {
        handleListener = .allocate(capacity: 1)
        handleListener.initialize(
            to: zwlr_foreign_toplevel_handle_v1_listener(
                title: { data, _, title in
                    guard let data else { return }
                    Toplevel.from(data).pending.title = title.map { String(cString: $0) } ?? ""
                },
                app_id: { data, _, appID in
                    guard let data else { return }
                    Toplevel.from(data).pending.appID = appID.map { String(cString: $0) } ?? ""
                },
                output_enter: { _, _, _ in }, output_leave: { _, _, _ in },
                state: { data, _, states in
                    guard let data else { return }
                    let window = Toplevel.from(data)
                    window.pending.activated = ToplevelList.contains(states, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue)
                    window.pending.minimized = ToplevelList.contains(states, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED.rawValue)
                },
                done: { data, _ in
                    guard let data else { return }
                    let window = Toplevel.from(data)
                    if let appID = window.pending.appID { window.appID = appID }
                    if let title = window.pending.title { window.title = title }
                    if let activated = window.pending.activated { window.activated = activated }
                    if let minimized = window.pending.minimized { window.minimized = minimized }
                    window.pending = (nil, nil, nil, nil)
                    window.list.changed = true
                },
                closed: { data, _ in
                    guard let data else { return }
                    Toplevel.from(data).list.remove(Toplevel.from(data))
                }))
    }

    deinit { handleListener.deallocate() }

    /// The manager's user data back to the list.
    static func from(_ data: UnsafeMutableRawPointer) -> ToplevelList { Unmanaged<ToplevelList>.fromOpaque(data).takeUnretainedValue() }

    /// A new window: its handle gets the listener, with the window (retained here) as user data.
    func add(_ handle: OpaquePointer) {
        let window = Toplevel(handle: handle, list: self)
        toplevels.append(window)
        zwlr_foreign_toplevel_handle_v1_add_listener(handle, handleListener, Unmanaged.passRetained(window).toOpaque())
    }

    /// A closed window: its handle destroyed, the reference its listener held given back.
    func remove(_ window: Toplevel) {
        guard let index = toplevels.firstIndex(where: { $0 === window }) else { return }
        toplevels.remove(at: index)
        zwlr_foreign_toplevel_handle_v1_destroy(window.handle)
        Unmanaged.passUnretained(window).release()
        changed = true
    }

    /// Gives back the references the listeners held (the handles are destroyed by the owner).
    func releaseAll() {
        for window in toplevels { Unmanaged.passUnretained(window).release() }
        toplevels.removeAll()
    }

    /// Whether a `state` array (uint32 values) holds `value`.
    static func contains(_ states: UnsafeMutablePointer<wl_array>?, _ value: UInt32) -> Bool {
        guard let states, let data = states.pointee.data else { return false }
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        let values = data.bindMemory(to: UInt32.self, capacity: count)
        return (0..<count).contains { values[$0] == value }
    }
}
