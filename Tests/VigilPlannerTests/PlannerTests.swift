import Testing
import VigilCore
import VigilStats

@testable import VigilPlanner

/// Tasks, habits and reminders on fixed dates, worked by hand.
@Suite struct PlannerTests {
    let monday = civilDay("2026-11-16")!  // a Monday

    // MARK: Tasks

    @Test func deadlinesParse() {
        func due(_ text: String) -> Deadline? {
            try? Deadline.parse(text, today: monday, localMinute: { Int($0.nanoseconds / 60_000_000_000) }).get()
        }
        #expect(due("2026-11-30") == Deadline(day: civilDay("2026-11-30")!))
        #expect(due("2026-11-30 17:05") == Deadline(day: civilDay("2026-11-30")!, minute: 17 * 60 + 5))
        #expect(due("2026-11-30T09:00")?.minute == 540)
        #expect(due("tomorrow") == Deadline(day: monday + 1))
        // Looking ahead: a weekday is the next one after today, 3d is in three days, a range its last day.
        #expect(due("monday") == Deadline(day: monday + 7), "on a Monday, the next Monday")
        #expect(due("fri") == Deadline(day: monday + 4))
        #expect(due("3d") == Deadline(day: monday + 3))
        #expect(due(":week") == Deadline(day: monday + 6), "by Sunday, weeks starting on Monday")
        #expect(due("17:30") == Deadline(day: monday, minute: 17 * 60 + 30), "a time alone is today")
        // With an offset: the local minute the clock gives (here UTC), to the minute.
        #expect(due("2026-11-30T09:00:59+01:00") == Deadline(day: civilDay("2026-11-30")!, minute: 8 * 60))
        for bad in ["2026-11-31", "30/11/2026", "2026-11-30 25:00", "2026-11-30 9", "next week", ""] {
            #expect(due(bad) == nil, "\(bad)")
        }
        #expect(parseMinutes("90m") == 90 && parseMinutes("1h30m") == 90 && parseMinutes("2h") == 120 && parseMinutes("45") == 45)
        #expect(parseMinutes("1.5h") == nil && parseMinutes("0") == nil && parseMinutes("h") == nil)
    }

    /// High priority (30); due on Friday with no time, so at its end: from Monday noon 4.5 days
    /// (35 × (1 − 4.5/14) = 23.75 → 23.8); added 4 days ago (2); short-term (10); 30 focused
    /// minutes of a 120-minute estimate (3): 68.8.
    @Test func urgencyIsASumOfNamedParts() {
        let now = monday * 1440 + 12 * 60
        let task = TaskItem(
            id: 1, title: "slides", due: Deadline(day: monday + 4), priority: .high, term: .short, estimateMinutes: 120, created: ms(0))
        let u = Urgency(task: task, nowLocalMinute: now, createdLocalMinute: now - 4 * 1440, focusedMinutes: 30)
        #expect(u.parts.map(\.name) == ["priority", "deadline", "age", "term", "momentum"])
        #expect(u.parts.map(\.points) == [30, 23.8, 2, 10, 3])
        #expect(abs(u.total - 68.8) < 1e-9)
        #expect(u.parts[1].why == "due 2026-11-20, in 4 days")
    }

    @Test func overdueAndOverEstimate() {
        let now = monday * 1440 + 12 * 60
        let late = TaskItem(
            id: 2, title: "tax", due: Deadline(day: monday - 3, minute: 600), priority: .low, term: .long, estimateMinutes: 60, created: ms(0))
        let u = Urgency(task: late, nowLocalMinute: now, createdLocalMinute: now - 100 * 1440, focusedMinutes: 75)
        // 3 days and 2 hours late: 40 + 2 × 3; age capped at 10; long-term 0; over the estimate −5.
        #expect(u.parts.map(\.points) == [5, 46, 10, 0, -5])
        #expect(u.parts[1].why == "overdue by 3 days (due 2026-11-13 10:00)")
        let veryLate = Urgency(task: late, nowLocalMinute: now + 40 * 1440, createdLocalMinute: now, focusedMinutes: 0)
        #expect(veryLate.parts[1].points == 60, "capped")
    }

    // MARK: Habits

    @Test func schedulesParse() {
        #expect(Schedule.parse("day") == .daily)
        #expect(Schedule.parse("mon,wed,fri") == .weekdays([1, 3, 5]))
        #expect(Schedule.parse("Tues, thursday") == .weekdays([2, 4]))
        #expect(Schedule.parse("3/week") == .timesPerWeek(3))
        #expect(Schedule.parse("8/week") == nil && Schedule.parse("mo") == nil && Schedule.parse("funday") == nil)
        #expect(Schedule.weekdays([1, 3, 5]).text == "mon,wed,fri")
        #expect(Schedule.weekdays([1, 3, 5]).isScheduled(monday) && !Schedule.weekdays([1, 3, 5]).isScheduled(monday + 1))
    }

