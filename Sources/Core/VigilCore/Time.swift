/// A point in time: nanoseconds since the Unix epoch (UTC).
///
/// The core never asks the system for the time. Instants come from samples (their recording
/// timestamps) or from whoever drives the state machine (the engine's clock, a test), which is what
/// makes a replay deterministic and lets tests step time without sleeping.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// The nearest instant; a time beyond what 64 bits of nanoseconds hold (about 292 years either
    /// side of 1970) is the first or last of them. Check times from outside first (`checkedSeconds`).
    @inlinable public init(seconds: Double) { self.nanoseconds = Int64(saturating: (seconds * 1e9).rounded()) }
    /// An instant from outside (a file's time, a date in its metadata), or nil when it is not a
    /// number or lies outside `SupportedDates`: such a time is unknown, not a trap.
    public init?(checkedSeconds seconds: Double) {
        guard seconds.isFinite, seconds >= Double(SupportedDates.seconds.lowerBound), seconds < Double(SupportedDates.seconds.upperBound)
        else { return nil }
        self.init(seconds: seconds)
    }
    /// Exact: whole milliseconds, the log's unit, read back as the instant they were written from
    /// (`millisecondsSinceEpoch` of the result is `milliseconds` again).
    @inlinable public init(milliseconds: Int64) { self.nanoseconds = milliseconds * 1_000_000 }

    @inlinable public var secondsSinceEpoch: Double { Double(nanoseconds) / 1e9 }
    /// Whole milliseconds, rounded toward zero: what the log stores of an instant.
    @inlinable public var millisecondsSinceEpoch: Int64 { nanoseconds / 1_000_000 }

    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }

    /// Seconds from `b` to `a`.
    @inlinable public static func - (a: Timestamp, b: Timestamp) -> Double {
        Double(a.nanoseconds &- b.nanoseconds) / 1e9
    }
    /// `a` moved by `seconds`, stopping at the first or last instant there is rather than wrapping
    /// around (or trapping on a span of 1e19 s): readings are checked against `SampleLimits`, so
    /// this only guards the arithmetic.
    @inlinable public static func + (a: Timestamp, seconds: Double) -> Timestamp {
        let span = Int64(saturating: (seconds * 1e9).rounded())
        let (sum, overflow) = a.nanoseconds.addingReportingOverflow(span)
        return Timestamp(nanoseconds: overflow ? (span > 0 ? .max : .min) : sum)
    }
    @inlinable public static func - (a: Timestamp, seconds: Double) -> Timestamp { a + (-seconds) }

    public var description: String { CivilTime(self).iso8601 }
}

/// UTC calendar fields of a timestamp, computed without Foundation so the core stays portable and
/// the output never depends on the machine's time zone. (Howard Hinnant's days-from-civil algorithm.)
public struct CivilTime: Sendable, Equatable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Nanoseconds within the second.
    public var nanosecond: Int
    public var millisecond: Int { nanosecond / 1_000_000 }

    public init(_ t: Timestamp) {
        var secs = t.nanoseconds / 1_000_000_000
        var nanos = t.nanoseconds % 1_000_000_000
        if nanos < 0 {
            nanos += 1_000_000_000
            secs -= 1
        }
        var days = secs / 86_400
        var secOfDay = secs % 86_400
        if secOfDay < 0 {
            secOfDay += 86_400
            days -= 1
        }
        (self.year, self.month, self.day) = Self.civil(fromDays: Int(days))
        self.hour = Int(secOfDay / 3600)
        self.minute = Int(secOfDay / 60 % 60)
        self.second = Int(secOfDay % 60)
        self.nanosecond = Int(nanos)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01: plain integer arithmetic, right for
    /// any day a calendar can name (not only those an instant can hold).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `2026-03-02T09:04:12.25Z`: the fraction only when not zero, without trailing zeros, so the
    /// text reads back to exactly the same instant.
    public var iso8601: String {
        var s = "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
        if nanosecond != 0 {
            var fraction = pad(nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            s += "." + fraction
        }
        return s + "Z"
    }
}

/// `YYYY-MM-DD` of a calendar day given as days since 1970-01-01.
public func civilDate(_ day: Int) -> String {
    // A day far enough out to overflow `days + 719_468` is no date anyone wrote.
    let c = CivilTime.civil(fromDays: min(max(day, -(1 << 40)), 1 << 40))
    return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))"
}

