/// The one grammar of dates and periods every option takes (`docs/dates.md`): ISO dates and
/// times, `today`/`yesterday`/`tomorrow`, weekday names, `3d`/`2w`/`1mo`/`1y`, and
/// Timewarrior's ranges `:week`, `:lastmonth` ... All in local days (days since 1970-01-01 on the
/// person's calendar); turning a local time into an instant needs the time zone, which is the
/// caller's.

/// Whether an option looks back (a report's first day, the day a habit is marked) or ahead (a
/// task's deadline): decides which Friday `friday` is, and which way `3d` counts.
public enum DateSense: Sendable {
    /// The most recent such weekday, today included; `3d` is three days ago.
    case past
    /// The next such weekday after today; `3d` is in three days.
    case future
}

/// What a date text names.
public enum DateValue: Hashable, Sendable {
    /// A whole local day.
    case day(Int)
    /// A local date and time: the day, and seconds after local midnight.
    case localTime(day: Int, second: Int)
    /// A time written with `Z` or a UTC offset: an instant, whatever the local zone.
    case instant(Timestamp)
    /// A period of whole local days (`:week`, `:lastmonth` ...).
    case range(ClosedRange<Int>)
}

/// Why a text is no date, for a message (see `DateExpression.describe`).
public enum DateProblem: Error, Hashable, Sendable {
    /// Not written in any form the grammar knows.
    case unknown
    /// Written as a date, but there is no such day or time (2026-02-30, 24:00).
    case impossible
    /// A real date outside `SupportedDates`.
    case unsupported
}

/// ISO weekday of a day since 1970-01-01: 1 Monday ... 7 Sunday (1970-01-01 was a Thursday).
public func isoWeekday(ofDay day: Int) -> Int { ((day % 7 + 7) % 7 + 3) % 7 + 1 }

public enum DateExpression {
    /// The weekday names, ISO numbered (1 Monday), with their three-letter forms.
    public static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The ranges, as `:name`.
    public static let ranges = [
        ":today", ":day", ":yesterday", ":week", ":lastweek", ":month", ":lastmonth", ":quarter", ":lastquarter", ":year", ":lastyear",
    ]

    /// ISO weekday (1 Monday ... 7 Sunday) of a name such as `monday` or `mon`, any case.
    public static func weekday(named text: String) -> Int? {
        let t = text.lowercased()
        guard t.count >= 3 else { return nil }
        return weekdays.firstIndex { $0 == t || $0.prefix(3) == t }.map { $0 + 1 }
    }

    /// Whether `text` is a range that needs the first weekday (`:week`, `:lastweek`): a caller can
    /// leave reading the locale and the config for when it does.
    public static func usesWeekStart(_ text: String) -> Bool {
        let t = normalized(text)
        return t == ":week" || t == ":lastweek"
    }

    /// What `text` names, on the local day `today`.
    ///
    /// - Parameters: sense: which way weekday names and `3d` point; weekStart: the ISO weekday a
    ///   week starts on (1 Monday, 7 Sunday), for `:week` and `:lastweek`.
    public static func parse(_ text: String, today: Int, sense: DateSense, weekStart: Int = 1) -> Result<DateValue, DateProblem> {
        let t = normalized(text)
        guard !t.isEmpty else { return .failure(.unknown) }
        let value: DateValue
        switch t {
        case "today": value = .day(today)
        case "yesterday": value = .day(today - 1)
        case "tomorrow": value = .day(today + 1)
        default:
            if t.hasPrefix(":") {
                guard let r = range(t, today: today, weekStart: weekStart) else { return .failure(.unknown) }
                value = .range(r)
            } else if let w = weekday(named: t) {
                let now = isoWeekday(ofDay: today)
                value = .day(sense == .past ? today - (now - w + 7) % 7 : today + ((w - now + 6) % 7 + 1))
            } else if let day = relative(t, today: today, sense: sense) {
                value = .day(day)
            } else if t.first?.isNumber == true {
                switch isoDateTime(t, today: today) {
                case .success(let v): value = v
                case .failure(let problem): return .failure(problem)
                }
            } else {
                return .failure(.unknown)
            }
        }
        return supported(value) ? .success(value) : .failure(.unsupported)
    }

