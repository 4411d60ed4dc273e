import DBusSupport
import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// Idle time and lock from `org.freedesktop.ScreenSaver` on the session bus: KDE's screen locker
/// (kscreenlocker's interface.h), light-locker and others.
///
/// The interface announces no idle changes, so `GetSessionIdleTime()` (seconds) is asked every
/// `desktop.poll`; the lock comes from `GetActive()` at the start and the `ActiveChanged(b)`
/// signal. The object is `/org/freedesktop/ScreenSaver`; some implementations use `/ScreenSaver`,
/// so both are tried.
///
/// GNOME owns the same name (gnome-settings-daemon's proxy) but implements only Inhibit there:
/// `probe` therefore asks for the idle time rather than checking the name alone.
public final class ScreenSaverIdleDetector: Detector, Sendable {
    public let sensor = SensorKind.desktop
    /// The session bus address; nil is the environment's (see `MessageBus.address`).
    public let busAddress: String?
    /// Seconds between two idle readings.
    public let poll: Double
    private let retry: Backoff

    static let name = "org.freedesktop.ScreenSaver"
    static let paths = ["/org/freedesktop/ScreenSaver", "/ScreenSaver"]

    public init(
        config: VigilConfiguration.Desktop = .init(), busAddress: String? = nil, retry: Backoff = .reconnect
    ) {
        self.busAddress = busAddress
        poll = max(config.poll, 0.1)
        self.retry = retry
    }

    /// Whether an org.freedesktop.ScreenSaver on the session bus answers GetSessionIdleTime.
    public static func probe(busAddress: String? = nil) -> Bool {
        guard let bus = try? BusConnection(.session, address: busAddress), (try? bus.nameHasOwner(name)) == true else { return false }
        return (try? idlePath(bus)) != nil
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .desktop, threadName: "vigil-screensaver-idle") { [self] context in
            runBusWatch(
                context, bus: .session, address: busAddress, retry: retry, what: "org.freedesktop.ScreenSaver",
                remedy: "Is a screen saver service running (KDE's, light-locker)? On GNOME set desktop.backend to gnome."
            ) { bus, context throws(DBusFailure) in
                try watch(bus, context)
            }
        }
    }

    /// The first object path that answers GetSessionIdleTime, and the idle time it gave.
    static func idlePath(_ bus: BusConnection) throws(DBusFailure) -> (path: String, seconds: Double) {
        var said: [String] = []
        for path in paths {
            do {
                return (path, try idleSeconds(bus, path))
            } catch  where error.isUnknownMember {
                said.append("\(path): \(error.message)")
            }
        }
        throw DBusFailure(
            .noService,
            "\(name) does not answer GetSessionIdleTime (\(said.joined(separator: "; "))); GNOME's offers only Inhibit there")
    }

    static func idleSeconds(_ bus: BusConnection, _ path: String) throws(DBusFailure) -> Double {
        guard let seconds = try bus.call(name, path, name, "GetSessionIdleTime").first?.unsigned else {
            throw DBusFailure(.badReply, "GetSessionIdleTime answered without a uint32")
        }
        return Double(seconds)
    }

    private func watch(_ bus: BusConnection, _ context: DetectorContext) throws(DBusFailure) {
        let name = Self.name
        guard try bus.nameHasOwner(name) else { throw DBusFailure(.noService, "nothing owns \(name) on the session bus") }
        // The signal's path is left open: implementations differ in where they emit it.
        try bus.addMatch("type='signal',sender='\(name)',interface='\(name)',member='ActiveChanged'")
        try bus.addMatch(ownerChangedRule(name))
        let (path, idle) = try Self.idlePath(bus)
        var lock = LockState()
        var lockNote = "lock from GetActive/ActiveChanged"
        var active: Bool?
        do {
            active = try bus.call(name, path, name, "GetActive").first?.bool
        } catch  where error.isUnknownMember {
            lockNote = "no lock (GetActive: \(error.message))"
        }
        context.report(.available, "\(name) at \(path): idle time asked every \(poll) s; \(lockNote)")
        context.emit(.desktop(.idle(idle)))
        if let active, let event = lock.observe(active) { context.emit(.desktop(event)) }

        var nextPoll = monotonicSeconds() + poll
        while !context.isStopped {
            if let signal = try bus.nextSignal(timeout: max(nextPoll - monotonicSeconds(), 0), stop: context.stopDescriptor) {
                if signal.interface == name, signal.member == "ActiveChanged", let active = signal.arguments.first?.bool {
                    if let event = lock.observe(active) { context.emit(.desktop(event)) }
                } else if let owner = newOwner(of: name, in: signal), owner.isEmpty {
                    throw DBusFailure(.noService, "\(name) left the session bus")
                }
            }
            let t = monotonicSeconds()
            if t >= nextPoll {
                context.emit(.desktop(.idle(try Self.idleSeconds(bus, path))))
                // The next reading a poll after this one; a late wake-up does not bunch readings.
                nextPoll = max(nextPoll + poll, t)
            }
        }
    }
}
