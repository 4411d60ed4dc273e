import Foundation
import RecordingFormats
import ReportViews
import SessionRuntime
import SessionViews
import Synchronization
import TestPlugIns
import TestSupport
import Testing
import VigilCore
import VigilRecording
import VigilStats
import VigilStore
import VigilTesting

// The phone (a signal module with its own config section) is TestPlugIns', which a `vigil`
// composed with it runs too (PluggableCLITests).

extension Array where Element == SessionEvent {
    var episodesStarted: [Episode] { compactMap { if case .episodeStarted(let e) = $0.kind { e } else { nil } } }
}

@Suite struct PluggableSignalTests {
    /// The registration line.
    static let signals = SignalCatalog.builtIn.adding(.phone)
    static let start = parseRFC3339("2026-03-02T09:00:00Z")!

    /// 30 minutes of typing; from minute 10 the phone is unlocked for three minutes and nobody types.
    static func writeRecording(to path: String) throws -> Int {
        let writer = try RecordingWriter(path: path, header: RecordingHeader(start: start, source: "PluggableSignalTests", task: "essay"))
        var phoneLines = 0
        var lastKey = 0.0
        for t in stride(from: 5.0, through: 1800, by: 5) {
            if t == 600 || t == 780 {
                try writer.append(Sample(time: start + t, payload: .reading(SignalReading(sensor: .phone, label: t == 600 ? "unlocked" : "locked"))))
                phoneLines += 1
            }
            let onPhone = t > 600 && t <= 780
            if !onPhone { lastKey = t - 0.5 }
            try writer.append(Sample(time: start + t, payload: .input(InputActivity(window: 5, keyPresses: onPhone ? 0 : 12, idle: t - lastKey))))
        }
        try writer.close()
        return phoneLines
    }

    @Test func aSignalFromOutsideIsRecordedReplayedScoredLoggedAndReportedByItsCause() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-plug-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/phone.jsonl"
        let phoneLines = try Self.writeRecording(to: path)
        // Its lines are generic readings in Vigil's own format.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"{"t":600,"kind":"phone","label":"unlocked"}"#))

        // Without the registration the phone's lines are skipped as lines of an unknown kind.
        let plain = try MergedRecordings([RecordingReader(path: path)])
        var plainEvents: [SessionEvent] = []
        let plainResult = try Replayer(configuration: .default, signals: .builtIn).run(plain) { plainEvents.append($0) }
        #expect(plainResult.skippedLines == phoneLines)
        #expect(!plainEvents.contains { if case .episodeStarted(let e) = $0.kind { e.cause == .phone } else { false } })

        // Registered: read, scored, and the episode is dated back to the unlock.
        let merged = try MergedRecordings([RecordingReader(path: path, signals: Self.signals)])
        var events: [SessionEvent] = []
        let result = try Replayer(configuration: .default, signals: Self.signals).run(merged) { events.append($0) }
        #expect(result.skippedLines == 0)
        let episodes = events.compactMap { e -> Episode? in if case .episodeEnded(let ep) = e.kind { ep } else { nil } }
        #expect(episodes.count == 1)
        let episode = try #require(episodes.first)
        #expect(episode.cause == .phone)
        #expect(episode.start == Self.start + 600)
        #expect(episode.end == Self.start + 780)
        #expect(events.episodesStarted.map(\.reason) == ["phone in hand for 1 min"])
        let timeline = TimelineRenderer(sessionStart: Self.start)
        #expect(events.compactMap(timeline.text).contains { $0.contains("episode 1 · phone since 00:10:00 · phone in hand for") })

