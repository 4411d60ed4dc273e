import ArgumentParser
import DisplayWidth
import Foundation
import LogServices
import SessionViews
import VigilCore
import VigilPlanner
import VigilStats

extension HabitOrder: ExpressibleByArgument {}

/// Says which habit days the focus sessions completed (the housekeeping before a habit command).
func announce(_ completions: PlannerService.SessionCompletions) {
    for (h, day) in completions {
        print("Habit #\(h.id) \(h.name.terminalSafe): \(civilDate(day)) completed by your focus sessions.")
    }
}

/// A habit as `habit list` and `habit show` print it with --json (docs/json.md). `today` is
/// where it stands today (list only).
func habitJSON(_ h: Habit, _ p: HabitProgress, today: HabitRow.Today?, extra: [(String, JSONValue)] = []) -> JSONValue {
    let todayText: JSONValue =
        switch today {
        case nil: .null
        case .archived?: .string("archived")
        case .unscheduled?: .string("unscheduled")
        case .marked(let status)?: .string(status.rawValue)
        }
    var fields: [(String, JSONValue)] = [
        ("id", .int(h.id)), ("name", .string(h.name)), ("schedule", .string(h.schedule.text)), ("since", .day(h.createdDay)),
        ("goal", .int(h.goal)), ("reminder", .string(h.reminder)), ("priority", .string(h.priority.rawValue)),
        ("flagged", .bool(h.flagged)), ("color", .string(h.color)), ("auto_task", .string(h.autoTask)),
        ("auto_minutes", .int(h.autoMinutes)), ("archived", .time(h.archived)),
    ]
    if today != nil { fields.append(("today", todayText)) }
    fields += [
        ("streak", .int(p.current)), ("best_streak", .int(p.best)), ("score", .int(p.score)), ("best_score", .int(p.bestScore)),
        ("badge", .string(p.badge.rawValue)), ("strength", .share(p.strength)), ("completed", .int(p.completed)), ("failed", .int(p.failed)),
        ("skipped", .int(p.skipped)), ("success_rate", .share(p.successRate)), ("goal_reached", .bool(p.goalReached)),
    ]
    return .object(fields + extra)
}

/// The options that set a habit's schedule: at most one of them.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Every day: --every day (or daily), the schedule of a habit given none.", valueName: "day")) var every: String?
    @Option(help: ArgumentHelp("On these weekdays: mon,wed,fri.", valueName: "days")) var days: String?
    @Option(help: ArgumentHelp("This many times a week, any days: 3/week.", valueName: "n/week")) var times: String?

    func schedule() throws -> Schedule? {
        let given = [every.map { ("--every", $0) }, days.map { ("--days", $0) }, times.map { ("--times", $0) }].compactMap { $0 }
        guard given.count <= 1 else {
            throw ValidationError("conflicting schedule: give one of --every, --days or --times, not \(given.map(\.0).joined(separator: " and ")).")
        }
        guard let (option, text) = given.first else { return nil }
        switch option {
        case "--every":
            guard text == "day" || text == "daily" else {
                throw ValidationError("--every takes day; for some days use --days mon,wed,fri, for a number a week --times 3/week.")
            }
            return .daily
        case "--days":
            guard let s = Schedule.parse(text), case .weekdays = s else {
                throw ValidationError("--days: '\(text.terminalSafe)' is not a list of weekdays like mon,wed,fri.")
            }
            return s
        default:
            let t = text.hasSuffix("/week") ? text : text + "/week"
            guard let s = Schedule.parse(t), case .timesPerWeek = s else {
                throw ValidationError("--times: '\(text.terminalSafe)' is not like 3/week (1 to 7 a week).")
            }
            return s
        }
    }
}

/// `50m on thesis`: sessions of 50 focused minutes on a task titled or tagged thesis complete the day.
func parseAuto(_ text: String) throws -> AutoRule {
    let parts = text.components(separatedBy: " on ")
    guard parts.count == 2, let m = parseMinutes(parts[0]), !parts[1].trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ValidationError("--auto: '\(text.terminalSafe)' is not like \"50m on thesis\" (focused minutes on a task's title or tag).")
    }
    return AutoRule(task: parts[1].trimmingCharacters(in: .whitespaces), minutes: m)
}

func clock(_ text: String, option: String) throws -> String {
    guard let m = parseClock(text) else { throw ValidationError("\(option): '\(text.terminalSafe)' is not a time like 07:30.") }
    return "\(m / 60 < 10 ? "0" : "")\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)"
}

