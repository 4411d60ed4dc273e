import Testing

@testable import VigilCore

/// The one date grammar (docs/dates.md), on fixed days worked out by hand.
@Suite struct DateExpressionTests {
    /// Tuesday 2026-11-24.
    let tuesday = civilDay("2026-11-24")!

    func day(_ s: String) -> Int { civilDay(s)! }

    func past(_ text: String, today: Int? = nil, weekStart: Int = 1) -> DateValue? {
        try? DateExpression.parse(text, today: today ?? tuesday, sense: .past, weekStart: weekStart).get()
    }

    func future(_ text: String, today: Int? = nil) -> DateValue? {
        try? DateExpression.parse(text, today: today ?? tuesday, sense: .future).get()
    }

    func problem(_ text: String) -> DateProblem? {
        if case .failure(let p) = DateExpression.parse(text, today: tuesday, sense: .past) { return p }
        return nil
    }

    @Test func words() {
        #expect(past("today") == .day(tuesday))
        #expect(past("Yesterday") == .day(tuesday - 1))
        #expect(past(" tomorrow ") == .day(tuesday + 1))
        #expect(isoWeekday(ofDay: tuesday) == 2)
    }

    @Test func isoDatesAndTimes() {
        #expect(past("2026-11-24") == .day(tuesday))
        #expect(past("2026-11-24T14:30") == .localTime(day: tuesday, second: 14 * 3600 + 30 * 60))
        #expect(past("2026-11-24 14:30:15") == .localTime(day: tuesday, second: 14 * 3600 + 30 * 60 + 15))
        #expect(past("2026-11-24 9:05") == .localTime(day: tuesday, second: 9 * 3600 + 5 * 60))
        #expect(past("14:30") == .localTime(day: tuesday, second: 14 * 3600 + 30 * 60), "a time alone is today")
        #expect(past("2026-11-24T14:30:00Z") == .instant(parseRFC3339("2026-11-24T14:30:00Z")!))
        #expect(past("2026-11-24T14:30+01:00") == .instant(parseRFC3339("2026-11-24T13:30:00Z")!))
        #expect(past("2026-11-24 14:30:00.5-0230") == .instant(parseRFC3339("2026-11-24T17:00:00Z")!), "a fraction is dropped")
        #expect(past("2028-02-29") == .day(day("2028-02-29")), "a leap day")
        #expect(problem("2026-02-29") == .impossible, "2026 is no leap year")
        #expect(problem("2026-11-31") == .impossible)
        #expect(problem("2026-11-24 24:00") == .impossible)
        #expect(problem("2026-11-24T12:00+25:00") == .impossible)
        #expect(problem("2300-01-01") == .unsupported)
        #expect(problem("1969-12-31") == .unsupported)
    }

    /// Past: the last such day, today included. Future: the next one, after today.
    @Test func weekdays() {
        #expect(past("tuesday") == .day(tuesday))
        #expect(past("monday") == .day(tuesday - 1))
        #expect(past("Wed") == .day(tuesday - 6))
        #expect(past("sun") == .day(tuesday - 2))
        #expect(future("tuesday") == .day(tuesday + 7))
        #expect(future("wednesday") == .day(tuesday + 1))
        #expect(future("mon") == .day(tuesday + 6))
        #expect(DateExpression.weekday(named: "SATURDAY") == 6 && DateExpression.weekday(named: "su") == nil)
    }

    @Test func relativeSpans() {
        #expect(past("3d") == .day(tuesday - 3))
        #expect(future("3d") == .day(tuesday + 3))
        #expect(past("2w") == .day(tuesday - 14))
        #expect(past("2 weeks") == .day(tuesday - 14))
        #expect(past("1mo") == .day(day("2026-10-24")))
        #expect(past("1y") == .day(day("2025-11-24")))
        // Month ends: the same day, or the month's last when it is shorter.
        #expect(past("1mo", today: day("2026-03-31")) == .day(day("2026-02-28")))
        #expect(past("1mo", today: day("2028-03-31")) == .day(day("2028-02-29")))
        #expect(past("1y", today: day("2028-02-29")) == .day(day("2027-02-28")))
        #expect(future("1mo", today: day("2026-12-31")) == .day(day("2027-01-31")), "over the year's end")
        #expect(past("2mo", today: day("2026-01-15")) == .day(day("2025-11-15")))
        #expect(problem("1m") == .unknown, "m is minutes elsewhere in Vigil; months are mo")
        #expect(problem("d") == .unknown)
        #expect(problem("-3d") == .unknown)
        #expect(problem("99999d") == .unsupported)
    }

