import GRDB
import VigilCore

// The log's rows keep times as Unix milliseconds (the schema's `*_ms` columns); outside the store
// every time is a `Timestamp`. The conversion happens here, at the rows, and is exact: a row's
// milliseconds read back as the instant they were written from (`millisecondsSinceEpoch`).

extension Row {
    /// The time in a `*_ms` column.
    func time(_ column: String) -> Timestamp { Timestamp(milliseconds: self[column]) }

    /// The time in a nullable `*_ms` column; nil for NULL.
    func optionalTime(_ column: String) -> Timestamp? { (self[column] as Int64?).map(Timestamp.init(milliseconds:)) }
}

extension Timestamp {
    /// This instant as a bound of a half-open range [from, to) over `*_ms` columns: the first whole
    /// millisecond at or after it, so `from_bound <= t_ms < to_bound` holds for exactly the rows
    /// whose time lies in the range. For a whole millisecond (the start of a day) it is
    /// `millisecondsSinceEpoch`.
    var millisecondBound: Int64 {
        let (whole, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return rest > 0 ? whole + 1 : whole
    }
}
