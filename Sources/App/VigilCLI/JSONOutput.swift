import Foundation
import VigilCore

/// A JSON value as Vigil's listings and reports print it (docs/json.md): keys in the order
/// given, numbers rounded to what they mean, times as ISO 8601 with the local offset. The
/// commands build one of these and print it with `printJSON`; none writes JSON text by hand.
enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number rounded to `decimals` places.
    case number(Double, decimals: Int)
    case str(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func int(_ v: Int) -> JSONValue { .integer(Int64(v)) }
    static func int(_ v: Int64) -> JSONValue { .integer(v) }
    static func int(_ v: Int?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }
    static func int(_ v: Int64?) -> JSONValue { v.map { .integer($0) } ?? .null }
    static func string(_ v: String?) -> JSONValue { v.map { .str($0) } ?? .null }
    static func strings(_ v: [String]) -> JSONValue { .array(v.map { .str($0) }) }

    /// An instant: `2026-11-24T09:30:00+01:00`, local time to the second with its UTC offset.
    static func time(_ t: Timestamp?) -> JSONValue {
        guard let t else { return .null }
        return .str(localISO8601(secondsSinceEpoch: t.secondsSinceEpoch))
    }

    /// A local day, days since 1970-01-01: `2026-11-24`.
    static func day(_ d: Int?) -> JSONValue { d.map { .str(civilDate($0)) } ?? .null }

    /// A duration in whole seconds (fields named `…_s`).
    static func seconds(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 0) } ?? .null }

    /// A duration in minutes to a hundredth (fields named `…_minutes`, as the report has them).
    static func minutes(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 2) } ?? .null }

    /// A score from 0 to 1, to a thousandth (as the timeline has them).
    static func score(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 3) } ?? .null }

    /// A share or rate from 0 to 1, to 0.0001 (as the report has them).
    static func share(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: 4) } ?? .null }

    /// The value as compact JSON text (`{"id":1,"tags":[]}`).
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let v, let decimals):
            guard v.isFinite else { return "null" }
            // Beyond 2^53 a double has no fraction to round (and scaling could overflow).
            let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
            let rounded = abs(v) < 1e15 ? (v * scale).rounded() / scale : v
            return jsonNumber(rounded == 0 ? 0 : rounded)
        case .str(let s): return jsonString(s)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let fields): return "{" + fields.map { jsonString($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}

/// Prints one JSON document, ending in a newline: an array with each element on a line of its
/// own (so a listing reads, and greps, a record a line), anything else on one line.
func printJSON(_ value: JSONValue) {
    if case .array(let items) = value, !items.isEmpty {
        print("[\n" + items.map(\.text).joined(separator: ",\n") + "\n]")
    } else {
        print(value.text)
    }
}

/// `2026-11-24T09:30:00+01:00`: local time to the second, with the offset from UTC in effect then.
func localISO8601(secondsSinceEpoch s: Double) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.calendar = Calendar(identifier: .gregorian)
    f.timeZone = .current
    f.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxxxx"
    return f.string(from: Date(timeIntervalSince1970: s.rounded(.down)))
}
