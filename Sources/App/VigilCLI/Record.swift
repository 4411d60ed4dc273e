import ArgumentParser
import Foundation
import RecordingFormats
import SessionViews
import VigilCore
import VigilRecording
import VigilRuntime

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
            let clock = MonotonicWallClock(wallNow: Date().timeIntervalSince1970)
            let recorder = try SampleRecorder(
                path: output, header: RecordingHeader(start: clock.start, source: "vigil record", task: task), journal: common.paths.outputJournal)
            let sensors = Composition.registry.availability(configuration: config, now: clock.now)
            for s in sensors {
                if let status = s.status { recorder.append(Sample(time: clock.start, payload: .status(status))) }
            }
            let progress = isatty(2) != 0
            let signals = SignalWatch<Bool>([(SIGINT, true), (SIGTERM, true), (SIGHUP, true)])
            let limit = minutes.map { $0 * 60 }
            note("recording to \(output.terminalSafe)" + (limit.map { " for \(humanDuration($0))" } ?? "") + "; Ctrl-C stops")

            await withTaskGroup(of: Void.self) { group in
                for s in sensors {
                    guard let detector = s.detector else { continue }
                    group.addTask {
                        for await sample in detector.samples() {
                            // Stamped as it is written, under the recorder's lock, on one monotonic
                            // clock, so the file is in time order whichever detector comes first.
                            recorder.append(sample.payload, stampedBy: clock.now)
                            if case .status(let st) = sample.payload {
                                note("\(st.sensor.rawValue): \(st.state.rawValue)" + (st.detail.isEmpty ? "" : " — \(st.detail.terminalSafe)"))
                            }
                        }
                    }
                }
                group.addTask {
                    for await _ in signals.stream { return }
                }
                group.addTask {
                    while !Task.isCancelled {
                        let elapsed = clock.now() - clock.start
                        if let limit, elapsed >= limit { return }
                        if progress {
                            let c = recorder.snapshot()
                            let line =
                                "\r\u{1B}[Krecording \(clockDuration(elapsed)) · \(c["input"] ?? 0) input, \(c["audio"] ?? 0) audio, \(c["location"] ?? 0) location samples"
                            writeStandardError(line)
                        }
                        try? await Task.sleep(for: .milliseconds(limit.map { min(1000, max(10, Int(($0 - elapsed) * 1000))) } ?? 1000))
                    }
                }
                // The time limit or a signal ends the recording; the detectors stop with it.
                _ = await group.next()
                group.cancelAll()
            }
            signals.finish()
            if progress { writeStandardError("\r\u{1B}[K") }
            let total = recorder.total
            if let problem = recorder.close() {
                throw Failure(
                    "the recording could not be written: \(problem.terminalSafe). Free some space or choose another file with -o.", code: .ioError)
            }
            note("wrote \(total) samples (\(humanDuration(clock.now() - clock.start))) to \(output.terminalSafe)")
        }
    }
}