    /// The first day of "the last `text`" ending today, for `report --last`: `7d` is the seven days
    /// ending today (today - 6 on), `2w` fourteen, `1mo` the days after this day last month, `1y`
    /// the days after this day last year. Nil for anything else (`all` is the caller's).
    public static func firstDay(ofLast text: String, today: Int) -> Int? {
        let t = normalized(text)
        guard let (n, unit) = amount(t), n >= 1 else { return nil }
        let first =
            unit == .day || unit == .week ? today - n * (unit == .week ? 7 : 1) + 1 : shifted(today, months: -n * (unit == .year ? 12 : 1)) + 1
        return SupportedDates.days.contains(first) ? first : nil
    }

    /// The forms an option takes, for its help and its errors.
    public static func forms(_ sense: DateSense, times: Bool = false, ranges: Bool = false) -> String {
        var out = times ? "YYYY-MM-DD, \"YYYY-MM-DD HH:MM\" (local time), HH:MM, " : "YYYY-MM-DD, "
        switch sense {
        case .past: out += "today, yesterday, a weekday (monday: the last one, today included), 3d, 2w, 1mo or 1y ago"
        case .future: out += "today, tomorrow, a weekday (friday: the next one, after today), or in 3d, 2w, 1mo or 1y"
        }
        return ranges ? out + ", or a range such as :week, :lastmonth or :year" : out
    }

    /// What is wrong with `text` for `option`, with the forms it takes.
    public static func describe(_ problem: DateProblem, _ text: String, option: String, accepts: String) -> String {
        switch problem {
        case .unknown: "\(option): '\(text.terminalSafe)' is not a date; use \(accepts)."
        case .impossible:
            "\(option): '\(text.terminalSafe)' is no real date or time (a month past 12, a day past the month's end, an hour past 23, a minute past 59)."
        case .unsupported: "\(option): '\(text.terminalSafe)' is outside the dates Vigil supports, \(SupportedDates.range)."
        }
    }

    // MARK: - The parts

    private static func normalized(_ text: String) -> String {
        var t = Substring(text.lowercased())
        while t.first == " " || t.first == "\t" { t.removeFirst() }
        while t.last == " " || t.last == "\t" { t.removeLast() }
        return String(t)
    }

    private static func supported(_ value: DateValue) -> Bool {
        switch value {
        case .day(let d), .localTime(let d, _): SupportedDates.days.contains(d)
        case .range(let r): SupportedDates.days.contains(r.lowerBound) && SupportedDates.days.contains(r.upperBound)
        case .instant: true  // readRFC3339 checked it
        }
    }

    private enum Unit { case day, week, month, year }

    /// `3d`, `2w`, `1mo`, `1y` (also `3 days`, `2 weeks`, `1 month`, `1 year`).
    private static func amount(_ t: String) -> (Int, Unit)? {
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let n = Int(digits) else { return nil }
        let unit: Unit
        switch t.dropFirst(digits.count).drop(while: { $0 == " " }) {
        case "d", "day", "days": unit = .day
        case "w", "week", "weeks": unit = .week
        case "mo", "month", "months": unit = .month
        case "y", "year", "years": unit = .year
        default: return nil
        }
        return (n, unit)
    }

    private static func relative(_ t: String, today: Int, sense: DateSense) -> Int? {
        guard let (n, unit) = amount(t) else { return nil }
        let sign = sense == .past ? -1 : 1
        switch unit {
        case .day: return today + sign * n
        case .week: return today + sign * 7 * n
        case .month: return shifted(today, months: sign * n)
        case .year: return shifted(today, months: sign * 12 * n)
        }
    }

    /// The same day of the month `months` later (or earlier), or that month's last day when it is
    /// shorter (2026-03-31 less a month is 2026-02-28; 2028-02-29 less a year is 2027-02-28).
    static func shifted(_ day: Int, months: Int) -> Int {
        let c = CivilTime.civil(fromDays: day)
        let index = c.year * 12 + (c.month - 1) + months
        let (y, m) = (index >= 0 ? index / 12 : (index - 11) / 12, (index % 12 + 12) % 12 + 1)
        return Int(CivilTime.daysFromCivil(year: y, month: m, day: min(c.day, daysIn(month: m, year: y))))
    }

