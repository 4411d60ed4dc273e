import Testing
import VigilCore
import VigilStats

@testable import VigilPlanner

/// The rules the task, habit and today commands apply, without a store or a terminal: finding a
/// task or habit by name, "overdue", the orders, edits, which days a habit can be marked on, goals
/// and the day's agenda. On fixed dates around Monday 2026-11-16.
@Suite struct PlannerRulesTests {
    let monday = civilDay("2026-11-16")!  // a Monday

    func at(_ day: Int, _ h: Int, _ m: Int) -> Int { day * 1440 + h * 60 + m }

    // MARK: Finding a task or a habit

    @Test func aNumberIsANumberAndAnythingElseAName() {
        #expect(PlannerReference("3") == .number(3))
        #expect(PlannerReference("-1") == .number(-1))
        #expect(PlannerReference("3 pages") == .name("3 pages"))
        #expect(PlannerReference(" 3") == .name(" 3"))
    }

    @Test func oneTaskByTitleOrWhyNot() throws {
        let a = TaskItem(id: 4, title: "Slides", created: ms(0))
        let b = TaskItem(id: 9, title: "slides", created: ms(0))
        let doneTwin = TaskItem(id: 11, title: "Slides", created: ms(0), done: ms(5))
        let talk = TaskItem(id: 12, title: "Slides for the talk", created: ms(0))
        let report = TaskItem(id: 13, title: "Report", created: ms(0), done: ms(5))
        #expect(try TaskItem.named("slides", among: [a, doneTwin]).id == 4, "an open task before a done one")
        #expect(try TaskItem.named("REPORT", among: [a, report]).id == 13, "a done task when none open has the title")
        #expect(throws: PlannerError.noTaskTitled("Essay", candidates: [])) { try TaskItem.named("Essay", among: [a]) }
        #expect(throws: PlannerError.ambiguousTask(titled: "slides", ids: [4, 9])) { try TaskItem.named("slides", among: [a, b, doneTwin]) }
        // Unknown: the tasks whose titles hold it (or it theirs) are offered, open ones first.
        #expect(throws: PlannerError.noTaskTitled("slide", candidates: [a, talk, doneTwin])) {
            try TaskItem.named("slide", among: [doneTwin, a, talk, report])
        }
        #expect(PlannerError.ambiguousTask(titled: "slides", ids: [4, 9]).description == "2 tasks are called 'slides': #4, #9. Give the number.")
        #expect(
            PlannerError.noTaskTitled("Essay", candidates: []).description
                == "no task is called 'Essay'. `vigil task list --all` shows every task; give its number or its exact title.")
        #expect(
            PlannerError.noTaskTitled("slide", candidates: [a, doneTwin]).description
                == "no task is called 'slide'; did you mean #4 'Slides', #11 'Slides' (done)? Give the number or the exact title.")
        #expect(PlannerError.noTask(12).description == "no task #12. `vigil task list --all` shows every task with its number.")
    }

    @Test func oneHabitByNameWithoutRegardToCaseAndNotArchived() throws {
        let read = Habit(id: 1, name: "Read", schedule: .daily, createdDay: monday)
        let oldRead = Habit(id: 2, name: "read", schedule: .daily, createdDay: monday, archived: ms(5))
        let walk = Habit(id: 3, name: "Walk", schedule: .daily, createdDay: monday)
        #expect(try Habit.only(named: "READ", among: [read, oldRead, walk]).id == 1, "the archived one is not a candidate")
        #expect(throws: PlannerError.noHabitNamed("Swim")) { try Habit.only(named: "Swim", among: [read, walk]) }
        var twin = walk
        twin.id = 7
        #expect(throws: PlannerError.ambiguousHabit(named: "walk", ids: [3, 7])) { try Habit.only(named: "walk", among: [walk, twin]) }
    }

    // MARK: Overdue: one definition

    /// Due at 17:00: still due at 16:59, overdue from 17:00 on, for every part of the planner.
    @Test func overdueFromTheDueMinuteOn() {
        let report = TaskItem(id: 7, title: "Report", due: Deadline(day: monday, minute: 17 * 60), created: ms(0))
        #expect(!report.isOverdue(atLocalMinute: at(monday, 16, 59)))
        #expect(report.isOverdue(atLocalMinute: at(monday, 17, 0)))
        var done = report
        done.done = ms(1)
        #expect(!done.isOverdue(atLocalMinute: at(monday, 18, 0)), "a done task is never overdue")
        #expect(!TaskItem(id: 8, title: "Someday", created: ms(0)).isOverdue(atLocalMinute: at(monday + 99, 0, 0)))

        // Urgency, the list filter, the agenda and the reminders agree at 16:59 and at 17:00.
        let before = Urgency(task: report, nowLocalMinute: at(monday, 16, 59), createdLocalMinute: at(monday, 8, 0), focusedMinutes: 0)
        let after = Urgency(task: report, nowLocalMinute: at(monday, 17, 0), createdLocalMinute: at(monday, 8, 0), focusedMinutes: 0)
        #expect(before.parts[1].why == "due 2026-11-16 17:00, in 1 min")
        #expect(after.parts[1].why == "overdue since 2026-11-16 17:00" && after.parts[1].points == 40)
        let filter = TaskFilter(overdueOnly: true)
        #expect(!filter.matches(report, atLocalMinute: at(monday, 16, 59)) && filter.matches(report, atLocalMinute: at(monday, 17, 0)))
        func timing(_ now: Int) -> Agenda.TaskTiming? {
            guard case .task(_, let when) = Agenda(today: monday, nowLocalMinute: now, habits: [], tasks: [report]).items.first else { return nil }
            return when
        }
        #expect(timing(at(monday, 16, 59)) == .dueAt("17:00"))
        #expect(timing(at(monday, 17, 0)) == .overdue)
        func reminders(_ now: Int) -> [String] {
            ReminderPlanner.due(now: now, habits: [], tasks: [report], settings: ReminderSettings(), sent: []).map(\.title)
        }
        #expect(reminders(at(monday, 16, 59)) == ["Due at 17:00: Report"])
        #expect(reminders(at(monday, 17, 0)) == ["Overdue: Report"])
    }

    /// Due on a day without a time: due all that day, overdue at the next midnight.
    @Test func overdueFromTheNextMidnightForADayWithoutATime() {
        let bank = TaskItem(id: 3, title: "Call the bank", due: Deadline(day: monday), created: ms(0))
        #expect(!bank.isOverdue(atLocalMinute: at(monday, 23, 59)))
        #expect(bank.isOverdue(atLocalMinute: at(monday + 1, 0, 0)))
        #expect(Deadline(day: monday).hasPassed(atLocalMinute: at(monday + 1, 0, 0)))
        let lastMinute = Agenda(today: monday, nowLocalMinute: at(monday, 23, 59), habits: [], tasks: [bank])
        guard case .task(_, let when) = lastMinute.items.first else {
            Issue.record("not listed")
            return
        }
        #expect(when == .dueToday)
        guard case .task(_, let next) = Agenda(today: monday + 1, nowLocalMinute: at(monday + 1, 0, 0), habits: [], tasks: [bank]).items.first else {
            Issue.record("not listed")
            return
        }
        #expect(next == .overdue)
    }

    // MARK: Orders

    func ranked(_ t: TaskItem, focused: Double = 0) -> RankedTask {
        RankedTask(
            task: t, effort: TaskEffort(focusedMinutes: focused, sessions: 0, episodes: 0), nowLocalMinute: at(monday, 12, 0),
            createdLocalMinute: at(monday, 12, 0))
    }

    /// Equal urgency: the older task (lower number) first, whatever order they come in.
    @Test func equallyUrgentTasksRankByTheirNumber() {
        let a = ranked(TaskItem(id: 2, title: "a", created: ms(0)))
        let b = ranked(TaskItem(id: 5, title: "b", created: ms(0)))
        let urgent = ranked(TaskItem(id: 9, title: "c", priority: .high, created: ms(0)))
        #expect(a.urgency.total == b.urgency.total)
        #expect(TaskOrder.urgency.sorted([b, a, urgent]).map(\.task.id) == [9, 2, 5])
        #expect(TaskOrder.urgency.sorted([urgent, a, b]).map(\.task.id) == [9, 2, 5])
        // Ten focused minutes are one point: enough to rank a later task first.
        let started = ranked(TaskItem(id: 6, title: "d", created: ms(0)), focused: 10)
        #expect(TaskOrder.urgency.sorted([a, started]).map(\.task.id) == [6, 2])
    }

    @Test func theOtherOrdersAndTheirTies() {
        let noDue = ranked(TaskItem(id: 1, title: "a", priority: .high, term: .long, created: ms(30)))
        let friday = ranked(TaskItem(id: 2, title: "b", due: Deadline(day: monday + 4), priority: .low, term: .short, created: ms(20)))
        let today = ranked(TaskItem(id: 3, title: "c", due: Deadline(day: monday, minute: 600), priority: .high, term: .mid, created: ms(20)))
        let all = [noDue, friday, today]
        #expect(TaskOrder.due.sorted(all).map(\.task.id) == [3, 2, 1], "no deadline last")
        #expect(TaskOrder.priority.sorted(all).map(\.task.id) == [1, 3, 2], "equal priority: lower number first")
        #expect(TaskOrder.term.sorted(all).map(\.task.id) == [2, 3, 1])
        #expect(TaskOrder.created.sorted(all).map(\.task.id) == [2, 3, 1], "same instant: lower number first")
    }

    @Test func theListFilter() {
        let open = TaskItem(id: 1, title: "a", priority: .high, term: .mid, tags: ["thesis"], created: ms(0))
        let closed = TaskItem(id: 2, title: "b", tags: ["thesis"], created: ms(0), done: ms(5))
        let now = at(monday, 12, 0)
        #expect(TaskFilter().matches(open, atLocalMinute: now) && !TaskFilter().matches(closed, atLocalMinute: now))
        #expect(!TaskFilter(status: .done).matches(open, atLocalMinute: now) && TaskFilter(status: .done).matches(closed, atLocalMinute: now))
        #expect(TaskFilter(status: .all).matches(closed, atLocalMinute: now))
        #expect(TaskFilter(tag: " Thesis").matches(open, atLocalMinute: now) && !TaskFilter(tag: "admin").matches(open, atLocalMinute: now))
        #expect(!TaskFilter(priority: .low).matches(open, atLocalMinute: now) && TaskFilter(term: .mid).matches(open, atLocalMinute: now))
    }

    @Test func nextGivesTheThreeLargestPartsAsReasons() {
        let t = TaskItem(id: 1, title: "a", due: Deadline(day: monday + 1), priority: .high, term: .long, created: ms(0))
        let u = Urgency(task: t, nowLocalMinute: at(monday, 12, 0), createdLocalMinute: at(monday, 12, 0), focusedMinutes: 0)
        // priority 30, deadline 31.3, age 0, term 0, momentum 0.
        #expect(u.leadingReasons() == ["due 2026-11-17, in 36 h", "high priority"])
    }

    // MARK: Edits and state changes

    @Test func aTaskEdit() {
        let t = TaskItem(id: 1, title: "Essay", note: "draft", due: Deadline(day: monday), estimateMinutes: 60, tags: ["uni", "old"], created: ms(0))
        var c = TaskChanges()
        c.due = .clear
        c.estimateMinutes = .set(90)
        c.addTags = [" Thesis", "uni", " "]
        c.removeTags = ["OLD"]
        let e = c.applied(to: t)
        #expect(e.due == nil && e.estimateMinutes == 90 && e.note == "draft" && e.title == "Essay")
        #expect(e.tags == ["uni", "thesis"], "added once, normalized, the removed one gone")
        #expect(TaskChanges().applied(to: t) == t)
    }

    @Test func doneAndReopenedOnce() {
        var t = TaskItem(id: 1, title: "a", created: ms(0))
        var changed = t.complete(at: ms(100))
        #expect(changed && t.done == ms(100))
        changed = t.complete(at: ms(200))
        #expect(!changed && t.done == ms(100), "done already: the first time stays")
        changed = t.reopen()
        #expect(changed && !t.isDone)
        changed = t.reopen()
        #expect(!changed)
    }

    // MARK: Habits: which days can be marked

    @Test func theDaysAHabitCanBeMarkedOn() throws {
        let wednesday = monday + 2
        let h = Habit(id: 4, name: "Read", schedule: .daily, createdDay: monday)
        #expect(try HabitMarking.day(nil, for: h, today: wednesday) == wednesday)
        #expect(try HabitMarking.day("yesterday", for: h, today: wednesday) == monday + 1)
        #expect(try HabitMarking.day("Yesterday", for: h, today: wednesday) == monday + 1)
        #expect(try HabitMarking.day("today", for: h, today: wednesday) == wednesday)
        #expect(try HabitMarking.day("2026-11-16", for: h, today: wednesday) == monday, "the day it was added")
        #expect(throws: PlannerError.futureDay(wednesday + 1)) { try HabitMarking.day("tomorrow", for: h, today: wednesday) }
        #expect(throws: PlannerError.beforeStart(id: 4, name: "Read", start: monday, day: monday - 1)) {
            try HabitMarking.day("2026-11-15", for: h, today: wednesday)
        }
        #expect(throws: PlannerError.notADay("someday", .unknown)) { try HabitMarking.day("someday", for: h, today: wednesday) }
        #expect(throws: PlannerError.notADay(":week", .unknown), "a range is no day") { try HabitMarking.day(":week", for: h, today: wednesday) }
        #expect(throws: PlannerError.beforeStart(id: 4, name: "Read", start: monday, day: monday - 1)) {
            try HabitMarking.day("yesterday", for: h, today: monday)
        }
        // The grammar, looking back: the last Monday (today included), two days ago.
        #expect(try HabitMarking.day("monday", for: h, today: wednesday) == monday)
        #expect(try HabitMarking.day("2d", for: h, today: wednesday) == monday)
        #expect(try HabitMarking.day("2026-11-17T23:30", for: h, today: wednesday) == monday + 1, "a date with a time: its day")
        // A habit that starts earlier (--since) takes the days from its start.
        var since = h
        since.createdDay = monday - 10
        #expect(try HabitMarking.day("2026-11-06", for: since, today: wednesday) == monday - 10)
        // Archived: refused before the date is even read.
        #expect(throws: PlannerError.archivedHabit(4)) { try HabitMarking.day("someday", for: h.finished(at: ms(1)), today: wednesday) }
        #expect(PlannerError.futureDay(wednesday + 1).description == "2026-11-19 is in the future: a day can be marked once it has come.")
        #expect(
            PlannerError.beforeStart(id: 4, name: "Read", start: monday, day: monday - 1).description
                == "Read starts on 2026-11-16; mark an earlier day after `vigil habit edit 4 --since 2026-11-15`.")
        #expect(
            PlannerError.notADay("someday", .unknown).description
                == "--date: 'someday' is not a date; use YYYY-MM-DD, today, yesterday, a weekday (monday: the last one, today included), 3d, 2w, 1mo or 1y ago."
        )
    }

    // MARK: Habits: goals

    /// Goal 3: the third completion reaches it, once; a mark after that does not reach it again.
    @Test func aGoalIsReachedByTheMarkThatCrossesIt() throws {
        let h = Habit(id: 1, name: "Read", schedule: .daily, goal: 3, createdDay: monday)
        let two: [Int: DayStatus] = [monday: .completed, monday + 1: .completed]
        let third = HabitMark(habit: h, day: monday + 2, status: .completed, statuses: two, today: monday + 2)
        #expect(third.progress.completed == 3 && third.progress.current == 3)
        let reached = try #require(third.goalReached)
        #expect(reached.goal == 3 && reached.nextGoal == 6)
        #expect(third.encouragement == "18 days until this becomes a habit")
        let again = HabitMark(habit: h, day: monday + 3, status: .completed, statuses: third.statuses, today: monday + 3)
        #expect(again.goalReached == nil, "reached before")
        let failed = HabitMark(habit: h, day: monday + 2, status: .failed, statuses: two, today: monday + 2)
        #expect(failed.goalReached == nil && failed.encouragement == nil, "no streak, no encouragement")
        // Unmarking removes the mark.
        let unmarked = HabitMark(habit: h, day: monday + 1, status: .incomplete, statuses: two, today: monday + 1)
        #expect(unmarked.statuses == [monday: .completed] && unmarked.progress.completed == 1)
        #expect(
            HabitMark(
                habit: Habit(id: 2, name: "Open", schedule: .daily, createdDay: monday), day: monday, status: .completed,
                statuses: [:], today: monday
            ).goalReached == nil, "no goal, nothing to reach")
    }

    @Test func continueOrFinishOnceTheGoalIsReached() throws {
        let h = Habit(id: 1, name: "Read", schedule: .daily, goal: 3, createdDay: monday)
        let reached = GoalReached(habit: h, goal: 3)
        #expect(GoalDecision(answer: "F", reached: reached) == .finish)
        #expect(GoalDecision(answer: "continue", reached: reached) == .continueTo(6))
        #expect(GoalDecision(answer: "", reached: reached) == nil && GoalDecision(answer: "maybe", reached: reached) == nil)
        let finished = GoalDecision.finish.applied(to: h, at: ms(1234))
        #expect(finished.archived == ms(1234) && finished.goal == 3)
        let goingOn = GoalDecision.continueTo(6).applied(to: finished, at: ms(5678))
        #expect(goingOn.archived == nil && goingOn.goal == 6)
        #expect(h.continued(goal: nil).goal == 3, "continue without a goal keeps the old one")
    }

    @Test func aHabitEdit() {
        let h = Habit(
            id: 1, name: "Read", schedule: .daily, goal: 3, color: "blue", reminder: "21:00", autoTask: "thesis", autoMinutes: 50,
            createdDay: monday)
        var c = HabitChanges()
        c.goal = .clear
        c.reminder = .set("07:30")
        c.auto = .clear
        c.flagged = true
        let e = c.applied(to: h)
        #expect(e.goal == nil && e.reminder == "07:30" && e.autoTask == nil && e.autoMinutes == nil && e.flagged && e.color == "blue")
        var s = HabitChanges()
        s.auto = .set(AutoRule(task: "essay", minutes: 25))
        #expect(s.applied(to: h).autoRule == AutoRule(task: "essay", minutes: 25))
    }

    // MARK: Habits: list and calendar

    @Test func whereHabitsStandTodayAndTheDueOrder() {
        let tuesday = monday + 1
        let read = HabitRow(habit: Habit(id: 1, name: "Read", schedule: .daily, createdDay: monday), statuses: [tuesday: .completed], today: tuesday)
        let piano = HabitRow(habit: Habit(id: 2, name: "Piano", schedule: .weekdays([1, 3]), createdDay: monday), statuses: [:], today: tuesday)
        let walk = HabitRow(habit: Habit(id: 3, name: "walk", schedule: .daily, createdDay: monday), statuses: [:], today: tuesday)
        let gone = HabitRow(habit: Habit(id: 4, name: "Gym", schedule: .daily, createdDay: monday, archived: ms(1)), statuses: [:], today: tuesday)
        #expect(read.today == .marked(.completed) && piano.today == .unscheduled && walk.today == .marked(.incomplete) && gone.today == .archived)
        #expect(HabitOrder.due.sorted([read, piano, walk, gone]).map(\.habit.id) == [3, 1, 2, 4], "to do first, then by number")
        #expect(HabitOrder.name.sorted([read, piano, walk, gone]).map(\.habit.id) == [4, 2, 1, 3], "without regard to case")
    }

    /// Wednesday of the habit's first week: Monday done, Tuesday failed, Wednesday to do, the rest
    /// not come yet; the weeks before it was added are empty.
    @Test func theCalendarOfTheLastWeeks() {
        let h = Habit(id: 1, name: "Read", schedule: .weekdays([1, 2, 3, 5]), createdDay: monday)
        let c = HabitCalendar(habit: h, statuses: [monday: .completed, monday + 1: .failed], today: monday + 2)
        #expect(c.weeks.map(\.name) == ["2026-W44", "2026-W45", "2026-W46", "2026-W47"])
        #expect(c.weeks[3].days == [.completed, .failed, .toDo, .none, .none, .none, .none])
        #expect(c.weeks[0].days.allSatisfy { $0 == .none })
        let skipped = HabitCalendar(habit: h, statuses: [monday + 3: .skipped], today: monday + 4)
        #expect(skipped.weeks[3].days == [.toDo, .toDo, .toDo, .skipped, .toDo, .none, .none], "Thursday is not scheduled but was marked")
    }

    @Test func isoWeeks() {
        #expect(isISOWeek("2026-W47") && isISOWeek("2026-W01"))
        #expect(!isISOWeek("2026-W54") && !isISOWeek("2026W47") && !isISOWeek("abcd-W47") && !isISOWeek("2026-W00"))
    }

    // MARK: The agenda

    /// Monday 12:00: what `vigil today` lists and counts.
    @Test func theAgendaListsWhatIsDueAndCountsWhatIsLeft() {
        let stretch = Habit(id: 1, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday - 2)
        let piano = Habit(id: 2, name: "Piano", schedule: .weekdays([2, 4]), createdDay: monday - 2)  // not on Mondays
        let read = Habit(id: 3, name: "Read", schedule: .daily, createdDay: monday - 2)
        let swim = Habit(id: 4, name: "Swim", schedule: .daily, createdDay: monday - 2)
        let gym = Habit(id: 5, name: "Gym", schedule: .timesPerWeek(1), createdDay: monday - 7)
        let habits: [(habit: Habit, statuses: [Int: DayStatus])] = [
            (stretch, [monday - 1: .completed, monday - 2: .completed]), (piano, [:]), (read, [monday: .completed]), (swim, [monday: .skipped]),
            (gym, [:]),
        ]
        let tasks = [
            TaskItem(id: 1, title: "Invoice", due: Deadline(day: monday, minute: 17 * 60), created: ms(0)),
            TaskItem(id: 2, title: "Bank", due: Deadline(day: monday), created: ms(0)),
            TaskItem(id: 3, title: "Taxes", due: Deadline(day: monday - 3), created: ms(0)),
            TaskItem(id: 4, title: "Slides", due: Deadline(day: monday + 1), created: ms(0)),
            TaskItem(id: 5, title: "Free", created: ms(0)),
            TaskItem(id: 6, title: "Done", due: Deadline(day: monday - 1), created: ms(0), done: ms(1)),
        ]
        let agenda = Agenda(today: monday, nowLocalMinute: at(monday, 12, 0), habits: habits, tasks: tasks)
        let lines = agenda.items.map { item -> String in
            switch item {
            case .habit(let h, let status, let streak): "habit \(h.name) \(status.rawValue) \(streak)"
            case .task(let t, let when): "task \(t.title) \(when)"
            }
        }
        #expect(
            lines == [
                "habit Stretch incomplete 2", "habit Read completed 1", "habit Swim skipped 0", "habit Gym incomplete 0",
                "task Invoice dueAt(\"17:00\")", "task Bank dueToday", "task Taxes overdue",
            ])
        #expect(agenda.toDo == 5, "Stretch, Gym and the three tasks; marked habits are not counted")
        // A weekly quota met earlier in the week is not due again.
        let met = Agenda(today: monday + 2, nowLocalMinute: at(monday + 2, 12, 0), habits: [(gym, [monday: .completed])], tasks: [])
        #expect(met.items.isEmpty && met.toDo == 0)
    }
}
