import ArgumentParser
import Foundation
import VigilCore
import RecordingFormats
import SessionViews
import VigilRuntime
import VigilPlanner
import VigilStore

extension Priority: ExpressibleByArgument {}
extension Term: ExpressibleByArgument {}

/// What the task and habit commands share: the store, "now" in local time.
struct PlannerContext {
    let store: EventStore
    let now: LocalNow

    /// - Parameter lookingUp: the command acts on a task or habit that must exist already: with
    ///   no log yet there is none, which is said without creating an empty log.
    init(_ common: CommonOptions, lookingUp: Bool = false) throws {
        if lookingUp, !FileManager.default.fileExists(atPath: common.paths.databasePath) {
            throw Failure("there are no tasks or habits yet (no event log at \(common.paths.databasePath)). "
                          + "Add one with `vigil task add TITLE` or `vigil habit add NAME`.", code: .dataError)
        }
        store = try common.openStore()
        now = LocalNow(ms: try common.nowMilliseconds())
    }

    /// A task by id, or by its exact title among the open tasks.
    func task(_ reference: String) throws -> TaskItem {
        if let id = Int64(reference) {
            guard let t = try store.task(id: id) else {
                throw Failure("no task #\(id). `vigil task list --all` shows every task with its number.", code: .dataError)
            }
            return t
        }
        let matches = try store.tasks(titled: reference)
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            throw Failure("no open task is called '\(reference)'. `vigil task list` shows them; give the number or the exact title.", code: .dataError)
        }
        throw Failure("\(matches.count) open tasks are called '\(reference)': \(matches.map { "#\($0.id)" }.joined(separator: ", ")). Give the number.", code: .dataError)
    }

    func urgency(_ t: TaskItem, effort: [Int64: (focusedMinutes: Double, sessions: Int, episodes: Int)]) -> Urgency {
        Urgency(task: t, nowLocalMinute: now.minute, createdLocalMinute: now.localMinute(t.created), focusedMinutes: effort[t.id]?.focusedMinutes ?? 0)
    }
}

func deadline(_ text: String, today: Int, option: String) throws -> Deadline {
    guard let d = Deadline.parse(text, today: today) else {
        throw Failure("\(option): '\(text)' is not a date; use YYYY-MM-DD or \"YYYY-MM-DD HH:MM\" (local time), today or tomorrow.", code: .dataError)
    }
    return d
}

func minutes(_ text: String, option: String) throws -> Int {
    guard let m = parseMinutes(text) else {
        throw Failure("\(option): '\(text)' is not a duration; use minutes like 90m, 1h30m or 2h.", code: .dataError)
    }
    return m
}

func nonBlank(_ text: String, what: String) throws -> String {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !t.isEmpty else { throw ValidationError("\(what) must not be blank.") }
    return t
}

