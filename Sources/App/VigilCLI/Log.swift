import ArgumentParser
import Foundation
import SessionRuntime
import SessionViews
import VigilCore

struct Log: AsyncParsableCommand {
    /// What the listing commands say before the first session.
    static let noSessions = "No sessions yet. Start one with `vigil start`, or log a recording with `vigil replay --log FILE`."

    static let configuration = CommandConfiguration(
        abstract: "List past sessions and their distraction episodes.",
        discussion: """
            Times are shown in the local time zone.

            Your own judged sessions are listed (live ones and a simulated history); --source lists \
            replays, rehearsals, imported and added sessions too (the last two without focused \
            time: nobody judged them), which the listing otherwise only counts.

            Examples:
              vigil log
              vigil log --limit 5 --json
              vigil log --source replay
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "How many sessions to list, newest first.")
    var limit = 10

    @OptionGroup var source: SourceOptions

    @Flag(help: "Print a JSON array of sessions, with their episodes (docs/json.md).")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        await guarded {
            // Listing must not create anything: without a log there is nothing to list.
            guard try common.hasLog() else {
                if json { printJSON(.array([])) } else { print(Self.noSessions) }
                return
            }
            let sources = source.sources
            let (sessions, others) = try common.openLog(readOnly: true).history(now: try common.currentTime()).latest(limit, sources: sources)
            let out = Output()
            if sessions.isEmpty && !json {
                out.line(others.isEmpty ? Self.noSessions : "No \(sources.sorted().map(\.rawValue).joined(separator: " or ")) sessions.")
            }
            if json {
                printJSON(.array(sessions.map { sessionJSON($0.session, episodes: $0.episodes, as: .log) }))
                return
            }
            for (s, episodes) in sessions {
                // The task, a reason (it names applications) and a cause come from the person and
                // from recordings: each on its line, inert.
                let task = s.task.map { "\"\($0.terminalSafe)\"" } ?? "(no task)"
                let outcome = s.outcome ?? "open"
                var line =
                    "#\(s.id)  \(Shown.minute(s.started))  \(task)  \(s.source?.rawValue ?? "?")\(s.device.map { " on \($0.terminalSafe)" } ?? "")  \(outcome)"
                if let f = s.focusedSeconds, let d = s.distractedSeconds {
                    line += "  focused \(humanDuration(f)) · distracted \(humanDuration(d))"
                }
                out.line(line)
                for e in episodes {
                    let dur = e.endedAt.map { humanDuration($0 - e.startedAt) } ?? "open"
                    out.line("      episode \(e.number)  \(Shown.minute(e.startedAt))  \(dur)  \(e.cause.terminalSafe)  \(e.reason.terminalSafe)")
                }
            }
            if !others.isEmpty && !json {
                let list = others.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
                out.line("Not listed: \(list) (`vigil log --source all` lists them).")
            }
            out.flush()
        }
    }
}
