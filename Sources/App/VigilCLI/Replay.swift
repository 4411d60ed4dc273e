import ArgumentParser
import Foundation
import SessionRuntime
import SessionViews
import VigilCore

struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a focus session over recorded samples and print its event timeline.",
        discussion: """
            Reads recordings in any of these formats, told apart by their content: \
            \(HelpText.formats). Several files are merged on one timeline by their absolute times \
            (a Vigil recording's header says when its t=0 is; for the other formats see \
            \(documented("recording-format.md"))). The replay runs on a virtual clock, as fast as \
            the machine allows, and is deterministic: the same files and config give \
            byte-identical output. It never acts: an alarm says which of the config's actions \
            (alarms.channels) a live session would have set off ("would pause media").

            Examples:
              vigil replay Samples/coffee-break/session.jsonl
              vigil replay --json input.jsonl audio.jsonl > timeline.jsonl
              vigil replay keyboard.yml office.wav gpspipe.json
              vigil replay --log --task thesis Samples/loud-room/session.jsonl
              vigil replay --split monday.jsonl tuesday.jsonl

            Files of separate sessions (more than an hour apart, none covering the time between) \
            are said to be so: replayed together they are judged as one session with a long \
            silence in it. --split replays each stretch as a session of its own. An ActivityWatch \
            export is always replayed as the sessions it holds: an afk stretch of over an hour \
            (a night) ends one.
            """
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: ArgumentHelp("Recordings: \(HelpText.formatNames).", valueName: "file"))
    var files: [String]

    @Flag(help: "Print one JSON object per event (fields: \(documented("timeline-json.md"))).")
    var json = false

    @Flag(help: "Also write the replayed session to the event log, for `vigil log` and reports.")
    var log = false

    @Option(help: ArgumentHelp("Task name for the session (default: the recording's).", valueName: "name"))
    var task: String?

    @Option(help: ArgumentHelp("Planned length; the session ends when it is reached (default: the whole recording).", valueName: "minutes"))
    var minutes: Double?

    @Flag(help: "A silence of over an hour in the recordings ends one session and starts the next.")
    var split = false

    @Option(help: ArgumentHelp("Play back at this many times real time instead of as fast as possible (e.g. 60).", valueName: "factor"))
    var pace: Double?

    /// Recordings further apart than this are of separate sessions.
    static let separateAfter = RecordedSessions.silence

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one recording to replay.") }
        for file in files { try validatePath(file, "a recording") }
        try validateMinutes(minutes, atMost: 525_600, what: "a year")
        if let p = pace, !(p >= 0.01 && p <= 10_000) { throw ValidationError("--pace must be from 0.01 to 10000; got \(p).") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            // Open the log first: an unwritable data directory is reported before any work.
            let eventLog = log ? try common.openLog() : nil
            let merged = try Recordings(configuration: config, signals: Composition.registry.signals).open(files)
            let replayer = Replayer(configuration: config, signals: Composition.registry.signals, task: task, plannedSeconds: minutes.map { $0 * 60 })
            let lines = ReplayLines(
                json: json, paced: pace != nil, keepsSessions: eventLog != nil, wouldAct: Composition.registry.actions(config.alarms))
            // Another tool's export of days holds its sessions: replayed as them, as with --split.
            let splits = split || merged.sources.contains { $0.holdsSessions }
            let splitAfter = splits ? Self.separateAfter : nil
            let result =
                try pace.map { try replayer.run(merged, splitAfterSilence: splitAfter, pace: $0, emit: lines.show) }
                ?? replayer.run(merged, splitAfterSilence: splitAfter, emit: lines.show)
            lines.flush()
            if result.skippedLines > 0 {
                note(
                    "note: skipped \(result.skippedLines) line(s) of kinds or sensors this Vigil does not know (written by a newer Vigil, or by a plug-in not in this one)"
                )
            }
            if result.samples == 0 {
                throw Failure("\(files.map(\.terminalSafe).joined(separator: ", ")): no samples to replay", code: .dataError)
            }
            if !splits { noteSeparateStretches(merged.stretches(joinedWithin: Self.separateAfter)) }
            // Logged once every recording was read, in one transaction: a file that turns out bad
            // halfway leaves the log as it was.
            if let eventLog, !lines.sessions.isEmpty {
                let logged = try eventLog.history(now: WallClock.now()).logReplays(lines.sessions, recording: files.joined(separator: " "))
                let (s, them) = logged.count == 1 ? ("", "it") : ("s", "them")
                note(
                    "logged as session\(s) \(logged.map(String.init).joined(separator: ", ")) in \(eventLog.path.terminalSafe), as a replay: `vigil log --source replay` lists \(them); reports count \(them) with --source replay"
                )
            }
        }
    }

    /// Says when the recordings are of separate stretches of time, replayed as one session.
    private func noteSeparateStretches(_ stretches: [(first: Timestamp, last: Timestamp, files: [String])]) {
        guard stretches.count > 1 else { return }
        let hours = (stretches.last!.first - stretches.first!.last) / 3600
        note(
            "note: these recordings are of \(stretches.count) separate stretches of time (\(Int(hours.rounded())) h from the end of the first to the start of the last), replayed as one session; `--split` replays each as a session of its own"
        )
    }
}

/// A replay's timeline as it is printed (text or JSON Lines, each session's counted from its own
/// start, under a blank line), and its sessions' events kept for the log when asked.
final class ReplayLines {
    let json: Bool
    /// Paced, each line is seen when its time comes.
    let paced: Bool
    let keepsSessions: Bool
    private(set) var sessions: [[SessionEvent]] = []
    private var events: [SessionEvent] = []
    private var renderer: TimelineRenderer?
    private let out = Output()

    /// The actions each alarm would have set off (a replay never acts).
    private let wouldAct: @Sendable (Int, Cause) -> [AlarmChannel]

    init(json: Bool, paced: Bool, keepsSessions: Bool, wouldAct: @escaping @Sendable (Int, Cause) -> [AlarmChannel]) {
        self.wouldAct = wouldAct
        self.json = json
        self.paced = paced
        self.keepsSessions = keepsSessions
    }

    func show(_ e: SessionEvent) {
        if case .sessionStarted = e.kind {
            if renderer != nil, !json { out.line("") }
            renderer = TimelineRenderer(sessionStart: e.time, wouldAct: wouldAct)
        }
        if json {
            out.line(renderer!.json(e))
        } else if let text = renderer!.text(e) {
            out.line(text)
        }
        if paced { out.flush() }
        guard keepsSessions else { return }
        events.append(e)
        if case .sessionEnded = e.kind {
            sessions.append(events)
            events.removeAll()
        }
    }

    func flush() { out.flush() }
}
