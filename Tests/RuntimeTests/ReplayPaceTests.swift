import Foundation
import SessionRuntime
import TestSupport
import Testing
import VigilCore
import VigilRecording

/// `vigil replay --pace`: events handed over at their time within their session divided by the
/// pace, each session from its own start. Only lower bounds are asserted: a loaded machine may
/// replay slower, never faster.
@Suite struct ReplayPaceTests {
    @Test func eachSessionIsPacedFromItsOwnStart() throws {
        let dir = try temporaryDirectory("vigil-pace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = parseRFC3339("2026-03-02T09:00:00Z")!
        let path = dir + "/two.jsonl"
        let writer = try RecordingWriter(path: path, header: RecordingHeader(start: start, source: "ReplayPaceTests"))
        // Two stretches of 10 s of typing, two hours apart.
        for offset in [0.0, 7200] {
            for t in stride(from: 1.0, through: 10, by: 1) {
                try writer.append(Sample(time: start + offset + t, payload: .input(InputActivity(window: 1, keyPresses: 5, idle: 0.2))))
            }
        }
        try writer.close()
        var config = VigilConfiguration.default
        config.input.window = 1
        let replayer = Replayer(configuration: config, signals: .builtIn)
        var unpaced: [SessionEvent] = []
        _ = try replayer.run(MergedRecordings([RecordingReader(path: path)]), splitAfterSilence: 600) { unpaced.append($0) }
        var paced: [SessionEvent] = []
        let began = ContinuousClock.now
        let result = try replayer.run(MergedRecordings([RecordingReader(path: path)]), splitAfterSilence: 600, pace: 20) { paced.append($0) }
        let took = began.duration(to: .now)
        #expect(result.sessions == 2)
        #expect(paced == unpaced, "the same events, only later")
        // Each session lasts 9 s or more (its first sample to its last), 0.45 s at 20 times, from
        // its own start: the second does not start before the first has ended, so together at
        // least twice that. (Paced from the first session's start, the second would come at once.)
        let lengths = zip(
            paced.filter { if case .sessionStarted = $0.kind { true } else { false } },
            paced.filter { if case .sessionEnded = $0.kind { true } else { false } }
        ).map { $1.time - $0.time }
        #expect(lengths.count == 2 && lengths.allSatisfy { $0 >= 9 }, "\(lengths)")
        #expect(took >= .seconds(lengths.reduce(0, +) / 20), "\(took)")
    }
}
