import DBusSupport
import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// GNOME's idle time and screen lock from the session bus: Mutter's `org.gnome.Mutter.IdleMonitor`
/// (X11 and Wayland alike) and GNOME Shell's `org.gnome.ScreenSaver`. No special group needed.
///
/// Event-driven, no polling (interfaces as in Mutter's
/// data/dbus-interfaces/org.gnome.Mutter.IdleMonitor.xml and GNOME Shell's
/// data/dbus-interfaces/org.gnome.ScreenSaver.xml):
/// - `GetIdletime()` (ms) once at the start, emitted as `.idle(seconds)`.
/// - An idle watch (`AddIdleWatch(interval)`, which fires `WatchFired(id)` each time the person
///   has been idle for `interval` in a row) → `.idle(GetIdletime())`.
/// - A user-active watch (`AddUserActiveWatch()`, fired once at the next input, then gone) →
///   `.idle(0)`, and armed again `interval` later. Re-arming matters while the person works
///   without a pause as long as `interval`: the idle watch then never fires, and without a fresh
///   `.idle(0)` now and then the core would take the silence for absence.
/// - `GetActive()` at the start and `ActiveChanged(b)` → `.locked` / `.unlocked`.
///
/// The interval is `max(desktop.poll, 1 s)`. It is how stale the idle time may be, as the poll is
/// for the polled backends: the idle watch reports a pause once it is `interval` long, and during
/// steady input at most one `.idle(0)` per interval is sent. The away decision works in minutes,
/// so a second is plenty; a shorter interval would wake Vigil and the compositor at every pause
/// between keystrokes for nothing.
///
/// Whether a lock counts as away is the core's business (`desktop.lockIsAway`): this only reports.
public final class GnomeIdleDetector: Detector, Sendable {
    public let sensor = SensorKind.desktop
    /// The session bus address; nil is the environment's (see `MessageBus.address`).
    public let busAddress: String?
    /// The watch interval in seconds (see the type's notes).
    public let interval: Double
    private let retry: Backoff

    static let monitor = "org.gnome.Mutter.IdleMonitor"
    static let monitorPath = "/org/gnome/Mutter/IdleMonitor/Core"
    static let screenSaver = "org.gnome.ScreenSaver"
    static let screenSaverPath = "/org/gnome/ScreenSaver"

    public init(
        config: VigilConfiguration.Desktop = .init(), busAddress: String? = nil, retry: Backoff = .reconnect
    ) {
        self.busAddress = busAddress
        interval = max(config.poll, 1)
        self.retry = retry
    }