    private static func range(_ t: String, today: Int, weekStart: Int) -> ClosedRange<Int>? {
        let c = CivilTime.civil(fromDays: today)
        func month(_ y: Int, _ m: Int, count: Int = 1) -> ClosedRange<Int> {
            let first = Int(CivilTime.daysFromCivil(year: y, month: m, day: 1))
            return first...(shifted(first, months: count) - 1)
        }
        let weekFirst = today - (isoWeekday(ofDay: today) - weekStart + 7) % 7
        let quarterMonth = (c.month - 1) / 3 * 3 + 1
        switch t {
        case ":today", ":day": return today...today
        case ":yesterday": return (today - 1)...(today - 1)
        case ":week": return weekFirst...(weekFirst + 6)
        case ":lastweek": return (weekFirst - 7)...(weekFirst - 1)
        case ":month": return month(c.year, c.month)
        case ":lastmonth": return c.month == 1 ? month(c.year - 1, 12) : month(c.year, c.month - 1)
        case ":quarter": return month(c.year, quarterMonth, count: 3)
        case ":lastquarter": return quarterMonth == 1 ? month(c.year - 1, 10, count: 3) : month(c.year, quarterMonth - 3, count: 3)
        case ":year": return month(c.year, 1, count: 12)
        case ":lastyear": return month(c.year - 1, 1, count: 12)
        default: return nil
        }
    }

    /// `2026-11-24`, `2026-11-24T14:30`, `2026-11-24 14:30:05`, with `Z` or an offset
    /// (`+01:00`, `+0100`, `+01`) for an instant; `14:30` alone is today at 14:30.
    private static func isoDateTime(_ t: String, today: Int) -> Result<DateValue, DateProblem> {
        let separator = t.firstIndex { $0 == "t" || $0 == " " }
        let datePart = separator.map { String(t[..<$0]) } ?? t
        let timePart = separator.map { String(t[t.index(after: $0)...]) }
        if timePart == nil, datePart.contains(":") {
            // A time alone: today.
            return clock(datePart).map { .localTime(day: today, second: $0) }
        }
        let parts = datePart.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, let y = Int(parts[0]), let m = Int(parts[1]),
            let d = Int(parts[2])
        else { return .failure(.unknown) }
        guard (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return .failure(.impossible) }
        guard SupportedDates.years.contains(y) else { return .failure(.unsupported) }
        let day = Int(CivilTime.daysFromCivil(year: y, month: m, day: d))
        guard var time = timePart else { return .success(.day(day)) }
        // An offset: Z, or a sign after the clock (not the date's dashes, which are gone).
        var offset: Int?
        if time.hasSuffix("z") {
            time.removeLast()
            offset = 0
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let o = time[time.index(after: sign)...].filter { $0 != ":" }
            guard o.count == 2 || o.count == 4, o.allSatisfy({ $0.isASCII && $0.isNumber }), let oh = Int(o.prefix(2)),
                let om = Int(o.dropFirst(2).isEmpty ? "0" : String(o.dropFirst(2)))
            else { return .failure(.unknown) }
            guard oh < 24, om < 60 else { return .failure(.impossible) }
            offset = (oh * 3600 + om * 60) * (time[sign] == "-" ? -1 : 1)
            time = String(time[..<sign])
        }
        let second: Int
        switch clock(time) {
        case .success(let s): second = s
        case .failure(let problem): return .failure(problem)
        }
        guard let offset else { return .success(.localTime(day: day, second: second)) }
        let secs = Int64(day) * 86_400 + Int64(second - offset)
        guard SupportedDates.seconds.contains(secs) else { return .failure(.unsupported) }
        return .success(.instant(Timestamp(nanoseconds: secs * 1_000_000_000)))
    }

    /// `HH:MM` or `HH:MM:SS` (an hour of one or two digits; a fraction of the second is dropped),
    /// as seconds after midnight.
    private static func clock(_ text: String) -> Result<Int, DateProblem> {
        let whole = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        if whole.count == 2, whole[1].isEmpty || !whole[1].allSatisfy({ $0.isASCII && $0.isNumber }) { return .failure(.unknown) }
        let p = whole[0].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(p.count), (1...2).contains(p[0].count), p.dropFirst().allSatisfy({ $0.count == 2 }),
            p.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let h = Int(p[0]), let m = Int(p[1])
        else { return .failure(.unknown) }
        let s = p.count == 3 ? Int(p[2]) ?? 0 : 0
        guard h < 24, m < 60, s < 60 else { return .failure(.impossible) }
        return .success(h * 3600 + m * 60 + s)
    }
}
