import Foundation
import VigilCore

/// How much a task matters, as the person says it.
public enum Priority: String, Sendable, CaseIterable, Comparable {
    case high, medium, low

    /// Higher first.
    public var rank: Int {
        switch self {
        case .high: 3
        case .medium: 2
        case .low: 1
        }
    }

    public static func < (a: Priority, b: Priority) -> Bool { a.rank < b.rank }
}

/// Over what horizon a task pays off.
public enum Term: String, Sendable, CaseIterable {
    case short, mid, long
}

/// A local deadline: a day, and optionally a time of day (minutes after local midnight). Kept in
/// local terms so "Friday 17:00" stays Friday 17:00 whatever the zone offset does in between.
public struct Deadline: Hashable, Sendable, Comparable {
    /// Local day, days since 1970-01-01.
    public var day: Int
    /// Minutes after local midnight; nil for "some time that day" (the end of the day).
    public var minute: Int?

    public init(day: Int, minute: Int? = nil) {
        self.day = day
        self.minute = minute
    }

    /// The deadline a date text names (`DateExpression`, looking ahead: `friday` is the next
    /// Friday, `3d` three days from today, a range its last day: `:week` is by the end of the week).
    /// A time with an offset is turned into a local minute by `localMinute` (minutes since
    /// 1970-01-01 on the local clock); seconds are dropped, a deadline is to the minute.
    public static func parse(_ text: String, today: Int, weekStart: Int = 1, localMinute: (Timestamp) -> Int) -> Result<Deadline, DateProblem> {
        DateExpression.parse(text, today: today, sense: .future, weekStart: weekStart).map { value in
            switch value {
            case .day(let d): Deadline(day: d)
            case .localTime(let d, let second): Deadline(day: d, minute: second / 60)
            case .range(let r): Deadline(day: r.upperBound)
            case .instant(let t): Deadline(atLocalMinute: localMinute(t))
            }
        }
    }

    /// The deadline at a local minute since 1970-01-01.
    public init(atLocalMinute m: Int) {
        let day = m >= 0 ? m / 1440 : (m - 1439) / 1440
        self.init(day: day, minute: m - day * 1440)
    }

    /// The moment it falls due, in local minutes since 1970-01-01 (a day without a time is due at
    /// its end).
    public var localMinute: Int { day * 1440 + (minute ?? 1440) }

    /// Whether it has passed at a local minute: from its due minute on (17:00 is past at 17:00,
    /// a day without a time at the following midnight). The one definition of "overdue" for the
    /// task list, the agenda, urgency and reminders.
    public func hasPassed(atLocalMinute now: Int) -> Bool { now >= localMinute }

    public var text: String {
        let date = civilDate(day)
        guard let time else { return date }
        return date + " " + time
    }

    /// `HH:MM`, or nil for a day without a time.
    public var time: String? { minute.map { twoDigits($0 / 60) + ":" + twoDigits($0 % 60) } }

    public static func < (a: Deadline, b: Deadline) -> Bool { a.localMinute < b.localMinute }
}

/// Something the person focuses on.
public struct TaskItem: Sendable, Hashable {
    public var id: Int64
    public var title: String
    public var note: String?
    public var due: Deadline?
    public var priority: Priority
    public var term: Term
    public var estimateMinutes: Int?
    public var tags: [String]
    /// When it was added.
    public var created: Timestamp
    /// When it was done, else nil.
    public var done: Timestamp?

    public init(
        id: Int64, title: String, note: String? = nil, due: Deadline? = nil, priority: Priority = .medium, term: Term = .short,
        estimateMinutes: Int? = nil, tags: [String] = [], created: Timestamp, done: Timestamp? = nil
    ) {
        self.id = id
        self.title = title
        self.note = note
        self.due = due
        self.priority = priority
        self.term = term
        self.estimateMinutes = estimateMinutes
        self.tags = tags
        self.created = created
        self.done = done
    }

    public var isDone: Bool { done != nil }

    /// Open and past its deadline at a local minute (see `Deadline.hasPassed(atLocalMinute:)`).
    public func isOverdue(atLocalMinute now: Int) -> Bool { !isDone && (due?.hasPassed(atLocalMinute: now) ?? false) }

    /// A tag as stored: trimmed and lowercased; nil for a blank one.
    public static func normalizedTag(_ tag: String) -> String? {
        let t = tag.trimmingCharacters(in: .whitespaces).lowercased()
        return t.isEmpty ? nil : t
    }

    /// Tags as given to `--tag` (separated by commas, or the option repeated) and as another tool
    /// gives them (Timewarrior's): trimmed, lower case, each once, in the order given; as tasks keep
    /// theirs and sessions store theirs (comma-separated, so a comma always separates two tags).
    public static func normalizedTags(_ texts: [String]) -> [String] {
        var out: [String] = []
        for tag in texts.flatMap({ $0.split(separator: ",") }).compactMap({ normalizedTag(String($0)) }) where !out.contains(tag) {
            out.append(tag)
        }
        return out
    }

    /// Marks it done at `time`; false (and nothing changes) when it was done already.
    public mutating func complete(at time: Timestamp) -> Bool {
        guard !isDone else { return false }
        done = time
        return true
    }

    /// Opens it again; false (and nothing changes) when it was open.
    public mutating func reopen() -> Bool {
        guard isDone else { return false }
        done = nil
        return true
    }
}

