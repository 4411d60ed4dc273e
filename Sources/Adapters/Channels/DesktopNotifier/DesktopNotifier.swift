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

    /// Asks the daemon's capabilities; a daemon that does not answer is taken to read plain text
    /// (the specification's default).
    static func readsBodyAsMarkup(_ bus: BusConnection) -> Bool {
        let reply = try? bus.call(
            "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "GetCapabilities", [])
        guard case .array(_, let items)? = reply?.first else { return false }
        return items.contains(.string("body-markup"))
    }

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
