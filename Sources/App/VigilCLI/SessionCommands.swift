import ArgumentParser
import DisplayWidth
import Foundation
import LogServices
import VigilCore
import VigilPlanner

/// A session's start or end as typed (`--start "2026-11-23 14:00"`, `--end 16:00`): the one place session times are parsed, on the one
/// date grammar (docs/dates.md); `HH:MM` alone is on `day`, the start's day, when given, else
/// today. A day without a time is refused: a session starts at a time.
func sessionTime(_ text: String, option: String, now: LocalNow, day: Int? = nil) throws -> Timestamp {
    let hm = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
    if let day, hm.count == 2, hm[0].count <= 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m)
    {
        return now.startOfDay(day) + Double(h * 3600 + m * 60)
    }
    switch DateExpression.parse(text, today: now.day, sense: .past) {
    case .success(.localTime(let d, let second)): return now.startOfDay(d) + Double(second)
    case .success(.instant(let t)): return t
    case .success(.day), .success(.range):
        throw Failure(
            "\(option): '\(text.terminalSafe)' is a day; a session needs a time too: \"YYYY-MM-DD HH:MM\"\(day == nil ? "" : " or HH:MM on the start's day").",
            code: .usage)
    case .failure(let problem):
        throw Failure(
            DateExpression.describe(
                problem, text, option: option,
                accepts: "\"YYYY-MM-DD HH:MM\" (local), HH:MM\(day == nil ? " today" : " on the start's day"), or an ISO time with an offset"),
            code: .usage)
    }
}

/// The history service of a command that reads or corrects a session: with no log there is no
/// session.
func history(_ common: CommonOptions, readOnly: Bool = false) throws -> HistoryService {
    guard try common.hasLog() else {
        throw Failure("there are no sessions yet (no event log at \(common.paths.databasePath.terminalSafe)).", code: .dataError)
    }
    return try common.openLog(readOnly: readOnly).history(now: try common.currentTime())
}

extension HistoryError {
    /// In the words of the options that asked for the change; `end`: the end as typed.
    func failure(end: String? = nil) -> Failure {
        switch self {
        case .noSession(let id):
            Failure("no session #\(id). `vigil session list --last all --source all` shows every session with its number.", code: .dataError)
        case .judgedTimes(let id, let source):
            Failure(
                "session #\(id) was judged (\(source?.rawValue ?? "?")): its times are what was measured and stay. Delete it and `vigil session add` the time you spent, or correct its task, tags and note.",
                code: .failure)
        case .running(let id): Failure("session #\(id) is running: end it (`vigil stop`) first.", code: .failure)
        case .span(.endsBeforeStart): Failure("the session must end after it starts.", code: .usage)
        case .span(.longerThanADay): Failure("a session lasts at most a day; add each day's time on its own.", code: .usage)
        case .span(.notOver):
            Failure(
                end.map { "--end \($0.terminalSafe) has not come yet: add a session once it is over." }
                    ?? "the session's end has not come yet: give --end as well.", code: .usage)
        case .nothingToChange: Failure("say what to change: --task, --tag, --untag, --note, --start or --end.", code: .usage)
        case .noIntent(let id):
            Failure("session #\(id) was started without an intention (`vigil start --intent \"…\"`): there is nothing to answer.", code: .dataError)
        case .noEpisode(let id, let number):
            Failure("session #\(id) has no episode \(number). `vigil session show \(id)` lists its episodes.", code: .dataError)
        }
    }
}