/// The dates Vigil takes in, from arguments and files alike. An instant is nanoseconds in 64 bits
/// (about 1677 to 2262, and no two instants more than 292 years apart); these 230 years keep every
/// sum of a date and a duration Vigil allows (a year at most), and every difference of two dates,
/// inside that, so no date that enters can trap later ("someday" as 9999-12-31 did).
public enum SupportedDates {
    public static let years = 1970...2199
    /// For messages: "from 1970-01-01 to 2199-12-31".
    public static let range = "from 1970-01-01 to 2199-12-31"
    /// The same, as seconds since 1970: the first second of the first year to the end of the last.
    public static let seconds: Range<Int64> =
        CivilTime.daysFromCivil(year: years.lowerBound, month: 1, day: 1) * 86_400..<CivilTime.daysFromCivil(
            year: years.upperBound + 1, month: 1, day: 1) * 86_400
    /// The same, as days since 1970-01-01.
    public static let days: ClosedRange<Int> =
        Int(
            CivilTime.daysFromCivil(year: years.lowerBound, month: 1, day: 1))...Int(
            CivilTime.daysFromCivil(year: years.upperBound + 1, month: 1, day: 1) - 1)

    /// The supported day nearest `day`. For dates written before Vigil checked them (an older
    /// version kept "someday" as 9999-12-31): a far deadline reads as the farthest one Vigil plans
    /// with, still far, instead of trapping where it becomes an instant.
    public static func nearest(day: Int) -> Int { min(max(day, days.lowerBound), days.upperBound) }

    /// The supported instant nearest `milliseconds` since 1970 (see `nearest(day:)`), in milliseconds.
    @inlinable public static func nearest(milliseconds: Int64) -> Int64 {
        min(max(milliseconds, firstMillisecond), lastMillisecond)
    }
    public static let firstMillisecond = seconds.lowerBound * 1000
    public static let lastMillisecond = seconds.upperBound * 1000 - 1
}

/// The day (since 1970-01-01) of a strict `YYYY-MM-DD` date, or nil if it is not a real date or
/// lies outside `SupportedDates`.
public func civilDay(_ text: String) -> Int? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
        let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d >= 1,
        SupportedDates.years.contains(y)
    else { return nil }
    guard d <= daysIn(month: m, year: y) else { return nil }
    return Int(CivilTime.daysFromCivil(year: y, month: m, day: d))
}

/// Parses the RFC 3339 timestamps our recordings use: `2026-03-02T09:00:00Z`,
/// with optional fractional seconds and a `Z` or `±HH:MM` offset. Nil outside `SupportedDates`.
public func parseRFC3339(_ text: String) -> Timestamp? { try? readRFC3339(text).get() }

/// Why a text is not a time Vigil takes, for a message that says so (see `readRFC3339`).
public enum TimeTextProblem: Error, Sendable, Equatable {
    /// Not written as RFC 3339 at all.
    case notRFC3339
    /// Written as one, but no such time: 2026-02-30, 24:00, an offset of +99:99.
    case impossible
    /// A real time outside `SupportedDates`.
    case unsupported

    /// What is wrong with `text`, with what to write instead, for a message.
    public func describe(_ text: String) -> String {
        switch self {
        case .notRFC3339: "'\(text.terminalSafe)' is not an RFC 3339 time such as 2026-03-02T09:00:00Z"
        case .impossible:
            "'\(text.terminalSafe)' is no real time (a day past the month's end, an hour past 23, a minute past 59, or a UTC offset past ±23:59)"
        case .unsupported: "'\(text.terminalSafe)' is outside the dates Vigil supports, \(SupportedDates.range)"
        }
    }
}

/// `parseRFC3339` with the reason when the text is not a time Vigil takes.
public func readRFC3339(_ text: String) -> Result<Timestamp, TimeTextProblem> {
    var text = text
    return text.withUTF8 { readRFC3339(utf8: $0) }
}

