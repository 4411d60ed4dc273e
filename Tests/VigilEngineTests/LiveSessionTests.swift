import Synchronization
import Testing
import VigilCore
import VigilEngine

/// The live session on a manual clock: the same run loop `vigil start` uses, with time that moves
/// only when the test says so. No sleeps.
@Suite struct LiveSessionTests {
    let wallStart = parseRFC3339("2026-03-02T09:00:00Z")!

    final class Collected: Sendable {
        let events = Mutex<[SessionEvent]>([])
        func add(_ e: [SessionEvent]) { events.withLock { $0 += e } }
        var all: [SessionEvent] { events.withLock { $0 } }
    }

    /// Waits (by yielding, never sleeping) until `condition` holds; fails the test after many tries.
    func settle(_ condition: () async -> Bool) async {
        for _ in 0..<100_000 {
            if await condition() { return }
            await Task.yield()
        }
        Issue.record("the session did not reach the expected point")
    }

    @Test func wallTimeIsTheStartPlusMonotonicElapsedTime() async {
        let clock = ManualClock()
        let live = LiveSession(configuration: .default, task: nil, plannedSeconds: nil, wallStart: wallStart, clock: clock) { _ in }
        clock.advance(by: .seconds(90.25))
        #expect(await live.now() == wallStart + 90.25)
    }

    @Test func theTickerRunsTheSessionToItsPlannedEnd() async {
        let clock = ManualClock()
        let collected = Collected()
        let live = LiveSession(configuration: .default, task: "t", plannedSeconds: 5, wallStart: wallStart, clock: clock) { collected.add($0) }
        let (commands, _) = AsyncStream<LiveCommand>.makeStream()
        await live.begin(statuses: [SensorStatus(sensor: .input, state: .unavailable, detail: "none here")])
        let run = Task { await live.run(detectors: [], commands: commands) }
        for _ in 0..<6 {
            await settle {
                if clock.sleeperCount > 0 { return true }
                return await live.isEnded
            }
            clock.advance(by: .seconds(1))
        }
        await run.value
        let summary = collected.all.compactMap { if case .sessionEnded(let s) = $0.kind { s } else { nil } }.first
        #expect(summary?.outcome == .completed)
        #expect(summary?.ended == wallStart + 5)
        #expect(summary?.activeSeconds == 5)
        #expect(collected.all.contains { if case .sensorStatus(let s) = $0.kind { s.sensor == .input } else { false } })
    }

    @Test func anInterruptionEndsTheRunAndIsSaidSo() async {
        let clock = ManualClock()
        let collected = Collected()
        let live = LiveSession(configuration: .default, task: nil, plannedSeconds: 600, wallStart: wallStart, clock: clock) { collected.add($0) }
        let (commands, continuation) = AsyncStream<LiveCommand>.makeStream()
        await live.begin(statuses: [])
        let run = Task { await live.run(detectors: [], commands: commands) }
        for _ in 0..<30 {
            await settle { clock.sleeperCount > 0 }
            clock.advance(by: .seconds(1))
        }
        continuation.yield(.end(.interrupted))
        await run.value
        let summary = collected.all.compactMap { if case .sessionEnded(let s) = $0.kind { s } else { nil } }.first
        #expect(summary?.outcome == .interrupted)
        #expect(summary.map { $0.ended - $0.started } == 30)
    }
}