/// Runs a history request, its refusal said in the command's words.
func historyRequest<T>(end: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as HistoryError {
        throw error.failure(end: end)
    }
}

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Past sessions: list, show, correct, tag, delete, or add one you forgot.",
        discussion: """
            A session's task, tags and note can be corrected at any time. Its times cannot, when \
            Vigil judged it: what was measured stays as measured. A session added after the fact \
            (`vigil session add`) or imported (`vigil import timewarrior`) was judged by nobody: it \
            is tracked time, never focused time, and reports show it apart ("Tracked"). Edits and \
            deletes reach your other devices at the next `vigil sync`. See history.md in the documentation (`vigil config paths` finds it).

            Examples:
              vigil session list --last 3d
              vigil session show 12
              vigil session edit 12 --task "Write chapter 3" --note "with the door closed"
              vigil session tag 12 +deep -shallow
              vigil session add --start "2026-11-23 14:00" --end 16:00 --task thesis
              vigil session delete 12
            """,
        subcommands: [List.self, Show.self, Edit.self, Tag.self, Intent.self, Delete.self, Add.self])

    struct Intent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer a session's intention: did you do what you meant to (`vigil start --intent`)?",
            discussion: """
                done, partly or no; none takes the answer back. Reports count intentions kept \
                beside the focus share (statistics.md, "The person's word").

                Example:
                  vigil session intent 12 done
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The session's number.") var session: Int64
        @Argument(help: ArgumentHelp("done, partly, no, or none.", valueName: "answer")) var answer: String

        func validate() throws {
            guard answer == "none" || IntentAnswer(rawValue: answer) != nil else {
                throw ValidationError("the answer is done, partly, no or none; got '\(answer)'.")
            }
        }

        func run() async throws {
            await guarded {
                let s = try historyRequest { try history(common).answerIntent(session, IntentAnswer(rawValue: answer)) }
                let said = s.intentKept.map { "\($0.rawValue)" } ?? "not answered"
                print("Session #\(s.id): \"\(s.intent?.terminalSafe ?? "")\": \(said).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List sessions with their number, start, length, task, tags and figures.",
            discussion: """
                By default your own sessions of the last 7 days: judged ones, and the time you \
                tracked without them (added and imported sessions, shown without focused time).

                Examples:
                  vigil session list
                  vigil session list --last all --source all
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("The period ending today: 7d, any number of days, or all.", valueName: "span"))
        var last = "7d"
        @Option(name: .customLong("source"), help: sourceHelp("Which sessions", default: SessionSource.own), completion: sourceCompletion)
        var sourceText: String?
        @Option(help: ArgumentHelp("Only sessions with this tag, or on a task with it.", valueName: "tag")) var tag: String?
        @Flag(help: "Print a JSON array of sessions (docs/json.md).") var json = false

        func validate() throws { try validateSources(sourceText) }

        func run() async throws {
            await guarded {
                guard try common.hasLog() else {
                    if json { printJSON(.array([])) } else { print(Log.noSessions) }
                    return
                }
                let history = try history(common, readOnly: true)
                let now = LocalNow(at: history.now, zone: common.zone)
                let sources = sourceText.flatMap(SessionSource.selection) ?? SessionSource.own
                let from = last == "all" ? Timestamp(nanoseconds: .min) : try now.startOfDay(ReportCommand.firstDay(ofLast: last, today: now.day))
                let sessions = try history.sessions(from: from, sources: sources, tag: tag)
                if json {
                    printJSON(.array(sessions.map { sessionJSON($0, as: .history) }))
                    return
                }
                guard !sessions.isEmpty else {
                    print("No sessions\(last == "all" ? "" : " in the last \(last)"). `vigil session list --last all --source all` lists every one.")
                    return
                }
                print("   #  start             length  source     focused  distracted  task  [tags]")
                for s in sessions {
                    let length = s.ended.map { humanMinutesShort(($0 - s.started) / 60) } ?? "running"
                    let judged =
                        s.focusedSeconds.map {
                            humanMinutesShort($0 / 60).leftPadded(toWidth: 7) + "  "
                                + humanMinutesShort((s.distractedSeconds ?? 0) / 60).leftPadded(toWidth: 10)
                        }
                        ?? "      –           –"
                    print(
                        "\(String(s.id).leftPadded(toWidth: 4))  \(Shown.minute(s.started))  \(length.leftPadded(toWidth: 6))  \((s.source?.rawValue ?? "?").padded(toWidth: 9))  \(judged)  \(subject(s))"
                    )
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a session with its distraction episodes.", discussion: "Example:\n  vigil session show 12")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The session's number (`vigil session list`).") var session: Int64
        @Flag(help: "Print the session as a JSON object, with its episodes (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let (s, episodes) = try historyRequest { try history(common).sessionWithEpisodes(session) }
                let actions = try historyRequest { try history(common).actions(session) }
                if json {
                    printJSON(sessionJSON(s, episodes: episodes, actions: actions, as: .history))
                    return
                }
                Self.printText(s, episodes: episodes, actions: actions)
            }
        }

        private static func printText(_ s: SessionRecord, episodes: [EpisodeRecord], actions: [AlarmDelivery]) {
            print("#\(s.id)  \(subject(s))")
            print("source    \(s.source?.rawValue ?? "?")\(s.device.map { " on \($0.terminalSafe)" } ?? "")")
            print("start     \(Shown.minute(s.started))")
            print("end       \(s.ended.map(Shown.minute) ?? "running")\(s.outcome.map { "  (\($0.terminalSafe))" } ?? "")")
            if let f = s.focusedSeconds {
                print("judged    focused \(humanDuration(f)) · distracted \(humanDuration(s.distractedSeconds ?? 0))")
            } else if s.source == .imported {
                print("judged    no: time another tool tracked (imported), not counted as focused")
            } else {
                print("judged    no: time you tracked, not counted as focused")
            }
            if let note = s.note { print("note      \(indentedLines(note, by: 10))") }
            if let intent = s.intent {
                let kept = s.intentKept.map { $0 == .done ? "done" : $0 == .partly ? "partly done" : "not done" } ?? "not answered"
                print("intent    \(intent.terminalSafe)  (\(kept))")
            }
            for e in episodes {
                let length = e.endedAt.map { humanDuration($0 - e.startedAt) } ?? "open"
                let label = e.label.map { "  you said: \($0.words)" } ?? ""
                print("episode \(e.number)  \(Shown.minute(e.startedAt))  \(length)  \(e.cause.terminalSafe)  \(e.reason.terminalSafe)\(label)")
            }
            for a in actions {
                print("action    \(Shown.minute(a.time))  episode \(a.episode)  \(a.detail.terminalSafe)")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a session's task, tags or note (and the times of one nobody judged).",
            discussion: """
                Examples:
                  vigil session edit 12 --task 3
                  vigil session edit 12 --task none --note "was reading, not writing"
                  vigil session edit 14 --start "2026-11-23 13:30" --end 15:45
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The session's number.") var session: Int64
        @Option(help: ArgumentHelp("A task's number or title (linked), any name, or none.", valueName: "task")) var task: String?
        @Option(name: .customLong("tag"), help: ArgumentHelp("Add tags (commas or repeated).", valueName: "tags")) var addTags: [String] = []
        @Option(name: .customLong("untag"), help: ArgumentHelp("Remove tags.", valueName: "tags")) var removeTags: [String] = []
        @Option(help: ArgumentHelp("A note, or none.", valueName: "text")) var note: String?
        @Option(help: ArgumentHelp("Start, \"YYYY-MM-DD HH:MM\" (added and imported sessions only).", valueName: "time")) var start: String?
        @Option(help: ArgumentHelp("End, \"YYYY-MM-DD HH:MM\" or HH:MM (added and imported sessions only).", valueName: "time"))
        var end: String?

        func run() async throws {
            await guarded { try edit() }
        }

        private func edit() throws {
            let history = try history(common)
            let now = LocalNow(at: history.now, zone: common.zone)
            var change = SessionChange()
            if let task { change.task = task == "none" ? .clear : .set(try nonBlank(task, what: "--task")) }
            (change.addTags, change.removeTags) = (addTags, removeTags)
            if let note { change.note = note == "none" ? .clear : .set(note) }
            let updated = try historyRequest(end: end) { () throws -> SessionRecord in
                if start != nil || end != nil {
                    // `--end HH:MM` is on the start's day: the new start's, else the session's.
                    let started = try history.session(session).started
                    change.start = try start.map { try sessionTime($0, option: "--start", now: now) }
                    change.end = try end.map { try sessionTime($0, option: "--end", now: now, day: localDay(change.start ?? started, now)) }
                }
                return try history.edit(session, change)
            }
            print("Updated session #\(updated.id): \(subject(updated)).")
        }
    }

    struct Tag: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add (+tag, or tag) and remove (-tag) a session's tags.", discussion: "Example:\n  vigil session tag 12 +deep -shallow")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The session's number.") var session: Int64
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("+tag to add, -tag to remove.", valueName: "changes")) var changes: [String] = []

        func validate() throws {
            if changes.isEmpty { throw ValidationError("say which tags: +tag to add, -tag to remove.") }
            // The changes take what the parser does not know, so an option it does not know lands
            // here: refused as every command refuses one (a tag never starts with "-").
            if let option = changes.first(where: { $0.hasPrefix("--") }) { throw ValidationError("Unknown option '\(option)'") }
        }

        func run() async throws {
            await guarded {
                let removing = changes.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
                let adding = changes.filter { !$0.hasPrefix("-") }.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
                let tags = try historyRequest { try history(common).retag(session, adding: adding, removing: removing) }
                print("Session #\(session): \(tags.isEmpty ? "no tags" : "tags " + tags.map(\.terminalSafe).joined(separator: ", ")).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a session and its episodes.",
            discussion: """
                In a terminal Vigil asks first; elsewhere give --yes. The delete reaches your other \
                devices at the next `vigil sync`; `vigil undo` brings it back.

                Example:
                  vigil session delete 12
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The session's number.") var session: Int64
        @Flag(help: "Do not ask.") var yes = false

        func run() async throws {
            await guarded {
                let deleted = try historyRequest {
                    try history(common).delete(session) { s in
                        let what = "session #\(s.id) (\(Shown.minute(s.started)), \(subject(s))) and its episodes"
                        return try confirmed("Delete \(what)?", refusal: "add --yes to delete \(what) without a terminal.", given: yes)
                    }
                }
                if deleted { print("Deleted session #\(session).") }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a session you forgot to start: time you spent, not judged.",
            discussion: """
                Like `timew track`. Nothing judged it, so it is never focused time: it is listed \
                (source "added"), and reports show it as tracked time, apart from focused time.

                Examples:
                  vigil session add --start "2026-11-23 14:00" --end 16:00 --task thesis
                  vigil session add --start "2026-11-24 09:00" --end 10:30 --tag library
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("When it started, \"YYYY-MM-DD HH:MM\" (local).", valueName: "time")) var start: String
        @Option(help: ArgumentHelp("When it ended, \"YYYY-MM-DD HH:MM\", or HH:MM on the start's day.", valueName: "time")) var end: String
        @Option(help: ArgumentHelp("A task's number or title (linked), or any name.", valueName: "task")) var task: String?
        @Option(name: .customLong("tag"), help: ArgumentHelp("Tags (commas or repeated).", valueName: "tags")) var tags: [String] = []
        @Option(help: ArgumentHelp("A note.", valueName: "text")) var note: String?

        func run() async throws {
            await guarded {
                let now = try common.localNow()
                let from = try sessionTime(start, option: "--start", now: now)
                let to = try sessionTime(end, option: "--end", now: now, day: localDay(from, now))
                // The times are checked before the log is opened: a bad --end creates nothing.
                if let problem = SessionSpanRules.check(start: from, end: to, now: now.now) { throw HistoryError.span(problem).failure(end: end) }
                let task = try task.map { try nonBlank($0, what: "--task") }
                let history = try common.openLog().history(now: now.now)
                let id = try historyRequest(end: end) { try history.add(task: task, tags: tags, note: note, from: from, to: to) }
                print("Added session #\(id): \(Shown.minute(from)) to \(Shown.minute(to)) (\(humanMinutesShort((to - from) / 60))), not judged.")
            }
        }
    }
}

/// `"task" [tags]`, inert in a terminal.
private func subject(_ s: SessionRecord) -> String {
    (s.task.map { "\"\($0.terminalSafe)\"" } ?? "(no task)")
        + (s.tags.isEmpty ? "" : "  [" + s.tags.map(\.terminalSafe).joined(separator: ", ") + "]")
}

private func localDay(_ t: Timestamp, _ now: LocalNow) -> Int {
    let m = now.localMinute(t)
    return m >= 0 ? m / 1440 : (m - 1439) / 1440
}
