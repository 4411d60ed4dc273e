import CWayland
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The Wayland protocols that tell a client when the seat has been idle for a while.
public enum WaylandIdleProtocol: String, Sendable, CaseIterable {
    /// `ext-idle-notify-v1` (wayland-protocols staging): sway 1.8 and later, KWin 5.27 and later,
    /// Hyprland, labwc, niri. Preferred where both are offered.
    case extIdleNotify = "ext-idle-notify-v1"
    /// KDE's `org_kde_kwin_idle`: KWin, and wlroots compositors up to wlroots 0.17 (sway 1.7).
    case kdeIdle = "org_kde_kwin_idle"

    /// The registry's interface name of the protocol's manager.
    var managerInterface: String {
        switch self {
        case .extIdleNotify: "ext_idle_notifier_v1"
        case .kdeIdle: "org_kde_kwin_idle"
        }
    }

    /// The protocol a compositor with these globals is read through: ext-idle-notify-v1 first.
    static func best(in globals: WaylandConnection.Globals) -> WaylandIdleProtocol? {
        allCases.first { globals.offers($0.managerInterface) }
    }
}

/// Whether the seat is idle, as the compositor's idle notification last said, and since when.
final class IdleState {
    /// CLOCK_MONOTONIC seconds at the idle event; nil while the person is active.
    private(set) var idleSince: Double?
    /// Set by an event, cleared by the reader: the state changed since the last reading.
    var changed = false

    func becameIdle() {
        idleSince = monotonicSeconds()
        changed = true
    }

    func resumed() {
        idleSince = nil
        changed = true
    }

    /// The listeners' user data back to the state.
    static func from(_ data: UnsafeMutableRawPointer?) -> IdleState? {
        data.map { Unmanaged<IdleState>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// One idle notification on a connection's first seat: the compositor sends "idle" once the seat
/// has had no input for `threshold` seconds, and "resumed" at the next input. Owns the seat, the
/// protocol's manager and the notification, and destroys them in `deinit` (before the connection,
/// which it keeps).
final class IdleNotification {
    let connection: WaylandConnection
    let idleProtocol: WaylandIdleProtocol
    let state = IdleState()
    private let seat: OpaquePointer
    private let manager: OpaquePointer
    private let notification: OpaquePointer
    private let extListener: UnsafeMutablePointer<ext_idle_notification_v1_listener>
    private let kdeListener: UnsafeMutablePointer<org_kde_kwin_idle_timeout_listener>

    /// Asks for an idle notification after `threshold` seconds through the best protocol the
    /// compositor offers (or through `only`), and waits (at most `timeout` s) until the compositor
    /// has taken the request. Nil when the compositor offers no wl_seat or no such protocol.
    init?(on connection: WaylandConnection, threshold: Double, timeout: Double, only: WaylandIdleProtocol? = nil) throws(WaylandError) {
        let globals = connection.globals
        let offered: WaylandIdleProtocol? =
            if let only { globals.offers(only.managerInterface) ? only : nil } else { WaylandIdleProtocol.best(in: globals) }
        guard let chosen = offered, let seatName = globals.first("wl_seat"),
            let managerName = globals.first(chosen.managerInterface), let seat = vigil_wl_bind_seat(connection.registry, seatName)
        else { return nil }
        let milliseconds = UInt32(max(1, min(Double(UInt32.max), (threshold * 1000).rounded())))
        // libwayland keeps the listeners' addresses: they live as long as this object.
        let onExt = UnsafeMutablePointer<ext_idle_notification_v1_listener>.allocate(capacity: 1)
        onExt.initialize(
            to: ext_idle_notification_v1_listener(
                idled: { data, _ in IdleState.from(data)?.becameIdle() }, resumed: { data, _ in IdleState.from(data)?.resumed() }))
        let onKDE = UnsafeMutablePointer<org_kde_kwin_idle_timeout_listener>.allocate(capacity: 1)
        onKDE.initialize(
            to: org_kde_kwin_idle_timeout_listener(
                idle: { data, _ in IdleState.from(data)?.becameIdle() }, resumed: { data, _ in IdleState.from(data)?.resumed() }))
        let data = Unmanaged.passUnretained(state).toOpaque()
        let made: (manager: OpaquePointer, notification: OpaquePointer)?
        switch chosen {
        case .extIdleNotify:
            made = vigil_wl_bind_ext_idle_notifier(connection.registry, managerName).flatMap { notifier in
                guard let n = ext_idle_notifier_v1_get_idle_notification(notifier, milliseconds, seat) else {
                    ext_idle_notifier_v1_destroy(notifier)
                    return nil
                }
                ext_idle_notification_v1_add_listener(n, onExt, data)
                return (notifier, n)
            }
        case .kdeIdle:
            made = vigil_wl_bind_kde_idle(connection.registry, managerName).flatMap { idle in
                guard let n = org_kde_kwin_idle_get_idle_timeout(idle, seat, milliseconds) else {
                    org_kde_kwin_idle_destroy(idle)
                    return nil
                }
                org_kde_kwin_idle_timeout_add_listener(n, onKDE, data)
                return (idle, n)
            }
        }
        guard let made else {
            // Only out of memory gets here: libwayland allocates the proxy before sending.
            wl_seat_destroy(seat)
            onExt.deallocate()
            onKDE.deallocate()
            throw connection.failure ?? .broken(errno: ENOMEM)
        }
        extListener = onExt
        kdeListener = onKDE
        self.connection = connection
        idleProtocol = chosen
        self.seat = seat
        manager = made.manager
        notification = made.notification
        connection.bound(seatName, "wl_seat")
        connection.bound(managerName, chosen.managerInterface)
        try connection.roundtrip(timeout: timeout)
    }

    /// Tells the compositor that the person is active, as input on the seat would: KDE's
    /// `simulate_user_activity` (ext-idle-notify-v1 has no such request; false there). The
    /// detector never calls it; the tests make activity with it on a compositor that takes no
    /// other input from a client (KWin's virtual backend).
    func simulateUserActivity() -> Bool {
        guard idleProtocol == .kdeIdle else { return false }
        org_kde_kwin_idle_timeout_simulate_user_activity(notification)
        return wl_display_flush(connection.display) >= 0
    }

    deinit {
        switch idleProtocol {
        case .extIdleNotify:
            ext_idle_notification_v1_destroy(notification)
            ext_idle_notifier_v1_destroy(manager)
        case .kdeIdle:
            org_kde_kwin_idle_timeout_release(notification)
            org_kde_kwin_idle_destroy(manager)
        }
        wl_seat_destroy(seat)
        // The destructor requests reach the compositor before the connection closes; a broken
        // connection just drops them.
        _ = wl_display_flush(connection.display)
        extListener.deallocate()
        kdeListener.deallocate()
    }
}
