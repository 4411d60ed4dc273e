import DBusSupport
import Foundation

/// Why a desktop notification could not be shown.
public struct NotificationError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No session bus to talk to (not in a desktop session, or `DBUS_SESSION_BUS_ADDRESS` unset).
        case noBus
        /// The bus is there but nothing serves org.freedesktop.Notifications (no notification daemon).
        case noService
        /// The call failed otherwise (the daemon answered with an error, or did not answer in time).
        case failed
    }
    public var kind: Kind
    public var detail: String
    public var description: String { detail }
}

/// Desktop notifications through the freedesktop notification service
/// (`org.freedesktop.Notifications.Notify`) on the session D-Bus, with libdbus.
///
/// Talks through DBusSupport (the owner of libdbus). One private connection, opened on first use
/// and reopened after a failure, so a notification daemon that starts later (or restarts) is found.
public final class DesktopNotifier: @unchecked Sendable {
    /// The freedesktop urgency levels.
    public enum Urgency: UInt8, Sendable {
        case low = 0
        case normal = 1
        case critical = 2
    }

    /// The bus address (`unix:path=...`), or nil for the session bus of the environment.
    public let busAddress: String?
    public let appName: String
    private var connection: BusConnection?
    /// Whether the daemon reads bodies as markup (its "body-markup" capability), asked once per
    /// connection.
    private var bodyIsMarkup = false
    private let lock = NSLock()

    public init(busAddress: String? = nil, appName: String = "Vigil") {
        self.busAddress = busAddress
        self.appName = appName
    }

    /// Shows (or, with `replacing`, updates) a notification; returns its id.
    /// - Parameter timeout: milliseconds the notification stays; -1 the server's default, 0 until dismissed.
    @discardableResult
    public func notify(
        summary: String, body: String, urgency: Urgency, replacing: UInt32 = 0, timeout: Int32 = -1,
        category: String = "im.received"
    ) throws(NotificationError) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        let bus: BusConnection
        if let connection {
            bus = connection
        } else {
            do {
                bus = try BusConnection(.session, address: busAddress)
            } catch {
                let said = error.message.hasPrefix("no session D-Bus") ? error.message : "cannot reach the session D-Bus: \(error.message)"
                throw NotificationError(kind: .noBus, detail: said)
            }
            connection = bus
            bodyIsMarkup = Self.readsBodyAsMarkup(bus)
        }
        // A body is markup where the daemon says so: a task called "<b>R&D</b>" must read as
        // typed, not bold, and a stray '&' or '<' must not make the daemon drop the text.
        let body = bodyIsMarkup ? Self.escapingMarkup(body) : body
        let hints: [DBusValue] = [
            .dictEntry(.string("urgency"), .variant(.byte(urgency.rawValue))), .dictEntry(.string("category"), .variant(.string(category))),
        ]
        let reply: [DBusValue]
        do {
            reply = try bus.call(
                "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify",
                [
                    .string(appName), .uint32(replacing), .string("dialog-warning"), .string(summary), .string(body),
                    .array(element: "s", []), .array(element: "{sv}", hints), .int32(timeout),
                ])
        } catch {
            // The connection may be what failed (the bus restarted): open a new one next time.
            connection = nil
            switch error.kind {
            case .noService: throw NotificationError(kind: .noService, detail: "no notification daemon on the session bus (\(error.message))")
            case .disconnected, .noBus: throw NotificationError(kind: .noBus, detail: "the session D-Bus went away (\(error.message))")
            default:
                throw NotificationError(kind: .failed, detail: "the notification daemon refused the notification: \(error.name): \(error.message)")
            }
        }
        guard case .uint32(let id)? = reply.first else {
            throw NotificationError(kind: .failed, detail: "the notification daemon answered Notify without an id")
        }
        return id
    }

    /// Asks a question with a notification that carries actions (the specification's `actions`,
    /// answered by its `ActionInvoked` signal), and waits up to `timeout` seconds for the person's
    /// choice: the chosen action's key; nil when the notification was closed unanswered or the
    /// time ran out. On a connection of its own, which the daemon's signals about this
    /// notification reach whether it broadcasts them or sends them to the caller alone. Throws
    /// `.failed` for a daemon without actions: the caller says how to answer otherwise.
    public func ask(summary: String, body: String, actions: [(key: String, label: String)], timeout: Double) throws(NotificationError) -> String? {
        let bus: BusConnection
        do { bus = try BusConnection(.session, address: busAddress) } catch {
            throw NotificationError(kind: .noBus, detail: "cannot reach the session D-Bus: \(error.message)")
        }
        let capabilities = Self.capabilities(bus)
        guard capabilities.contains("actions") else {
            throw NotificationError(kind: .failed, detail: "the notification daemon shows no buttons (no \"actions\" capability)")
        }
        let body = capabilities.contains("body-markup") ? Self.escapingMarkup(body) : body
        let id: UInt32
        do {
            for member in ["ActionInvoked", "NotificationClosed"] {
                try bus.addMatch("type='signal',interface='org.freedesktop.Notifications',member='\(member)'")
            }
            let reply = try bus.call(
                "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify",
                [
                    .string(appName), .uint32(0), .string("dialog-question"), .string(summary), .string(body),
                    .array(element: "s", actions.flatMap { [DBusValue.string($0.key), .string($0.label)] }),
                    .array(element: "{sv}", [.dictEntry(.string("urgency"), .variant(.byte(Urgency.normal.rawValue)))]), .int32(0),
                ])
            guard case .uint32(let given)? = reply.first else {
                throw NotificationError(kind: .failed, detail: "the notification daemon answered Notify without an id")
            }
            id = given
        } catch let error as NotificationError {
            throw error
        } catch {
            throw NotificationError(kind: .failed, detail: "the notification daemon refused the question: \(error)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            let received: DBusSignal??
            do { received = try bus.nextSignal(timeout: deadline.timeIntervalSinceNow) } catch { return nil }
            guard let signal = received ?? nil else { continue }
            guard signal.interface == "org.freedesktop.Notifications", case .uint32(id)? = signal.arguments.first else { continue }
            if signal.member == "ActionInvoked", signal.arguments.count > 1, case .string(let key) = signal.arguments[1] { return key }
            if signal.member == "NotificationClosed" { return nil }
        }
        // Unanswered in time: the question is taken down, it would only mislead later.
        _ = try? bus.call(
            "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "CloseNotification", [.uint32(id)])
        return nil
    }

    static func capabilities(_ bus: BusConnection) -> [String] {
        let reply = try? bus.call(
            "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "GetCapabilities", [])
        guard case .array(_, let items)? = reply?.first else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }

    /// Asks the daemon's capabilities; a daemon that does not answer is taken to read plain text
    /// (the specification's default).
    static func readsBodyAsMarkup(_ bus: BusConnection) -> Bool { capabilities(bus).contains("body-markup") }

    /// Text as notification markup (the specification's subset of XML): `&`, `<` and `>` escaped.
    static func escapingMarkup(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
