import CDBus
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
/// The only module that imports `CDBus`. One private connection, opened on first use and reopened
/// after a failure, so a notification daemon that starts later (or restarts) is found.
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
    private var connection: OpaquePointer?
    private let lock = NSLock()

    public init(busAddress: String? = nil, appName: String = "Vigil") {
        self.busAddress = busAddress
        self.appName = appName
    }

    deinit { if let c = connection { vigil_dbus_close(c) } }

    /// Shows (or, with `replacing`, updates) a notification; returns its id.
    /// - Parameter timeout: milliseconds the notification stays; -1 the server's default, 0 until dismissed.
    @discardableResult
    public func notify(
        summary: String, body: String, urgency: Urgency, replacing: UInt32 = 0, timeout: Int32 = -1,
        category: String = "im.received"
    ) throws(NotificationError) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if connection == nil {
            // The session bus: the given address, else $DBUS_SESSION_BUS_ADDRESS (libdbus reads it),
            // else the systemd user bus at $XDG_RUNTIME_DIR/bus. Without any, say so rather than let
            // libdbus try to autolaunch a bus of its own.
            let environment = ProcessInfo.processInfo.environment
            var address = busAddress
            if address == nil, environment["DBUS_SESSION_BUS_ADDRESS"] == nil {
                guard let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") else {
                    throw NotificationError(kind: .noBus, detail: "no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set): not in a desktop session?")
                }
                address = "unix:path=\(runtime)/bus"
            }
            var buffer = [CChar](repeating: 0, count: 512)
            guard let c = vigil_dbus_connect(address, &buffer, buffer.count) else {
                throw NotificationError(kind: .noBus, detail: "cannot reach the session D-Bus: \(text(buffer))")
            }
            connection = c
        }
        var id: UInt32 = 0
        var name = [CChar](repeating: 0, count: 256)
        var message = [CChar](repeating: 0, count: 512)
        let rc = vigil_dbus_notify(
            connection, appName, replacing, "dialog-warning", summary, body, urgency.rawValue, category,
            timeout, 5000, &id, &name, name.count, &message, message.count)
        guard rc == 0 else {
            let errorName = text(name)
            let text = text(message)
            // The connection may be what failed (the bus restarted): open a new one next time.
            vigil_dbus_close(connection!)
            connection = nil
            if errorName == "org.freedesktop.DBus.Error.ServiceUnknown" || errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                throw NotificationError(kind: .noService, detail: "no notification daemon on the session bus (\(text))")
            }
            if errorName == "org.freedesktop.DBus.Error.Disconnected" || errorName.isEmpty {
                throw NotificationError(kind: .noBus, detail: "the session D-Bus went away (\(text))")
            }
            throw NotificationError(kind: .failed, detail: "the notification daemon refused the notification: \(errorName): \(text)")
        }
        return id
    }
}

/// A NUL-terminated C buffer as text.
private func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
