internal import CDBus
import Foundation
import SystemCalls

/// Which message bus: the desktop session's (idle monitor, screen saver, notifications) or the
/// machine's (logind).
public enum MessageBus: Sendable {
    case session
    case system

    /// The address to connect to: `explicit` when given (tests, a config), else the environment's
    /// (`DBUS_SESSION_BUS_ADDRESS`, then the systemd user bus at `$XDG_RUNTIME_DIR/bus`; for the
    /// system bus `DBUS_SYSTEM_BUS_ADDRESS`, then the standard socket). Without a session bus it
    /// says so rather than let libdbus try to autolaunch a bus of its own.
    public func address(_ explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(DBusFailure) -> String
    {
        if let explicit { return explicit }
        switch self {
        case .session:
            if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
            if let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") {
                return "unix:path=\(runtime)/bus"
            }
            throw DBusFailure(.noBus, "no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set): not in a desktop session?")
        case .system:
            if let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty { return address }
            return "unix:path=/run/dbus/system_bus_socket"
        }
    }

    public var name: String {
        switch self {
        case .session: "the session D-Bus"
        case .system: "the system D-Bus"
        }
    }
}

/// A signal received on a connection: who sent it, from which object, and its arguments.
public struct DBusSignal: Sendable, Equatable {
    /// The sender's unique name (`:1.42`).
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// One private connection to a message bus through libdbus: method calls that wait for their
/// reply, match rules, and signals read one at a time. The only type that touches `CDBus`.
///
/// Owns the `DBusConnection` and closes it in `deinit`. Not for concurrent use: a detector keeps
/// one on its own thread, the notifier guards its own with a lock.
///
/// Signals are read with `dbus_connection_read_write` and `dbus_connection_pop_message` — the
/// form of libdbus's `read_write_dispatch` loop without callbacks: no C function pointers into
/// Swift, and the caller handles each signal in order on its own thread. Replies to method calls
/// are taken out of the queue by `send_with_reply_and_block`; signals that arrive meanwhile stay
/// queued for `nextSignal`.
public final class BusConnection: @unchecked Sendable {
    public let address: String
    private let connection: OpaquePointer

    /// Connects and registers with the bus.
    public init(address: String) throws(DBusFailure) {
        self.address = address
        // libdbus is opened now, not at Vigil's start (CSensorLibraries).
        if let problem = SensorLibrary.dbus.open(vigil_load_libdbus) {
            var failure = DBusFailure(name: "org.freedesktop.DBus.Error.NoServer", message: problem)
            failure.kind = .noBus
            throw failure
        }
        var name = [CChar](repeating: 0, count: 256)
        var message = [CChar](repeating: 0, count: 512)
        guard let c = vigil_dbus_connect(address, &name, name.count, &message, message.count) else {
            // Whatever libdbus says, no connection means no bus to talk to.
            var failure = DBusFailure(name: cText(name), message: cText(message))
            failure.kind = .noBus
            throw failure
        }
        connection = c
    }

    /// Connects to `bus` at `explicit` or the environment's address (see `MessageBus.address`).
    public convenience init(_ bus: MessageBus, address explicit: String? = nil) throws(DBusFailure) {
        try self.init(address: bus.address(explicit))
    }

    deinit { vigil_dbus_close(connection) }

    public var isConnected: Bool { dbus_connection_get_is_connected(connection) != 0 }

    /// This connection's unique name on the bus (`:1.42`), which other programs can call.
    public var uniqueName: String { string(dbus_bus_get_unique_name(connection)) }

