import VigilCore

/// What is due on a day (`vigil today`): the habits scheduled that day, then the open tasks due
/// that day or overdue, and how many of them are still to do.
///
/// A habit is listed when it is marked that day (done, failed, skipped) or still due
/// (`isStillDue`: a weekly quota already met is not listed on the days it was not done). Every
/// listed task is still to do.
public struct Agenda: Sendable {
    public enum Item: Sendable {
        /// A habit with its mark today (`incomplete`: to do) and its current streak.
        case habit(Habit, status: DayStatus, streak: Int)
        case task(TaskItem, when: TaskTiming)
    }

    /// Where a listed task stands against its deadline.
    public enum TaskTiming: Hashable, Sendable {
        /// Past its deadline (`TaskItem.isOverdue`).
        case overdue
        /// Due by the end of today, at no particular time.
        case dueToday
        /// Due later today at this time, `HH:MM`.
        case dueAt(String)
    }

    public var day: Int
    public var items: [Item]
    /// Habits not marked yet and tasks listed.
    public var toDo: Int

    /// - Parameters:
    ///   - today: the local day; now: local minutes since 1970-01-01.
    ///   - habits: each habit with its marks.
    ///   - tasks: the open tasks.
    public init(today: Int, nowLocalMinute now: Int, habits: [(habit: Habit, statuses: [Int: DayStatus])], tasks: [TaskItem]) {
        day = today
        items = []
        toDo = 0
        for (h, marks) in habits where h.archived == nil && h.schedule.isScheduled(today) {
            let status = marks[today] ?? .incomplete
            if status == .incomplete {
                guard isStillDue(h, statuses: marks, today: today) else { continue }
                toDo += 1
            }
            items.append(.habit(h, status: status, streak: HabitProgress(habit: h, statuses: marks, through: today).current))
        }
        for t in tasks where !t.isDone {
            guard let due = t.due, due.day <= today else { continue }
            toDo += 1
            let when: TaskTiming = t.isOverdue(atLocalMinute: now) ? .overdue : due.time.map { .dueAt($0) } ?? .dueToday
            items.append(.task(t, when: when))
        }
    }
}
