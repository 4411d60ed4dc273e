import Foundation
import RecordingFormats
import SessionRuntime
import SessionViews
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilRecording
import VigilTesting

/// The live session on a manual clock: the same run loop `vigil start` uses, with time that moves
/// only when the test says so. No sleeps.
@Suite struct LiveSessionTests {
    let wallStart = parseRFC3339("2026-03-02T09:00:00Z")!

    final class Collected: Sendable {
        let events = Mutex<[SessionEvent]>([])
        func add(_ e: [SessionEvent]) { events.withLock { $0 += e } }
        var all: [SessionEvent] { events.withLock { $0 } }
    }

    @Test func wallTimeIsTheStartPlusMonotonicElapsedTime() async {
        let clock = ManualClock()
        let live = LiveSession(configuration: .default, signals: .builtIn, task: nil, plannedSeconds: nil, wallStart: wallStart, clock: clock) { _ in
        }
        clock.advance(by: .seconds(90.25))
        #expect(await live.now() == wallStart + 90.25)
    }

    @Test func theTickerRunsTheSessionToItsPlannedEnd() async {
        let clock = ManualClock()
        let collected = Collected()
        let live = LiveSession(configuration: .default, signals: .builtIn, task: "t", plannedSeconds: 5, wallStart: wallStart, clock: clock) {
            collected.add($0)
        }
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
        let live = LiveSession(configuration: .default, signals: .builtIn, task: nil, plannedSeconds: 600, wallStart: wallStart, clock: clock) {
            collected.add($0)
        }
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

    /// A fix that enters a session exact (a gpsd log, or a recording made with the opt-in, played
    /// as the sensors) goes on as the live location detector hands one over: coarse, with its
    /// distance from the workplace, to the recording and the live view alike; exact only with the
    /// opt-in. A fix that is coarse already goes on as it came.
    @Test(arguments: [false, true]) func anExactFixGoesOnCoarseUnlessThePersonOptedIn(optIn: Bool) async {
        var config = VigilConfiguration.default
        config.location.workplace = .init(name: "office", latitude: 52.2053, longitude: 0.1218, radius: 75)
        config.location.exactCoordinates = optIn
        let recorded = Mutex<[Sample]>([])
        let seen = Mutex<[Sample]>([])
        let live = LiveSession(
            configuration: config, signals: .builtIn, task: nil, plannedSeconds: 600, wallStart: wallStart, clock: ManualClock(),
            onSample: { s in recorded.withLock { $0.append(s) } }, onEvents: { _ in })
        await live.observeReadings { s in seen.withLock { $0.append(s) } }
        await live.begin(statuses: [])
        let exact = LocationFix(latitude: 52.20712, longitude: 0.12345, horizontalAccuracy: 6, mode: .threeD)
        let coarse = LocationFix(latitude: 48.855, longitude: 2.295, mode: .threeD, distanceFromWorkplace: 30, cellSize: 0.01)
        await live.receive(.location(exact))
        await live.receive(.location(coarse))
        var privacy = LocationPrivacy(config: config.location)
        let expected: [SamplePayload] = [.location(optIn ? exact : privacy.protect(exact)), .location(coarse)]
        #expect(recorded.withLock { $0.map(\.payload) } == expected)
        #expect(seen.withLock { $0.map(\.payload) } == expected)
        if !optIn {
            #expect(
                recorded.withLock {
                    $0.first.map { if case .location(let f) = $0.payload { !f.isExact && f.distanceFromWorkplace != nil } else { false } }
                } == true)
        }
    }

