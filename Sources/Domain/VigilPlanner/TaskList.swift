import VigilCore

extension TaskItem {
    /// The one task called `title` among `tasks` (every task, done ones too), or why there is not
    /// one: the exact title without regard to case, an open task before a done one. Several open
    /// tasks (or, with none open, several done ones) with the title are ambiguous; no task with it
    /// is an unknown title, with the tasks whose titles contain it (or it theirs) as candidates.
    public static func named(_ title: String, among tasks: [TaskItem]) throws(PlannerError) -> TaskItem {
        let key = title.lowercased()
        let same = tasks.filter { $0.title.lowercased() == key }
        let open = same.filter { !$0.isDone }
        let matches = open.isEmpty ? same : open
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let similar = tasks.filter { t in
                let other = t.title.lowercased()
                return !key.isEmpty && (other.contains(key) || key.contains(other))
            }
            throw .noTaskTitled(title, candidates: similar.sorted { ($0.isDone ? 1 : 0, $0.id) < ($1.isDone ? 1 : 0, $1.id) }.prefix(5).map { $0 })
        default: throw .ambiguousTask(titled: title, ids: matches.map(\.id))
        }
    }
}

/// The task tracked time was spent on, from the tags another tool gave it: the first tag, in the
/// tool's order, that is a task's title as `--task` names one (`TaskItem.named`: exact, without
/// regard to case, an open task before a done one); none when no tag is, or when several tasks
/// share the title. Timewarrior's hook for Taskwarrior tags each interval with its task's
/// description, so time imported after the tasks lands on them; any other tag names no task.
public struct TaskByTag: Sendable {
    private let byTitle: [String: [TaskItem]]

    public init(_ tasks: [TaskItem]) { byTitle = Dictionary(grouping: tasks) { $0.title.lowercased() } }

    public func task(for tags: [String]) -> TaskItem? {
        for tag in tags {
            if let same = byTitle[tag.lowercased()], let task = try? TaskItem.named(tag, among: same) { return task }
        }
        return nil
    }
}

/// A task with what has been spent on it and how urgent it is now.
public struct RankedTask: Sendable {
    public var task: TaskItem
    public var effort: TaskEffort
    public var urgency: Urgency

    /// - Parameters: now and created: local minutes since 1970-01-01.
    public init(task: TaskItem, effort: TaskEffort, nowLocalMinute now: Int, createdLocalMinute created: Int) {
        self.task = task
        self.effort = effort
        urgency = Urgency(task: task, nowLocalMinute: now, createdLocalMinute: created, focusedMinutes: effort.focusedMinutes)
    }
}

/// The orders of `vigil task list`; `urgency` is the ranking `vigil next` suggests from.
/// Every order breaks ties by the task's number, so a list never shuffles between runs.
public enum TaskOrder: String, CaseIterable, Sendable {
    /// Most urgent first; equally urgent, the older task (lower number) first.
    case urgency
    /// Soonest deadline first, tasks without one last.
    case due
    /// High priority first; equal, the older first.
    case priority
    /// Short term, mid, long.
    case term
    /// In the order they were added.
    case created

    public func sorted(_ tasks: [RankedTask]) -> [RankedTask] {
        tasks.sorted { x, y in
            let (a, b) = (x.task, y.task)
            return switch self {
            case .urgency: (x.urgency.total, b.id) > (y.urgency.total, a.id)
            case .due: (a.due?.localMinute ?? .max, a.id) < (b.due?.localMinute ?? .max, b.id)
            case .priority: (a.priority.rank, b.id) > (b.priority.rank, a.id)
            case .term: (Term.allCases.firstIndex(of: a.term)!, a.id) < (Term.allCases.firstIndex(of: b.term)!, b.id)
            case .created: (a.created, a.id) < (b.created, b.id)
            }
        }
    }
}

/// Which tasks `vigil task list` shows.
public struct TaskFilter: Hashable, Sendable {
    public enum Status: Hashable, Sendable {
        case open, done, all
    }
    public var status: Status
    public var priority: Priority?
    public var term: Term?
    /// Tasks with this tag (compared as stored: trimmed, lowercased).
    public var tag: String?
    /// Only tasks overdue now (`TaskItem.isOverdue`).
    public var overdueOnly: Bool

    public init(status: Status = .open, priority: Priority? = nil, term: Term? = nil, tag: String? = nil, overdueOnly: Bool = false) {
        self.status = status
        self.priority = priority
        self.term = term
        self.tag = tag
        self.overdueOnly = overdueOnly
    }

    /// - Parameter now: local minutes since 1970-01-01.
    public func matches(_ t: TaskItem, atLocalMinute now: Int) -> Bool {
        switch status {
        case .open: if t.isDone { return false }
        case .done: if !t.isDone { return false }
        case .all: break
        }
        if let priority, t.priority != priority { return false }
        if let term, t.term != term { return false }
        if let tag, !t.tags.contains(TaskItem.normalizedTag(tag) ?? "") { return false }
        if overdueOnly, !t.isOverdue(atLocalMinute: now) { return false }
        return true
    }
}

/// What `vigil task edit` changes.
public struct TaskChanges: Hashable, Sendable {
    public var title: String?
    public var due: FieldChange<Deadline> = .keep
    public var priority: Priority?
    public var term: Term?
    public var estimateMinutes: FieldChange<Int> = .keep
    public var note: FieldChange<String> = .keep
    /// Tags to add (stored normalized, each once), then tags to remove.
    public var addTags: [String] = []
    public var removeTags: [String] = []

    public init() {}

    public func applied(to task: TaskItem) -> TaskItem {
        var t = task
        if let title { t.title = title }
        t.due = due.applied(to: t.due)
        if let priority { t.priority = priority }
        if let term { t.term = term }
        t.estimateMinutes = estimateMinutes.applied(to: t.estimateMinutes)
        t.note = note.applied(to: t.note)
        for tag in addTags.compactMap(TaskItem.normalizedTag) where !t.tags.contains(tag) { t.tags.append(tag) }
        let removed = Set(removeTags.compactMap(TaskItem.normalizedTag))
        t.tags.removeAll { removed.contains($0) }
        return t
    }
}
