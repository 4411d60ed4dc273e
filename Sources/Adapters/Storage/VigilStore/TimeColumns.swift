import GRDB
import VigilCore

// The log's rows keep times as Unix milliseconds (the schema's `*_ms` columns); outside the store
// every time is a `Timestamp`. The conversion happens here, at the rows, and is exact: a row's
// milliseconds read back as the instant they were written from (`millisecondsSinceEpoch`).
//
// Every date entering the log is inside `SupportedDates`, but older versions did not check (a
// task due 9999-12-31, a file dated in the year 9999): what they wrote is read as the nearest
// supported date, never as an instant 64-bit nanoseconds cannot hold (a trap on every read).

extension Row {
    /// The time in a `*_ms` column.
    func time(_ column: String) -> Timestamp { Timestamp(milliseconds: SupportedDates.nearest(milliseconds: self[column])) }

    /// The time in a nullable `*_ms` column; nil for NULL.
    func optionalTime(_ column: String) -> Timestamp? {
        (self[column] as Int64?).map { Timestamp(milliseconds: SupportedDates.nearest(milliseconds: $0)) }
    }

    /// The calendar day (since 1970-01-01) in a day column.
    func day(_ column: String) -> Int { SupportedDates.nearest(day: self[column]) }

    /// The calendar day in a nullable day column; nil for NULL.
    func optionalDay(_ column: String) -> Int? { (self[column] as Int?).map(SupportedDates.nearest(day:)) }
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

/// A `*_ms` value read by position: as `Row.time` reads one by name, a date an older Vigil stored
/// out of range is brought to the nearest supported one, never multiplied past `Int64`.
func storedTime(_ milliseconds: Int64) -> Timestamp { Timestamp(milliseconds: SupportedDates.nearest(milliseconds: milliseconds)) }
