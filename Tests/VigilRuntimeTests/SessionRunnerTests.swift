import Foundation
import Synchronization
import Testing
import VigilCore
import VigilRuntime
import VigilStore
import VigilTesting

/// `vigil start`'s session without its terminal: the runner on a clock that moves only when told
/// to, with a detector the test feeds by hand.
@Suite struct SessionRunnerTests {
    let wallStart = parseRFC3339("2026-03-02T09:00:00Z")!

    /// A detector whose samples the test sends.
    final class HandDetector: Detector, Sendable {
        let sensor = SensorKind.input
        let stream: AsyncStream<Sample>
        let continuation: AsyncStream<Sample>.Continuation
        init() { (stream, continuation) = AsyncStream<Sample>.makeStream() }
        func samples() -> AsyncStream<Sample> { stream }
    }

    final class Seen: Sendable {
        let lines = Mutex<[String]>([])
        let waits = Mutex<Int>(0)
        func add(_ batch: [(event: SessionEvent, text: String?)]) { lines.withLock { $0 += batch.compactMap(\.text) } }
    }

    func settle(_ condition: () -> Bool) async {
        for _ in 0..<200_000 {
            if condition() { return }
            await Task.yield()
        }
        Issue.record("the runner did not reach the expected point")
    }

    @Test func aPomodoroSessionIsLoggedWithItsBreakAndTheWaitThatActivityEnds() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-runner-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        let clock = ManualClock()
        let seen = Seen()
        let presenter = SessionRunner<ManualClock>.Presenter(
            events: { seen.add($0) }, note: { _ in }, waiting: { _ in seen.waits.withLock { $0 += 1 } })
        // 60 s of work, 30 s breaks; 150 s planned.
        let plan = SessionRunner<ManualClock>.Plan(
            task: "essay", taskId: nil, planned: 150, wallStart: wallStart, rehearsal: false,
            pomodoro: PomodoroPlan(work: 60, shortBreak: 30, longBreak: 30, rounds: 4), record: dir + "/session.jsonl")
        let runner = try SessionRunner(
            configuration: .default, store: store, dataDirectory: dir, plan: plan, clock: clock, sinks: [],
            motivation: { nil }, presenter: presenter)
        let detector = HandDetector()
        let (commands, inject) = AsyncStream<LiveCommand>.makeStream()
        let run = Task { await runner.run(detectors: [detector], statuses: [], commands: commands, inject: { inject.yield($0) }) }
        let status = SessionStatusFile(dataDirectory: dir)
        func typing(_ keys: Int) {
            detector.continuation.yield(Sample(time: wallStart, payload: .input(InputActivity(window: 5, keyPresses: keys, idle: 0.5))))
        }

        // Work: typing every 5 s for a minute, then the break.
        for second in 1...60 {
            await settle { clock.sleeperCount >= 2 }
            if second % 5 == 0 { typing(10) }
            clock.advance(by: .seconds(1))
        }
        await settle { runner.view.withLock { $0.state } == .paused(.breakTime) }
        // The status file tells other commands about the session.
        await settle { status.read() != nil }
        #expect(status.read()?.task == "essay")
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
        #expect(session.outcome == "completed" && session.source == "live" && session.task == "essay")
        #expect(session.plannedSeconds == 150 && session.endedAt.map { $0 - session.startedAt } == 150)
        let lines = seen.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("on break") } && lines.contains { $0.contains("back from break") })
        #expect(status.read() == nil, "the status file is removed at the end")
        #expect(FileManager.default.fileExists(atPath: dir + "/session.jsonl"))
    }
}
