import ArgumentParser
import DisplayWidth
import Foundation
import LogServices
import SessionViews
import VigilCore
import VigilPlanner

extension Priority: ExpressibleByArgument {}
extension Term: ExpressibleByArgument {}
extension TaskOrder: ExpressibleByArgument {}

/// The planner the task, habit and today commands act on, at "now" (`--now` or the clock).
///
/// - Parameter lookingUp: the command acts on a task or habit that must exist already: with no
///   log yet there is none, which is said without creating an empty log.
func openPlanner(_ common: CommonOptions, lookingUp: Bool = false) throws -> PlannerService {
    if lookingUp, !(try common.hasLog()) {
        throw Failure(
            "there are no tasks or habits yet (no event log at \(common.paths.databasePath.terminalSafe)). "
                + "Add one with `vigil task add TITLE` or `vigil habit add NAME`.", code: .dataError)
    }
    return try common.openLog().planner(now: try common.localNow())
}

func minutes(_ text: String, option: String) throws -> Int {
    guard let m = parseMinutes(text) else {
        throw Failure("\(option): '\(text.terminalSafe)' is not a duration; use minutes like 90m, 1h30m or 2h, up to a year.", code: .usage)
    }
    return m
}

func nonBlank(_ text: String, what: String) throws -> String {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !t.isEmpty else { throw ValidationError("\(what) must not be blank.") }
    return t
}

/// An edit's option: absent leaves the field as it is, `none` clears it, anything else is parsed.
func change<Value>(_ text: String?, _ parse: (String) throws -> Value) rethrows -> FieldChange<Value> {
    guard let text else { return .keep }
    return text == "none" ? .clear : .set(try parse(text))
}

