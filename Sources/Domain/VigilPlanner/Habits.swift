import Foundation
import VigilCore
import VigilStats

/// When a habit is due.
public enum Schedule: Hashable, Sendable {
    /// Every day.
    case daily
    /// On these ISO weekdays (1 Monday ... 7 Sunday).
    case weekdays(Set<Int>)
    /// Any days, this many times per ISO week.
    case timesPerWeek(Int)

    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `day`, `mon,wed,fri`, `3/week`: the stored form, and what `--every`, `--days`, `--times` take.
    public var text: String {
        switch self {
        case .daily: "day"
        case .weekdays(let days): days.sorted().map { Self.dayNames[$0 - 1] }.joined(separator: ",")
        case .timesPerWeek(let n): "\(n)/week"
        }
    }

    public var description: String {
        switch self {
        case .daily: "every day"
        case .weekdays(let days) where days == [1, 2, 3, 4, 5]: "weekdays"
        case .weekdays(let days): "on " + days.sorted().map { Self.dayNames[$0 - 1].capitalized }.joined(separator: ", ")
        case .timesPerWeek(let n): "\(n) times a week"
        }
    }

    public static func parse(_ text: String) -> Schedule? {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        if t == "day" || t == "daily" { return .daily }
        if t == "weekdays" { return .weekdays([1, 2, 3, 4, 5]) }
        if t.hasSuffix("/week"), let n = Int(t.dropLast(5)), (1...7).contains(n) { return .timesPerWeek(n) }
        let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var days = Set<Int>()
        for name in t.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            // `mon`, `monday`, or anything in between (`tues`, `thur`).
            guard name.count >= 3, let i = full.firstIndex(where: { $0.hasPrefix(name) }) else { return nil }
            days.insert(i + 1)
        }
        return days.isEmpty ? nil : .weekdays(days)
    }

    /// Whether `day` is one the habit is due on (times-per-week habits may be done any day).
    public func isScheduled(_ day: Int) -> Bool {
        switch self {
        case .daily, .timesPerWeek: true
        case .weekdays(let days): days.contains(HourSlot(day: day, hour: 0).weekday)
        }
    }
}

/// What happened to a habit on a day.
public enum DayStatus: String, Sendable, CaseIterable {
    case completed, failed, skipped
    /// Not marked (yet): today before it is checked, or a day not scheduled.
    case incomplete
    /// Marked with a status this Vigil does not know (a newer version's, received through sync):
    /// kept as it is, shown as unknown, and counted as neither done nor failed.
    case unknown

    /// The status stored as `text`; one this Vigil does not know is `unknown`.
    public init(stored text: String) { self = DayStatus(rawValue: text) ?? .unknown }
}

public struct Habit: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var schedule: Schedule
    /// Completions to reach; nil for an open-ended habit.
    public var goal: Int?
    public var color: String?
    /// `HH:MM` local.
    public var reminder: String?
    public var priority: Priority
    public var flagged: Bool
    /// Sessions complete the day by themselves when they reach this many focused minutes on a
    /// task with this title or tag.
    public var autoTask: String?
    public var autoMinutes: Int?
    /// Local day it starts: the day it was added, or the day `habit add/edit --since` gave (stored
    /// as `created_day`). The first day that can be marked, and that its figures count from.
    public var createdDay: Int
    /// When it was archived (finished or put away), else nil.
    public var archived: Timestamp?

    public init(
        id: Int64, name: String, schedule: Schedule, goal: Int? = nil, color: String? = nil, reminder: String? = nil,
        priority: Priority = .medium, flagged: Bool = false, autoTask: String? = nil, autoMinutes: Int? = nil,
        createdDay: Int, archived: Timestamp? = nil
    ) {
        self.id = id
        self.name = name
        self.schedule = schedule
        self.goal = goal
        self.color = color
        self.reminder = reminder
        self.priority = priority
        self.flagged = flagged
        self.autoTask = autoTask
        self.autoMinutes = autoMinutes
        self.createdDay = createdDay
        self.archived = archived
    }

    /// Minutes after local midnight of the reminder.
    public var reminderMinute: Int? { reminder.flatMap(parseClock) }
}

/// `HH:MM` to minutes after midnight.
public func parseClock(_ text: String) -> Int? {
    let hm = text.split(separator: ":")
    guard hm.count == 2, (1...2).contains(hm[0].count), hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
        (0..<24).contains(h), (0..<60).contains(m)
    else { return nil }
    return h * 60 + m
}