    @Test func ranges() {
        #expect(past(":today") == .range(tuesday...tuesday))
        #expect(past(":day") == .range(tuesday...tuesday))
        #expect(past(":yesterday") == .range((tuesday - 1)...(tuesday - 1)))
        // Weeks from Monday, Sunday or Saturday.
        #expect(past(":week") == .range((tuesday - 1)...(tuesday + 5)))
        #expect(past(":week", weekStart: 7) == .range((tuesday - 2)...(tuesday + 4)))
        #expect(past(":week", weekStart: 6) == .range((tuesday - 3)...(tuesday + 3)))
        #expect(past(":lastweek") == .range((tuesday - 8)...(tuesday - 2)))
        #expect(past(":lastweek", weekStart: 7) == .range((tuesday - 9)...(tuesday - 3)))
        // On the week's first day, the week starts today.
        #expect(past(":week", today: tuesday - 2, weekStart: 7) == .range((tuesday - 2)...(tuesday + 4)))
        #expect(past(":month") == .range(day("2026-11-01")...day("2026-11-30")))
        #expect(past(":lastmonth") == .range(day("2026-10-01")...day("2026-10-31")))
        #expect(past(":quarter") == .range(day("2026-10-01")...day("2026-12-31")))
        #expect(past(":lastquarter") == .range(day("2026-07-01")...day("2026-09-30")))
        #expect(past(":year") == .range(day("2026-01-01")...day("2026-12-31")))
        #expect(past(":lastyear") == .range(day("2025-01-01")...day("2025-12-31")))
        // Over the year's end, and February of a leap year.
        let january = day("2027-01-10")
        #expect(past(":lastmonth", today: january) == .range(day("2026-12-01")...day("2026-12-31")))
        #expect(past(":lastquarter", today: january) == .range(day("2026-10-01")...day("2026-12-31")))
        #expect(past(":lastweek", today: day("2027-01-01")) == .range(day("2026-12-21")...day("2026-12-27")))
        #expect(past(":lastmonth", today: day("2028-03-01")) == .range(day("2028-02-01")...day("2028-02-29")))
        #expect(problem(":fortnight") == .unknown)
        #expect(DateExpression.usesWeekStart(" :Week") && !DateExpression.usesWeekStart(":month"))
    }

    @Test func theLastSpan() {
        #expect(DateExpression.firstDay(ofLast: "7d", today: tuesday) == tuesday - 6)
        #expect(DateExpression.firstDay(ofLast: "2w", today: tuesday) == tuesday - 13)
        #expect(DateExpression.firstDay(ofLast: "1mo", today: tuesday) == day("2026-10-25"))
        #expect(DateExpression.firstDay(ofLast: "1y", today: tuesday) == day("2025-11-25"))
        #expect(DateExpression.firstDay(ofLast: "0d", today: tuesday) == nil)
        #expect(DateExpression.firstDay(ofLast: "all", today: tuesday) == nil)
        #expect(DateExpression.firstDay(ofLast: ":week", today: tuesday) == nil)
    }

    @Test func badWordsSayWhatIsTaken() {
        for bad in ["", "someday", "next week", "30/11/2026", "2026-11-30 9", "2026-11-30T", "12", "mo", ":", "2026-11-24 14:30 +1"] {
            #expect(problem(bad) != nil, "\(bad)")
        }
        let message = DateExpression.describe(.unknown, "nope\u{1b}[2J", option: "--from", accepts: DateExpression.forms(.past, ranges: true))
        #expect(
            message
                == "--from: 'nope\\u{1B}[2J' is not a date; use YYYY-MM-DD, today, yesterday, a weekday (monday: the last one, today included), 3d, 2w, 1mo or 1y ago, or a range such as :week, :lastmonth or :year."
        )
        #expect(
            DateExpression.describe(.unsupported, "2300-01-01", option: "--due", accepts: "")
                == "--due: '2300-01-01' is outside the dates Vigil supports, from 1970-01-01 to 2199-12-31.")
    }
}