/// What the sessions linked to a task add up to.
public struct TaskEffort: Hashable, Sendable {
    public var focusedMinutes: Double
    public var sessions: Int
    public var episodes: Int

    public init(focusedMinutes: Double, sessions: Int, episodes: Int) {
        self.focusedMinutes = focusedMinutes
        self.sessions = sessions
        self.episodes = episodes
    }

    /// A task no session was linked to.
    public static let none = TaskEffort(focusedMinutes: 0, sessions: 0, episodes: 0)
}

/// The urgency of a task: a sum of named parts, so `vigil task why` can show how it came about.
///
/// - priority: high 30, medium 15, low 5;
/// - deadline: overdue 40 plus 2 a day late (at most 60 in all); due within 14 days 35 × (1 − days
///   left / 14), so 35 when due now and 0 two weeks out; later or none 0;
/// - age: half a point per day since it was added, at most 10 (what waits grows slowly);
/// - term: short 10, mid 5, long 0 (short-term work pays off soon);
/// - momentum: a point per 10 minutes already focused on it, at most 10, while under its estimate
///   (a started task is cheaper to finish); over the estimate, −5 (time to rethink it).
public struct Urgency: Sendable {
    public struct Part: Sendable, Hashable {
        public var name: String
        public var points: Double
        public var why: String
    }
    public var parts: [Part]
    public var total: Double { parts.reduce(0) { $0 + $1.points } }

    /// - Parameters: now: local minutes since 1970-01-01; focusedMinutes: already spent on it.
    public init(task: TaskItem, nowLocalMinute now: Int, createdLocalMinute created: Int, focusedMinutes: Double) {
        var parts: [Part] = []
        let p: Double =
            switch task.priority {
            case .high: 30
            case .medium: 15
            case .low: 5
            }
        parts.append(Part(name: "priority", points: p, why: "\(task.priority.rawValue) priority"))
        if let due = task.due {
            let minutesLeft = Double(due.localMinute - now)
            let days = minutesLeft / 1440
            if due.hasPassed(atLocalMinute: now) {
                let late = -days
                parts.append(
                    Part(
                        name: "deadline", points: min(60, 40 + 2 * late.rounded(.down)),
                        why: late < 1 ? "overdue since \(due.text)" : "overdue by \(Int(late)) day\(Int(late) == 1 ? "" : "s") (due \(due.text))"))
            } else if days < 14 {
                parts.append(Part(name: "deadline", points: round1(35 * (1 - days / 14)), why: "due \(due.text), in \(dueIn(minutesLeft))"))
            } else {
                parts.append(Part(name: "deadline", points: 0, why: "due \(due.text), more than two weeks away"))
            }
        } else {
            parts.append(Part(name: "deadline", points: 0, why: "no due date"))
        }
        let ageDays = max(0, Double(now - created) / 1440)
        parts.append(Part(name: "age", points: round1(min(10, ageDays / 2)), why: "added \(Int(ageDays)) day\(Int(ageDays) == 1 ? "" : "s") ago"))
        let t: Double =
            switch task.term {
            case .short: 10
            case .mid: 5
            case .long: 0
            }
        parts.append(Part(name: "term", points: t, why: "\(task.term.rawValue)-term"))
        if let estimate = task.estimateMinutes, focusedMinutes > Double(estimate) {
            parts.append(Part(name: "momentum", points: -5, why: "\(Int(focusedMinutes)) focused min, over the \(estimate) min estimate: rethink it"))
        } else {
            let estimate = task.estimateMinutes.map { " of \($0) estimated" } ?? ""
            parts.append(
                Part(name: "momentum", points: round1(min(10, focusedMinutes / 10)), why: "\(Int(focusedMinutes)) focused min so far\(estimate)"))
        }
        self.parts = parts
    }

    /// The parts that count most, largest first: what `vigil next` gives as the reasons.
    public func leadingReasons(_ count: Int = 3) -> [String] {
        parts.filter { $0.points != 0 }.sorted { $0.points > $1.points }.prefix(count).map(\.why)
    }
}

private func dueIn(_ minutes: Double) -> String {
    if minutes < 60 { return "\(Int(minutes)) min" }
    if minutes < 2880 { return "\(Int(minutes / 60)) h" }
    return "\(Int(minutes / 1440)) days"
}

private func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

/// The ranges of the planner's numbers, wherever they come from (a command, an import, another
/// device through sync: `IncomingRows`).
public enum PlannerLimits {
    /// A task's estimate, a habit's minutes: a year of minutes at most; more is no estimate of a
    /// task (and 2^63 hours overflowed).
    public static let minutes: ClosedRange<Int> = 1...366 * 24 * 60
}

/// Parses durations like `90m`, `1h30m`, `2h`, `45` (minutes): at most `PlannerLimits.minutes`.
public func parseMinutes(_ text: String) -> Int? {
    let largestMinutes = PlannerLimits.minutes.upperBound
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let n = Int(t) { return (1...largestMinutes).contains(n) ? n : nil }
    var total = 0
    var number = ""
    var sawUnit = false
    for c in t {
        if c.isNumber {
            number.append(c)
            continue
        }
        // Each part within the limit first, so that no sum or product can overflow.
        guard let n = Int(number), n <= largestMinutes else { return nil }
        switch c {
        case "h": total += n * 60
        case "m": total += n
        default: return nil
        }
        guard total <= largestMinutes else { return nil }
        number = ""
        sawUnit = true
    }
    guard number.isEmpty, sawUnit, total > 0 else { return nil }
    return total
}
