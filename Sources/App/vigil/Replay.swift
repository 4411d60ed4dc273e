import ArgumentParser
import Foundation
import RecordingFormats
import SessionViews
import VigilCore
import VigilRecording
import VigilRuntime
import VigilStore

struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a focus session over recorded samples and print its event timeline.",
        discussion: """
            Reads Vigil recordings and the sensors' own formats, told apart by their content: \
            `libinput record` YAML, gpsd JSON (`gpspipe -w`) and WAV audio. Several files are merged \
            on one timeline by their absolute times (a Vigil recording's header says when its t=0 \
            is; for the other formats see docs/recording-format.md). The replay runs on a virtual \
            clock, as fast as the machine allows, and is deterministic: the same files and config \
            give byte-identical output.

            Examples:
              vigil replay Samples/coffee-break/session.jsonl
              vigil replay --json input.jsonl audio.jsonl > timeline.jsonl
              vigil replay keyboard.yml office.wav gpspipe.json
              vigil replay --log --task thesis Samples/loud-room/session.jsonl
            """
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: ArgumentHelp("Recordings: Vigil JSON Lines, libinput record, gpsd JSON or WAV.", valueName: "file"))
    var files: [String]

    @Flag(help: "Print one JSON object per event (fields: docs/timeline-json.md).")
    var json = false

    @Flag(help: "Also write the replayed session to the event log, for `vigil log` and reports.")
    var log = false

    @Option(help: ArgumentHelp("Task name for the session (default: the recording's).", valueName: "name"))
    var task: String?

    @Option(help: ArgumentHelp("Planned length; the session ends when it is reached (default: the whole recording).", valueName: "minutes"))
    var minutes: Double?

    @Option(help: ArgumentHelp("Play back at this many times real time instead of as fast as possible (e.g. 60).", valueName: "factor"))
    var pace: Double?

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one recording to replay.") }
        for file in files { try validatePath(file, "a recording") }
        try validateMinutes(minutes, atMost: 525_600, what: "a year")
        if let p = pace, !(p >= 0.01 && p <= 10_000) { throw ValidationError("--pace must be from 0.01 to 10000; got \(p).") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            // Open the store first: an unwritable data directory is reported before any work.
            let store = log ? try common.openStore() : nil
            var sources: [any SampleSource] = []
            for f in files { sources.append(try RecordingFiles.open(path: f, configuration: config).source) }
            let merged = try MergedRecordings(sources)
            let replayer = Replayer(configuration: config, task: task, plannedSeconds: minutes.map { $0 * 60 })
            let out = Output()
            var renderer: TimelineRenderer?
            var events: [SessionEvent] = []
            let wallStart = ContinuousClock.now
            let result = try replayer.run(merged) { e in
                if renderer == nil { renderer = TimelineRenderer(sessionStart: e.time) }
                if let pace, let r = renderer {
                    out.flush()
                    let due = wallStart + .seconds((e.time - r.sessionStart) / pace)
                    Thread.sleep(
                        forTimeInterval: max(
                            0,
                            Double((due - ContinuousClock.now).components.attoseconds) / 1e18 + Double((due - ContinuousClock.now).components.seconds)
                        ))
                }
                if json {
                    out.line(renderer!.json(e))
                } else if let text = renderer!.text(e) {
                    out.line(text)
                }
                if store != nil { events.append(e) }
            }
            out.flush()
            if result.skippedLines > 0 {
                note("note: skipped \(result.skippedLines) line(s) of kinds this version does not know (written by a newer Vigil?)")
            }
            if result.samples == 0 {
                throw Failure("\(files.map(\.terminalSafe).joined(separator: ", ")): no samples to replay", code: .dataError)
            }
            if let store {
                let id = try store.appendSession(events, source: .replay, recording: files.joined(separator: " "))
                if let id {
                    note(
                        "logged as session \(id) in \(store.path.terminalSafe), as a replay: `vigil log --source replay` lists it; reports count it with --source replay"
                    )
                }
            }
        }
    }
}
