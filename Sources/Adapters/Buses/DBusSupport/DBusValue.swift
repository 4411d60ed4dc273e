/// One D-Bus value, as a method's argument or a reply's or signal's: the wire types Vigil's
/// desktop interfaces use (basic types, variants, arrays, dictionaries, structures).
///
/// A container carries its element's signature so that an empty array can still be sent
/// (`.array(element: "s", [])` is `as`), and a dictionary is an array of `.dictEntry` values
/// (`a{sv}`), as on the wire.
public enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    // Only the cases that hold a value directly are boxed; a string or a number is not.
    indirect case variant(DBusValue)
    case array(element: String, [DBusValue])
    indirect case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    /// A type Vigil does not read (a Unix file descriptor): its signature, kept for messages.
    case unsupported(String)

    /// The value's D-Bus type signature (`s`, `a{sv}`, `(so)`).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .unsupported(let signature): signature
        }
    }

    /// The value inside a variant (or the value itself): properties arrive as variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = unwrapped { return b }
        return nil
    }

    /// Any unsigned or non-negative integer type, widened.
    public var unsigned: UInt64? {
        switch unwrapped {
        case .byte(let v): UInt64(v)
        case .uint16(let v): UInt64(v)
        case .uint32(let v): UInt64(v)
        case .uint64(let v): v
        case .int16(let v): v >= 0 ? UInt64(v) : nil
        case .int32(let v): v >= 0 ? UInt64(v) : nil
        case .int64(let v): v >= 0 ? UInt64(v) : nil
        default: nil
        }
    }

    /// Any integer type that fits in an `Int64`, widened.
    public var signed: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    /// An `a{sv}` (or any dictionary keyed by strings) as a Swift dictionary; values stay as sent.
    public var dictionary: [String: DBusValue]? {
        guard case .array(_, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, let k = key.string else { return nil }
            result[k] = value
        }
        return result
    }

    /// The elements of an array.
    public var elements: [DBusValue]? {
        if case .array(_, let values) = unwrapped { return values }
        return nil
    }
}
