import Foundation
import VigilCore

/// One hour of local time on one local day: where the statistics put focused and distracted time.
public struct HourSlot: Hashable, Sendable, Comparable {
    /// Local calendar day as days since 1970-01-01.
    public var day: Int
    /// Local hour of the day, 0-23. On the night clocks go back, one hour occurs twice and both
    /// count for it; on the night they go forward, one hour does not occur at all.
    public var hour: Int

    /// ISO weekday of `day`: 1 Monday ... 7 Sunday.
    public var weekday: Int { isoWeekday(ofDay: day) }

    /// The calendar date of `day`.
    public var date: (year: Int, month: Int, day: Int) {
        let c = CivilTime(Timestamp(nanoseconds: Int64(day) * 86_400 * 1_000_000_000))
        return (c.year, c.month, c.day)
    }

    public init(day: Int, hour: Int) {
        self.day = day
        self.hour = hour
    }

    public static func < (a: HourSlot, b: HourSlot) -> Bool { (a.day, a.hour) < (b.day, b.hour) }
}

/// Local time in one time zone over a period, without asking Foundation at every instant: the
/// zone's UTC offsets and the instants they change (daylight saving) are read once, and intervals
/// are cut at local hour boundaries and at those changes with integer arithmetic. So a session that
/// crosses midnight or a DST change is split right, and millions of intervals split quickly.
public struct LocalClock: Sendable {
    public let timeZone: TimeZone
    /// Offset changes, ascending: from `at` (Unix seconds) on, local = UTC + `offset` seconds.
    private let changes: [(at: Int64, offset: Int64)]
    /// For each UTC day of the period from `firstDay` on, the index in `changes` of the offset in
    /// force all that day, or -1 for a day in which it changes: the statistics ask for the offset
    /// of hundreds of thousands of instants, and most days need no search.
    private let offsetOfDay: [Int32]
    private let firstDay: Int64