/// What check, fail and skip are told: the habit, and the day.
struct MarkTarget: ParsableArguments {
    @Argument(help: "The habit's number or name.") var habit: String
    @Option(
        help: ArgumentHelp(
            "The day (default: today): YYYY-MM-DD, today, yesterday, monday (the last one, today included), or 3d or 2w ago; from the habit's start on.",
            valueName: "date")) var date: String?
}

struct HabitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Habits with streaks (the 21/90 model), strength, goals and reminders.",
        discussion: """
            A scheduled day you do not mark is marked failed the next day Vigil runs. A habit with \
            --auto is completed by your focus sessions themselves.

            Examples:
              vigil habit add "Read 20 pages" --every day --reminder 21:00 --goal 90
              vigil habit add "Thesis" --days mon,tue,wed,thu,fri --auto "50m on thesis"
              vigil habit check 1
              vigil habit set 1 2026-11-20 failed
              vigil habit show 1
            """,
        subcommands: [
            Add.self, List.self, Show.self, Check.self, Fail.self, Skip.self, SetDay.self, Edit.self, Note.self, Continue.self, Finish.self,
            Delete.self,
        ]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a habit.",
            discussion: """
                Examples:
                  vigil habit add "Walk" --every day --reminder 12:30
                  vigil habit add "Gym" --times 3/week --color green --flag
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's name.") var name: String
        @OptionGroup var scheduleOptions: ScheduleOptions
        @Option(help: "Completions to reach (then continue or finish).") var goal: Int?
        @Option(help: "A colour, for you and for sorting.") var color: String?
        @Option(help: ArgumentHelp("Remind at this local time, HH:MM.", valueName: "time")) var reminder: String?
        @Option(help: "How much it matters, for sorting (`habit list --sort priority`).") var priority: Priority = .medium
        @Flag(help: "Flag it.") var flag = false
        @Option(help: ArgumentHelp("Completed by sessions: \"50m on thesis\" (a task's title or tag).", valueName: "rule")) var auto: String?
        @Option(
            help: ArgumentHelp(
                "The day it started, so earlier days can be marked (default: today): YYYY-MM-DD, yesterday, monday, 3d, 2w or 1mo ago ...",
                valueName: "date")) var since: String?

        func validate() throws {
            _ = try nonBlank(name, what: "The habit's name")
            _ = try scheduleOptions.schedule()
            if let goal, goal < 1 { throw ValidationError("--goal must be at least 1.") }
            if let reminder { _ = try clock(reminder, option: "--reminder") }
            if let auto { _ = try parseAuto(auto) }
        }

        func run() async throws {
            await guarded {
                let now = try common.localNow()
                let start = try since.map { try DateOption.day($0, option: "--since", now: now, common: common) }
                let h = try openPlanner(common).addHabit(
                    name: try nonBlank(name, what: "The habit's name"), schedule: try scheduleOptions.schedule() ?? .daily, goal: goal, color: color,
                    reminder: try reminder.map { try clock($0, option: "--reminder") }, priority: priority, flagged: flag,
                    auto: try auto.map(parseAuto), since: start)
                print(
                    "Added habit #\(h.id): \(h.name.terminalSafe), \(h.schedule.description)\(h.reminder.map { ", reminded at \($0)" } ?? ""). Mark it with `vigil habit check \(h.id)`."
                )
                if h.createdDay < now.day { print(HabitCommand.sinceNote(h)) }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List habits with today's status and streak.",
            discussion: """
                Examples:
                  vigil habit list
                  vigil habit list --sort reminder
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: "The order; due puts the habits due today first.") var sort: HabitOrder = .created
        @Flag(help: "Also finished and archived habits.") var archived = false
        @Flag(help: "Print a JSON array of habits (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let listing = try openPlanner(common).habits(order: sort, includeArchived: archived)
                if json {
                    printJSON(.array(listing.rows.map { habitJSON($0.habit, $0.progress, today: $0.today) }))
                    return
                }
                announce(listing.completedBySessions)
                if listing.rows.isEmpty {
                    print("No habits yet. Add one with `vigil habit add NAME --every day`.")
                    return
                }
                // The header is made with the rows' own widths, so the two cannot drift apart.
                print(
                    "#".leftPadded(toWidth: 4) + "  " + "today".padded(toWidth: 10) + "  " + "streak".leftPadded(toWidth: 6) + "  "
                        + "strength".leftPadded(toWidth: 9) + "  " + "schedule".padded(toWidth: 18) + "  name")
                for r in listing.rows {
                    let (h, p) = (r.habit, r.progress)
                    let today =
                        switch r.today {
                        case .archived: "archived"
                        case .unscheduled: "–"
                        case .marked(.incomplete): "to do"
                        case .marked(let status): status.rawValue
                        }
                    let streak = "\(p.current) d".leftPadded(toWidth: 6)
                    let flag = h.flagged ? "⚑ " : ""
                    let extra = [h.reminder.map { "at \($0)" }, h.color.map(\.terminalSafe), h.goal.map { "\(p.completed)/\($0)" }].compactMap { $0 }
                        .joined(
                            separator: " · ")
                    print(
                        "\(String(h.id).leftPadded(toWidth: 4))  \(today.padded(toWidth: 10))  \(streak)  \((String(Int((p.strength * 100).rounded())) + " %").leftPadded(toWidth: 9))  \(h.schedule.description.padded(toWidth: 18))  \(flag)\(h.name.terminalSafe)\(extra.isEmpty ? "" : "  (\(extra))")"
                    )
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        /// A day of the last weeks in `habit show --json`: null where the text shows nothing.
        static func markJSON(_ mark: HabitCalendar.Mark) -> JSONValue {
            switch mark {
            case .completed: .string("completed")
            case .failed: .string("failed")
            case .skipped: .string("skipped")
            case .unknown: .string("unknown")
            case .toDo: .string("incomplete")
            case .none: .null
            }
        }

        static let configuration = CommandConfiguration(
            abstract: "A habit's streak, badge, score, strength, success rate, goal and notes.",
            discussion: "Example:\n  vigil habit show 1")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String
        @Flag(help: "Print the habit as a JSON object (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let detail = try openPlanner(common, lookingUp: true).habitDetail(habit)
                if json {
                    let notes = JSONValue.array(detail.notes.map { .object([("week", .string($0.week)), ("text", .string($0.text))]) })
                    let weeks = JSONValue.array(
                        detail.calendar.weeks.map { week in
                            .object([("week", .string(week.name)), ("days", .array(week.days.map(Self.markJSON)))])
                        })
                    printJSON(habitJSON(detail.habit, detail.progress, today: nil, extra: [("last_weeks", weeks), ("notes", notes)]))
                    return
                }
                announce(detail.completedBySessions)
                print(Self.lines(detail).joined(separator: "\n"))
            }
        }

        /// The habit as `habit show` prints it: its settings, streak, figures, the last four weeks
        /// and its notes.
        static func lines(_ detail: PlannerService.HabitDetail) -> [String] {
            var out: [String] = []
            let (h, p) = (detail.habit, detail.progress)
            out.append("#\(h.id)  \(h.name.terminalSafe)\(h.flagged ? "  ⚑" : "")\(h.archived != nil ? "  (archived)" : "")")
            out.append(
                "schedule   \(h.schedule.description)" + (h.reminder.map { " · reminded at \($0)" } ?? "") + " · \(h.priority.rawValue) priority"
                    + (h.color.map { " · \($0.terminalSafe)" } ?? ""))
            if let rule = h.autoRule { out.append("automatic  completed by \(rule.minutes) focused minutes on \(rule.task.terminalSafe)") }
            out.append(
                "streak     \(p.current) day\(p.current == 1 ? "" : "s") (\(p.badge.title)) · best \(p.best) · score \(p.score) (best \(p.bestScore))"
            )
            out.append("           \(p.messages.joined(separator: " · "))")
            out.append("strength   \(Int((p.strength * 100).rounded())) %")
            out.append(
                "done       \(p.completed) completed · \(p.failed) failed · \(p.skipped) skipped"
                    + (p.successRate.map { " · success \(Int(($0 * 100).rounded())) %" } ?? ""))
            if let goal = h.goal { out.append("goal       \(min(p.completed, goal))/\(goal)" + (p.goalReached ? " reached" : "")) }
            // The last four weeks, Monday first: ✓ completed, ✗ failed, – skipped, · to do.
            // Each mark under its weekday's letter: the label's 10 columns and 2 spaces are the
            // week name's 2 + 8 and 2.
            out.append("last weeks  M T W T F S S")
            for week in detail.calendar.weeks {
                let marks = week.days.map { mark in
                    switch mark {
                    case .completed: "✓"
                    case .failed: "✗"
                    case .skipped: "–"
                    case .unknown: "?"
                    case .toDo: "·"
                    case .none: " "
                    }
                }
                var row = "  " + week.name.padded(toWidth: 8) + "  " + marks.joined(separator: " ")
                while row.hasSuffix(" ") { row.removeLast() }
                out.append(row)
            }
            for n in detail.notes { out.append("note \(n.week)  \(indentedLines(n.text, by: 7 + n.week.count))") }
            return out
        }
    }

    /// Where a habit with a chosen start stands: which days can be marked now.
    static func sinceNote(_ h: Habit) -> String {
        let start = civilDate(h.createdDay)
        return "It starts on \(start): any day from then on can be marked (`vigil habit check \(h.id) --date \(start)`); "
            + "scheduled days left unmarked count as failed."
    }

    /// check, fail, skip and set share this; in a terminal, a goal reached asks whether to continue
    /// or finish.
    static func mark(_ common: CommonOptions, _ reference: String, date: String?, _ status: DayStatus) async {
        await guarded {
            let planner = try openPlanner(common, lookingUp: true)
            let (completions, mark) = try planner.mark(reference, on: date, status)
            announce(completions)
            let (h, p) = (mark.habit, mark.progress)
            let verb =
                switch status {
                case .completed: "Completed"
                case .failed: "Failed"
                case .skipped: "Skipped"
                case .incomplete: "Unmarked"
                case .unknown: "Marked"
                }
            print(
                "\(verb): \(h.name.terminalSafe) on \(civilDate(mark.day)). Streak \(p.current) (\(p.badge.title)) · score \(p.score) · strength \(Int((p.strength * 100).rounded())) %."
            )
            if let line = mark.encouragement { print(line) }
            guard let reached = mark.goalReached else { return }
            print(
                "Goal reached: \(reached.goal) times! Keep it going with `vigil habit continue \(h.id) --goal \(reached.nextGoal)`, or finish it with `vigil habit finish \(h.id)` (archived with its history)."
            )
            guard isatty(0) != 0, isatty(1) != 0 else { return }
            print("Continue or finish? [c/f] ", terminator: "")
            fflush(nil)
            guard let answer = readLine(), let decision = GoalDecision(answer: answer, reached: reached) else { return }
            let updated = try planner.decide(decision, for: reached)
            switch decision {
            case .finish: print("Finished and archived: \(updated.name.terminalSafe).")
            case .continueTo(let goal): print("Keep going: the new goal is \(goal).")
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a habit completed (today, or --date).",
            discussion: "Examples:\n  vigil habit check 1\n  vigil habit check Walk --date yesterday")
        @OptionGroup var common: CommonOptions
        @OptionGroup var target: MarkTarget
        func run() async throws { await HabitCommand.mark(common, target.habit, date: target.date, .completed) }
    }

    struct Fail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a habit failed (today, or --date).", discussion: "Example:\n  vigil habit fail 1")
        @OptionGroup var common: CommonOptions
        @OptionGroup var target: MarkTarget
        func run() async throws { await HabitCommand.mark(common, target.habit, date: target.date, .failed) }
    }

    struct Skip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Skip a habit for a day: it neither extends nor breaks the streak.",
            discussion: "Example:\n  vigil habit skip 1 --date 2026-11-20")
        @OptionGroup var common: CommonOptions
        @OptionGroup var target: MarkTarget
        func run() async throws { await HabitCommand.mark(common, target.habit, date: target.date, .skipped) }
    }

    struct SetDay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set any past day's status: completed, failed, skipped or incomplete.",
            discussion: "Examples:\n  vigil habit set 1 2026-11-18 completed\n  vigil habit set 1 2026-11-19 incomplete")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String
        @Argument(help: "The day: YYYY-MM-DD, yesterday, monday (the last one), 3d ago ... (as --date of check).") var date: String
        @Argument(help: "completed, failed, skipped or incomplete.") var status: String

        func validate() throws {
            guard let known = DayStatus(rawValue: status), known != .unknown else {
                throw ValidationError("the status must be completed, failed, skipped or incomplete; got '\(status.terminalSafe)'.")
            }
        }
        func run() async throws { await HabitCommand.mark(common, habit, date: date, DayStatus(rawValue: status)!) }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a habit.",
            discussion: "Examples:\n  vigil habit edit 1 --reminder 07:30 --flag\n  vigil habit edit 1 --days mon,thu --goal none")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String
        @Option(help: "A new name.") var name: String?
        @OptionGroup var scheduleOptions: ScheduleOptions
        @Option(help: ArgumentHelp("A new goal, or none.", valueName: "n")) var goal: String?
        @Option(help: ArgumentHelp("A colour, or none.", valueName: "color")) var color: String?
        @Option(help: ArgumentHelp("Reminder time HH:MM, or none.", valueName: "time")) var reminder: String?
        @Option(help: "A new priority.") var priority: Priority?
        @Flag(inversion: .prefixedEnableDisable, help: "Flag or unflag it.") var flag: Bool?
        @Option(help: ArgumentHelp("\"50m on thesis\", or none.", valueName: "rule")) var auto: String?
        @Option(
            help: ArgumentHelp(
                "The day it started (the first that can be marked, and that its streaks count from): YYYY-MM-DD, monday, 3d ago ...",
                valueName: "date")) var since: String?

        func validate() throws {
            _ = try scheduleOptions.schedule()
            if let goal, goal != "none", (Int(goal) ?? 0) < 1 { throw ValidationError("--goal takes a number of at least 1, or none.") }
            if let reminder, reminder != "none" { _ = try clock(reminder, option: "--reminder") }
            if let auto, auto != "none" { _ = try parseAuto(auto) }
            if let name { _ = try nonBlank(name, what: "The habit's name") }
        }

        func run() async throws {
            await guarded {
                var changes = HabitChanges()
                changes.name = try name.map { try nonBlank($0, what: "The habit's name") }
                changes.schedule = try scheduleOptions.schedule()
                // validate() let through a number of at least 1, or none.
                if let goal { changes.goal = Int(goal).map { .set($0) } ?? .clear }
                changes.color = change(color) { $0 }
                changes.reminder = try change(reminder) { try clock($0, option: "--reminder") }
                changes.priority = priority
                changes.flagged = flag
                changes.auto = try change(auto, parseAuto)
                let planner = try openPlanner(common, lookingUp: true)
                changes.since = try since.map { try DateOption.day($0, option: "--since", now: planner.now, common: common) }
                let h = try planner.editHabit(habit, changes)
                print("Updated habit #\(h.id): \(h.name.terminalSafe), \(h.schedule.description).")
                if since != nil { print(HabitCommand.sinceNote(h)) }
            }
        }
    }

    struct Note: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write this week's note for a habit (or --week).",
            discussion: "Example:\n  vigil habit note 1 \"Mornings work better than evenings.\"")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String
        @Argument(help: "The note.") var text: String
        @Option(help: ArgumentHelp("ISO week, like 2026-W47, or a day in it: 1w, :lastweek, 2026-11-20 ... (default: this week).", valueName: "week"))
        var week: String?

        func run() async throws {
            await guarded {
                let planner = try openPlanner(common, lookingUp: true)
                // An ISO week as written (the planner checks it), else the week of a day.
                let chosen = try week.map { text in
                    text.uppercased().contains("-W")
                        ? text : Statistics.isoWeek(try DateOption.day(text, option: "--week", now: planner.now, common: common, ranges: true))
                }
                let (h, w) = try planner.noteHabit(habit, try nonBlank(text, what: "The note"), week: chosen)
                print("Noted for \(h.name.terminalSafe), week \(w).")
            }
        }
    }

    struct Continue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep going after the goal (optionally with a new one), or bring back an archived habit.",
            discussion: "Example:\n  vigil habit continue 1 --goal 180")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number.") var habit: String
        @Option(help: "A new goal.") var goal: Int?

        func run() async throws {
            await guarded {
                let h = try openPlanner(common, lookingUp: true).continueHabit(habit, goal: goal)
                print("Keep going: \(h.name.terminalSafe)\(h.goal.map { ", goal \($0)" } ?? "").")
            }
        }
    }

    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Finish a habit: archived with its history.", discussion: "Example:\n  vigil habit finish 1")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String

        func run() async throws {
            await guarded {
                let h = try openPlanner(common, lookingUp: true).finishHabit(habit)
                print("Finished and archived: \(h.name.terminalSafe). `vigil habit list --archived` still shows it.")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a habit and its history.",
            discussion: """
                In a terminal Vigil asks first; elsewhere give --yes. `vigil undo` brings it back.

                Example:
                  vigil habit delete 1
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The habit's number or name.") var habit: String
        @Flag(help: "Do not ask.") var yes = false

        func run() async throws {
            await guarded {
                let planner = try openPlanner(common, lookingUp: true)
                let h = try planner.habit(habit)
                let what = "habit #\(h.id) \"\(h.name.terminalSafe)\" and its history"
                guard try confirmed("Delete \(what)?", refusal: "add --yes to delete \(what) without a terminal.", given: yes) else { return }
                _ = try planner.deleteHabit(String(h.id))
                print("Deleted habit #\(h.id) \(h.name.terminalSafe) and its history.")
            }
        }
    }
}
