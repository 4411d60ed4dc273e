/// A D-Bus failure: libdbus's error record (an error name such as
/// `org.freedesktop.DBus.Error.ServiceUnknown` and a message), sorted into what a caller acts on.
///
/// libdbus reports errors in a `DBusError` filled at the failing call, never through errno, so the
/// name and message are copied there (see `vigil_dbus_take_error`), not read later.
public struct DBusFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No bus to talk to: no address, or nothing listens there.
        case noBus
        /// The bus is there but the name has no owner (the service is not running).
        case noService
        /// The connection to the bus was lost.
        case disconnected
        /// No reply in time.
        case timedOut
        /// The service answered with an error (`name` says which: UnknownMethod, UnknownObject…).
        case remote
        /// The reply did not have the shape the interface documents.
        case badReply
    }

    public var kind: Kind
    /// The D-Bus error name, empty when the failure is Vigil's own finding.
    public var name: String
    public var message: String

    public init(_ kind: Kind, name: String = "", _ message: String) {
        self.kind = kind
        self.name = name
        self.message = message
    }

    /// Sorts a D-Bus error name into a kind.
    init(name: String, message: String) {
        let kind: Kind
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner": kind = .noService
        case "org.freedesktop.DBus.Error.Disconnected": kind = .disconnected
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut": kind = .timedOut
        case "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.FileNotFound", "org.freedesktop.DBus.Error.BadAddress",
            "org.freedesktop.DBus.Error.NoNetwork", "org.freedesktop.DBus.Error.AccessDenied":
            kind = .noBus
        default: kind = .remote
        }
        self.init(kind, name: name, message)
    }

    /// Whether the service answered that it lacks the method, object, interface or property asked
    /// for (an implementation that offers only part of an interface).
    public var isUnknownMember: Bool {
        [
            "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
            "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownProperty",
            "org.freedesktop.DBus.Error.NotSupported",
        ].contains(name)
    }

    public var description: String { name.isEmpty ? message : "\(message) (\(name))" }
}