/// A habit's figures over its history up to a day.
///
/// Streaks use the 21/90 model (`StreakTracker`, the same rules as the statistics): each completed
/// scheduled day extends the streak, a failed one breaks it, a skipped one (and an unscheduled one)
/// does neither. For "N times a week", the days done count; a week that ends with fewer than N
/// breaks the streak (a failure on the week's last day), and days beyond the N needed are fine.
///
/// Strength forgives a single miss: an exponentially smoothed share of completed days,
/// strength ← strength × (1 − α) + α × (1 if completed, else 0), α = 0.1, over the days that count
/// (completed and failed; skipped days leave it as it is), starting at 0. Twenty completed days
/// bring it to 88 %; one miss then costs 8.8 points, not the streak's whole history.
public struct HabitProgress: Sendable {
    public static let strengthAlpha = 0.1

    public var current: Int
    public var best: Int
    public var score: Int
    public var bestScore: Int
    public var badge: StreakModel.Badge
    public var messages: [String]
    /// 0...1.
    public var strength: Double
    public var completed: Int
    public var failed: Int
    public var skipped: Int
    /// Scheduled days up to yesterday with no mark at all (the automatic failing fills these in).
    public var incomplete: Int
    /// completed / (completed + failed); nil before any.
    public var successRate: Double?
    public var goalReached: Bool

    /// - Parameters: statuses: the marks by day; through: the last day to count (today).
    public init(habit: Habit, statuses: [Int: DayStatus], through today: Int) {
        var tracker = StreakTracker()
        var strength = 0.0
        var completed = 0
        var failed = 0
        var skipped = 0
        var incomplete = 0
        var weekDone = 0
        func book(_ day: Int, done: Bool) {
            tracker.record(day: day, completed: done)
            strength = strength * (1 - Self.strengthAlpha) + Self.strengthAlpha * (done ? 1 : 0)
        }
        /// Counts a day's mark; an unmarked day is the caller's to judge.
        func count(_ status: DayStatus, on day: Int) {
            switch status {
            case .completed:
                completed += 1
                book(day, done: true)
            case .failed:
                failed += 1
                book(day, done: false)
            case .skipped:
                skipped += 1
            case .incomplete, .unknown:
                break
            }
        }
        var day = habit.createdDay
        while day <= today {
            let status = statuses[day] ?? .incomplete
            let weekday = HourSlot(day: day, hour: 0).weekday
            if weekday == 1 { weekDone = 0 }
            switch habit.schedule {
            case .timesPerWeek(let n):
                count(status, on: day)
                if status == .completed { weekDone += 1 }
                // The week is judged on its last day (once it is over).
                if weekday == 7, day < today, weekDone < n, status != .failed {
                    failed += 1
                    book(day, done: false)
                }
            case .daily, .weekdays:
                guard habit.schedule.isScheduled(day) || statuses[day] != nil else { break }
                count(status, on: day)
                if status == .incomplete, day < today { incomplete += 1 }
            }
            day += 1
        }
        current = tracker.current
        best = tracker.best
        score = tracker.score
        bestScore = tracker.bestScore
        badge = tracker.badge
        messages = tracker.messages
        self.strength = strength
        self.completed = completed
        self.failed = failed
        self.skipped = skipped
        self.incomplete = incomplete
        successRate = completed + failed > 0 ? Double(completed) / Double(completed + failed) : nil
        goalReached = habit.goal.map { completed >= $0 } ?? false
    }
}

/// The days a habit should have been marked and was not, before today: these become failures the
/// next time Vigil runs. For "N times a week", nothing is failed day by day (the week is judged
/// as a whole in `HabitProgress`).
public func daysToFail(_ habit: Habit, statuses: [Int: DayStatus], today: Int) -> [Int] {
    guard habit.archived == nil else { return [] }
    if case .timesPerWeek = habit.schedule { return [] }
    var out: [Int] = []
    var day = habit.createdDay
    while day < today {
        if habit.schedule.isScheduled(day), statuses[day] == nil { out.append(day) }
        day += 1
    }
    return out
}

/// Whether a habit still has to be done today: scheduled today, not marked yet, and for "N times
/// a week" only while this week still lacks completions. What `vigil today` lists and the daemon
/// reminds.
public func isStillDue(_ habit: Habit, statuses: [Int: DayStatus], today: Int) -> Bool {
    guard habit.archived == nil, habit.schedule.isScheduled(today), statuses[today] == nil else { return false }
    if case .timesPerWeek(let n) = habit.schedule {
        let monday = today - (HourSlot(day: today, hour: 0).weekday - 1)
        return (monday..<today).filter { statuses[$0] == .completed }.count < n
    }
    return true
}