    /// - Parameters: from/to: the period that will be asked about (a little outside is fine).
    public init(timeZone: TimeZone, from: Timestamp, to: Timestamp) {
        self.timeZone = timeZone
        let start = Date(timeIntervalSince1970: from.secondsSinceEpoch - 86_400 * 2)
        let end = Date(timeIntervalSince1970: to.secondsSinceEpoch + 86_400 * 2)
        var changes: [(Int64, Int64)] = [(Int64.min, Int64(timeZone.secondsFromGMT(for: start)))]
        var cursor = start
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            changes.append((Int64(next.timeIntervalSince1970.rounded()), Int64(timeZone.secondsFromGMT(for: next))))
            cursor = next
        }
        self.changes = changes
        firstDay = floorDiv(Int64(start.timeIntervalSince1970.rounded(.down)), 86_400)
        let days = floorDiv(Int64(end.timeIntervalSince1970.rounded(.up)), 86_400) - firstDay + 1
        // Up to 300 years; a longer period (never asked for by a report) is searched throughout.
        var offsetOfDay: [Int32] = []
        for d in 0..<(days <= 110_000 ? days : 0) {
            let dayStart: Int64 = (firstDay + d) * 86_400
            let i = Self.index(in: self.changes, at: dayStart)
            let changesThatDay = i + 1 < self.changes.count && self.changes[i + 1].at < dayStart + 86_400
            offsetOfDay.append(changesThatDay ? -1 : Int32(i))
        }
        self.offsetOfDay = offsetOfDay
    }

    /// For the local days `days` (days since 1970-01-01).
    public init(timeZone: TimeZone, days: ClosedRange<Int>) {
        self.init(
            timeZone: timeZone, from: Timestamp(nanoseconds: Int64(days.lowerBound) * 86_400_000_000_000),
            to: Timestamp(nanoseconds: Int64(days.upperBound + 1) * 86_400_000_000_000))
    }

    /// The index of the offset in force at Unix second `t`.
    private func index(at t: Int64) -> Int { Self.index(in: changes, at: t) }

    private static func index(in changes: [(at: Int64, offset: Int64)], at t: Int64) -> Int {
        var lo = 0
        var hi = changes.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if changes[mid].at <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// UTC offset in seconds at `t`.
    public func offset(at t: Timestamp) -> Int { Int(changes[index(at: floorSeconds(t))].offset) }

    /// The local hour `t` falls in.
    public func slot(at t: Timestamp) -> HourSlot {
        let local = floorSeconds(t) + changes[index(at: floorSeconds(t))].offset
        return HourSlot(day: Int(floorDiv(local, 86_400)), hour: Int(floorDiv(local, 3600) - floorDiv(local, 86_400) * 24))
    }

    /// The local hour of a Unix millisecond: `slot(at:)` for the statistics' columns (`Span`), in
    /// milliseconds throughout so that every division is by a constant (a multiplication).
    func slot(ms: Int64) -> HourSlot {
        let hour = floorDiv(ms + changes[index(atMillisecond: ms)].offset * 1000, 3_600_000)
        let day = floorDiv(hour, 24)
        return HourSlot(day: Int(day), hour: Int(hour - day * 24))
    }

    /// `index(at:)` of the second Unix millisecond `t` falls in: from the day's entry, unless the
    /// offset changes that day.
    private func index(atMillisecond t: Int64) -> Int {
        let d = floorDiv(t, 86_400_000) - firstDay
        if d >= 0, d < offsetOfDay.count, offsetOfDay[Int(d)] >= 0 { return Int(offsetOfDay[Int(d)]) }
        return index(at: floorDiv(t, 1000))
    }

    /// Cuts [start, end) into pieces that each lie in one local hour, and hands each with its
    /// length in seconds, in time order.
    public func split(from start: Timestamp, to end: Timestamp, _ body: (HourSlot, Double) -> Void) {
        split(start.nanoseconds, end.nanoseconds, unitsPerSecond: 1_000_000_000) { body($0, Double($1) / 1e9) }
    }

    /// `split(from:to:)` for the statistics' columns: cuts a span of Unix milliseconds into local
    /// hours, handing each piece's milliseconds. The statistics' hot path: the same cuts as
    /// `split(_:_:unitsPerSecond:_:)`, with every division by a constant (local hours are counted
    /// from the epoch in milliseconds, then days from the hours).
    func split(_ span: Span, _ body: (HourSlot, Int64) -> Void) {
        let stop = span.end
        guard stop > span.start else { return }
        var t = span.start
        var i = index(atMillisecond: t)
        while t < stop {
            let offset = changes[i].offset * 1000
            let hour = floorDiv(t + offset, 3_600_000)
            // The next local hour boundary, back in UTC; or the next offset change, if sooner.
            var next = (hour + 1) * 3_600_000 - offset
            if i + 1 < changes.count, changes[i + 1].at * 1000 < next { next = changes[i + 1].at * 1000 }
            let pieceEnd = min(next, stop)
            let day = floorDiv(hour, 24)
            body(HourSlot(day: Int(day), hour: Int(hour - day * 24)), pieceEnd - t)
            t = pieceEnd
            while i + 1 < changes.count, changes[i + 1].at * 1000 <= t { i += 1 }
        }
    }

    private func split(_ start: Int64, _ stop: Int64, unitsPerSecond u: Int64, _ body: (HourSlot, Int64) -> Void) {
        guard stop > start else { return }
        var t = start
        var i = index(at: floorDiv(t, u))
        while t < stop {
            let offset = changes[i].offset
            let localSeconds = floorDiv(t + offset * u, u)
            let hourStart = floorDiv(localSeconds, 3600) * 3600
            // The next local hour boundary, back in UTC; or the next offset change, if sooner.
            var next = (hourStart + 3600 - offset) * u
            if i + 1 < changes.count, changes[i + 1].at * u < next { next = changes[i + 1].at * u }
            let pieceEnd = min(next, stop)
            let day = floorDiv(localSeconds, 86_400)
            body(HourSlot(day: Int(day), hour: Int((hourStart - day * 86_400) / 3600)), pieceEnd - t)
            t = pieceEnd
            while i + 1 < changes.count, changes[i + 1].at * u <= t { i += 1 }
        }
    }

    /// The local day the Unix second `t` falls on.
    private func localDay(_ t: Int64) -> Int64 { floorDiv(t + changes[index(at: t)].offset, 86_400) }

    /// The first instant of local day `day`: usually local midnight; where a clock change skips
    /// midnight, the change itself.
    public func startOfDay(_ day: Int) -> Timestamp {
        var lo = Int64(day) * 86_400 - 3 * 86_400
        var hi = Int64(day) * 86_400 + 3 * 86_400
        while lo < hi {
            let mid = floorDiv(lo + hi, 2)
            if localDay(mid) >= day { hi = mid } else { lo = mid + 1 }
        }
        return Timestamp(nanoseconds: lo * 1_000_000_000)
    }

    private func floorSeconds(_ t: Timestamp) -> Int64 { floorDiv(t.nanoseconds, 1_000_000_000) }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