    /// Calls `member` and waits up to `timeout` seconds for the reply; returns its arguments.
    @discardableResult
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Double = 5
    ) throws(DBusFailure) -> [DBusValue] {
        guard Self.valid(bus: destination, path: path, interface: interface, member: member) else {
            throw DBusFailure(.badReply, "not a valid D-Bus address: \(destination) \(path) \(interface).\(member)")
        }
        guard let m = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusFailure(.remote, "out of memory building \(interface).\(member)")
        }
        defer { dbus_message_unref(m) }
        var it = DBusMessageIter()
        dbus_message_iter_init_append(m, &it)
        for argument in arguments {
            guard Self.append(argument, to: &it) else {
                throw DBusFailure(.badReply, "cannot encode an argument of \(interface).\(member) (\(argument.signature))")
            }
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, m, timeoutMilliseconds(timeout), &error) else {
            var name = [CChar](repeating: 0, count: 256)
            var message = [CChar](repeating: 0, count: 512)
            vigil_dbus_take_error(&error, &name, name.count, &message, message.count)
            throw DBusFailure(name: cText(name), message: cText(message))
        }
        defer { dbus_message_unref(reply) }
        return Self.arguments(of: reply)
    }

    /// Reads one property (org.freedesktop.DBus.Properties.Get), the variant unwrapped.
    public func property(_ destination: String, _ path: String, _ interface: String, _ name: String, timeout: Double = 5)
        throws(DBusFailure) -> DBusValue
    {
        let reply = try call(
            destination, path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)], timeout: timeout)
        guard let value = reply.first else { throw DBusFailure(.badReply, "\(destination) sent no value for \(interface).\(name)") }
        return value.unwrapped
    }

    /// Whether someone owns `name` on the bus (the service runs).
    public func nameHasOwner(_ name: String) throws(DBusFailure) -> Bool {
        let reply = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
        guard let owned = reply.first?.bool else { throw DBusFailure(.badReply, "the bus did not answer NameHasOwner(\(name))") }
        return owned
    }

    /// The unique name of the connection that owns `name` now (`GetNameOwner`); nil when none does.
    public func nameOwner(_ name: String) throws(DBusFailure) -> String? {
        do {
            return try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(name)]).first?.string
        } catch  where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// Asks the bus to route the signals that `rule` matches to this connection
    /// (`type='signal',sender='…',path='…',interface='…',member='…'`); waits for the bus's answer.
    public func addMatch(_ rule: String) throws(DBusFailure) { try match(rule, add: true) }

    /// Stops the signals `rule` (as given to `addMatch`) routes here; waits for the bus's answer.
    public func removeMatch(_ rule: String) throws(DBusFailure) { try match(rule, add: false) }

    private func match(_ rule: String, add: Bool) throws(DBusFailure) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        if add { dbus_bus_add_match(connection, rule, &error) } else { dbus_bus_remove_match(connection, rule, &error) }
        if dbus_error_is_set(&error) != 0 {
            var name = [CChar](repeating: 0, count: 256)
            var message = [CChar](repeating: 0, count: 512)
            vigil_dbus_take_error(&error, &name, name.count, &message, message.count)
            throw DBusFailure(name: cText(name), message: cText(message))
        }
    }

    /// The next signal received, waiting up to `timeout` seconds; nil when none came in time.
    /// Throws `.disconnected` once the bus connection is gone. Other messages (stray replies,
    /// calls to us) are dropped.
    ///
    /// The wait is one `poll` on the bus's socket and `stop` (a descriptor that becomes readable
    /// when the caller must stop; -1 for none): it sleeps until a message comes, the caller stops,
    /// or the time is up.
    ///
    /// With `answeringCalls`, a method call made to this connection is returned too (as a
    /// `DBusSignal` whose `interface` and `member` are the call's), after an empty reply has been
    /// sent: the way a program that cannot emit signals (a KWin script's `callDBus`) reports to
    /// Vigil. The caller checks the sender.
    public func nextSignal(timeout: Double, stop: Int32 = -1, answeringCalls: Bool = false) throws(DBusFailure) -> DBusSignal? {
        var waited = false
        while true {
            if let m = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(m) }
                let type = dbus_message_get_type(m)
                if answeringCalls, type == DBUS_MESSAGE_TYPE_METHOD_CALL, let reply = dbus_message_new_method_return(m) {
                    _ = dbus_connection_send(connection, reply, nil)
                    dbus_message_unref(reply)
                    dbus_connection_flush(connection)
                } else if type != DBUS_MESSAGE_TYPE_SIGNAL {
                    continue
                }
                let signal = DBusSignal(
                    sender: string(dbus_message_get_sender(m)), path: string(dbus_message_get_path(m)),
                    interface: string(dbus_message_get_interface(m)), member: string(dbus_message_get_member(m)),
                    arguments: Self.arguments(of: m))
                // libdbus queues this when the socket closes.
                if signal.interface == "org.freedesktop.DBus.Local", signal.member == "Disconnected" {
                    throw DBusFailure(.disconnected, "the connection to the bus at \(address) was closed")
                }
                return signal
            }
            if waited { return nil }
            waited = true
            var socket: Int32 = -1
            var wait = timeout
            if dbus_connection_get_unix_fd(connection, &socket) != 0, socket >= 0 {
                // The socket or the stop; then libdbus reads what came without waiting again.
                waitReadable(socket, orStop: stop, seconds: timeout)
                wait = 0
            }
            // FALSE once the connection is closed (after its Disconnected message was queued).
            guard dbus_connection_read_write(connection, timeoutMilliseconds(wait)) != 0 else {
                if let m = dbus_connection_pop_message(connection) {
                    dbus_message_unref(m)
                }
                throw DBusFailure(.disconnected, "the connection to the bus at \(address) was closed")
            }
        }
    }

    // MARK: Encoding and decoding

    private static func valid(bus: String, path: String, interface: String, member: String) -> Bool {
        // libdbus aborts the process on an invalid name in a message (its checks are fatal by
        // default), so nothing unchecked reaches it.
        dbus_validate_bus_name(bus, nil) != 0 && dbus_validate_path(path, nil) != 0
            && dbus_validate_interface(interface, nil) != 0 && dbus_validate_member(member, nil) != 0
    }

    private static func code(_ c: Character) -> Int32 { Int32(c.asciiValue!) }

    private static func basic<T>(_ value: T, _ type: Character, _ it: inout DBusMessageIter) -> Bool {
        var v = value
        return withUnsafePointer(to: &v) { dbus_message_iter_append_basic(&it, code(type), $0) } != 0
    }

    private static func appendText(_ value: String, _ type: Character, _ it: inout DBusMessageIter) -> Bool {
        value.withCString { p in
            var pointer: UnsafePointer<CChar>? = p
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&it, code(type), $0) } != 0
        }
    }

    private static func container(
        _ type: Character, _ signature: String?, _ it: inout DBusMessageIter, _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&it, code(type), $0, &sub) }
            } else {
                dbus_message_iter_open_container(&it, code(type), nil, &sub)
            }
        guard opened != 0 else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&it, &sub)
            return false
        }
        return dbus_message_iter_close_container(&it, &sub) != 0
    }

    static func append(_ value: DBusValue, to it: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return basic(v, "y", &it)
        case .bool(let v): return basic(dbus_bool_t(v ? 1 : 0), "b", &it)
        case .int16(let v): return basic(v, "n", &it)
        case .uint16(let v): return basic(v, "q", &it)
        case .int32(let v): return basic(v, "i", &it)
        case .uint32(let v): return basic(v, "u", &it)
        case .int64(let v): return basic(v, "x", &it)
        case .uint64(let v): return basic(v, "t", &it)
        case .double(let v): return basic(v, "d", &it)
        case .string(let v): return appendText(v, "s", &it)
        case .objectPath(let v): return dbus_validate_path(v, nil) != 0 && appendText(v, "o", &it)
        case .signature(let v): return dbus_signature_validate(v, nil) != 0 && appendText(v, "g", &it)
        case .variant(let inner): return container("v", inner.signature, &it) { append(inner, to: &$0) }
        case .array(let element, let values):
            guard dbus_signature_validate_single("a" + element, nil) != 0, values.allSatisfy({ $0.signature == element }) else { return false }
            return container("a", element, &it) { sub in values.allSatisfy { append($0, to: &sub) } }
        case .dictEntry(let key, let value): return container("e", nil, &it) { append(key, to: &$0) && append(value, to: &$0) }
        case .structure(let fields): return container("r", nil, &it) { sub in fields.allSatisfy { append($0, to: &sub) } }
        case .unsupported: return false
        }
    }

    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var it = DBusMessageIter()
        guard dbus_message_iter_init(message, &it) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(decode(&it))
        } while dbus_message_iter_next(&it) != 0
        return values
    }

    private static func read<T>(_ it: inout DBusMessageIter, _ zero: T) -> T {
        var v = zero
        withUnsafeMutablePointer(to: &v) { dbus_message_iter_get_basic(&it, $0) }
        return v
    }

    private static func children(_ it: inout DBusMessageIter) -> [DBusValue] {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&it, &sub)
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != 0 {
            values.append(decode(&sub))
            dbus_message_iter_next(&sub)
        }
        return values
    }

    private static func decode(_ it: inout DBusMessageIter) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&it)
        switch UnicodeScalar(UInt8(truncatingIfNeeded: type)) {
        case "y": return .byte(read(&it, UInt8(0)))
        case "b": return .bool(read(&it, dbus_bool_t(0)) != 0)
        case "n": return .int16(read(&it, Int16(0)))
        case "q": return .uint16(read(&it, UInt16(0)))
        case "i": return .int32(read(&it, Int32(0)))
        case "u": return .uint32(read(&it, UInt32(0)))
        case "x": return .int64(read(&it, Int64(0)))
        case "t": return .uint64(read(&it, UInt64(0)))
        case "d": return .double(read(&it, Double(0)))
        case "s", "o", "g":
            let s = string(read(&it, UnsafePointer<CChar>?.none))
            return type == code("s") ? .string(s) : type == code("o") ? .objectPath(s) : .signature(s)
        case "v": return .variant(children(&it).first ?? .unsupported(""))
        case "a":
            let signature = dbus_message_iter_get_signature(&it)
            defer { dbus_free(signature) }
            return .array(element: String(string(signature).dropFirst()), children(&it))
        case "e":
            let pair = children(&it)
            return .dictEntry(pair.first ?? .unsupported(""), pair.dropFirst().first ?? .unsupported(""))
        case "r": return .structure(children(&it))
        default:
            // A Unix fd ('h') is not read: reading dups it, and Vigil never needs one.
            return .unsupported(String(UnicodeScalar(UInt8(truncatingIfNeeded: type))))
        }
    }
}

/// A C string from libdbus, empty for NULL.
private func string(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
private func string(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
