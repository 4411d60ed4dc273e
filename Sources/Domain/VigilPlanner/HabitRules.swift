import VigilCore
import VigilStats

extension Habit {
    /// The one habit among `habits` (the ones not archived) named `name`, compared without
    /// regard to case, or why there is not one.
    public static func only(named name: String, among habits: [Habit]) throws(PlannerError) -> Habit {
        let matches = habits.filter { $0.archived == nil && $0.name.caseInsensitiveCompare(name) == .orderedSame }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .noHabitNamed(name)
        default: throw .ambiguousHabit(named: name, ids: matches.map(\.id))
        }
    }

    /// Sessions complete the habit's day: `minutes` focused on a task with this title or tag.
    public var autoRule: AutoRule? {
        get { autoTask.flatMap { task in autoMinutes.map { AutoRule(task: task, minutes: $0) } } }
        set {
            autoTask = newValue?.task
            autoMinutes = newValue?.minutes
        }
    }

    /// Keep going: out of the archive, with a new goal if one is given.
    public func continued(goal: Int?) -> Habit {
        var h = self
        h.archived = nil
        if let goal { h.goal = goal }
        return h
    }

    /// Finished: archived at `time`, with its history.
    public func finished(at time: Timestamp) -> Habit {
        var h = self
        h.archived = time
        return h
    }
}

/// `50m on thesis`: sessions with 50 focused minutes on a task titled or tagged thesis complete
/// the day.
public struct AutoRule: Hashable, Sendable {
    public var task: String
    public var minutes: Int
    public init(task: String, minutes: Int) {
        self.task = task
        self.minutes = minutes
    }
}

/// Which days a habit can be marked on: from the day it starts (`habit add/edit --since`, else the
/// day it was added) to today, and only while it is not archived.
public enum HabitMarking {
    /// The day `text` names for marking `habit` (nil: today), or why it cannot be marked.
    ///
    /// `text` is any date of `DateExpression`, read looking back (`monday` is the last Monday,
    /// `3d` three days ago); a date with a time counts for its day, a time with an offset for the
    /// local day `localDay` gives it.
    public static func day(_ text: String?, for habit: Habit, today: Int, localDay: (Timestamp) -> Int = utcDay) throws(PlannerError) -> Int {
        guard habit.archived == nil else { throw .archivedHabit(habit.id) }
        let day: Int
        if let text {
            switch DateExpression.parse(text, today: today, sense: .past) {
            case .success(.day(let d)), .success(.localTime(let d, _)): day = d
            case .success(.instant(let t)): day = localDay(t)
            case .success(.range): throw .notADay(text, .unknown)
            case .failure(let problem): throw .notADay(text, problem)
            }
        } else {
            day = today
        }
        try checkMarkable(day, today: today)
        guard day >= habit.createdDay else { throw .beforeStart(id: habit.id, name: habit.name, start: habit.createdDay, day: day) }
        return day
    }

    /// The rule for the day of a mark, wherever the mark comes from (`vigil habit check`, an
    /// import of Loop's marks): it has come.
    public static func checkMarkable(_ day: Int, today: Int) throws(PlannerError) {
        guard day <= today else { throw .futureDay(day) }
    }

    /// The UTC day of an instant (for callers without a time zone: tests).
    public static func utcDay(_ t: Timestamp) -> Int {
        let s = t.nanoseconds / 1_000_000_000
        return Int(s >= 0 ? s / 86_400 : (s - 86_399) / 86_400)
    }
}

/// A mark set on a habit's day, and what it did to the habit's figures.
public struct HabitMark: Sendable {
    public var habit: Habit
    public var day: Int
    public var status: DayStatus
    /// The marks with this one.
    public var statuses: [Int: DayStatus]
    /// The figures through today with this mark.
    public var progress: HabitProgress
    /// Set when this mark reached the goal, which it had not before.
    public var goalReached: GoalReached?

    /// - Parameters: statuses: the marks before this one; today: the last day the figures count.
    public init(habit: Habit, day: Int, status: DayStatus, statuses before: [Int: DayStatus], today: Int) {
        var after = before
        after[day] = status == .incomplete ? nil : status
        self.habit = habit
        self.day = day
        self.status = status
        statuses = after
        progress = HabitProgress(habit: habit, statuses: after, through: today)
        let wasReached = HabitProgress(habit: habit, statuses: before, through: today).goalReached
        goalReached = habit.goal.flatMap { goal in progress.goalReached && !wasReached ? GoalReached(habit: habit, goal: goal) : nil }
    }

    /// The streak's encouragement ("18 days until this becomes a habit …") while a streak is on
    /// its way to a lifestyle change; nil without a streak or past it.
    public var encouragement: String? {
        progress.current > 0 && progress.current < StreakModel.lifestyleDays ? progress.messages.first ?? "" : nil
    }
}

/// A goal just reached: the habit goes on (to twice the goal, by default) or is finished.
public struct GoalReached: Sendable {
    public var habit: Habit
    public var goal: Int
    /// The goal offered for going on.
    public var nextGoal: Int { goal * 2 }
}

/// What to do once a goal is reached.
public enum GoalDecision: Hashable, Sendable {
    /// Keep going, to this goal.
    case continueTo(Int)
    /// Archive it with its history.
    case finish

