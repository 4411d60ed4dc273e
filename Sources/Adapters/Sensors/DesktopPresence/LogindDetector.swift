import DBusSupport
import DetectorSupport
import Foundation
import VigilCore

/// Screen lock and sleep from systemd-logind on the system bus (`org.freedesktop.login1`, as
/// `man 5 org.freedesktop.login1` documents it): the session's `LockedHint` property and its
/// `Lock`/`Unlock` signals → `.locked`/`.unlocked`; the manager's `PrepareForSleep(b)` →
/// `.sleeping` (true, before the machine sleeps) / `.woke` (false, after).
///
/// It adds to whichever idle backend runs (GNOME, freedesktop, X11): a second detector on sensor
/// `.desktop`, whose status details start with "logind" so the runtime can show both. Its status
/// says plainly when there is no system bus or no logind (a container, a non-systemd machine).
///
/// The session: `GetSessionByPID(getpid())`, else `$XDG_SESSION_ID` with `GetSession`, else the
/// `Id` of `/org/freedesktop/login1/session/auto` with `GetSession`. logind emits the session's
/// signals only on its real path (`/session/<id>`), never on `auto` or `self`, so the watch is
/// always on the path `GetSession` returns.
///
/// LockedHint is only as good as the locker: GNOME and KDE set it; i3lock and xss-lock do not.
public final class LogindDetector: Detector, Sendable {
    public let sensor = SensorKind.desktop
    /// The system bus address; nil is the environment's (`DBUS_SYSTEM_BUS_ADDRESS`, else the
    /// standard socket).
    public let busAddress: String?
    /// The session id to fall back on when logind does not know Vigil's process.
    public let sessionID: String?
    private let retry: Backoff

    static let name = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"
    static let session = "org.freedesktop.login1.Session"

    public init(
        busAddress: String? = nil, sessionID: String? = ProcessInfo.processInfo.environment["XDG_SESSION_ID"],
        retry: Backoff = .reconnect
    ) {
        self.busAddress = busAddress
        self.sessionID = sessionID.flatMap { $0.isEmpty ? nil : $0 }
        self.retry = retry
    }

    /// Whether logind runs on the system bus.
    public static func probe(busAddress: String? = nil) -> Bool {
        guard let bus = try? BusConnection(.system, address: busAddress) else { return false }
        return (try? bus.nameHasOwner(name)) == true
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .desktop, threadName: "vigil-logind") { [self] context in
            runBusWatch(
                context, bus: .system, address: busAddress, retry: retry, what: "logind",
                remedy: "Lock and sleep are seen from logind only where systemd-logind (or elogind) runs; idle still comes from the desktop."
            ) { bus, context throws(DBusFailure) in
                try watch(bus, context)
            }
        }
    }

    /// The session's object path (see the type's notes for the order).
    func findSession(_ bus: BusConnection) throws(DBusFailure) -> String {
        var tried: [String] = []
        do {
            if let path = try bus.call(Self.name, Self.managerPath, Self.manager, "GetSessionByPID", [.uint32(UInt32(getpid()))]).first?.string {
                return path
            }
        } catch  where error.kind == .remote {
            tried.append("GetSessionByPID(\(getpid())): \(error.message)")
        }
        if let sessionID {
            do {
                if let path = try bus.call(Self.name, Self.managerPath, Self.manager, "GetSession", [.string(sessionID)]).first?.string {
                    return path
                }
            } catch  where error.kind == .remote {
                tried.append("XDG_SESSION_ID \(sessionID): \(error.message)")
            }
        } else {
            tried.append("XDG_SESSION_ID is not set")
        }
        do {
            if let id = try bus.property(Self.name, Self.managerPath + "/session/auto", Self.session, "Id").string, !id.isEmpty,
                let path = try bus.call(Self.name, Self.managerPath, Self.manager, "GetSession", [.string(id)]).first?.string
            {
                return path
            }
        } catch  where error.kind == .remote {
            tried.append("session/auto: \(error.message)")
        }
        throw DBusFailure(.remote, "logind knows no session of Vigil's (\(tried.joined(separator: "; "))): not started from a login session?")
    }

    private func watch(_ bus: BusConnection, _ context: DetectorContext) throws(DBusFailure) {
        guard try bus.nameHasOwner(Self.name) else {
            throw DBusFailure(.noService, "no logind (\(Self.name)) on the system bus")
        }
        let path = try findSession(bus)
        let sender = "sender='\(Self.name)'"
        try bus.addMatch("type='signal',\(sender),path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        try bus.addMatch("type='signal',\(sender),path='\(path)',interface='\(Self.session)'")
        try bus.addMatch("type='signal',\(sender),path='\(Self.managerPath)',interface='\(Self.manager)',member='PrepareForSleep'")
        try bus.addMatch(ownerChangedRule(Self.name))
        var lock = LockState()
        let locked = try? bus.property(Self.name, path, Self.session, "LockedHint").bool
        context.report(.available, "logind session \(path): lock (LockedHint, Lock/Unlock) and sleep (PrepareForSleep)")
        if let locked, let event = lock.observe(locked) { context.emit(.desktop(event)) }

        while !context.isStopped {
            guard let signal = try bus.nextSignal(timeout: 60, stop: context.stopDescriptor) else { continue }
            switch (signal.interface, signal.member) {
            case ("org.freedesktop.DBus.Properties", "PropertiesChanged") where signal.path == path:
                guard signal.arguments.first?.string == Self.session else { break }
                if let hint = signal.arguments.dropFirst().first?.dictionary?["LockedHint"]?.bool {
                    if let event = lock.observe(hint) { context.emit(.desktop(event)) }
                } else if signal.arguments.dropFirst(2).first?.elements?.contains(.string("LockedHint")) == true,
                    let hint = try? bus.property(Self.name, path, Self.session, "LockedHint").bool,
                    let event = lock.observe(hint)
                {
                    // Invalidated without a value: read it.
                    context.emit(.desktop(event))
                }
            case (Self.session, "Lock") where signal.path == path:
                if let event = lock.observe(true) { context.emit(.desktop(event)) }
            case (Self.session, "Unlock") where signal.path == path:
                if let event = lock.observe(false) { context.emit(.desktop(event)) }
            case (Self.manager, "PrepareForSleep"):
                if let start = signal.arguments.first?.bool { context.emit(.desktop(start ? .sleeping : .woke)) }
            default:
                if let owner = newOwner(of: Self.name, in: signal), owner.isEmpty {
                    throw DBusFailure(.noService, "logind left the system bus")
                }
            }
        }
    }
}
