import Foundation
import RecordingFormats
import SessionRuntime
import SessionViews
import Testing
import VigilCore
import VigilRecording

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let scenarios = [
    "steady-focus", "coffee-break", "leaving-building", "loud-room", "app-switching-storm", "long-reading", "laptop-suspend", "pomodoro-break",
]

/// Replays a scenario in-process and returns its events and the rendered timelines.
func replay(_ scenario: String) throws -> (events: [SessionEvent], text: String, json: String) {
    let reader = try RecordingReader(path: "\(root)/Samples/\(scenario)/session.jsonl")
    var events: [SessionEvent] = []
    _ = try Replayer(configuration: .default, signals: .builtIn).run(try MergedRecordings([reader])) { events.append($0) }
    // As `vigil replay` says it: with the actions an alarm would have set off by default.
    let renderer = TimelineRenderer(sessionStart: events[0].time, wouldAct: PlugInRegistry.builtIn.actions(VigilConfiguration.default.alarms))
    let text = events.compactMap(renderer.text).map { $0 + "\n" }.joined()
    let json = events.map(renderer.json).map { $0 + "\n" }.joined()
    return (events, text, json)
}

/// Ground truth written by scripts/make-samples.py from each scenario's script of behaviour,
/// independently of the engine.
struct Expectation: Decodable {
    struct EpisodeTruth: Decodable {
        var cause: String
        var start: Double
        var end: Double
        var start_tolerance: Double
        var end_tolerance: Double
    }
    struct Span: Decodable {
        var from: Double
        var to: Double
        var tolerance: Double
    }
    var episodes: [EpisodeTruth]
    var never: [String]?
    var gaps: [Span]?
    var paused: [Span]?
    var minutes: Double
}

@Suite struct ScenarioTests {
    @Test(arguments: scenarios)
    func matchesItsGroundTruth(_ scenario: String) throws {
        let truth = try JSONDecoder().decode(
            Expectation.self, from: Data(contentsOf: URL(fileURLWithPath: "\(root)/Samples/\(scenario)/expect.json")))
        let (events, _, _) = try replay(scenario)
        let start = events[0].time
        let episodes = events.compactMap { if case .episodeEnded(let e) = $0.kind { e } else { nil } }
        #expect(episodes.count == truth.episodes.count, "episodes: \(episodes.map { ($0.cause, $0.start - start, ($0.end ?? start) - start) })")
        for (got, want) in zip(episodes, truth.episodes) {
            #expect(got.cause.rawValue == want.cause)
            #expect(abs((got.start - start) - want.start) <= want.start_tolerance, "episode start \(got.start - start) s, truth \(want.start) s")
            #expect(
                abs(((got.end ?? start) - start) - want.end) <= want.end_tolerance, "episode end \((got.end ?? start) - start) s, truth \(want.end) s"
            )
        }
        let states = Set(events.compactMap { if case .stateChanged(_, let to, _, _) = $0.kind { to.name } else { nil } })
        for forbidden in truth.never ?? [] {
            #expect(!states.contains(forbidden), "\(scenario) must never be \(forbidden)")
        }
        let gaps = events.compactMap { if case .gap(let from, let secs) = $0.kind { (from - start, from - start + secs) } else { nil } }
        #expect(gaps.count == (truth.gaps ?? []).count)
        for (got, want) in zip(gaps, truth.gaps ?? []) {
            #expect(abs(got.0 - want.from) <= want.tolerance && abs(got.1 - want.to) <= want.tolerance, "gap \(got), truth \(want)")
        }
        let summary = events.compactMap { if case .sessionEnded(let s) = $0.kind { s } else { nil } }.last
        #expect(summary?.outcome == .completed)
        // The books balance: every second of the session is active, paused or in a gap.
        if let s = summary {
            #expect(abs(s.activeSeconds + s.pausedSeconds + s.gapSeconds - (s.ended - s.started)) < 0.001)
            #expect(abs(s.focusedSeconds + s.distractedSeconds - s.activeSeconds) < 0.001)
            #expect(abs((s.ended - s.started) - truth.minutes * 60) <= 5)
        }
        if let pauses = truth.paused, let s = summary {
            let total = pauses.reduce(0) { $0 + ($1.to - $1.from) }
            #expect(abs(s.pausedSeconds - total) <= pauses.reduce(0) { $0 + $1.tolerance })
        }
    }

    /// Golden timelines: produced by the engine, reviewed against the ground truth above, kept to
    /// catch unintended changes. Re-record with VIGIL_RECORD_GOLDEN=1 after an intended change.
    @Test(arguments: scenarios)
    func replaysToItsGoldenTimeline(_ scenario: String) throws {
        let (_, text, json) = try replay(scenario)
        let dir = "\(root)/Samples/\(scenario)"
        if ProcessInfo.processInfo.environment["VIGIL_RECORD_GOLDEN"] == "1" {
            try text.write(toFile: "\(dir)/expected.txt", atomically: true, encoding: .utf8)
            try json.write(toFile: "\(dir)/expected.jsonl", atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOfFile: "\(dir)/expected.txt", encoding: .utf8)))
        #expect(json == (try String(contentsOfFile: "\(dir)/expected.jsonl", encoding: .utf8)))
    }

    @Test func replayIsDeterministic() throws {
        for scenario in scenarios {
            let a = try replay(scenario)
            let b = try replay(scenario)
            #expect(a.json == b.json)
            #expect(a.text == b.text)
        }
    }

    @Test func aPlannedLengthEndsTheReplayAtThePlan() throws {
        let reader = try RecordingReader(path: "\(root)/Samples/steady-focus/session.jsonl")
        var events: [SessionEvent] = []
        _ = try Replayer(configuration: .default, signals: .builtIn, plannedSeconds: 600).run(try MergedRecordings([reader])) { events.append($0) }
        let s = events.compactMap { if case .sessionEnded(let s) = $0.kind { s } else { nil } }.last
        #expect(s?.outcome == .completed)
        #expect(s.map { $0.ended - $0.started } == 600)
    }
}