    /// A sample that arrives after the planned end, before the ticker woke (a loaded machine),
    /// ends the session itself; the recording stays in time order and replays to the same events.
    @Test func aLateSampleAfterThePlannedEndKeepsTheRecordingInOrder() async throws {
        let clock = ManualClock()
        let collected = Collected()
        let recorded = Mutex<[Sample]>([])
        let live = LiveSession(
            configuration: .default, signals: .builtIn, task: "t", plannedSeconds: 5, wallStart: wallStart, clock: clock,
            onSample: { s in recorded.withLock { $0.append(s) } }, onEvents: { collected.add($0) })
        await live.begin(statuses: [])
        clock.advance(by: .seconds(3))
        await live.receive(.audio(AudioLevel(rms: -50, peak: -40)))
        clock.advance(by: .seconds(4))  // 7 s: past the plan, and no tick has run since the start
        await live.receive(.audio(AudioLevel(rms: -50, peak: -40)))
        await live.tick()
        #expect(await live.isEnded)
        let samples = recorded.withLock { $0 }
        #expect(samples.map(\.time) == samples.map(\.time).sorted(), "\(samples.map(\.time))")

        var replayed: [SessionEvent] = []
        let source = SampleArray(path: "memory", start: wallStart, samples: samples)
        _ = try Replayer(configuration: .default, signals: .builtIn, task: "t", plannedSeconds: 5).run(MergedRecordings([source])) {
            replayed.append($0)
        }
        #expect(replayed == collected.all)
        #expect(collected.all.last.map { if case .sessionEnded(let s) = $0.kind { s.ended == wallStart + 5 } else { false } } == true)
    }

    /// A stall of the session's own clock longer than `session.gap` (the process stopped, or the
    /// machine suspended without logind saying so; on a loaded machine, a starved thread pool)
    /// that the ticker notices before any sample: the gap ends where the live session noticed, and
    /// its recording, written and read back, replays to the same timeline. Before the
    /// `stall_ended` control, the replay ended the gap at the next sample, a moment later.
    @Test func aStallNoticedByTheTickerReplaysToTheSameGap() async throws {
        let clock = ManualClock()
        let collected = Collected()
        let recorded = Mutex<[Sample]>([])
        let live = LiveSession(
            configuration: .default, signals: .builtIn, task: "t", plannedSeconds: 600, wallStart: wallStart, clock: clock,
            onSample: { s in recorded.withLock { $0.append(s) } }, onEvents: { collected.add($0) })
        await live.begin(statuses: [])
        let quiet = SamplePayload.audio(AudioLevel(rms: -50, peak: -40))
        for _ in 0..<10 {
            clock.advance(by: .milliseconds(750))
            await live.receive(quiet)
            await live.tick()
        }
        clock.advance(by: .seconds(100.3))  // stood still: nothing ran for longer than session.gap
        await live.tick()
        clock.advance(by: .milliseconds(40))
        await live.receive(quiet)
        for _ in 0..<4 {
            clock.advance(by: .milliseconds(750))
            await live.receive(quiet)
            await live.tick()
        }
        await live.control(.end)
        let events = collected.all
        let noticed = wallStart + 7.5 + 100.3
        let gaps = events.compactMap { if case .gap(let from, let seconds) = $0.kind { ($0.time, from, seconds) } else { nil } }
        #expect(gaps.count == 1)
        #expect(gaps.first.map { abs($0.0 - noticed) < 1e-6 } == true, "the gap ends where the live session noticed the stall: \(gaps)")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-stall-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/stall.jsonl"
        let writer = try RecordingWriter(path: file, header: RecordingHeader(start: wallStart, source: "test", task: "t", plannedSeconds: 600))
        for s in recorded.withLock({ $0 }) { try writer.append(s) }
        try writer.close()
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(#""action":"stall_ended""#))

        var replayed: [SessionEvent] = []
        _ = try Replayer(configuration: .default, signals: .builtIn).run(MergedRecordings([RecordingReader(path: file)])) { replayed.append($0) }
        #expect(replayed.count == events.count)
        for (i, (a, b)) in zip(events, replayed).enumerated() where a != b {
            Issue.record("event \(i) differs:\n live   \(a)\n replay \(b)")
            break
        }
    }
}

/// The live screen's distance comes from what the detector hands over: a coarse fix's own distance,
/// never a measurement of its cell's centre.
@Suite struct LiveViewDistanceTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    @Test func aCoarseFixShowsItsOwnDistance() {
        let office = VigilConfiguration.Workplace(name: "office", latitude: 52.2053, longitude: 0.1218, radius: 75)
        var config = VigilConfiguration.Location()
        config.workplace = office
        var privacy = LocationPrivacy(config: config)
        var view = LiveView(task: nil, planned: nil, workplace: office, signals: .builtIn)
        // At the desk, 12 m from the workplace; the cell's centre is about 300 m away.
        let desk = LocationFix(latitude: 52.2054, longitude: 0.1219, horizontalAccuracy: 5, mode: .threeD)
        let coarse = privacy.protect(desk)
        #expect(Geodesy.distance(latitude: 52.2053, longitude: 0.1218, latitude: coarse.latitude, longitude: coarse.longitude) > 200)
        view.apply(Sample(time: t0, payload: .location(coarse)))
        #expect(view.distance == coarse.distanceFromWorkplace)
        #expect((view.distance ?? 999) < 20)
        // An exact fix (a recording of the person's own) is still measured.
        view.apply(Sample(time: t0 + 5, payload: .location(LocationFix(latitude: 52.2063, longitude: 0.1218, mode: .threeD))))
        #expect(abs((view.distance ?? 0) - 111.3) < 1)
    }
}

