import Foundation
import LogServices
import SessionRuntime
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilStore
import VigilTesting

/// `vigil start`'s session without its terminal: the runner on a clock that moves only when told
/// to, with a detector the test feeds by hand.
@Suite struct SessionRunnerTests {
    let wallStart = parseRFC3339("2026-03-02T09:00:00Z")!

    /// A detector whose readings the test sends.
    final class HandDetector: Detector, Sendable {
        let sensor: SensorKind
        let stream: AsyncStream<SamplePayload>
        let continuation: AsyncStream<SamplePayload>.Continuation
        init(sensor: SensorKind = .input) {
            self.sensor = sensor
            (stream, continuation) = AsyncStream<SamplePayload>.makeStream()
        }
        func readings() -> AsyncStream<SamplePayload> { stream }
    }

    /// A desktop channel that keeps what it was told.
    final class CueSink: AlarmSink, Sendable {
        let channel = AlarmChannel.desktop
        let cues = Mutex<[PomodoroCue]>([])
        func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) {}
        func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool { false }
        func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
            cues.withLock { $0.append(cue) }
            return true
        }
    }

    final class Seen: Sendable {
        let lines = Mutex<[String]>([])
        let waits = Mutex<Int>(0)
        func add(_ batch: [(event: SessionEvent, text: String?)]) { lines.withLock { $0 += batch.compactMap(\.text) } }
    }

    /// A runner of an essay with 60 s of work and 30 s breaks, 150 s planned, that tells `seen`.
    func pomodoroRunner(
        store: EventStore, dir: String, clock: ManualClock, seen: Seen, sinks: [any AlarmSink] = [], record: String? = nil
    ) throws -> SessionRunner<ManualClock> {
        let presenter = SessionRunner<ManualClock>.Presenter(
            events: { seen.add($0) }, note: { _ in }, waiting: { _ in seen.waits.withLock { $0 += 1 } })
        let plan = SessionRunner<ManualClock>.Plan(
            task: "essay", taskId: nil, planned: 150, wallStart: wallStart, rehearsal: false,
            pomodoro: PomodoroPlan(work: 60, shortBreak: 30, longBreak: 30, rounds: 4), record: record)
        return try SessionRunner(
            configuration: .default, signals: .builtIn, log: LocalLog(store), dataDirectory: dir, plan: plan, clock: clock, sinks: sinks,
            motivation: { nil },
            presenter: presenter)
    }

    @Test func aPomodoroSessionIsLoggedWithItsBreakAndTheWaitThatActivityEnds() async throws {
        let dir = try temporaryDirectory("vigil-runner")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        let clock = ManualClock()
        let seen = Seen()
        let cues = CueSink()
        let runner = try pomodoroRunner(store: store, dir: dir, clock: clock, seen: seen, sinks: [cues], record: dir + "/session.jsonl")
        let detector = HandDetector()
        let (commands, inject) = AsyncStream<LiveCommand>.makeStream()
        let run = Task { await runner.run(detectors: [detector], statuses: [], commands: commands, inject: { inject.yield($0) }) }
        let status = SessionStatusFile(dataDirectory: dir)
        func typing(_ keys: Int) {
            detector.continuation.yield(.input(InputActivity(window: 5, keyPresses: keys, idle: 0.5)))
        }

        // Work: typing every 5 s for a minute, then the break.
        for second in 1...60 {
            await settle { clock.sleeperCount >= 2 }
            if second % 5 == 0 { typing(10) }
            clock.advance(by: .seconds(1))
        }
        await settle { runner.view.withLock { $0.state } == .paused(.breakTime) }
        // The status file tells other commands about the session.
        await settle { status.read()?.pomodoro?.phase == .shortBreak }
        #expect(status.read()?.task == "essay")
        // Issue 32: the period and the break's countdown, on the screen and for `vigil status`.
        #expect(status.read()?.pomodoro?.period == 1 && status.read()?.pomodoro?.rounds == 4)
        #expect(runner.view.withLock { $0.pomodoro?.text.hasPrefix("break after 1/4 · 00:00:") } == true)
        // The break ends: the session waits, and time alone does not end the wait.
        for _ in 1...40 {
            await settle { clock.sleeperCount >= 1 }
            clock.advance(by: .seconds(1))
        }
        await settle { seen.waits.withLock { $0 } == 1 }
        #expect(runner.view.withLock { $0.waiting && $0.state == .paused(.breakTime) })
        typing(0)
        #expect(runner.view.withLock { $0.waiting })
        typing(5)
        await settle { runner.view.withLock { !$0.waiting && $0.state == .focused } }
        // To the planned end.
        while !run.isCancelled, runner.view.withLock({ $0.summary == nil }) {
            await settle { clock.sleeperCount >= 1 || runner.view.withLock { $0.summary != nil } }
            clock.advance(by: .seconds(1))
        }
        detector.continuation.finish()
        let outcome = await run.value

        #expect(outcome.lostEvents == 0 && outcome.recordingProblem == nil)
        let id = try #require(outcome.session)
        let session = try #require(try store.sessions().first { $0.id == id })
        #expect(session.outcome == "completed" && session.source == .live && session.task == "essay")
        #expect(session.plannedSeconds == 150 && session.ended.map { $0 - session.started } == 150)
        let lines = seen.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("on break") } && lines.contains { $0.contains("back from break") })
        #expect(status.read() == nil, "the status file is removed at the end")
        // A notification (and, where the config has it, a sound) at each turn of the set.
        #expect(
            cues.cues.withLock { Array($0.prefix(3)) } == [
                .breakStarts(period: 1, rounds: 4, minutes: 0.5, long: false), .breakOver(period: 1, rounds: 4),
                .workStarts(period: 2, rounds: 4, minutes: 1),
            ])
        #expect(FileManager.default.fileExists(atPath: dir + "/session.jsonl"))
    }

    /// Issue 32: without the `input` group presence comes from the desktop's idle time, and a
    /// Pomodoro session waited forever after its first break ("focused 1 min · paused 2 min").
    /// The wait ends by the same presence rule as the rest of the session: any source.
    @Test func aPomodoroWaitEndsWhenTheDesktopSeesInput() async throws {
        let dir = try temporaryDirectory("vigil-runner")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        let clock = ManualClock()
        let seen = Seen()
        let runner = try pomodoroRunner(store: store, dir: dir, clock: clock, seen: seen)
        let desktop = HandDetector(sensor: .desktop)
        let (commands, inject) = AsyncStream<LiveCommand>.makeStream()
        let run = Task { await runner.run(detectors: [desktop], statuses: [], commands: commands, inject: { inject.yield($0) }) }
        var elapsed = 0.0
        var lastInput = 0.0
        /// What the desktop's idle monitor says at the current second, taken by the session before
        /// its clock moves on (it stamps samples when it takes them).
        func idleSample() async {
            let idle = elapsed - lastInput
            desktop.continuation.yield(.desktop(.idle(idle)))
            await settle { runner.view.withLock { $0.desktopIdle } == idle }
        }
        func second() async {
            await settle { clock.sleeperCount >= 1 }
            clock.advance(by: .seconds(1))
            elapsed += 1
        }

        // Work, typing: the desktop reports input every 5 s.
        for s in 1...60 {
            await settle { clock.sleeperCount >= 2 }
            if s % 5 == 0 {
                lastInput = elapsed
                await idleSample()
            }
            clock.advance(by: .seconds(1))
            elapsed += 1
        }
        await settle { runner.view.withLock { $0.state } == .paused(.breakTime) }
        // The break and the wait: the person is away, the idle time grows.
        for s in 1...40 {
            await second()
            if s % 5 == 0 { await idleSample() }
        }
        await settle { seen.waits.withLock { $0 } == 1 }
        #expect(runner.view.withLock { $0.waiting }, "an idle time that keeps growing is nobody back")
        // The person types: the desktop's idle time falls.
        lastInput = elapsed
        await idleSample()
        await settle { runner.view.withLock { !$0.waiting && $0.state == .focused } }
        while runner.view.withLock({ $0.summary == nil }) {
            await settle { clock.sleeperCount >= 1 || runner.view.withLock { $0.summary != nil } }
            clock.advance(by: .seconds(1))
        }
        desktop.continuation.finish()
        _ = await run.value
        let lines = seen.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("back from break") })
        let summary = try #require(runner.view.withLock { $0.summary })
        #expect(summary.breakSeconds > 0 && summary.focusedSeconds > 60, "work resumed after the break: \(lines)")
    }
}