struct TaskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "The tasks you focus on: priorities, deadlines, and what to do next.",
        discussion: """
            A task is named by its number or its exact title (without regard to case; an open task \
            before a done one) here, in `vigil start --task` and in `vigil report --task`. A session \
            started with `vigil start --task` is linked to the task, which then shows its focused \
            time and distraction episodes.

            Examples:
              vigil task add "Write chapter 3" --due 2026-12-01 --priority high
              vigil task edit 3 --estimate 6h --tag thesis
              vigil task list --sort due
              vigil task why 3
              vigil task done 3
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Done.self, Reopen.self, Delete.self, Why.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a task.",
            discussion: """
                Examples:
                  vigil task add "Send the invoice" --due "2026-11-27 17:00" --priority high
                  vigil task add "Learn Rust" --term long --note "one chapter a week"
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "What the task is.") var title: String
        @Option(
            help: ArgumentHelp(
                "Due: YYYY-MM-DD or \"YYYY-MM-DD HH:MM\" (local), HH:MM, today, tomorrow, friday (the next one), 3d or 2w (from today).",
                valueName: "date")) var due: String?
        @Option(help: "How much it matters: a part of its urgency (`vigil task why`).") var priority: Priority = .medium
        @Option(help: "Over what horizon it pays off.") var term: Term = .short
        @Option(help: ArgumentHelp("How long you think it takes: 90m, 1h30m, 2h.", valueName: "duration")) var estimate: String?
        @Option(help: "A note.") var note: String?
        @Option(
            name: .customLong("tag"), help: ArgumentHelp("A tag (repeat for several); habits can count sessions on tagged tasks.", valueName: "tag"))
        var tags: [String] = []

        func validate() throws { _ = try nonBlank(title, what: "The task's title") }

        func run() async throws {
            await guarded {
                // What was typed is checked before the log is opened: a refused task creates nothing.
                let now = try common.localNow()
                let dueDate = try due.map { try DateOption.deadline($0, option: "--due", now: now, common: common) }
                let estimated = try estimate.map { try minutes($0, option: "--estimate") }
                let planner = try openPlanner(common)
                let t = try planner.addTask(
                    title: try nonBlank(title, what: "The task's title"), note: note, due: dueDate, priority: priority, term: term,
                    estimateMinutes: estimated, tags: tags)
                print("Added task #\(t.id): \(t.title.terminalSafe)\(dueNote(t)). Start it with `vigil start --task \(t.id)`.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List tasks, most urgent first.",
            discussion: """
                Examples:
                  vigil task list
                  vigil task list --priority high --sort due
                  vigil task list --tag thesis --all
                """)
        @OptionGroup var common: CommonOptions
        @Flag(help: "Include done tasks.") var all = false
        @Flag(help: "Only done tasks.") var done = false
        @Option(help: "Only this priority.") var priority: Priority?
        @Option(help: "Only this term.") var term: Term?
        @Option(help: "Only tasks with this tag.") var tag: String?
        @Flag(help: "Only tasks that are overdue.") var overdue = false
        @Option(help: "The order; urgency puts the most urgent first.") var sort: TaskOrder = .urgency
        @Flag(help: "Print a JSON array of tasks (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let filter = TaskFilter(status: done ? .done : all ? .all : .open, priority: priority, term: term, tag: tag, overdueOnly: overdue)
                let tasks = try openPlanner(common).tasks(filter, order: sort)
                if json {
                    printJSON(.array(tasks.map(taskJSON)))
                    return
                }
                if tasks.isEmpty {
                    print(all || done ? "No tasks." : "No open tasks. Add one with `vigil task add TITLE`.")
                    return
                }
                print("   #  urgency  priority  due               term   focused  title")
                for r in tasks {
                    let t = r.task
                    let due = (t.due?.text ?? "–").padded(toWidth: 16)
                    let focused = humanMinutesShort(r.effort.focusedMinutes).leftPadded(toWidth: 7)
                    let mark = t.isDone ? "✓ " : ""
                    let tags = t.tags.isEmpty ? "" : "  [" + t.tags.map(\.terminalSafe).joined(separator: ", ") + "]"
                    print(
                        "\(String(t.id).leftPadded(toWidth: 4))  \(String(format: "%7.1f", r.urgency.total))  \(t.priority.rawValue.padded(toWidth: 8))  \(due)  \(t.term.rawValue.padded(toWidth: 5))  \(focused)  \(mark)\(t.title.terminalSafe)\(tags)"
                    )
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a task with its focused time and distraction episodes.",
            discussion: "Example:\n  vigil task show 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String
        @Flag(help: "Print the task as a JSON object (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let r = try openPlanner(common, lookingUp: true).rankedTask(task)
                if json {
                    printJSON(taskJSON(r))
                    return
                }
                let (t, effort) = (r.task, r.effort)
                print("#\(t.id)  \(t.title.terminalSafe)\(t.isDone ? "  (done)" : "")")
                print(
                    "priority  \(t.priority.rawValue) · \(t.term.rawValue)-term"
                        + (t.estimateMinutes.map { " · estimate \(humanMinutesShort(Double($0)))" } ?? ""))
                print("due       \(t.due?.text ?? "–")")
                if !t.tags.isEmpty { print("tags      \(t.tags.map(\.terminalSafe).joined(separator: ", "))") }
                if let note = t.note { print("note      \(indentedLines(note, by: 10))") }
                print(
                    "focused   \(humanMinutesShort(effort.focusedMinutes)) in \(effort.sessions) session\(effort.sessions == 1 ? "" : "s") · \(effort.episodes) distraction episode\(effort.episodes == 1 ? "" : "s")"
                )
                if !t.isDone { print("urgency   \(String(format: "%.1f", r.urgency.total))  (`vigil task why \(t.id)`)") }
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a task.",
            discussion: """
                Examples:
                  vigil task edit 3 --due 2026-12-05 --priority medium
                  vigil task edit 3 --due none --tag thesis
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String
        @Option(help: "A new title.") var title: String?
        @Option(help: ArgumentHelp("A new due date (as for `task add`), or none.", valueName: "date")) var due: String?
        @Option(help: "A new priority.") var priority: Priority?
        @Option(help: "A new term: over what horizon it pays off.") var term: Term?
        @Option(help: ArgumentHelp("A new estimate (90m, 2h), or none.", valueName: "duration")) var estimate: String?
        @Option(help: ArgumentHelp("A new note, or none.", valueName: "text")) var note: String?
        @Option(name: .customLong("tag"), help: ArgumentHelp("Add a tag.", valueName: "tag")) var addTags: [String] = []
        @Option(name: .customLong("untag"), help: ArgumentHelp("Remove a tag.", valueName: "tag")) var removeTags: [String] = []

        func validate() throws { if let title { _ = try nonBlank(title, what: "The task's title") } }

        func run() async throws {
            await guarded { try edit() }
        }

        // Synchronous, outside the async closure: in it, Swift 6.3's release build crashed
        // (LLVM's coroutine splitting, signal 11) on these throwing closures.
        private func edit() throws {
            let planner = try openPlanner(common, lookingUp: true)
            var changes = TaskChanges()
            changes.title = try title.map { try nonBlank($0, what: "The task's title") }
            changes.due = try change(due) { try DateOption.deadline($0, option: "--due", now: planner.now, common: common) }
            changes.priority = priority
            changes.term = term
            changes.estimateMinutes = try change(estimate) { try minutes($0, option: "--estimate") }
            changes.note = change(note) { $0 }
            (changes.addTags, changes.removeTags) = (addTags, removeTags)
            let t = try planner.editTask(task, changes)
            print("Updated task #\(t.id): \(t.title.terminalSafe)\(dueNote(t)).")
        }
    }

    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a task done.", discussion: "Example:\n  vigil task done 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await guarded {
                let (t, changed) = try openPlanner(common, lookingUp: true).completeTask(task)
                print(changed ? "Done: #\(t.id) \(t.title.terminalSafe)." : "Task #\(t.id) was already done.")
            }
        }
    }

    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a done task again.", discussion: "Example:\n  vigil task reopen 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await guarded {
                let (t, changed) = try openPlanner(common, lookingUp: true).reopenTask(task)
                print(changed ? "Reopened #\(t.id) \(t.title.terminalSafe)." : "Task #\(t.id) is open already.")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a task (its sessions stay in the log).",
            discussion: """
                In a terminal Vigil asks first; elsewhere give --yes. `vigil undo` brings it back.

                Examples:
                  vigil task delete 3
                  vigil task delete "Write chapter 3" --yes
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String
        @Flag(help: "Do not ask.") var yes = false

        func run() async throws {
            await guarded {
                let planner = try openPlanner(common, lookingUp: true)
                let t = try planner.task(task)
                let what = "task #\(t.id) \"\(t.title.terminalSafe)\""
                guard
                    try confirmed(
                        "Delete \(what)? Its sessions stay in the log.", refusal: "add --yes to delete \(what) without a terminal.", given: yes)
                else { return }
                _ = try planner.deleteTask(String(t.id))
                print("Deleted task #\(t.id) \(t.title.terminalSafe). Its sessions stay in the log under its title.")
            }
        }
    }

    struct Why: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Explain a task's urgency, part by part.", discussion: "Example:\n  vigil task why 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await guarded {
                let r = try openPlanner(common, lookingUp: true).rankedTask(task)
                print("#\(r.task.id) \(r.task.title.terminalSafe): urgency \(String(format: "%.1f", r.urgency.total))")
                for p in r.urgency.parts {
                    print("  \(String(format: "%+6.1f", p.points))  \(p.name.padded(toWidth: 9))  \(p.why)")
                }
            }
        }
    }
}

struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Suggest what to focus on now: the most urgent open task, and why.",
        discussion: """
            Examples:
              vigil next
              vigil next --count 3
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: "How many suggestions.") var count = 1
    @Flag(help: "Print a JSON array of the suggested tasks, with the reasons (docs/json.md).") var json = false

    func validate() throws { if count < 1 { throw ValidationError("--count must be at least 1.") } }

    func run() async throws {
        await guarded {
            let ranked = try openPlanner(common).next(count)
            if json {
                printJSON(.array(ranked.map { taskJSON($0, reasons: $0.urgency.leadingReasons()) }))
                return
            }
            guard let first = ranked.first else {
                print("Nothing on your list. Add a task with `vigil task add TITLE`, or start a free session with `vigil start`.")
                return
            }
            for r in ranked {
                print(
                    "#\(r.task.id) \(r.task.title.terminalSafe)  (urgency \(String(format: "%.1f", r.urgency.total)): \(r.urgency.leadingReasons().joined(separator: ", ")))"
                )
            }
            print("Start with `vigil start --task \(first.task.id)`.")
        }
    }
}

/// A task as `task list`, `task show` and `next` print it with --json (docs/json.md); `next` adds
/// the reasons it is suggested.
func taskJSON(_ r: RankedTask) -> JSONValue { taskJSON(r, reasons: nil) }

func taskJSON(_ r: RankedTask, reasons: [String]?) -> JSONValue {
    let t = r.task
    var fields: [(String, JSONValue)] = [
        ("id", .int(t.id)), ("title", .string(t.title)), ("done", .bool(t.isDone)), ("priority", .string(t.priority.rawValue)),
        ("term", .string(t.term.rawValue)), ("due_date", .day(t.due?.day)), ("due_time", .string(t.due?.time)),
        ("estimate_minutes", .int(t.estimateMinutes)), ("tags", .strings(t.tags)), ("note", .string(t.note)),
        ("created", .time(t.created)), ("done_at", .time(t.done)), ("urgency", t.isDone ? .null : .number(r.urgency.total, decimals: 1)),
        ("focused_minutes", .minutes(r.effort.focusedMinutes)), ("sessions", .int(r.effort.sessions)), ("episodes", .int(r.effort.episodes)),
    ]
    if let reasons { fields.append(("reasons", .strings(reasons))) }
    return .object(fields)
}

/// Text of several lines (a note) after a label: controls as escapes, and every line after the
/// first indented to the label's `column`, so no line of it can pass for one of Vigil's own.
func indentedLines(_ text: String, by column: Int) -> String {
    text.terminalSafeLines.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: column))
}

/// ` (due 2026-11-20)`, or nothing for a task without a deadline.
func dueNote(_ t: TaskItem) -> String { t.due.map { " (due \($0.text))" } ?? "" }

func humanMinutesShort(_ minutes: Double) -> String {
    let m = Int(minutes.rounded())
    return m < 60 ? "\(m) min" : "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60)"
}
