import Glibc
import LogServices
import VigilCore
import VigilPlanner

/// The dates options take, read in one place by one grammar (`DateExpression`, docs/dates.md),
/// with one message for a bad value: the option, what was typed and the forms it takes (exit 64).
enum DateOption {
    /// The local day `text` names for an option about the past (`monday` is the last Monday, today
    /// included; `3d` three days ago). A range (`:lastweek`) is its first day, or with `end` its
    /// last; without `ranges` a range is refused.
    static func day(_ text: String, option: String, now: LocalNow, common: CommonOptions, ranges: Bool = false, end: Bool = false) throws -> Int {
        switch try value(text, option: option, now: now, common: common, sense: .past, accepts: DateExpression.forms(.past, ranges: ranges)) {
        case .day(let d), .localTime(let d, _): return d
        case .instant(let t): return now.localDay(t)
        case .range(let r):
            guard ranges else { throw refusal(.unknown, text, option: option, accepts: DateExpression.forms(.past)) }
            return end ? r.upperBound : r.lowerBound
        }
    }

    /// The local days `text` names for a period option (`--period`): a range such as `:week`, or
    /// any one day of `day`.
    static func period(_ text: String, option: String, now: LocalNow, common: CommonOptions) throws -> ClosedRange<Int> {
        switch try value(text, option: option, now: now, common: common, sense: .past, accepts: DateExpression.forms(.past, ranges: true)) {
        case .day(let d), .localTime(let d, _): return d...d
        case .instant(let t): return now.localDay(t)...now.localDay(t)
        case .range(let r): return r
        }
    }

    /// A deadline (`--due`), looking ahead: `friday` is the next Friday, `3d` in three days, a
    /// range its last day (`:week`: by the end of this week).
    static func deadline(_ text: String, option: String, now: LocalNow, common: CommonOptions) throws -> Deadline {
        let weekStart = DateExpression.usesWeekStart(text) ? try firstWeekday(common) : 1
        switch Deadline.parse(text, today: now.day, weekStart: weekStart, localMinute: now.localMinute) {
        case .success(let d): return d
        case .failure(let problem): throw refusal(problem, text, option: option, accepts: DateExpression.forms(.future, times: true))
        }
    }

    /// `text` as typed, with the day it named when that is not how it is written:
    /// `monday (2026-11-23)`, `2026-11-23`.
    static func shown(_ text: String, _ day: Int) -> String {
        civilDay(text) == day ? text.terminalSafe : "\(text.terminalSafe) (\(civilDate(day)))"
    }

    private static func value(
        _ text: String, option: String, now: LocalNow, common: CommonOptions, sense: DateSense, accepts: String
    ) throws -> DateValue {
        let weekStart = DateExpression.usesWeekStart(text) ? try firstWeekday(common) : 1
        switch DateExpression.parse(text, today: now.day, sense: sense, weekStart: weekStart) {
        case .success(let v): return v
        case .failure(let problem): throw refusal(problem, text, option: option, accepts: accepts)
        }
    }

    private static func refusal(_ problem: DateProblem, _ text: String, option: String, accepts: String) -> Failure {
        Failure(DateExpression.describe(problem, text, option: option, accepts: accepts), code: .usage)
    }

    /// The ISO weekday weeks start on: `calendar.week_starts`, else the locale's.
    static func firstWeekday(_ common: CommonOptions) throws -> Int {
        try common.loadConfiguration().calendar.weekStarts ?? localeFirstWeekday()
    }

    /// The first weekday of the locale's calendar (LC_TIME), as glibc keeps it: `first_weekday`
    /// counted from the weekday of `week_1stday` (a date, 19971130, a Sunday, in most locales).
    /// Monday for the C and POSIX locales, which say Sunday only because they say nothing.
    static func localeFirstWeekday() -> Int {
        let saved = setlocale(LC_TIME, nil).map { String(cString: $0) }
        defer { if let saved { setlocale(LC_TIME, saved) } }
        guard let name = setlocale(LC_TIME, "").map({ String(cString: $0) }), name != "C", name != "POSIX", !name.hasPrefix("C.")
        else { return 1 }
        guard let first = nl_langinfo(nl_item(_NL_TIME_FIRST_WEEKDAY)), (1...7).contains(Int(first[0])) else { return 1 }
        // week_1stday is a number, not a string: the pointer's own bits (glibc's union of the two).
        let word = Int(UInt32(truncatingIfNeeded: Int(bitPattern: nl_langinfo(nl_item(_NL_TIME_WEEK_1STDAY)))))
        guard let base = civilDay("\(word / 10000)-\(pad2(word / 100 % 100))-\(pad2(word % 100))") else { return 1 }
        return (isoWeekday(ofDay: base) - 1 + Int(first[0]) - 1) % 7 + 1
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
