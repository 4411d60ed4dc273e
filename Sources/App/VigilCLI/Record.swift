import ArgumentParser
import Foundation
import SessionRuntime
import SessionViews
import VigilCore

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the live sensors to a file, without a session.",
        discussion: """
            Writes every sample of the enabled sensors, \(HelpText.sensors), and each sensor's \
            status changes, in Vigil's recording format (\(documented("recording-format.md"))), \
            readable by you only. Stops after --minutes, or at Ctrl-C; the file is complete either \
            way. No key identities and no audio are recorded, window titles only with \
            apps.store_titles: true, and location fixes only as their distance from the workplace \
            and a coarse cell of about 1 km (set location.exact_coordinates: true in the config to \
            keep exact positions).

            Examples:
              vigil record -o morning.jsonl --minutes 30
              vigil record -o test.jsonl --minutes 1 && vigil inspect test.jsonl
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The recording to write (replaced if it exists).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Stop after this many minutes (default: until Ctrl-C).", valueName: "minutes"))
    var minutes: Double?

    @Option(help: ArgumentHelp("The task to note in the recording's header.", valueName: "name"))
    var task: String?

    func validate() throws {
        try validateMinutes(minutes, atMost: 525_600, what: "a year")
        try validatePath(output, "--output")
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            let wallStart = WallClock.now()
            let clock = ContinuousClock()
            let clockStart = clock.now
            let file = try SampleRecorder(
                path: output, start: wallStart, source: "vigil record", task: task, journal: common.paths.outputJournal)
            let sensors = Composition.registry.availability(configuration: config)
            let recorder = Recorder(sensors: sensors, file: file, configuration: config, wallStart: wallStart, clock: clock, clockStart: clockStart)
            let progress = isatty(2) != 0
            let signals = SignalWatch<Bool>([(SIGINT, true), (SIGTERM, true), (SIGHUP, true)])
            let limit = minutes.map { $0 * 60 }
            note("recording to \(output.terminalSafe)" + (limit.map { " for \(humanDuration($0))" } ?? "") + "; Ctrl-C stops")
            let stop = AsyncStream<Void> { c in
                Task {
                    for await _ in signals.stream { break }
                    c.finish()
                }
            }
            await recorder.run(limit: limit, stop: stop) { st in
                note("\(st.sensor.rawValue): \(st.state.rawValue)" + (st.detail.isEmpty ? "" : " — \(st.detail.terminalSafe)"))
            } onProgress: { elapsed in
                guard progress else { return }
                let c = file.snapshot()
                writeStandardError(
                    "\r\u{1B}[Krecording \(clockDuration(elapsed)) · \(c["input"] ?? 0) input, \(c["audio"] ?? 0) audio, \(c["location"] ?? 0) location samples"
                )
            }
            signals.finish()
            if progress { writeStandardError("\r\u{1B}[K") }
            let total = file.total
            if let problem = file.close() {
                throw Failure(
                    "the recording could not be written: \(problem.terminalSafe). Free some space or choose another file with -o.", code: .ioError)
            }
            note("wrote \(total) samples (\(humanDuration(recorder.now() - recorder.wallStart))) to \(output.terminalSafe)")
        }
    }
}
