import VigilCore

/// What the planner refuses, in words for the person: each message names what is wrong and what
/// to do. The command line prints it with exit code 65 (data error), or 64 for an argument that
/// is not a day or a week at all (`isABadArgument`).
public enum PlannerError: PersonFacingError, Hashable, Sendable {
    /// No task has this number.
    case noTask(Int64)
    /// No task has this title (without regard to case); tasks whose titles are like it.
    case noTaskTitled(String, candidates: [TaskItem])
    /// Several open tasks (or, none open, several done ones) have this title; their numbers.
    case ambiguousTask(titled: String, ids: [Int64])
    /// No habit has this number.
    case noHabit(Int64)
    /// No habit (archived ones aside) has this name.
    case noHabitNamed(String)
    /// Several habits have this name; their numbers.
    case ambiguousHabit(named: String, ids: [Int64])
    /// The habit is archived: it takes no marks until it is continued.
    case archivedHabit(Int64)
    /// Not a day a habit can be marked on (`--date`), and why.
    case notADay(String, DateProblem)
    /// A day that has not come yet.
    case futureDay(Int)
    /// A day before the habit starts (the day it was added, or `--since`).
    case beforeStart(id: Int64, name: String, start: Int, day: Int)
    /// A habit's start (`--since`) after today.
    case futureStart(Int)
    /// Not an ISO week (`--week`).
    case notAWeek(String)

    /// An argument that is not what its option takes (usage, exit 64), rather than one that does
    /// not fit the data (no such task, a day before the habit).
    public var exitStatus: ExitStatus { isABadArgument ? .usage : .dataError }

    public var isABadArgument: Bool {
        switch self {
        case .notADay, .notAWeek, .futureStart: true
        default: false
        }
    }

    /// What was typed is quoted on one line, inert in a terminal (`terminalSafe`).
    public var description: String {
        switch self {
        case .noTask(let id):
            "no task #\(id). `vigil task list --all` shows every task with its number."
        case .noTaskTitled(let title, let candidates) where candidates.isEmpty:
            "no task is called '\(title.terminalSafe)'. `vigil task list --all` shows every task; give its number or its exact title."
        case .noTaskTitled(let title, let candidates):
            "no task is called '\(title.terminalSafe)'; did you mean "
                + candidates.map { "#\($0.id) '\($0.title.terminalSafe)'\($0.isDone ? " (done)" : "")" }.joined(separator: ", ")
                + "? Give the number or the exact title."
        case .ambiguousTask(let title, let ids):
            "\(ids.count) tasks are called '\(title.terminalSafe)': \(Self.numbers(ids)). Give the number."
        case .noHabit(let id):
            "no habit #\(id). `vigil habit list --archived` shows every habit with its number."
        case .noHabitNamed(let name):
            "no habit is called '\(name.terminalSafe)'. `vigil habit list` shows them."
        case .ambiguousHabit(let name, let ids):
            "\(ids.count) habits are called '\(name.terminalSafe)': \(Self.numbers(ids)). Give the number."
        case .archivedHabit(let id):
            "habit #\(id) is archived. `vigil habit continue \(id)` brings it back."
        case .notADay(let text, let problem):
            DateExpression.describe(problem, text, option: "--date", accepts: DateExpression.forms(.past))
        case .futureDay(let day):
            "\(civilDate(day)) is in the future: a day can be marked once it has come."
        case .beforeStart(let id, let name, let start, let day):
            "\(name.terminalSafe) starts on \(civilDate(start)); mark an earlier day after `vigil habit edit \(id) --since \(civilDate(day))`."
        case .futureStart(let day):
            "--since: \(civilDate(day)) is in the future: a habit starts today at the latest."
        case .notAWeek(let text):
            "--week: '\(text.terminalSafe)' is not an ISO week like 2026-W47."
        }
    }

    private static func numbers(_ ids: [Int64]) -> String { ids.map { "#\($0)" }.joined(separator: ", ") }
}

/// How a person names a task or a habit: by its number, or else by its name.
public enum PlannerReference: Hashable, Sendable {
    case number(Int64)
    case name(String)

    /// A whole number is a number (`3`, `-1`); anything else (`3 pages`, ` 3`) is a name.
    public init(_ text: String) {
        if let n = Int64(text) { self = .number(n) } else { self = .name(text) }
    }
}