    /// Mon-Fri habit over two weeks: done Mon-Thu, failed Fri, weekend not scheduled, done
    /// Mon-Wed of the next week. Streak 3 (the failure broke the first run of 4); score: 4 days
    /// earned 4, the loss cost 4, then 3.
    @Test func weekdayHabitProgress() {
        let habit = Habit(id: 1, name: "Thesis", schedule: .weekdays([1, 2, 3, 4, 5]), goal: 7, createdDay: monday)
        var marks: [Int: DayStatus] = [:]
        for d in 0..<4 { marks[monday + d] = .completed }
        marks[monday + 4] = .failed
        for d in 7..<10 { marks[monday + d] = .completed }
        let p = HabitProgress(habit: habit, statuses: marks, through: monday + 10)
        #expect(p.current == 3 && p.best == 4 && p.score == 3 && p.bestScore == 4)
        #expect(p.completed == 7 && p.failed == 1 && p.skipped == 0)
        #expect(p.successRate == 7.0 / 8)
        #expect(p.goalReached)
        // Strength: 4 completions, a failure, 3 completions, α = 0.1.
        var s = 0.0
        for done in [true, true, true, true, false, true, true, true] { s = s * 0.9 + (done ? 0.1 : 0) }
        #expect(abs(p.strength - s) < 1e-12)
        // Thursday of the second week is today and not marked yet: not a failure, not incomplete.
        #expect(p.incomplete == 0)
        #expect(daysToFail(habit, statuses: marks, today: monday + 10) == [])
        #expect(daysToFail(habit, statuses: marks, today: monday + 12) == [monday + 10, monday + 11])
    }

    /// One miss after twenty good days costs 10 % of the strength, not the history.
    @Test func strengthForgivesASingleMiss() {
        let habit = Habit(id: 1, name: "Read", schedule: .daily, createdDay: monday)
        var marks: [Int: DayStatus] = [:]
        for d in 0..<20 { marks[monday + d] = .completed }
        let before = HabitProgress(habit: habit, statuses: marks, through: monday + 19).strength
        #expect(abs(before - (1 - 0.9.pow(20))) < 1e-12)  // 0.878
        marks[monday + 20] = .failed
        let after = HabitProgress(habit: habit, statuses: marks, through: monday + 20)
        #expect(abs(after.strength - before * 0.9) < 1e-12)
        #expect(after.current == 0 && after.best == 20)
    }

    /// Three times a week: a week with two completions fails on its Sunday; days beyond the three
    /// are fine; a skipped day neither counts nor breaks.
    @Test func timesPerWeek() {
        let habit = Habit(id: 1, name: "Run", schedule: .timesPerWeek(3), createdDay: monday)
        let marks: [Int: DayStatus] = [
            monday: .completed, monday + 2: .completed, monday + 3: .skipped,
            monday + 7: .completed, monday + 8: .completed, monday + 9: .completed, monday + 11: .completed,
        ]
        let p = HabitProgress(habit: habit, statuses: marks, through: monday + 13)
        // Week 1: 2 done, then the Sunday failure breaks the streak; week 2: 4 done.
        #expect(p.completed == 6 && p.failed == 1 && p.skipped == 1)
        #expect(p.current == 4 && p.best == 4)
        #expect(daysToFail(habit, statuses: marks, today: monday + 13).isEmpty)
    }

    // MARK: Reminders

    @Test func remindersAtTheirTimeRepeatedAndQuietAtNight() {
        var settings = ReminderSettings()
        settings.repeatEvery = 120
        let habit = Habit(id: 3, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday)
        func at(_ h: Int, _ m: Int, sent: Set<String> = []) -> [String] {
            ReminderPlanner.due(now: monday * 1440 + h * 60 + m, habits: [habit], tasks: [], settings: settings, sent: sent).map(\.key)
        }
        #expect(at(10, 29).isEmpty)
        #expect(at(10, 30) == ["habit:3:2026-11-16:0"])
        #expect(at(11, 0, sent: ["habit:3:2026-11-16:0"]).isEmpty, "sent once")
        #expect(at(12, 30, sent: ["habit:3:2026-11-16:0"]) == ["habit:3:2026-11-16:1"])
        // Late in the day only the current repetition, not a backlog.
        #expect(at(20, 45) == ["habit:3:2026-11-16:5"])
        #expect(at(22, 45).isEmpty, "quiet hours")
        #expect(
            ReminderPlanner.due(now: monday * 1440 + 12 * 60 + 30, habits: [habit], tasks: [], settings: settings, sent: [])
                .first?.title == "Still to do today: Stretch")
    }

    @Test func tasksAreRemindedBeforeTheyAreDueAndWhenOverdue() {
        let settings = ReminderSettings()  // 60 min before, default 09:00
        let task = TaskItem(id: 7, title: "Send the report", due: Deadline(day: monday, minute: 17 * 60), created: ms(0))
        func at(_ day: Int, _ h: Int, _ m: Int) -> [Reminder] {
            ReminderPlanner.due(now: day * 1440 + h * 60 + m, habits: [], tasks: [task], settings: settings, sent: [])
        }
        #expect(at(monday, 15, 59).isEmpty)
        #expect(at(monday, 16, 0).map(\.title) == ["Due at 17:00: Send the report"])
        // Once it is overdue: at once, then each morning at the default time.
        #expect(at(monday, 17, 0).map(\.key) == ["task:7:overdue:2026-11-16"])
        #expect(at(monday + 1, 8, 59).isEmpty)
        #expect(at(monday + 1, 9, 0).map(\.key) == ["task:7:overdue:2026-11-17"])
        var done = task
        done.done = ms(1)
        #expect(ReminderPlanner.due(now: monday * 1440 + 16 * 60, habits: [], tasks: [done], settings: settings, sent: []).isEmpty)
        // A task due on a day without a time: reminded at the default time that day.
        let dateOnly = TaskItem(id: 8, title: "Call the bank", due: Deadline(day: monday), created: ms(0))
        #expect(
            ReminderPlanner.due(now: monday * 1440 + 9 * 60, habits: [], tasks: [dateOnly], settings: settings, sent: []).map(\.title) == [
                "Due today: Call the bank"
            ])
    }
}

extension Double {
    func pow(_ n: Int) -> Double { (0..<n).reduce(1) { r, _ in r * self } }
}
