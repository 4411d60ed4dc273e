import ArgumentParser
import Foundation
import Synchronization
import SoundAlarm
import VigilConfig
import VigilCore
import VigilEngine
import VigilRecording
import VigilStore

struct Start: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a live focus session.",
        discussion: """
            Watches input activity (libinput), microphone loudness (PulseAudio) and location \
            (gpsd) until the planned time is up, or until you press Ctrl-C (the session is then \
            saved as abandoned if it ended early). If Vigil is stopped by SIGTERM or its terminal \
            closes (SIGHUP), the session is saved as interrupted. A sensor that cannot be used is \
            reported with the reason and the remedy, and the session runs with the others \
            (`vigil sensors` checks them beforehand).

            While you are distracted, alarms escalate through the channels alarms.channels gives \
            each level: the terminal, desktop notifications, a sound. In a terminal, type s and \
            Enter to snooze (a few times a session), p to pause, b for a break, r to resume, q to \
            end.

            Examples:
              vigil start --task "chapter 3" --minutes 50
              vigil start --minutes 25 --json
              vigil start --minutes 25 --record today.jsonl
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("What you are focusing on: a task's number or title from `vigil task list` (the session is then linked to it), or any name.", valueName: "task"))
    var task: String?

    @Option(help: ArgumentHelp("Planned length in minutes (default: session.default_minutes).", valueName: "minutes"))
    var minutes: Double?

    @Flag(help: "Print one JSON object per event instead of text lines.")
    var json = false

    @Option(help: ArgumentHelp("Also write every sample the session judged to this recording (replays to the same timeline).", valueName: "file"))
    var record: String?

    func validate() throws {
        if let m = minutes, !(m > 0) { throw ValidationError("--minutes must be greater than 0.") }
        if let t = task, t.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--task must not be blank.") }
    }

    func run() async throws {
        await guarded { try await runSession() }
    }

    private func runSession() async throws {
        do {
            let config = try common.loadConfiguration()
            let store = try common.openStore()
            // A task from the list, by number or exact title, links the session to it.
            var task = self.task
            var taskId: Int64?
            if let reference = task {
                if let id = Int64(reference) {
                    guard let t = try store.task(id: id) else {
                        throw Failure("no task #\(id). `vigil task list` shows your tasks; or give the session a name that is not a number.", code: .dataError)
                    }
                    (task, taskId) = (t.title, t.id)
                } else if let t = try store.tasks(titled: reference).first {
                    (task, taskId) = (t.title, t.id)
                }
            }
            let writer = SessionLogWriter(store: store, taskId: taskId)
            let out = Output()
            let planned = (minutes ?? config.session.defaultMinutes) * 60
            let clock = MonotonicWallClock(wallNow: Date().timeIntervalSince1970)
            let wallStart = clock.start
            var recorder: SampleRecorder?
            if let path = record {
                recorder = try SampleRecorder(path: path, header: RecordingHeader(start: wallStart, source: "vigil start", task: task, plannedSeconds: planned))
            }
            var tap: (@Sendable (Sample) -> Void)?
            if let r = recorder { tap = { sample in r.append(sample) } }
            let sensors = DetectorCatalog.availability(configuration: config, now: clock.now)
            let renderer = TimelineRenderer(sessionStart: wallStart)
            let asJSON = json
            let sinks: [any AlarmSink] = [
                TerminalAlarmSink(), DesktopAlarmSink(), SoundAlarmSink(configuration: config.alarms, player: TonePlayer(server: config.audio.server)),
            ]
            let lines = try common.loadMotivation()
            let lastLine = Mutex<Motivation?>(nil)
            let motivate: @Sendable () -> String? = {
                lastLine.withLock { last in
                    var rng = SystemRandomNumberGenerator()
                    last = lines.pick(avoiding: last, using: &rng)
                    return last?.line
                }
            }
            let alarms = AlarmDispatcher(configuration: config.alarms, task: task, sinks: sinks, onDelivery: { writer.write($0) },
                                         motivation: motivate) { problem in
                note(problem)
            }
            let live = LiveSession(
                configuration: config, task: task, plannedSeconds: planned, wallStart: wallStart, clock: ContinuousClock(),
                onSample: tap
            ) { events in
                writer.write(events)
                alarms.handle(events)
                for e in events {
                    if asJSON { out.line(renderer.json(e)) } else if let t = renderer.text(e) { out.line(t) }
                }
                out.flush()
            }
            // Ctrl-C is the person ending the session; `kill` and a closed terminal interrupt it.
            // Either way it is closed cleanly and saved, not lost.
            let signals = SignalWatch<LiveCommand>([(SIGINT, .control(.end)), (SIGTERM, .end(.interrupted)), (SIGHUP, .end(.interrupted))])
            if isatty(0) != 0 {
                // Until the live view (with single keys) comes: a letter and Enter.
                note("type s + Enter to snooze an alarm, p to pause, b for a break, r to resume, q to end the session")
                let thread = Thread {
                    while let line = readLine() {
                        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                        case "s": signals.inject(.control(.snooze))
                        case "p": signals.inject(.control(.pause))
                        case "b": signals.inject(.control(.breakTime))
                        case "r": signals.inject(.control(.resume))
                        case "q": signals.inject(.control(.end))
                        default: note("keys: s snooze, p pause, b break, r resume, q end (then Enter)")
                        }
                    }
                }
                thread.start()
            }
            await live.begin(statuses: sensors.compactMap(\.status))
            await live.run(detectors: sensors.compactMap(\.detector), commands: signals.stream)
            signals.finish()
            alarms.drain()
            if let recorder {
                if let problem = recorder.close() { note("the recording \(recorder.path) is incomplete: \(problem)") } else { note("recorded to \(recorder.path)") }
            }
            if let failure = writer.failure {
                throw Failure("the session ran, but its events could not all be logged: \(failure)", code: .ioError)
            }
            if let id = writer.session { note("saved as session \(id) in \(store.path)") }
            // Habits that sessions complete by themselves.
            if let done = try? PlannerHousekeeping.run(store: store, now: LocalNow(ms: Int64(Date().timeIntervalSince1970 * 1000))) {
                for (h, _) in done.completedBySessions { note("habit #\(h.id) \(h.name) is done for today: your sessions reached it") }
            }
        }
    }
}

/// A recording written from several tasks: appends under a lock, keeps the first error and
/// stops writing after it (the session goes on; the error is reported at the end).
final class SampleRecorder: @unchecked Sendable {
    let path: String
    private let writer: RecordingWriter
    private let lock = NSLock()
    private var failure: RecordingError?
    private(set) var counts: [String: Int] = [:]

    init(path: String, header: RecordingHeader) throws(RecordingError) {
        self.path = path
        writer = try RecordingWriter(path: path, header: header)
    }

    func append(_ sample: Sample) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return }
        do {
            try writer.append(sample)
            let kind: String
            switch sample.payload {
            case .input: kind = "input"
            case .audio: kind = "audio"
            case .location: kind = "location"
            case .status: kind = "status"
            case .control: kind = "control"
            }
            counts[kind, default: 0] += 1
        } catch {
            failure = error
        }
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return counts.values.reduce(0, +)
    }

    func snapshot() -> [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Flushes and syncs; returns the first problem, if any.
    func close() -> String? {
        lock.lock()
        defer { lock.unlock() }
        do { try writer.close() } catch { if failure == nil { failure = error } }
        return failure?.description
    }
}