/// The live screen's clock against the plan, and the notes it must not cut.
@Suite struct LiveViewPlanTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    /// The events of a session paused from 5 to 15 minutes, with the screen's clock read at 20.
    func paused(_ extends: Bool) -> LiveView {
        var view = LiveView(task: "essay", planned: 1500, workplace: nil, signals: .builtIn, pauseExtendsPlan: extends)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: "essay", plannedSeconds: 1500)), line: nil)
        view.apply(
            SessionEvent(time: t0 + 300, kind: .stateChanged(from: .focused, to: .paused(.pause), score: 0, reason: .paused(.pause))), line: nil)
        view.apply(Sample(time: t0 + 600, payload: .control(.pause)))
        #expect(!extends || view.worked == 300, "the clock stands still while paused: \(view.worked)")
        view.apply(SessionEvent(time: t0 + 900, kind: .stateChanged(from: .paused(.pause), to: .focused, score: 0, reason: nil)), line: nil)
        view.apply(Sample(time: t0 + 1200, payload: .control(.resume)))
        return view
    }

    @Test func aPauseStopsTheClockAndTheBar() {
        let frozen = paused(true)
        #expect(frozen.elapsed == 1200 && frozen.worked == 600)
        let screen = frozen.lines(.init(color: false, width: 80)).joined(separator: "\n")
        #expect(screen.contains("00:10:00 / 00:25:00") && screen.contains(" 40% · 00:15:00 left"), "\(screen)")
        let runningOn = paused(false)
        #expect(runningOn.worked == 1200)
        #expect(runningOn.lines(.init(color: false, width: 80)).joined(separator: "\n").contains("00:20:00 / 00:25:00"))
    }

    /// A channel that stopped working is said whole, wrapped, with its remedy at the end; the
    /// timeline's own lines are cut to the width.
    @Test func notesAreWrappedWholeOnANarrowScreen() {
        var view = LiveView(task: nil, planned: nil, workplace: nil, signals: .builtIn)
        let note =
            "desktop notifications unavailable: no notification daemon on the session bus; install one (dunst, mako) or set alarms.channels without notify"
        view.note(note)
        let lines = view.lines(.init(color: false, width: 40))
        let start = try! #require(lines.firstIndex { $0.hasPrefix("desktop notifications") })
        var said = lines[start]
        for line in lines[(start + 1)...] where line.hasPrefix("  ") { said += " " + line.dropFirst(2) }
        #expect(said == note, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 40 || $0.contains("\u{1B}") }, "\(lines)")
    }
}
