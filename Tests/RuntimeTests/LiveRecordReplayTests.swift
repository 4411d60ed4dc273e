import Foundation
import InputDetector
import LocationDetector
import MicrophoneDetector
import RecordingFormats
import SessionRuntime
import SessionViews
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilRecording

/// A live session on the real detectors, against a real PulseAudio (a private server with a null
/// sink, playing pink noise) and a real gpsd (fed by gpsfake from a receiver's log of a short
/// drive), recorded as `vigil start --record` does, then replayed: the replay gives the same
/// event timeline, event for event, to the nanosecond. The session runs until the real sensors
/// have delivered enough to judge (levels, fixes, a distraction episode), then the person ends it,
/// so a slow machine only makes it longer.
@Suite(.serialized) struct LiveRecordReplayTests {
    static let gpsLog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LocationDetectorTests/Data/haicom-305N.log").path

    final class Events: Sendable {
        let all = Mutex<[SessionEvent]>([])
        func add(_ e: [SessionEvent]) { all.withLock { $0 += e } }
    }

    final class Tap: @unchecked Sendable {
        let writer: RecordingWriter
        let lock = NSLock()
        var count = 0
        var audio = 0
        var location = 0
        init(_ writer: RecordingWriter) { self.writer = writer }
        func append(_ s: Sample) {
            lock.lock()
            defer { lock.unlock() }
            try! writer.append(s)
            count += 1
            if case .audio = s.payload { audio += 1 }
            if case .location = s.payload { location += 1 }
        }
        var counts: (audio: Int, location: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (audio, location)
        }
    }

    @Test func aRecordedLiveSessionReplaysToTheSameTimeline() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-live-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let noise = dir + "/noise.wav"
        let made = runTool("/usr/bin/sox", ["-R", "-n", "-r", "48000", "-c", "1", "-b", "16", noise, "synth", "30", "pinknoise", "vol", "0.5"])
        try #require(made.status == 0, "sox: \(made.output)")

        let pulse = try PulseServer()
        try pulse.start()
        let port = freePort()
        // The log lasts about 8 s: played over and over, so fixes keep coming however late the
        // session's detector connects on a loaded machine.
        let gps = try GPSFake(log: Self.gpsLog, port: port, once: false)
        defer { gps.stop() }

        // Thresholds scaled down so that seconds hold a noise episode and a drive out of the fence.
        var config = VigilConfiguration()
        config.session.tick = 0.5
        config.scoring.distractConfirm = 1
        config.audio.window = 0.25
        config.audio.loud = -40
        config.audio.quietDip = 1
        config.audio.grace = 1
        config.audio.full = 4
        config.location.radius = 5
        config.location.maxAccuracy = 1000
        config.location.grace = 1
        config.location.full = 4
        config.alarms.escalation = [1, 3]
        config.alarms.repeatEvery = 2
        let planned = 600.0

        let start = WallClock.now()
        let file = dir + "/live.jsonl"
        let tap = Tap(
            try RecordingWriter(path: file, header: RecordingHeader(start: start, source: "test", task: "t", plannedSeconds: planned)))
        let live = Events()
        let session = LiveSession(
            configuration: config, signals: .builtIn, task: "t", plannedSeconds: planned, wallStart: start, clock: ContinuousClock(),
            onSample: { tap.append($0) }, onEvents: { live.add($0) })
        let detectors: [any Detector] = [
            PulseMicrophoneDetector(server: pulse.address, window: config.audio.window, retry: .init(first: 0.05, longest: 0.2)),
            GPSDDetector(port: String(port), retry: .init(first: 0.05, longest: 0.2)),
            LibinputDetector(seat: "seat0", window: config.input.window),
        ]
        let (commands, person) = AsyncStream<LiveCommand>.makeStream()
        await session.begin(statuses: [])
        // The room stays loud until the test has what it needs: paplay is started again whenever it
        // ends (the 30-second noise is over, or on a loaded machine it failed to connect), so a
        // microphone detector that connects late still hears it.
        let player = Task { () -> Int in
            try? await Task.sleep(for: .seconds(2))
            var started = 0
            while !Task.isCancelled {
                if let p = try? pulse.startPlaying(noise) {
                    started += 1
                    while p.isRunning, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(200)) }
                    p.kill(SIGKILL)
                } else {
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            return started
        }
        let run = Task { await session.run(detectors: detectors, commands: commands) }
        // A fail-safe, not a timing: the loop ends as soon as the sensors have delivered. With both
        // cores busy, the synchronous tests queued on Swift's two cooperative threads can hold back
        // the session's own tasks for minutes (a loaded full run saw a 218 s gap right after the
        // start), so the wait is as long as the rest of the suite may take.
        let deadline = ContinuousClock.now + .seconds(900)
        while ContinuousClock.now < deadline {
            let (audio, location) = tap.counts
            let episode = live.all.withLock { $0.contains { if case .episodeStarted = $0.kind { true } else { false } } }
            if audio >= 30, location >= 5, episode { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        person.yield(.control(.end))
        await run.value
        player.cancel()
        let plays = await player.value
        try tap.writer.close()

        var replayed: [SessionEvent] = []
        let result = try Replayer(configuration: config, signals: .builtIn).run(MergedRecordings([RecordingReader(path: file)])) {
            replayed.append($0)
        }

        let events = live.all.withLock { $0 }
        // The live run saw the real sensors: levels, fixes, and the distraction they caused.
        let samples = try RecordingReader(path: file).readAll()
        #expect(samples.filter { if case .audio = $0.payload { true } else { false } }.count >= 30)
        #expect(
            samples.filter { if case .location = $0.payload { true } else { false } }.count >= 5,
            "gpsfake said: \(gps.log)\nit reported: \(gps.reportedFixes.count) fixes\nstatuses: \(samples.filter { if case .status = $0.payload { true } else { false } })"
        )
        #expect(
            events.contains { if case .episodeStarted = $0.kind { true } else { false } },
            "no episode (paplay started \(plays) times) in \(events.map(\.kind))")
        #expect(events.contains { if case .sessionEnded(let s) = $0.kind { s.outcome == .abandoned } else { false } })
        #expect(result.samples == tap.count)

        // And the replay of its recording is the same timeline.
        #expect(replayed.count == events.count)
        for (i, (a, b)) in zip(events, replayed).enumerated() where a != b {
            Issue.record("event \(i) differs:\n live   \(a)\n replay \(b)")
            break
        }
    }
}
