import Foundation
import VigilCore
import VigilPlanner
import VigilStats
import VigilStore

/// Finds a task by what a person calls it: its number (done tasks too), or its exact title
/// without regard to case (an open task before a done one: `TaskItem.named`). The one resolver of
/// the task commands, `vigil start --task`, `vigil report --task` and `vigil habit --auto`.
public struct TaskLookup: Sendable {
    public let store: EventStore

    public init(store: EventStore) { self.store = store }

    /// The task, or why there is not one (`PlannerError`: no such number, no task with the title,
    /// with the tasks like it, several).
    public func task(_ reference: String) throws -> TaskItem {
        switch PlannerReference(reference) {
        case .number(let id):
            guard let t = try store.task(id: id) else { throw PlannerError.noTask(id) }
            return t
        case .name(let title):
            return try TaskItem.named(title, among: try store.tasks())
        }
    }

    /// What a session is about: the task it names, linked by its number, or, for a title no
    /// task has, a name of its own. A number that is no task is still an error (not a session
    /// called "7"), and so is a title several open tasks share.
    public func sessionSubject(_ reference: String) throws -> (name: String, taskId: Int64?) {
        do {
            let t = try task(reference)
            return (t.title, t.id)
        } catch PlannerError.noTaskTitled {
            return (reference, nil)
        }
    }

    /// What `vigil report --task` selects sessions by: the task's title sessions carry
    /// (`sessions.task`), among `sessionNames` (the names sessions have). A number is its task's
    /// title; a name sessions have byte for byte is itself; then a task's title without regard to
    /// case (a shared title is an error); then a session's name without regard to case. nil when
    /// nothing is called so.
    public func sessionName(_ reference: String, among sessionNames: [String]) throws -> String? {
        if case .number(let id) = PlannerReference(reference) {
            guard let t = try store.task(id: id) else { throw PlannerError.noTask(id) }
            return t.title
        }
        if sessionNames.contains(reference) { return reference }
        do {
            return try task(reference).title
        } catch PlannerError.noTaskTitled {
            let key = reference.lowercased()
            return sessionNames.first { $0.lowercased() == key }
        }
    }

    /// A habit's `--auto` rule with its task named as sessions and tasks are: a number becomes its
    /// task's title, a task's title its own spelling; anything else (a tag, a session's name) stays.
    public func autoRule(_ rule: AutoRule) throws -> AutoRule {
        if case .number(let id) = PlannerReference(rule.task) {
            guard let t = try store.task(id: id) else { throw PlannerError.noTask(id) }
            return AutoRule(task: t.title, minutes: rule.minutes)
        }
        do {
            return AutoRule(task: try task(rule.task).title, minutes: rule.minutes)
        } catch is PlannerError {
            return rule
        }
    }
}

/// Tasks and habits as the commands ask for them, as GRDB's `AppDatabase` serves its app: each
/// method is one request, reads and writes the store, and applies the planner's rules (VigilPlanner);
/// `vigil task`, `next`, `habit` and `today` parse, call one method and render what it returns.
///
/// Methods on habits first do the housekeeping (`PlannerHousekeeping`: days sessions completed,
/// then unmarked days failed) and return the days sessions completed, for the commands to say.
public struct PlannerService: Sendable {
    public let store: EventStore
    public let now: LocalNow

    public init(store: EventStore, now: LocalNow) {
        self.store = store
        self.now = now
    }

    /// Habit days sessions completed, for the commands to say.
    public typealias SessionCompletions = [(habit: Habit, day: Int)]

    // MARK: Tasks

    public func task(_ reference: String) throws -> TaskItem { try TaskLookup(store: store).task(reference) }

    /// Adds a task created now, with its tags normalized.
    public func addTask(
        title: String, note: String? = nil, due: Deadline? = nil, priority: Priority = .medium, term: Term = .short,
        estimateMinutes: Int? = nil, tags: [String] = []
    ) throws -> TaskItem {
        var t = TaskItem(
            id: 0, title: title, note: note, due: due, priority: priority, term: term, estimateMinutes: estimateMinutes,
            tags: tags.compactMap(TaskItem.normalizedTag), created: now.now)
        t.id = try store.addTask(t)
        return t
    }

