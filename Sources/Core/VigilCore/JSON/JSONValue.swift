/// A JSON document built as a value, for the listings and small files (`--json` of the commands,
/// the status file, the export): keys in the order given, numbers rounded to what they mean
/// (docs/json.md). Written, like everything else, by `JSONWriter`.
public enum JSONValue: Sendable, JSONWritable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number rounded to `decimals` places, written in its shortest form.
    case number(Double, decimals: Int)
    /// A number in the shortest form that reads back to the same value (`jsonNumber`).
    case exact(Double)
    case str(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func int(_ v: Int) -> JSONValue { .integer(Int64(v)) }
    public static func int(_ v: Int64) -> JSONValue { .integer(v) }
    public static func int(_ v: Int?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }
    public static func int(_ v: Int64?) -> JSONValue { v.map { .integer($0) } ?? .null }
    public static func string(_ v: String?) -> JSONValue { v.map { .str($0) } ?? .null }
    public static func strings(_ v: [String]) -> JSONValue { .array(v.map { .str($0) }) }

    /// A duration in whole seconds (fields named `…_s`).
    public static func seconds(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 0) } ?? .null }

    /// A duration in minutes to a hundredth (fields named `…_minutes`, as the report has them).
    public static func minutes(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 2) } ?? .null }

    /// A score from 0 to 1, to a thousandth (as the timeline has them).
    public static func score(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 3) } ?? .null }

    /// A share or rate from 0 to 1, to 0.0001 (as the report has them).
    public static func share(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 4) } ?? .null }

    public func write(_ w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .integer(let i): w.integer(i)
        case .number(let v, let decimals):
            guard v.isFinite else { return w.null() }
            // Beyond 2^53 a double has no fraction to round (and scaling could overflow).
            let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
            let rounded = abs(v) < 1e15 ? (v * scale).rounded() / scale : v
            w.number(rounded == 0 ? 0 : rounded)
        case .exact(let v): w.number(v)
        case .str(let s): w.string(s)
        case .array(let items): w.array(items)
        case .object(let fields): w.object { w in for (key, value) in fields { w.field(key, value) } }
        }
    }

    /// The value as compact JSON text (`{"id":1,"tags":[]}`).
    public var text: String {
        var w = JSONWriter(style: .compact, capacity: 256)
        write(&w)
        return w.text
    }
}