/// `readRFC3339` of text as UTF-8 bytes, without making a string of them: a gpsd log has a time in
/// every report.
public func readRFC3339(utf8 b: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimeTextProblem> {
    func num(_ from: Int, _ count: Int) -> Int? {
        guard from + count <= b.count else { return nil }
        var v = 0
        for i in from..<(from + count) {
            let c = b[i]
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }
    guard b.count >= 20, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
        b[10] == 84 || b[10] == 116 || b[10] == 32, let h = num(11, 2), b[13] == 58, let mi = num(14, 2),
        b[16] == 58, let s = num(17, 2)
    else { return .failure(.notRFC3339) }
    // A leap second (:60) is read as the second after :59, as POSIX time has no room for it.
    guard (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, year: y), h < 24, mi < 60, s < 61 else { return .failure(.impossible) }
    var i = 19
    var nanos: Int64 = 0
    if i < b.count, b[i] == 46 {
        i += 1
        var scale: Int64 = 100_000_000
        let start = i
        while i < b.count, b[i] >= 48, b[i] <= 57 {
            nanos += Int64(b[i] - 48) * scale
            scale /= 10
            i += 1
        }
        if i == start { return .failure(.notRFC3339) }
    }
    var offsetSeconds = 0
    guard i < b.count else { return .failure(.notRFC3339) }
    if b[i] == 90 || b[i] == 122 {
        i += 1
    } else if b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let om = num(i + 4, 2) {
        guard oh < 24, om < 60 else { return .failure(.impossible) }
        offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
        i += 6
    } else {
        return .failure(.notRFC3339)
    }
    guard i == b.count else { return .failure(.notRFC3339) }
    guard SupportedDates.years.contains(y) else { return .failure(.unsupported) }
    let days = CivilTime.daysFromCivil(year: y, month: mo, day: d)
    let secs = days * 86_400 + Int64(h * 3600 + mi * 60 + s - offsetSeconds)
    // The instant itself inside the supported dates (a local time just after midnight on 1970-01-01
    // east of Greenwich is 1969 in UTC); far inside what 64-bit nanoseconds hold (a fuzzer found
    // that year 1013 crashed the reader here before any range was checked).
    guard SupportedDates.seconds.contains(secs) else { return .failure(.unsupported) }
    return .success(Timestamp(nanoseconds: secs * 1_000_000_000 + nanos))
}

/// Days in a month of the proleptic Gregorian calendar.
public func daysIn(month: Int, year: Int) -> Int {
    // A switch, not a table: an array literal here is allocated on every call (a time a report).
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
}

@usableFromInline func pad(_ v: Int, _ width: Int = 2) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// Human wording for a span of seconds, as used in reasons and summaries:
/// `45 s`, `4 min`, `3 min 20 s`, `1 h 05 min`.
public func humanDuration(_ seconds: Double) -> String {
    let total = Int(saturating: seconds.rounded())
    if total < 60 { return "\(max(total, 0)) s" }
    if total < 3600 {
        let m = total / 60
        let s = total % 60
        return s == 0 ? "\(m) min" : "\(m) min \(s) s"
    }
    let h = total / 3600
    let m = (total % 3600) / 60
    return "\(h) h \(pad(m)) min"
}

/// Whole minutes, rounded down, for reasons that read naturally: "no input for 4 min".
public func humanMinutes(_ seconds: Double) -> String {
    let m = Int(saturating: seconds / 60)
    return m < 1 ? "\(Int(saturating: seconds)) s" : "\(m) min"
}

/// A duration in a reason: seconds under a minute, minutes and seconds under ten minutes, whole
/// minutes after (`45 s`, `2 min 41 s`, `12 min`). A reason stands beside a clock: "1 min in
/// firefox" at 1 min 41 s in firefox contradicted it.
public func reasonDuration(_ seconds: Double) -> String {
    let s = Int(saturating: max(0, seconds).rounded(.down))
    if s < 60 { return "\(s) s" }
    if s >= 600 || s % 60 == 0 { return "\(s / 60) min" }
    return "\(s / 60) min \(s % 60) s"
}

/// `HH:MM:SS` of an elapsed span (hours grow past 24 if they must).
public func clockDuration(_ seconds: Double) -> String {
    let total = max(0, Int(saturating: seconds.rounded(.down)))
    let hours = total / 3600
    guard hours < 100 else { return "\(hours):\(pad(total / 60 % 60)):\(pad(total % 60))" }
    // Written digit by digit: a replay prints one for every line of its timeline.
    return String(unsafeUninitializedCapacity: 8) { out in
        func two(_ v: Int, at i: Int) {
            out[i] = UInt8(ascii: "0") + UInt8(v / 10)
            out[i + 1] = UInt8(ascii: "0") + UInt8(v % 10)
        }
        two(hours, at: 0)
        out[2] = UInt8(ascii: ":")
        two(total / 60 % 60, at: 3)
        out[5] = UInt8(ascii: ":")
        two(total % 60, at: 6)
        return 8
    }
}