    /// The tasks `filter` lets through, in `order`, with their urgency now.
    public func tasks(_ filter: TaskFilter = TaskFilter(), order: TaskOrder = .urgency) throws -> [RankedTask] {
        let effort = try store.taskEffort()
        let tasks = try store.tasks(includeDone: filter.status != .open).filter { filter.matches($0, atLocalMinute: now.minute) }
        return order.sorted(tasks.map { rank($0, effort[$0.id]) })
    }

    /// The `count` most urgent open tasks: what to focus on next.
    public func next(_ count: Int) throws -> [RankedTask] { Array(try tasks().prefix(count)) }

    /// A task with its effort and urgency now.
    public func rankedTask(_ reference: String) throws -> RankedTask {
        let t = try task(reference)
        return rank(t, try store.taskEffort()[t.id])
    }

    public func editTask(_ reference: String, _ changes: TaskChanges) throws -> TaskItem {
        let t = changes.applied(to: try task(reference))
        try store.updateTask(t)
        return t
    }

    /// Marks a task done now; `changed` is false when it was done already.
    public func completeTask(_ reference: String) throws -> (task: TaskItem, changed: Bool) {
        var t = try task(reference)
        let changed = t.complete(at: now.now)
        if changed { try store.updateTask(t) }
        return (t, changed)
    }

    /// Opens a done task again; `changed` is false when it was open.
    public func reopenTask(_ reference: String) throws -> (task: TaskItem, changed: Bool) {
        var t = try task(reference)
        let changed = t.reopen()
        if changed { try store.updateTask(t) }
        return (t, changed)
    }

    /// Deletes a task; its sessions stay in the log under its title.
    public func deleteTask(_ reference: String) throws -> TaskItem {
        let t = try task(reference)
        try store.deleteTask(id: t.id)
        return t
    }

    private func rank(_ t: TaskItem, _ effort: TaskEffort?) -> RankedTask {
        RankedTask(task: t, effort: effort ?? .none, nowLocalMinute: now.minute, createdLocalMinute: now.localMinute(t.created))
    }

    // MARK: Habits

    /// A habit by number (archived ones too) or by name (among the others).
    public func habit(_ reference: String) throws -> Habit {
        switch PlannerReference(reference) {
        case .number(let id):
            guard let h = try store.habit(id: id) else { throw PlannerError.noHabit(id) }
            return h
        case .name(let name):
            return try Habit.only(named: name, among: try store.habits())
        }
    }

    /// Adds a habit that starts today, or on the day `since` (today at the latest): the days from
    /// it on can be marked, and count.
    public func addHabit(
        name: String, schedule: Schedule = .daily, goal: Int? = nil, color: String? = nil, reminder: String? = nil,
        priority: Priority = .medium, flagged: Bool = false, auto: AutoRule? = nil, since: Int? = nil
    ) throws -> Habit {
        if let since, since > now.day { throw PlannerError.futureStart(since) }
        var h = Habit(
            id: 0, name: name, schedule: schedule, goal: goal, color: color, reminder: reminder, priority: priority, flagged: flagged,
            createdDay: since ?? now.day)
        h.autoRule = try auto.map { try TaskLookup(store: store).autoRule($0) }
        h.id = try store.addHabit(h)
        return h
    }

    public struct HabitListing {
        public var completedBySessions: SessionCompletions
        public var rows: [HabitRow]
    }

    /// The habits (archived ones too if asked) with where they stand today, in `order`.
    public func habits(order: HabitOrder = .created, includeArchived: Bool = false) throws -> HabitListing {
        let done = try housekeeping()
        var rows: [HabitRow] = []
        for h in try store.habits(includeArchived: includeArchived) {
            rows.append(HabitRow(habit: h, statuses: try store.habitDays(id: h.id), today: now.day))
        }
        return HabitListing(completedBySessions: done, rows: order.sorted(rows))
    }