struct TaskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "The tasks you focus on: priorities, deadlines, and what to do next.",
        discussion: """
            A session started with `vigil start --task ID` (or the task's exact title) is linked to
            the task, which then shows its focused time and distraction episodes.

            Examples:
              vigil task add "Write chapter 3" --due 2026-12-01 --priority high --estimate 6h --tag thesis
              vigil task list --sort due
              vigil task why 3
              vigil task done 3
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Done.self, Reopen.self, Delete.self, Why.self]
    )

    /// Runs `body` with the store and the task named on the command line.
    static func with(_ common: CommonOptions, _ reference: String, _ body: (PlannerContext, TaskItem) throws -> Void) async {
        await guarded {
            let ctx = try PlannerContext(common, lookingUp: true)
            try body(ctx, try ctx.task(reference))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a task.",
            discussion: """
                Examples:
                  vigil task add "Send the invoice" --due "2026-11-27 17:00" --priority high --term short
                  vigil task add "Learn Rust" --term long --note "one chapter a week"
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "What the task is.") var title: String
        @Option(help: ArgumentHelp("Due date, YYYY-MM-DD or \"YYYY-MM-DD HH:MM\" (local), today, tomorrow.", valueName: "date")) var due: String?
        @Option(help: "high, medium or low.") var priority: Priority = .medium
        @Option(help: "short, mid or long: over what horizon it pays off.") var term: Term = .short
        @Option(help: ArgumentHelp("How long you think it takes: 90m, 1h30m, 2h.", valueName: "duration")) var estimate: String?
        @Option(help: "A note.") var note: String?
        @Option(name: .customLong("tag"), help: ArgumentHelp("A tag (repeat for several); habits can count sessions on tagged tasks.", valueName: "tag")) var tags: [String] = []

        func validate() throws { _ = try nonBlank(title, what: "The task's title") }

        func run() async throws {
            await guarded {
                let ctx = try PlannerContext(common)
                let t = TaskItem(id: 0, title: try nonBlank(title, what: "The task's title"), note: note,
                                 due: try due.map { try deadline($0, today: ctx.now.day, option: "--due") }, priority: priority, term: term,
                                 estimateMinutes: try estimate.map { try minutes($0, option: "--estimate") },
                                 tags: tags.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }, created: ctx.now.ms)
                let id = try ctx.store.addTask(t)
                print("Added task #\(id): \(t.title)\(t.due.map { " (due \($0.text))" } ?? ""). Start it with `vigil start --task \(id)`.")
            }
        }
    }

    enum SortKey: String, ExpressibleByArgument, CaseIterable {
        case urgency, due, priority, term, created
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
        @Option(help: "urgency, due, priority, term or created.") var sort: SortKey = .urgency

        func run() async throws {
            await guarded {
                let ctx = try PlannerContext(common)
                let effort = try ctx.store.taskEffort()
                var tasks = try ctx.store.tasks(includeDone: all || done)
                if done { tasks = tasks.filter(\.isDone) }
                if let priority { tasks = tasks.filter { $0.priority == priority } }
                if let term { tasks = tasks.filter { $0.term == term } }
                if let tag { tasks = tasks.filter { $0.tags.contains(tag.lowercased()) } }
                if overdue { tasks = tasks.filter { !$0.isDone && ($0.due.map { $0.localMinute < ctx.now.minute } ?? false) } }
                let urgency = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, ctx.urgency($0, effort: effort).total) })
                tasks.sort { a, b in
                    switch sort {
                    case .urgency: (urgency[a.id]!, b.id) > (urgency[b.id]!, a.id)
                    case .due: (a.due?.localMinute ?? .max, a.id) < (b.due?.localMinute ?? .max, b.id)
                    case .priority: (a.priority.rank, b.id) > (b.priority.rank, a.id)
                    case .term: (Term.allCases.firstIndex(of: a.term)!, a.id) < (Term.allCases.firstIndex(of: b.term)!, b.id)
                    case .created: (a.created, a.id) < (b.created, b.id)
                    }
                }
                if tasks.isEmpty {
                    print(all || done ? "No tasks." : "No open tasks. Add one with `vigil task add TITLE`.")
                    return
                }
                print("   #  urgency  priority  due               term   focused  title")
                for t in tasks {
                    let due = (t.due?.text ?? "–").padding(toLength: 16, withPad: " ", startingAt: 0)
                    let focused = humanMinutesShort(effort[t.id]?.focusedMinutes ?? 0).leftPadded(7)
                    let mark = t.isDone ? "✓ " : ""
                    let tags = t.tags.isEmpty ? "" : "  [" + t.tags.joined(separator: ", ") + "]"
                    print("\(String(t.id).leftPadded(4))  \(String(format: "%7.1f", urgency[t.id]!))  \(t.priority.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  \(due)  \(t.term.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(focused)  \(mark)\(t.title)\(tags)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a task with its focused time and distraction episodes.",
                                                        discussion: "Example:\n  vigil task show 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await guarded {
                let ctx = try PlannerContext(common, lookingUp: true)
                let t = try ctx.task(task)
                let effort = try ctx.store.taskEffort()[t.id]
                print("#\(t.id)  \(t.title)\(t.isDone ? "  (done)" : "")")
                print("priority  \(t.priority.rawValue) · \(t.term.rawValue)-term" + (t.estimateMinutes.map { " · estimate \(humanMinutesShort(Double($0)))" } ?? ""))
                print("due       \(t.due?.text ?? "–")")
                if !t.tags.isEmpty { print("tags      \(t.tags.joined(separator: ", "))") }
                if let note = t.note { print("note      \(note)") }
                print("focused   \(humanMinutesShort(effort?.focusedMinutes ?? 0)) in \(effort?.sessions ?? 0) session\(effort?.sessions == 1 ? "" : "s") · \(effort?.episodes ?? 0) distraction episode\(effort?.episodes == 1 ? "" : "s")")
                if !t.isDone { print("urgency   \(String(format: "%.1f", ctx.urgency(t, effort: try ctx.store.taskEffort()).total))  (`vigil task why \(t.id)`)") }
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
        @Option(help: ArgumentHelp("A new due date, or none.", valueName: "date")) var due: String?
        @Option(help: "high, medium or low.") var priority: Priority?
        @Option(help: "short, mid or long.") var term: Term?
        @Option(help: ArgumentHelp("A new estimate (90m, 2h), or none.", valueName: "duration")) var estimate: String?
        @Option(help: ArgumentHelp("A new note, or none.", valueName: "text")) var note: String?
        @Option(name: .customLong("tag"), help: ArgumentHelp("Add a tag.", valueName: "tag")) var addTags: [String] = []
        @Option(name: .customLong("untag"), help: ArgumentHelp("Remove a tag.", valueName: "tag")) var removeTags: [String] = []

        func validate() throws { if let title { _ = try nonBlank(title, what: "The task's title") } }

        func run() async throws {
            await guarded {
                let ctx = try PlannerContext(common, lookingUp: true)
                var t = try ctx.task(task)
                if let title { t.title = try nonBlank(title, what: "The task's title") }
                if let due { t.due = due == "none" ? nil : try deadline(due, today: ctx.now.day, option: "--due") }
                if let priority { t.priority = priority }
                if let term { t.term = term }
                if let estimate { t.estimateMinutes = estimate == "none" ? nil : try minutes(estimate, option: "--estimate") }
                if let note { t.note = note == "none" ? nil : note }
                for tag in addTags.map({ $0.lowercased() }) where !t.tags.contains(tag) { t.tags.append(tag) }
                t.tags.removeAll { removeTags.map { $0.lowercased() }.contains($0) }
                try ctx.store.updateTask(t)
                print("Updated task #\(t.id): \(t.title)\(t.due.map { " (due \($0.text))" } ?? "").")
            }
        }
    }

    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a task done.", discussion: "Example:\n  vigil task done 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await TaskCommand.with(common, task) { ctx, t in
                if t.isDone { print("Task #\(t.id) was already done."); return }
                var t = t
                t.done = ctx.now.ms
                try ctx.store.updateTask(t)
                print("Done: #\(t.id) \(t.title).")
            }
        }
    }

    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a done task again.", discussion: "Example:\n  vigil task reopen 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number.") var task: String

        func run() async throws {
            await TaskCommand.with(common, task) { ctx, t in
                guard t.isDone else { print("Task #\(t.id) is open already."); return }
                var t = t
                t.done = nil
                try ctx.store.updateTask(t)
                print("Reopened #\(t.id) \(t.title).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a task (its sessions stay in the log).", discussion: "Example:\n  vigil task delete 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number.") var task: String

        func run() async throws {
            await TaskCommand.with(common, task) { ctx, t in
                try ctx.store.deleteTask(id: t.id)
                print("Deleted task #\(t.id) \(t.title). Its sessions stay in the log under its title.")
            }
        }
    }

    struct Why: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Explain a task's urgency, part by part.", discussion: "Example:\n  vigil task why 3")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The task's number or exact title.") var task: String

        func run() async throws {
            await guarded {
                let ctx = try PlannerContext(common, lookingUp: true)
                let t = try ctx.task(task)
                let u = ctx.urgency(t, effort: try ctx.store.taskEffort())
                print("#\(t.id) \(t.title): urgency \(String(format: "%.1f", u.total))")
                for p in u.parts {
                    print("  \(String(format: "%+6.1f", p.points))  \(p.name.padding(toLength: 9, withPad: " ", startingAt: 0))  \(p.why)")
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

    func validate() throws { if count < 1 { throw ValidationError("--count must be at least 1.") } }

    func run() async throws {
        await guarded {
            let ctx = try PlannerContext(common)
            let effort = try ctx.store.taskEffort()
            let ranked = try ctx.store.tasks(includeDone: false).map { ($0, ctx.urgency($0, effort: effort)) }.sorted { ($0.1.total, $1.0.id) > ($1.1.total, $0.0.id) }
            guard !ranked.isEmpty else {
                print("Nothing on your list. Add a task with `vigil task add TITLE`, or start a free session with `vigil start`.")
                return
            }
            for (t, u) in ranked.prefix(count) {
                let reasons = u.parts.filter { $0.points != 0 }.sorted { $0.points > $1.points }.prefix(3).map(\.why)
                print("#\(t.id) \(t.title)  (urgency \(String(format: "%.1f", u.total)): \(reasons.joined(separator: ", ")))")
            }
            print("Start with `vigil start --task \(ranked[0].0.id)`.")
        }
    }
}

func humanMinutesShort(_ minutes: Double) -> String {
    let m = Int(minutes.rounded())
    return m < 60 ? "\(m) min" : "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60)"
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