        // Logged and reported: the report lists the new cause after the built-in ones.
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        _ = try store.appendSession(events, source: .replay, recording: path)
        let facts = try store.statisticsFacts(before: Self.start + 86_400, sources: [.replay])
        let report = Statistics.report(facts, timeZone: TimeZone(identifier: "UTC")!, from: nil, to: civilDay("2026-03-02")!)
        #expect(report.episodes.byCause.map(\.key) == ["away", "switching", "noise", "location", "app", "phone"])
        #expect(report.episodes.byCause.map(\.count) == [0, 0, 0, 0, 0, 1])
        #expect(report.episodes.byCause.last?.minutes == 3)
        #expect(report.rendered(as: .json).contains(#""key": "phone""#))
    }

    /// The registry the product composes, with the phone's module added as `Composition` would
    /// add it: its detector runs in a live session beside the built-in sensors' (switched off
    /// here), its samples are judged by its scorer, and the recording replays to the same timeline.
    @Test func aSensorModuleRunsLiveAndItsRecordingReplays() async throws {
        let registry = PlugInRegistry.builtIn.adding(.phone)
        #expect(registry.signals.sensors == SignalCatalog.builtIn.sensors + [.phone])
        var config = VigilConfiguration.default
        config.input.enabled = false
        config.desktop.enabled = false
        config.apps.enabled = false
        config.audio.enabled = false
        config.media.enabled = false
        config.location.enabled = false
        // The phone reports changes only: its two minutes in hand are silent, longer than the
        // default session.gap of 90 s, which a replay would read as a gap (the machine slept)
        // without the live session's signs of life in the recording.
        let clock = ManualClock()
        let sensors = registry.availability(configuration: config)
        #expect(sensors.map(\.sensor) == [.desktop, .input, .app, .audio, .media, .location, .calendar, .phone])
        #expect(sensors.map { $0.detector != nil } == [false, false, false, false, false, false, false, true], "no calendars: no detector")

        let recorded = Mutex<[Sample]>([])
        let events = Mutex<[SessionEvent]>([])
        let live = LiveSession(
            configuration: config, signals: registry.signals, task: "essay", plannedSeconds: nil, wallStart: Self.start, clock: clock,
            onSample: { s in recorded.withLock { $0.append(s) } }, onEvents: { e in events.withLock { $0 += e } })
        let (commands, person) = AsyncStream<LiveCommand>.makeStream()
        await live.begin(statuses: sensors.compactMap(\.status))
        let run = Task { await live.run(detectors: sensors.compactMap(\.detector), commands: commands) }
        await yieldUntil { recorded.withLock { $0.contains { if case .reading = $0.payload { true } else { false } } } }
        for _ in 0..<120 {
            await yieldUntil { clock.sleeperCount > 0 }
            clock.advance(by: .seconds(1))
        }
        // Between two ticks, as a person's key falls: on a tick's own instant the live session
        // would judge the tick first, a replay the key (it takes the ticks before a sample).
        await yieldUntil { clock.sleeperCount > 0 }
        clock.advance(by: .milliseconds(500))
        person.yield(.control(.end))
        await run.value
        let liveEvents = events.withLock { $0 }
        #expect(liveEvents.episodesStarted.map(\.cause) == [.phone], "\(liveEvents.map(\.kind))")

        // Recorded as any plug-in sensor's lines, read back through the registry's signals.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-plug-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/live.jsonl"
        let writer = try RecordingWriter(path: path, header: RecordingHeader(start: Self.start, source: "test", task: "essay"))
        for s in recorded.withLock({ $0 }) { try writer.append(s) }
        try writer.close()
        var replayed: [SessionEvent] = []
        let opened = try RecordingFiles.open(path: path, configuration: config, signals: registry.signals)
        _ = try Replayer(configuration: config, signals: registry.signals).run(MergedRecordings([opened.source])) { replayed.append($0) }
        #expect(replayed == liveEvents)
        #expect(!liveEvents.contains { if case .gap = $0.kind { true } else { false } })

        // The signs of life are what keeps the silence from being a gap: every half gap of
        // silence has one, and the same recording without them replays with a gap.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: #""kind":"alive""#).count - 1 == 2, "\(text)")
        let silent = dir + "/without-alive.jsonl"
        try text.split(separator: "\n").filter { !$0.contains(#""kind":"alive""#) }.joined(separator: "\n").appending("\n")
            .write(toFile: silent, atomically: true, encoding: .utf8)
        var withoutAlive: [SessionEvent] = []
        let reopened = try RecordingFiles.open(path: silent, configuration: config, signals: registry.signals)
        _ = try Replayer(configuration: config, signals: registry.signals).run(MergedRecordings([reopened.source])) { withoutAlive.append($0) }
        #expect(withoutAlive.contains { if case .gap = $0.kind { true } else { false } })
    }

    @Test func theLiveScreenShowsAPluggedInSignalsReading() {
        var view = LiveView(task: "essay", planned: 1500, workplace: nil, signals: Self.signals)
        view.apply(Sample(time: Self.start, payload: .reading(SignalReading(sensor: .phone, label: "unlocked"))))
        let lines = view.lines(.init(color: false, width: 80))
        #expect(lines.contains("Phone     unlocked"))
        #expect(view.statusLine().contains("phone unlocked"))
    }

    /// A plug-in's status line, like its readings, is skipped (and counted) by a reader without
    /// the plug-in: a live session's recording with a plug-in (its detector reports its status)
    /// stays readable everywhere, as a recording from a newer Vigil is.
    @Test func aStatusLineOfAnUnregisteredSensorIsSkippedAndCounted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-plug-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/status.jsonl"
        try """
        {"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}
        {"t":1,"kind":"status","sensor":"phone","state":"available"}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let without = try RecordingReader(path: path)
        #expect(try without.readAll().isEmpty && without.skippedLines == 1)
        let status = try RecordingReader(path: path, signals: Self.signals).readAll()
        #expect(status == [Sample(time: Self.start + 1, payload: .status(SensorStatus(sensor: .phone, state: .available)))])
    }

    /// The plan runs out on a tick that also writes a sign of life, on a clock off the tick grid
    /// (as a real one is): the recording stays in time order, every line of it reads back, and it
    /// replays to the live timeline. (The plan's `end` line, written at the planned end after a
    /// later sign of life, once went back in time.)
    @Test func aPlanEndingInSilenceLeavesARecordingInTimeOrder() async throws {
        var config = VigilConfiguration.default
        (config.input.enabled, config.desktop.enabled, config.apps.enabled) = (false, false, false)
        (config.audio.enabled, config.media.enabled, config.location.enabled) = (false, false, false)
        config.session.gap = 20
        let registry = PlugInRegistry([.phone])
        let clock = ManualClock()
        let sensors = registry.availability(configuration: config)
        let recorded = Mutex<[Sample]>([])
        let events = Mutex<[SessionEvent]>([])
        let live = LiveSession(
            configuration: config, signals: registry.signals, task: "essay", plannedSeconds: 30, wallStart: Self.start, clock: clock,
            onSample: { s in recorded.withLock { $0.append(s) } }, onEvents: { e in events.withLock { $0 += e } })
        let (commands, _) = AsyncStream<LiveCommand>.makeStream()
        await live.begin(statuses: [])
        let run = Task { await live.run(detectors: sensors.compactMap(\.detector), commands: commands) }
        await yieldUntil { recorded.withLock { $0.contains { if case .reading = $0.payload { true } else { false } } } }
        // 1.0005 s a step: the tick that passes the plan's end (the 30th) comes 15 ms after it,
        // with a sign of life due (the last one was ten seconds before).
        while await !live.isEnded {
            await yieldUntil { clock.sleeperCount > 0 }
            clock.advance(by: .microseconds(1_000_500))
        }
        await run.value
        let samples = recorded.withLock { $0 }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(samples.map { ($0.time - Self.start, $0.payload) })")

        let dir = try temporaryDirectory("vigil-plan-end")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = try RecordingWriter(
            path: dir + "/r.jsonl", header: RecordingHeader(start: Self.start, source: "test", task: "essay", plannedSeconds: 30))
        for s in samples { try writer.append(s) }
        try writer.close()
        #expect(try RecordingReader(path: dir + "/r.jsonl", signals: registry.signals).readAll().count == samples.count)
        var replayed: [SessionEvent] = []
        _ = try Replayer(configuration: config, signals: registry.signals).run(
            MergedRecordings([RecordingReader(path: dir + "/r.jsonl", signals: registry.signals)])
        ) {
            replayed.append($0)
        }
        #expect(replayed == events.withLock { $0 })
    }
}