    public struct HabitDetail {
        public var completedBySessions: SessionCompletions
        public var habit: Habit
        public var progress: HabitProgress
        /// The last four weeks.
        public var calendar: HabitCalendar
        public var notes: [(week: String, text: String)]
    }

    public func habitDetail(_ reference: String) throws -> HabitDetail {
        let h = try habit(reference)
        let done = try housekeeping()
        let marks = try store.habitDays(id: h.id)
        return HabitDetail(
            completedBySessions: done, habit: h, progress: HabitProgress(habit: h, statuses: marks, through: now.day),
            calendar: HabitCalendar(habit: h, statuses: marks, today: now.day), notes: try store.habitNotes(id: h.id))
    }

    /// Marks a habit's day (`date`: nil for today; see `HabitMarking.day`) as the person says.
    /// Nothing is written, housekeeping included, when the day cannot be marked.
    public func mark(_ reference: String, on date: String?, _ status: DayStatus) throws -> (completedBySessions: SessionCompletions, mark: HabitMark)
    {
        let h = try habit(reference)
        let day = try HabitMarking.day(date, for: h, today: now.day, localDay: now.localDay)
        let done = try housekeeping()
        let mark = HabitMark(habit: h, day: day, status: status, statuses: try store.habitDays(id: h.id), today: now.day)
        try store.setHabitDay(id: h.id, day: day, status: status, source: "person")
        return (done, mark)
    }

    /// Carries out what the person decided once a goal was reached.
    public func decide(_ decision: GoalDecision, for reached: GoalReached) throws -> Habit {
        let h = decision.applied(to: reached.habit, at: now.now)
        try store.updateHabit(h)
        return h
    }

    public func editHabit(_ reference: String, _ changes: HabitChanges) throws -> Habit {
        if let since = changes.since, since > now.day { throw PlannerError.futureStart(since) }
        var changes = changes
        if case .set(let rule) = changes.auto { changes.auto = .set(try TaskLookup(store: store).autoRule(rule)) }
        let h = changes.applied(to: try habit(reference))
        try store.updateHabit(h)
        return h
    }

    /// Writes a habit's note for an ISO week (nil: this week).
    public func noteHabit(_ reference: String, _ text: String, week: String?) throws -> (habit: Habit, week: String) {
        let h = try habit(reference)
        let w = week ?? Statistics.isoWeek(now.day)
        guard isISOWeek(w) else { throw PlannerError.notAWeek(w) }
        try store.setHabitNote(id: h.id, week: w, text: text)
        return (h, w)
    }

    /// Keeps a habit going (out of the archive), with a new goal if one is given.
    public func continueHabit(_ reference: String, goal: Int?) throws -> Habit {
        let h = try habit(reference).continued(goal: goal)
        try store.updateHabit(h)
        return h
    }

    /// Finishes a habit: archived now, with its history.
    public func finishHabit(_ reference: String) throws -> Habit {
        let h = try habit(reference).finished(at: now.now)
        try store.updateHabit(h)
        return h
    }

    /// Deletes a habit and its history.
    public func deleteHabit(_ reference: String) throws -> Habit {
        let h = try habit(reference)
        try store.deleteHabit(id: h.id)
        return h
    }

    private func housekeeping() throws -> SessionCompletions { try PlannerHousekeeping.run(store: store, now: now).completedBySessions }

    // MARK: Today

    /// What is due today, after the housekeeping.
    public func agenda() throws -> Agenda {
        try PlannerHousekeeping.run(store: store, now: now)
        var habits: [(habit: Habit, statuses: [Int: DayStatus])] = []
        for h in try store.habits() { habits.append((h, try store.habitDays(id: h.id))) }
        return Agenda(today: now.day, nowLocalMinute: now.minute, habits: habits, tasks: try store.tasks(includeDone: false))
    }
}