    /// From an answer to "Continue or finish? [c/f]": `c…` continues to the offered goal, `f…`
    /// finishes; anything else decides nothing.
    public init?(answer: String, reached: GoalReached) {
        let a = answer.lowercased()
        if a.hasPrefix("f") {
            self = .finish
        } else if a.hasPrefix("c") {
            self = .continueTo(reached.nextGoal)
        } else {
            return nil
        }
    }

    /// The habit after the decision, taken at `time`.
    public func applied(to habit: Habit, at time: Timestamp) -> Habit {
        switch self {
        case .continueTo(let goal): habit.continued(goal: goal)
        case .finish: habit.finished(at: time)
        }
    }
}

/// What `vigil habit edit` changes.
public struct HabitChanges: Hashable, Sendable {
    public var name: String?
    public var schedule: Schedule?
    public var goal: FieldChange<Int> = .keep
    public var color: FieldChange<String> = .keep
    /// `HH:MM`.
    public var reminder: FieldChange<String> = .keep
    public var priority: Priority?
    public var flagged: Bool?
    public var auto: FieldChange<AutoRule> = .keep
    /// The day it starts (the first that can be marked and counts).
    public var since: Int?

    public init() {}

    public func applied(to habit: Habit) -> Habit {
        var h = habit
        if let name { h.name = name }
        if let schedule { h.schedule = schedule }
        h.goal = goal.applied(to: h.goal)
        h.color = color.applied(to: h.color)
        h.reminder = reminder.applied(to: h.reminder)
        if let priority { h.priority = priority }
        if let flagged { h.flagged = flagged }
        h.autoRule = auto.applied(to: h.autoRule)
        if let since { h.createdDay = since }
        return h
    }
}

/// A habit as `vigil habit list` shows it: where it stands today, and its figures.
public struct HabitRow: Sendable {
    /// Where a habit stands today.
    public enum Today: Hashable, Sendable {
        case archived
        /// Not a day it is scheduled on.
        case unscheduled
        /// Scheduled; `incomplete` while still to do.
        case marked(DayStatus)
    }

    public var habit: Habit
    public var today: Today
    public var progress: HabitProgress

    public init(habit: Habit, statuses: [Int: DayStatus], today: Int) {
        self.habit = habit
        self.today = habit.archived != nil ? .archived : habit.schedule.isScheduled(today) ? .marked(statuses[today] ?? .incomplete) : .unscheduled
        progress = HabitProgress(habit: habit, statuses: statuses, through: today)
    }

    /// Scheduled today and not marked yet.
    public var isToDo: Bool { today == .marked(.incomplete) }
}

/// The orders of `vigil habit list`; ties go by the habit's number.
public enum HabitOrder: String, CaseIterable, Sendable {
    case name, color, created
    /// Still to do today first.
    case due
    /// Flagged first.
    case flag
    /// High priority first.
    case priority
    /// By reminder time, habits without one last.
    case reminder

    public func sorted(_ rows: [HabitRow]) -> [HabitRow] {
        rows.sorted { x, y in
            let (a, b) = (x.habit, y.habit)
            return switch self {
            case .name: (a.name.lowercased(), a.id) < (b.name.lowercased(), b.id)
            case .color: (a.color ?? "~", a.id) < (b.color ?? "~", b.id)
            case .created: a.id < b.id
            case .due: (x.isToDo ? 0 : 1, a.id) < (y.isToDo ? 0 : 1, b.id)
            case .flag: (a.flagged ? 0 : 1, a.id) < (b.flagged ? 0 : 1, b.id)
            case .priority: (a.priority.rank, b.id) > (b.priority.rank, a.id)
            case .reminder: (a.reminderMinute ?? .max, a.id) < (b.reminderMinute ?? .max, b.id)
            }
        }
    }
}

/// A habit's recent weeks, Monday first, as `vigil habit show` draws them.
public struct HabitCalendar: Sendable {
    /// A day in the calendar.
    public enum Mark: Hashable, Sendable {
        case completed, failed, skipped
        /// Marked with a status this Vigil does not know (`DayStatus.unknown`).
        case unknown
        /// Scheduled, not marked yet.
        case toDo
        /// Nothing to show: not scheduled, before the habit, or not come yet.
        case none
    }

    public struct Week: Hashable, Sendable {
        /// ISO week, like 2026-W47.
        public var name: String
        /// Monday to Sunday.
        public var days: [Mark]
    }

    public var weeks: [Week]

    /// The `count` weeks that end with today's.
    public init(habit: Habit, statuses: [Int: DayStatus], today: Int, weeks count: Int = 4) {
        let start = today - (HourSlot(day: today, hour: 0).weekday - 1) - 7 * (count - 1)
        weeks = (0..<count).map { w in
            let monday = start + w * 7
            return Week(
                name: Statistics.isoWeek(monday),
                days: (0..<7).map { d in
                    let day = monday + d
                    guard day <= today, day >= habit.createdDay else { return .none }
                    return switch statuses[day] ?? .incomplete {
                    case .completed: .completed
                    case .failed: .failed
                    case .skipped: .skipped
                    case .unknown: .unknown
                    case .incomplete: habit.schedule.isScheduled(day) ? .toDo : .none
                    }
                })
        }
    }
}

/// Whether `text` is an ISO week like `2026-W47` (weeks 1 to 53).
public func isISOWeek(_ text: String) -> Bool {
    guard text.count == 8, text.dropFirst(4).hasPrefix("-W"), let n = Int(text.suffix(2)), (1...53).contains(n) else { return false }
    return Int(text.prefix(4)) != nil
}
