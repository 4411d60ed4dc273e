import Foundation
import Synchronization
import VigilCore
import VigilStats

extension JSONValue {
    /// An instant: `2026-11-24T09:30:00+01:00`, local time to the second with its UTC offset.
    static func time(_ t: Timestamp?) -> JSONValue {
        guard let t else { return .null }
        return .str(Shown.times.withLock { $0 }.iso8601(t))
    }

    /// A local day, days since 1970-01-01: `2026-11-24`.
    static func day(_ d: Int?) -> JSONValue { d.map { .str(civilDate($0)) } ?? .null }
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

/// How local times are shown: in the command's time zone (`--time-zone`, else TZ), set as it
/// starts (`Vigil.main`), so every listing, JSON time and status line agrees with its days.
enum Shown {
    static let times = Mutex(LocalTimeFormat())

    /// `2026-11-24 09:30`.
    static func minute(_ t: Timestamp) -> String { times.withLock { $0 }.minute(t) }
}