    /// Whether GNOME's idle monitor answers on the session bus.
    public static func probe(busAddress: String? = nil) -> Bool {
        guard let bus = try? BusConnection(.session, address: busAddress), (try? bus.nameHasOwner(monitor)) == true else { return false }
        return (try? bus.call(monitor, monitorPath, monitor, "GetIdletime", timeout: 2).first?.unsigned) != nil
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .desktop, threadName: "vigil-gnome-idle") { [self] context in
            runBusWatch(
                context, bus: .session, address: busAddress, retry: retry, what: "GNOME's idle monitor",
                remedy: "Is this a GNOME session? Set desktop.backend to freedesktop or x11 for other desktops."
            ) { bus, context throws(DBusFailure) in
                try watch(bus, context)
            }
        }
    }

    private func idleSeconds(_ bus: BusConnection) throws(DBusFailure) -> Double {
        guard let ms = try bus.call(Self.monitor, Self.monitorPath, Self.monitor, "GetIdletime").first?.unsigned else {
            throw DBusFailure(.badReply, "GetIdletime answered without a uint64")
        }
        return Double(ms) / 1000
    }

    private func addWatch(_ bus: BusConnection, _ method: String, _ arguments: [DBusValue] = []) throws(DBusFailure) -> UInt32 {
        guard let id = try bus.call(Self.monitor, Self.monitorPath, Self.monitor, method, arguments).first?.unsigned else {
            throw DBusFailure(.badReply, "\(method) answered without a watch id")
        }
        return UInt32(truncatingIfNeeded: id)
    }

    /// The screen saver's state, or why there is none (GNOME Shell not running, another locker).
    private func screenSaverActive(_ bus: BusConnection) throws(DBusFailure) -> (active: Bool?, note: String) {
        do {
            let active = try bus.call(Self.screenSaver, Self.screenSaverPath, Self.screenSaver, "GetActive").first?.bool
            return (active, "lock from org.gnome.ScreenSaver")
        } catch  where error.kind == .noService || error.kind == .remote {
            return (nil, "no lock from org.gnome.ScreenSaver (\(error.message))")
        }
    }

    private func watch(_ bus: BusConnection, _ context: DetectorContext) throws(DBusFailure) {
        guard try bus.nameHasOwner(Self.monitor) else {
            throw DBusFailure(.noService, "nothing owns \(Self.monitor) on the session bus (GNOME Shell/Mutter not running)")
        }
        try bus.addMatch(
            "type='signal',sender='\(Self.monitor)',path='\(Self.monitorPath)',interface='\(Self.monitor)',member='WatchFired'")
        try bus.addMatch(
            "type='signal',sender='\(Self.screenSaver)',path='\(Self.screenSaverPath)',interface='\(Self.screenSaver)',member='ActiveChanged'")
        try bus.addMatch(ownerChangedRule(Self.monitor))
        try bus.addMatch(ownerChangedRule(Self.screenSaver))

        let idleWatch = try addWatch(bus, "AddIdleWatch", [.uint64(UInt64(timeoutMilliseconds(interval)))])
        var activeWatch: UInt32? = try addWatch(bus, "AddUserActiveWatch")
        var rearmAt: Double?
        defer {
            // The watches live in the compositor until removed or until this connection closes;
            // remove them politely when the bus is still there.
            if bus.isConnected {
                for id in [idleWatch] + (activeWatch.map { [$0] } ?? []) {
                    _ = try? bus.call(Self.monitor, Self.monitorPath, Self.monitor, "RemoveWatch", [.uint32(id)], timeout: 1)
                }
            }
        }
        let idle = try idleSeconds(bus)
        var lock = LockState()
        let (active, note) = try screenSaverActive(bus)
        context.report(.available, "GNOME idle monitor (org.gnome.Mutter.IdleMonitor, watches at \(interval) s); \(note)")
        context.emit(.desktop(.idle(idle)))
        if let active, let event = lock.observe(active) { context.emit(.desktop(event)) }

        while !context.isStopped {
            let wait = rearmAt.map { max($0 - monotonicSeconds(), 0) } ?? 60
            if let signal = try bus.nextSignal(timeout: wait, stop: context.stopDescriptor) {
                if signal.interface == Self.monitor, signal.member == "WatchFired", let id = signal.arguments.first?.unsigned {
                    if id == UInt64(idleWatch) {
                        // Idle for `interval`: the real figure, which may be longer by now.
                        context.emit(.desktop(.idle((try? idleSeconds(bus)) ?? interval)))
                        if activeWatch == nil {
                            activeWatch = try addWatch(bus, "AddUserActiveWatch")
                            rearmAt = nil
                        }
                    } else if let armed = activeWatch, id == UInt64(armed) {
                        context.emit(.desktop(.idle(0)))
                        activeWatch = nil
                        rearmAt = monotonicSeconds() + interval
                    }
                } else if signal.interface == Self.screenSaver, signal.member == "ActiveChanged", let active = signal.arguments.first?.bool {
                    if let event = lock.observe(active) { context.emit(.desktop(event)) }
                } else if let owner = newOwner(of: Self.monitor, in: signal), owner.isEmpty {
                    throw DBusFailure(.noService, "\(Self.monitor) left the session bus")
                } else if let owner = newOwner(of: Self.screenSaver, in: signal), !owner.isEmpty {
                    // A screen saver that starts (or restarts) later: read its state.
                    if let active = try screenSaverActive(bus).active, let event = lock.observe(active) { context.emit(.desktop(event)) }
                }
            }
            if let due = rearmAt, monotonicSeconds() >= due {
                activeWatch = try addWatch(bus, "AddUserActiveWatch")
                rearmAt = nil
            }
        }
    }
}
