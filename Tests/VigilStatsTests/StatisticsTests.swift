import Foundation
import ReportViews
import Testing
import VigilCore

@testable import VigilStats

/// Figures worked out by hand for small logs: DST nights, midnight, the period's edges, ties, the
/// 21/90 streak arithmetic and achievement dates. (Large simulated logs are checked against an
/// independent Python computation in the CLI tests.)
@Suite struct StatisticsTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    func ms(_ text: String) -> Int64 { parseRFC3339(text)!.millisecondsSinceEpoch }
    func day(_ text: String) -> Int { Statistics.day(from: text)! }

    /// A session judged throughout (no pauses, no gaps).
    func session(
        _ facts: inout StatisticsFacts, id: Int64, _ from: String, _ to: String, task: String? = nil, outcome: SessionFacts.Outcome = .completed,
        episodes: [(String, String, Cause)] = [], alarms: [(episode: Int, at: String, cleared: String?)] = [], pauses: [(String, String)] = [],
        activities: [(String, String, ApplicationKey?)] = []
    ) {
        let whole = [Span(ms(from), ms(to))]
        let active = subtract(pauses.map { Span(ms($0.0), ms($0.1)) }, from: whole)
        facts.append(
            id: id, task: task, start: ms(from), end: ms(to), outcome: outcome, active: active,
            episodes: episodes.enumerated().map {
                EpisodeFacts(number: $0.offset + 1, span: Span(ms($0.element.0), ms($0.element.1)), cause: $0.element.2)
            },
            alarms: alarms.map { AlarmFacts(episode: $0.episode, at: ms($0.at), repeatCount: 0, back: $0.cleared.map(ms)) },
            activities: activities.map { (Span(ms($0.0), ms($0.1)), $0.2) })
    }

    /// 2026-10-25 in Berlin: 01:30 CEST to 03:30 CET is three real hours, two of them in hour 2.
    /// An episode from 02:10 to 02:20 CET (the second 2 o'clock) with an alarm at 02:12.
    @Test func aSessionThroughTheFallBackNight() {
        var facts = StatisticsFacts()
        session(
            &facts, id: 1, "2026-10-24T23:30:00Z", "2026-10-25T02:30:00Z",
            episodes: [("2026-10-25T01:10:00Z", "2026-10-25T01:20:00Z", .noise)],
            alarms: [(1, "2026-10-25T01:12:00Z", "2026-10-25T01:20:00Z")])
        let r = Statistics.report(facts, timeZone: berlin, from: day("2026-10-25"), to: day("2026-10-25"))
        #expect(r.hours[1].focusedMinutes == 30)
        #expect(r.hours[2].focusedMinutes == 110)
        #expect(r.hours[2].distractedMinutes == 10)
        #expect(r.hours[2].episodes == 1)
        #expect(r.hours[3].focusedMinutes == 30)
        #expect(r.days.map(\.date) == ["2026-10-25"])
        #expect(r.days[0].focusedMinutes == 170 && r.days[0].distractedMinutes == 10 && r.days[0].procrastinationFree == false)
        #expect(r.weekdays[6].focusedMinutes == 170)  // a Sunday
        #expect(r.heatmap[6][2] == 110)
        #expect(r.totals.activeMinutes == 180)
        #expect(r.totals.alarms == 1)
        #expect(r.totals.alarmsPerFocusedHour == (1 / (170.0 / 60) * 10_000).rounded() / 10_000)
        #expect(r.totals.recovery.count == 1 && r.totals.recovery.meanS == 480 && r.totals.recovery.medianS == 480)
        // Only hour 2 has an hour of judged time: it is the best and the most procrastinated, and
        // with one candidate no hour is named the worst.
        #expect(r.highlights.mostProductiveHour == 2 && r.highlights.leastProductiveHour == nil && r.highlights.mostProcrastinatedHour == 2)
        #expect(r.highlights.hoursWithEnoughData == 1 && r.highlights.minimumJudgedMinutes == 60)
        #expect(r.hours[2].rates.judgedMinutes == 120 && r.hours[2].rates.focusShare == 0.9167 && r.hours[2].rates.enoughData)
        #expect(r.hours[2].rates.distractedPerJudgedHour == 5 && r.hours[2].rates.episodesPerJudgedHour == 0.5)
        #expect(r.hours[1].rates.focusShare == 1 && !r.hours[1].rates.enoughData)
        #expect(r.episodes.byCause.map(\.count) == [0, 0, 1, 0, 0])
        #expect(r.episodes.byHour[2].count == 1 && r.episodes.byHour[2].meanS == 600)
        #expect(r.timeZone == "Europe/Berlin")
    }

    /// Does acting help? Three returns: episode 1 acted on at its second alarm (09:12, back at
    /// 09:13: 1 min after the action), episode 2 with alarms alone (first alarm 10:05, back at
    /// 10:09: 4 min), episode 3 acted on only after the person was back (an action at 11:20 after a
    /// return at 11:15 is no action before it: 11:10 to 11:15, alone, 5 min); episode 4 acted on but
    /// ended by a pause, no return: counted nowhere.
    @Test func returnsAfterAnActionAndAfterAlarmsAloneAreToldApart() {
        let facts = actingFacts(actions: true)
        let r = Statistics.report(facts, timeZone: berlin, from: day("2026-06-01"), to: day("2026-06-01"))
        #expect(r.totals.recovery.count == 3)
        #expect(r.totals.recoveryAfterAction.count == 1 && r.totals.recoveryAfterAction.medianS == 60)
        #expect(r.totals.recoveryAfterAlarmAlone.count == 2 && r.totals.recoveryAfterAlarmAlone.medianS == 270)
        let text = r.rendered(as: .text, width: 200)
        #expect(text.contains("back 1 min after an action (median of 1 episode) · 4 min 30 s after an alarm alone (median of 2)"), "\(text)")
        // Without an action there is nothing to compare: no line.
        let none = Statistics.report(actingFacts(actions: false), timeZone: berlin, from: day("2026-06-01"), to: day("2026-06-01"))
        #expect(none.totals.recoveryAfterAction.count == 0 && none.totals.recoveryAfterAlarmAlone.count == 3)
        #expect(!none.rendered(as: .text, width: 200).contains("after an action"))
    }

    func actingFacts(actions: Bool) -> StatisticsFacts {
        var facts = StatisticsFacts()
        facts.append(
            id: 1, task: nil, start: ms("2026-06-01T09:00:00Z"), end: ms("2026-06-01T12:00:00Z"), outcome: .completed,
            active: [Span(ms("2026-06-01T09:00:00Z"), ms("2026-06-01T12:00:00Z"))],
            episodes: [
                EpisodeFacts(number: 1, span: Span(ms("2026-06-01T09:08:00Z"), ms("2026-06-01T09:13:00Z")), cause: .app),
                EpisodeFacts(number: 2, span: Span(ms("2026-06-01T10:03:00Z"), ms("2026-06-01T10:09:00Z")), cause: .away),
                EpisodeFacts(number: 3, span: Span(ms("2026-06-01T11:08:00Z"), ms("2026-06-01T11:15:00Z")), cause: .app),
                EpisodeFacts(number: 4, span: Span(ms("2026-06-01T11:30:00Z"), ms("2026-06-01T11:40:00Z")), cause: .app),
            ],
            alarms: [
                AlarmFacts(episode: 1, at: ms("2026-06-01T09:10:00Z"), repeatCount: 0, back: ms("2026-06-01T09:13:00Z")),
                AlarmFacts(episode: 1, at: ms("2026-06-01T09:12:00Z"), repeatCount: 0, back: ms("2026-06-01T09:13:00Z"), acted: actions),
                AlarmFacts(episode: 2, at: ms("2026-06-01T10:05:00Z"), repeatCount: 0, back: ms("2026-06-01T10:09:00Z")),
                AlarmFacts(episode: 3, at: ms("2026-06-01T11:10:00Z"), repeatCount: 0, back: ms("2026-06-01T11:15:00Z")),
                AlarmFacts(episode: 3, at: ms("2026-06-01T11:20:00Z"), repeatCount: 0, back: ms("2026-06-01T11:15:00Z"), acted: actions),
                AlarmFacts(episode: 4, at: ms("2026-06-01T11:32:00Z"), repeatCount: 0, back: nil, acted: actions),
            ],
            activities: [])
        return facts
    }

    /// 2026-03-08 in New York: 01:30 EST to 03:30 EDT is one real hour; hour 2 never happens.
    @Test func aSessionThroughTheSpringForwardNight() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z")
        let r = Statistics.report(facts, timeZone: newYork, from: day("2026-03-08"), to: day("2026-03-08"))
        #expect(r.hours[1].focusedMinutes == 30)
        #expect(r.hours[2].focusedMinutes == 0)
        #expect(r.hours[3].focusedMinutes == 30)
        #expect(r.totals.focusedMinutes == 60)
        #expect(r.hours[2].rates.focusShare == nil && r.hours[2].rates.judgedMinutes == 0, "hour 2 had no judged time")
        #expect(r.highlights.mostProductiveHour == nil && r.highlights.leastProductiveHour == nil, "no hour has an hour of judged time")
        #expect(r.highlights.hoursWithEnoughData == 0)
    }

    /// 23:00 to 01:00 local splits across two days; a period that starts at midnight keeps only
    /// the second half, but counts the session on the day it started only if that is inside.
    @Test func midnightAndThePeriodsEdges() {
        var facts = StatisticsFacts()
        session(
            &facts, id: 1, "2026-06-01T21:00:00Z", "2026-06-01T23:00:00Z", task: "thesis",
            episodes: [("2026-06-01T21:50:00Z", "2026-06-01T22:20:00Z", .away)])  // 23:50-00:20 CEST
        let both = Statistics.report(facts, timeZone: berlin, from: day("2026-06-01"), to: day("2026-06-02"))
        #expect(both.days.map(\.focusedMinutes) == [50, 40])
        #expect(both.days.map(\.distractedMinutes) == [10, 20])
        #expect(both.days.map(\.episodes) == [1, 0])
        #expect(both.days.map(\.sessions) == [1, 0])
        // The second day had judged time and no episode started on it: procrastination-free.
        #expect(both.days.map(\.procrastinationFree) == [false, true])
        #expect(both.episodes.byTask.map(\.key) == ["thesis"])

        let second = Statistics.report(facts, timeZone: berlin, from: day("2026-06-02"), to: day("2026-06-02"))
        #expect(second.totals.sessions == 0)
        #expect(second.totals.focusedMinutes == 40 && second.totals.distractedMinutes == 20)
        #expect(second.episodes.count == 0)

        let first = Statistics.report(facts, timeZone: berlin, from: day("2026-06-01"), to: day("2026-06-01"))
        #expect(first.totals.sessions == 1)
        #expect(first.totals.focusedMinutes == 50, "time after the period's end is not counted")
        #expect(first.episodes.count == 1 && first.episodes.longestS == 1800)
    }

    @Test func pausesAreNeitherFocusNorDistraction() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-06-01T08:00:00Z", "2026-06-01T09:00:00Z", pauses: [("2026-06-01T08:20:00Z", "2026-06-01T08:35:00Z")])
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-01"))
        #expect(r.totals.focusedMinutes == 45 && r.totals.activeMinutes == 45)
        // Two unbroken stretches of 20 and 25 minutes: the second reaches 25 exactly, which counts.
        #expect(r.achievements.map(\.id).contains("deep_focus_25"))
        #expect(!r.achievements.map(\.id).contains("deep_focus_90"))
    }

    /// Equal focus shares go to the hour with more judged time behind it, then to the earlier one;
    /// hours that all focus alike have a best and no worst (it would be the best hour again).
    @Test func tiesGoToMoreDataThenTheEarlierHour() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-06-01T09:00:00Z", "2026-06-01T10:00:00Z")  // Monday, all focused
        session(&facts, id: 2, "2026-06-02T14:00:00Z", "2026-06-02T15:00:00Z")  // Tuesday
        session(&facts, id: 3, "2026-06-03T14:00:00Z", "2026-06-03T15:00:00Z")  // Wednesday
        session(&facts, id: 4, "2026-06-04T16:00:00Z", "2026-06-04T17:00:00Z")  // Thursday
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-07"))
        #expect(r.highlights.mostProductiveHour == 14 && r.highlights.leastProductiveHour == nil, "all 100 %: the most data is best, none worst")
        #expect(r.highlights.mostProductiveWeekday == 1 && r.highlights.leastProductiveWeekday == nil, "equal data: the earlier; none worst")
        #expect(r.highlights.mostProcrastinatedHour == nil, "no episode")
        #expect(r.highlights.hoursWithEnoughData == 3 && r.highlights.weekdaysWithEnoughData == 4)
        #expect(r.weeks[0].mostProductiveHour == 14 && r.weeks[0].leastProductiveHour == nil)
        let words = r.rendered(as: .text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("best 14:00 (100% focused over 2 h 00 min) · no worst: the 3 hours with enough judged time focused alike"))

        // A tie among the worst goes to more data too.
        session(&facts, id: 5, "2026-06-05T11:00:00Z", "2026-06-05T12:00:00Z", episodes: [("2026-06-05T11:00:00Z", "2026-06-05T11:30:00Z", .away)])
        session(&facts, id: 6, "2026-06-05T17:00:00Z", "2026-06-05T18:00:00Z", episodes: [("2026-06-05T17:00:00Z", "2026-06-05T17:30:00Z", .away)])
        session(&facts, id: 7, "2026-06-06T17:00:00Z", "2026-06-06T18:00:00Z", episodes: [("2026-06-06T17:00:00Z", "2026-06-06T17:30:00Z", .away)])
        let worse = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-07"))
        #expect(worse.highlights.mostProductiveHour == 14 && worse.highlights.leastProductiveHour == 17)
    }

    /// Imported and added sessions are tracked time: beside the judged figures, never in them, each
    /// instant once, the part inside the period. With nothing else in the period no hour is named,
    /// best or worst.
    @Test func trackedTimeIsBesideTheJudgedFigures() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-06-02T09:00:00Z", "2026-06-02T10:00:00Z")
        facts.tracked = [
            Span(ms("2026-06-03T09:00:00Z"), ms("2026-06-03T11:30:00Z")),
            Span(ms("2026-06-03T11:00:00Z"), ms("2026-06-03T12:00:00Z")),  // overlaps the one before: counted once
            Span(ms("2026-05-31T23:00:00Z"), ms("2026-06-01T01:00:00Z")),  // started before the period: its hour inside
            Span(ms("2026-06-07T23:30:00Z"), ms("2026-06-08T00:30:00Z")),  // ends after it: its half hour inside
        ]
        let utc = TimeZone(identifier: "UTC")!
        let r = Statistics.report(facts, timeZone: utc, from: day("2026-06-01"), to: day("2026-06-07"))
        #expect(r.totals.trackedSessions == 3)
        #expect(r.totals.trackedMinutes == 180 + 60 + 30)
        #expect(r.totals.focusedMinutes == 60 && r.totals.activeMinutes == 60 && r.totals.sessions == 1, "the judged figures are the live session's")
        #expect(r.days.map(\.focusedMinutes).reduce(0, +) == 60)
        let text = r.rendered(as: .text)
        #expect(text.contains("\nTracked     4 h 30 min in 3 sessions nobody judged: never counted as focused\n"), "\(text)")

        var only = StatisticsFacts()
        only.tracked = [Span(ms("2026-06-02T09:00:00Z"), ms("2026-06-02T11:30:00Z")), Span(ms("2026-06-03T14:00:00Z"), ms("2026-06-03T16:00:00Z"))]
        let tracked = Statistics.report(only, timeZone: utc, from: day("2026-06-01"), to: day("2026-06-07"))
        #expect(tracked.totals.trackedMinutes == 270 && tracked.totals.focusedMinutes == 0 && tracked.totals.focusShare == nil)
        #expect(tracked.highlights.mostProductiveHour == nil && tracked.highlights.leastProductiveHour == nil)
        #expect(tracked.hours.allSatisfy { $0.rates.judgedMinutes == 0 })
        // All history begins with the first tracked session when nothing was judged before it.
        let history = Statistics.report(only, timeZone: utc, from: nil, to: day("2026-06-07"))
        #expect(history.from == "2026-06-02" && history.totals.trackedSessions == 2 && history.totals.trackedMinutes == 270)
    }

    /// The mission's question, asked where volume and rate disagree: every weekday the person works
    /// an hour at 09:00 with two 10-minute episodes, and a quarter of an hour at 16:00 without one;
    /// one night, ten minutes at 02:00, half of them distracted. By minutes 09:00 would be the most
    /// productive hour and 02:00 the least; by how well the person focuses, 16:00 is the best, 09:00
    /// the worst and the most procrastinated, and 02:00 has too little data to be named at all.
    @Test func hoursAreRankedByHowWellThePersonFocusesNotByHowMuch() {
        var facts = StatisticsFacts()
        var id: Int64 = 0
        for d in 1...5 {
            let date = "2026-06-0\(d)"
            id += 1
            session(
                &facts, id: id, "\(date)T09:00:00Z", "\(date)T10:00:00Z",
                episodes: [("\(date)T09:10:00Z", "\(date)T09:20:00Z", .away), ("\(date)T09:40:00Z", "\(date)T09:50:00Z", .switching)])
            id += 1
            session(&facts, id: id, "\(date)T16:00:00Z", "\(date)T16:15:00Z")
        }
        session(&facts, id: 99, "2026-06-03T02:00:00Z", "2026-06-03T02:10:00Z", episodes: [("2026-06-03T02:05:00Z", "2026-06-03T02:10:00Z", .noise)])
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-07"))
        #expect(r.hours[9].focusedMinutes == 200 && r.hours[16].focusedMinutes == 75 && r.hours[2].focusedMinutes == 5)
        #expect(r.hours[9].rates.focusShare == 0.6667 && r.hours[16].rates.focusShare == 1 && r.hours[2].rates.focusShare == 0.5)
        #expect(r.hours[9].rates.episodesPerJudgedHour == 2 && r.hours[9].rates.distractedPerJudgedHour == 20)
        #expect(!r.hours[2].rates.enoughData && r.hours[2].rates.episodesPerJudgedHour == 6)
        #expect(r.highlights.mostProductiveHour == 16)
        #expect(r.highlights.leastProductiveHour == 9)
        #expect(r.highlights.mostProcrastinatedHour == 9, "02:00 drifts more often per hour, on ten minutes of data")
        #expect(r.totals.focusShare == 0.7273)  // (200 + 75 + 5) / (300 + 75 + 10)
        // The week's own profile says the same.
        #expect(r.weeks.count == 1 && r.weeks[0].mostProductiveHour == 16 && r.weeks[0].leastProductiveHour == 9)
        #expect(r.weeks[0].hourJudgedMinutes[9] == 300 && r.weeks[0].hourFocusShare[16] == 1 && r.weeks[0].hourFocusShare[12] == nil)
        #expect(r.heatmapFocusShare[0][9] == 0.6667 && r.heatmapJudgedMinutes[0][9] == 60 && r.heatmapFocusShare[5][9] == nil)
        #expect(r.tasks.count == 1 && r.tasks[0].task == "" && r.tasks[0].sessions == 11 && r.tasks[0].episodes == 11)
    }

    /// The previous period of the same length, from the same facts: its figures and best hours.
    @Test func thePreviousPeriodIsComparedWithTheSameRules() {
        var facts = StatisticsFacts()
        // Week 1 (the previous period): 09:00-10:30, all focused, Monday to Wednesday.
        for d in 1...3 {
            session(&facts, id: Int64(d), "2026-06-0\(d)T09:00:00Z", "2026-06-0\(d)T10:30:00Z", outcome: d == 3 ? .abandoned : .completed)
        }
        // Week 2 (the period): 14:00-15:00 with a 15-minute episode, twice.
        session(&facts, id: 10, "2026-06-08T14:00:00Z", "2026-06-08T15:00:00Z", episodes: [("2026-06-08T14:30:00Z", "2026-06-08T14:45:00Z", .away)])
        session(&facts, id: 11, "2026-06-09T14:00:00Z", "2026-06-09T15:00:00Z")
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-08"), to: day("2026-06-14"))
        let p = try! #require(r.previous)
        #expect(p.from == "2026-06-01" && p.to == "2026-06-07")
        #expect(p.sessions == 3 && p.completed == 2 && p.completionRate == 0.6667)
        #expect(p.focusedMinutes == 270 && p.distractedMinutes == 0 && p.focusShare == 1 && p.episodes == 0 && p.procrastinationFreeShare == 1)
        #expect(p.mostProductiveHour == 9 && p.leastProductiveHour == nil && p.mostProcrastinatedHour == nil)
        #expect(r.totals.focusedMinutes == 105 && r.totals.focusShare == 0.875 && r.highlights.mostProductiveHour == 14)
        // All history has no previous period.
        #expect(Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: nil, to: day("2026-06-14")).previous == nil)
        // Achievements say which were earned in the period.
        #expect(r.achievements.filter(\.inPeriod).map(\.id) == [])
        #expect(r.achievements.contains { $0.id == "first_session" && !$0.inPeriod })
    }

    /// The 21/90 arithmetic, worked by hand: 8 free days score 6x1 + 2x2 = 10; losing the 8-day
    /// streak costs 8; 3 more free days add 3.
    @Test func streakScoreByHand() {
        var t = StreakTracker()
        for d in 0..<8 { t.record(day: d, completed: true) }
        #expect(t.current == 8 && t.score == 10 && t.badge == .week)
        t.record(day: 8, completed: false)
        #expect(t.current == 0 && t.score == 2 && t.best == 8 && t.bestScore == 10)
        for d in 9..<12 { t.record(day: d, completed: true) }
        #expect(t.current == 3 && t.score == 5 && t.best == 8 && t.bestScore == 10)
        #expect(t.messages == ["18 days until this becomes a habit", "87 days until a lifestyle change"])
    }

    /// 90 days: 6x1 + 14x2 + 39x3 + 30x4 + 1x5 = 276, and the badge is a lifestyle change.
    @Test func ninetyDaysIsALifestyleChange() {
        var t = StreakTracker()
        for d in 0..<90 { t.record(day: d, completed: true) }
        #expect(t.score == 276)
        #expect(t.badge == .lifestyle && StreakModel.multiplier(forLength: 90) == 5)
        #expect(
            StreakModel.badge(forLength: 21) == .habit && StreakModel.badge(forLength: 20) == .week
                && StreakModel.badge(forLength: 60) == .strongHabit)
        #expect(t.messages == ["90 days: a lifestyle change"])
        // A long streak keeps its bonus when lost: 276 - 90.
        t.record(day: 90, completed: false)
        #expect(t.score == 186 && t.bestScore == 276)
    }

    /// Days without a session neither extend nor break the streak; a week of free session days
    /// over nine calendar days earns "a week without procrastination" on the seventh.
    @Test func restDaysDoNotBreakTheStreak() {
        var facts = StatisticsFacts()
        let dates = ["2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-08", "2026-06-09"]
        for (i, d) in dates.enumerated() { session(&facts, id: Int64(i + 1), "\(d)T09:00:00Z", "\(d)T09:30:00Z") }
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-10"))
        #expect(r.streak.current == 7 && r.streak.score == 6 + 2)
        #expect(r.procrastinationFree.longestStreak == 7)
        #expect(r.procrastinationFree.longestStreakFrom == "2026-06-01" && r.procrastinationFree.longestStreakTo == "2026-06-09")
        #expect(r.procrastinationFree.share == 1)
        #expect(r.achievements.first { $0.id == "free_week" }?.earned == "2026-06-09")
        #expect(r.streak.calendar.count == 7)
        #expect(r.days.count == 10)
    }

    /// Achievements carry the local date the condition was met: 90 minutes of focus reached at
    /// 00:30 local belongs to the next day.
    @Test func achievementsAreDatedWhereTheyHappened() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-06-01T21:00:00Z", "2026-06-01T23:00:00Z", alarms: [])  // 23:00-01:00 CEST
        session(
            &facts, id: 2, "2026-06-03T08:00:00Z", "2026-06-03T09:00:00Z", outcome: .abandoned,
            episodes: [("2026-06-03T08:10:00Z", "2026-06-03T08:11:00Z", .switching)],
            alarms: [(1, "2026-06-03T08:10:10Z", "2026-06-03T08:11:00Z")])
        let r = Statistics.report(facts, timeZone: berlin, from: nil, to: day("2026-06-03"))
        let earned = Dictionary(uniqueKeysWithValues: r.achievements.map { ($0.id, $0.earned) })
        #expect(earned["first_session"] == "2026-06-01")
        #expect(earned["deep_focus_25"] == "2026-06-01")
        #expect(earned["deep_focus_90"] == "2026-06-02")
        #expect(earned["first_completed"] == "2026-06-02", "the session ended at 01:00 on the 2nd")
        #expect(earned["quick_recovery"] == "2026-06-03")
        #expect(earned["free_day"] == "2026-06-01")
        #expect(earned["focused_10h"] == nil)
        #expect(r.from == "2026-06-01", "all history starts at the first session")
        #expect(r.totals.abandoned == 1 && r.totals.completionRate == 0.5)
    }

    @Test func spanArithmetic() {
        #expect(subtract([Span(2, 3), Span(5, 7)], from: [Span(0, 6), Span(8, 9)]) == [Span(0, 2), Span(3, 5), Span(8, 9)])
        #expect(subtract([], from: [Span(0, 2), Span(2, 4)]) == [Span(0, 4)], "touching spans join")
        #expect(union([Span(5, 7), Span(0, 2), Span(1, 3), Span(7, 8), Span(9, 9)]) == [Span(0, 3), Span(5, 8)])
    }

    @Test func isoWeeksAndDates() {
        #expect(Statistics.isoWeek(day("2026-01-01")) == "2026-W01")
        #expect(Statistics.isoWeek(day("2027-01-01")) == "2026-W53")
        #expect(Statistics.isoWeek(day("2024-12-30")) == "2025-W01")
        #expect(Statistics.day(from: "2024-02-29") != nil && Statistics.day(from: "2026-02-29") == nil && Statistics.day(from: "2026-1-01") == nil)
        #expect(Statistics.dateString(day("1999-12-31")) == "1999-12-31")
    }

    /// Every stored property of the report is written to JSON (a new field cannot be forgotten),
    /// with nil as null.
    @Test func jsonWritesEveryFieldOfTheReport() throws {
        var facts = StatisticsFacts()
        session(
            &facts, id: 1, "2026-06-01T08:00:00Z", "2026-06-01T09:00:00Z", episodes: [("2026-06-01T08:10:00Z", "2026-06-01T08:20:00Z", .away)],
            alarms: [(1, "2026-06-01T08:11:00Z", "2026-06-01T08:20:00Z")])
        let r = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: day("2026-06-01"), to: day("2026-06-02"))
        let json = try JSONSerialization.jsonObject(with: Data(r.json().utf8))
        func keys(_ v: Any, _ path: String, into out: inout Set<String>) {
            if let d = v as? [String: Any] {
                for (k, x) in d {
                    out.insert(path + "." + k)
                    keys(x, path + "." + k, into: &out)
                }
            } else if let a = v as? [Any] {
                for x in a { keys(x, path + "[]", into: &out) }
            }
        }
        func labels(_ v: Any, _ path: String, into out: inout Set<String>) {
            let m = Mirror(reflecting: v)
            switch m.displayStyle {
            case .struct:
                for c in m.children {
                    guard let l = c.label else { continue }
                    // An hour's and a weekday's rates are written into their own object.
                    if l == "rates" {
                        labels(c.value, path, into: &out)
                        continue
                    }
                    let k = l.unicodeScalars.reduce("") {
                        $0 + (CharacterSet.uppercaseLetters.contains($1) ? "_" + String($1).lowercased() : String($1))
                    }
                    out.insert(path + "." + k)
                    labels(c.value, path + "." + k, into: &out)
                }
            case .optional: if let c = m.children.first { labels(c.value, path, into: &out) }
            case .collection: for c in m.children { labels(c.value, path + "[]", into: &out) }
            default: break
            }
        }
        var written = Set<String>()
        var declared = Set<String>()
        keys(json, "", into: &written)
        labels(r, "", into: &declared)
        #expect(written == declared, "missing: \(declared.subtracting(written).sorted()); extra: \(written.subtracting(declared).sorted())")
        #expect(r.json().contains("\"longest_streak_from\": null"))
    }

    /// Each application's time in front inside the period, its stretches, and the episodes it
    /// caused: an `app` episode goes to the application whose stretch holds the episode's start
    /// (dated back to when the distracting stretch began), not to the one in front when it was
    /// confirmed; other causes go to none.
    @Test func applicationsTheirTimeInFrontAndTheEpisodesTheyCaused() throws {
        let code = ApplicationKey("code", .work)
        let video = ApplicationKey("firefox", .distracting)
        let docs = ApplicationKey("firefox", .neutral)
        let chat = ApplicationKey("discord", .distracting)
        var facts = StatisticsFacts()
        // Before the period, reaching 30 minutes into it.
        session(
            &facts, id: 1, "2026-11-15T23:30:00Z", "2026-11-16T00:30:00Z",
            activities: [("2026-11-15T23:30:00Z", "2026-11-16T00:30:00Z", code)])
        // A video from 09:20, then chat (one distracting stretch for the scorer: the episode is
        // dated to 09:20 and confirmed at 09:37, in discord); an away episode in the editor; a call.
        session(
            &facts, id: 2, "2026-11-16T09:00:00Z", "2026-11-16T10:00:00Z",
            episodes: [("2026-11-16T09:20:00Z", "2026-11-16T09:40:00Z", .app), ("2026-11-16T09:45:00Z", "2026-11-16T09:48:00Z", .away)],
            activities: [
                ("2026-11-16T09:00:00Z", "2026-11-16T09:20:00Z", code), ("2026-11-16T09:20:00Z", "2026-11-16T09:35:00Z", video),
                ("2026-11-16T09:35:00Z", "2026-11-16T09:40:00Z", chat), ("2026-11-16T09:40:00Z", "2026-11-16T10:00:00Z", code),
                ("2026-11-16T09:50:00Z", "2026-11-16T10:00:00Z", nil),
            ])
        // The documentation, then a video from 10:30 sharp: the episode starts on the boundary and
        // is the video's ([start, end)).
        session(
            &facts, id: 3, "2026-11-17T10:00:00Z", "2026-11-17T10:45:00Z",
            episodes: [("2026-11-17T10:30:00Z", "2026-11-17T10:41:00Z", .app)],
            activities: [("2026-11-17T10:00:00Z", "2026-11-17T10:30:00Z", docs), ("2026-11-17T10:30:00Z", "2026-11-17T10:40:00Z", video)])
        // A log from before applications were kept: the episode counts by cause, for no application.
        session(&facts, id: 4, "2026-11-17T14:00:00Z", "2026-11-17T15:00:00Z", episodes: [("2026-11-17T14:10:00Z", "2026-11-17T14:20:00Z", .app)])
        // After the period: nothing of it.
        session(
            &facts, id: 5, "2026-11-18T09:00:00Z", "2026-11-18T10:00:00Z", episodes: [("2026-11-18T09:10:00Z", "2026-11-18T09:20:00Z", .app)],
            activities: [("2026-11-18T09:10:00Z", "2026-11-18T09:30:00Z", video)])
        let utc = TimeZone(identifier: "UTC")!
        let r = Statistics.report(facts, timeZone: utc, from: day("2026-11-16"), to: day("2026-11-17"))
        let a = try #require(r.applications)
        #expect(a.apps.map { "\($0.appClass) \($0.category)" } == ["code work", "firefox neutral", "firefox distracting", "discord distracting"])
        #expect(a.apps.map(\.minutes) == [70, 30, 25, 5])
        #expect(a.apps.map(\.stretches) == [3, 1, 2, 1])
        #expect(a.apps.map(\.episodes) == [0, 0, 2, 0])
        #expect(r.episodes.byCause.first { $0.key == "app" }?.count == 3, "the unattributed one still counts by cause")
        #expect(a.workMinutes == 70 && a.neutralMinutes == 30 && a.distractingMinutes == 30)
        #expect(a.mostDistracting.map(\.appClass) == ["firefox", "discord"])
        #expect(a.calls == 1 && a.callMinutes == 10)
        // Nothing in front in a period: no applications at all.
        #expect(Statistics.report(facts, timeZone: utc, from: day("2026-11-20"), to: day("2026-11-21")).applications == nil)
        // The JSON lists them with their figures.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.json().utf8)) as? [String: Any])
        let apps = try #require((json["applications"] as? [String: Any])?["apps"] as? [[String: Any]])
        #expect(apps.count == 4)
        #expect(
            NSDictionary(dictionary: apps[2]) == ["app_class": "firefox", "category": "distracting", "minutes": 25, "stretches": 2, "episodes": 2])
    }

    @Test func applicationFiguresSumByCategoryAndRankTheDistractingOnes() throws {
        #expect(Report.ApplicationFigures(apps: [], calls: 0, callMilliseconds: 0) == nil, "nothing seen: no section")
        let f = try #require(
            Report.ApplicationFigures(
                apps: [
                    (ApplicationKey("code", .work), 3_600_000, 4, 0), (ApplicationKey("firefox", .distracting), 600_000, 2, 1),
                    (ApplicationKey("firefox", .neutral), 1_200_000, 3, 0), (ApplicationKey("discord", .distracting), 900_000, 1, 1),
                    (ApplicationKey("steam", .distracting), 30_000, 1, 0),
                ], calls: 2, callMilliseconds: 1_800_000))
        #expect(f.workMinutes == 60)
        // firefox counts where it was distracting (a video) apart from where it was neutral.
        #expect(f.neutralMinutes == 20)
        #expect(f.distractingMinutes == 25.5)
        #expect(f.mostDistracting.map(\.appClass) == ["discord", "firefox", "steam"])
        #expect(f.mostDistracting.map(\.minutes) == [15, 10, 0.5])
        #expect(f.calls == 2)
        #expect(f.callMinutes == 30)
        // Every application, most time in front first.
        #expect(
            f.apps.map { "\($0.appClass) \($0.category)" } == [
                "code work", "firefox neutral", "discord distracting", "firefox distracting", "steam distracting",
            ])
        #expect(f.apps.map(\.minutes) == [60, 20, 15, 10, 0.5] && f.apps.map(\.episodes) == [0, 0, 1, 1, 0])
    }

    /// Issue 32: `q` after 2 minutes printed "streak 0 → 1 day" and "First procrastination-free
    /// day!", and a later session with an episode the same day took both back without a word. A
    /// day is judged when it is over, and an abandoned session earns nothing.
    @Test func todayIsJudgedWhenItIsOverAndAnAbandonedSessionEarnsNothing() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-11-23T09:00:00Z", "2026-11-23T09:02:00Z", outcome: .abandoned)
        let today = day("2026-11-23")
        var r = Statistics.report(facts, timeZone: berlin, from: today, to: today, openDay: today)
        #expect(r.streak.current == 0 && r.streak.todaySoFarFree == nil, "an abandoned session alone judges nothing")
        #expect(r.achievements.isEmpty, "\(r.achievements.map(\.id))")

        // A whole session: free so far, and still no free day, no streak, until the day is over.
        session(&facts, id: 2, "2026-11-23T10:00:00Z", "2026-11-23T10:50:00Z")
        r = Statistics.report(facts, timeZone: berlin, from: today, to: today, openDay: today)
        #expect(r.streak.current == 0 && r.streak.todaySoFarFree == true)
        #expect(!r.achievements.contains { $0.id == "free_day" }, "\(r.achievements.map(\.id))")
        #expect(r.achievements.contains { $0.id == "first_session" })
        #expect(r.days.first?.procrastinationFree == nil, "not judged while it runs")

        // An episode later the same day: so far not free; nothing earned had to be taken back.
        session(
            &facts, id: 3, "2026-11-23T14:00:00Z", "2026-11-23T14:50:00Z",
            episodes: [("2026-11-23T14:10:00Z", "2026-11-23T14:15:00Z", .away)])
        r = Statistics.report(facts, timeZone: berlin, from: today, to: today, openDay: today)
        #expect(r.streak.todaySoFarFree == false && r.streak.current == 0)

        // The next day, the day is judged: not free.
        r = Statistics.report(facts, timeZone: berlin, from: today, to: today + 1, openDay: today + 1)
        #expect(r.days.first?.procrastinationFree == false && r.streak.current == 0 && r.streak.todaySoFarFree == nil)
    }

    /// A day whose only session was abandoned is no session day for the streak, so it neither
    /// grows nor breaks it; an abandoned session with an episode still breaks it.
    @Test func abandonedSessionsDoNotMakeAFreeDay() {
        var facts = StatisticsFacts()
        session(&facts, id: 1, "2026-11-20T09:00:00Z", "2026-11-20T10:00:00Z")
        session(&facts, id: 2, "2026-11-21T09:00:00Z", "2026-11-21T09:03:00Z", outcome: .abandoned)
        session(
            &facts, id: 3, "2026-11-22T09:00:00Z", "2026-11-22T09:30:00Z", outcome: .abandoned,
            episodes: [("2026-11-22T09:10:00Z", "2026-11-22T09:20:00Z", .away)])
        var r = Statistics.report(facts, timeZone: berlin, from: day("2026-11-20"), to: day("2026-11-21"))
        #expect(r.streak.current == 1 && r.streak.calendar.map(\.date) == ["2026-11-20"])
        r = Statistics.report(facts, timeZone: berlin, from: day("2026-11-20"), to: day("2026-11-22"))
        #expect(r.streak.current == 0 && r.days.last?.procrastinationFree == false)
    }

    /// Issue 32: an alarm that a break (or a pause, or the end) stopped is no return to work: no
    /// recovery time and no "back within a minute" achievement.
    @Test func onlyAReturnIsARecovery() {
        var facts = StatisticsFacts()
        session(
            &facts, id: 1, "2026-11-20T09:00:00Z", "2026-11-20T10:00:00Z",
            episodes: [("2026-11-20T09:10:00Z", "2026-11-20T09:13:00Z", .away)], alarms: [(1, "2026-11-20T09:12:30Z", nil)])
        let r = Statistics.report(facts, timeZone: berlin, from: day("2026-11-20"), to: day("2026-11-20"))
        #expect(r.totals.alarms == 1 && r.totals.recovery.count == 0)
        #expect(!r.achievements.contains { $0.id == "quick_recovery" })
    }
}
