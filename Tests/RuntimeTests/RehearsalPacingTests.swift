import Foundation
import RecordingFormats
import SessionRuntime
import Synchronization
import Testing
import VigilCore
import VigilRecording

/// A rehearsal (`vigil start --replay`) on a machine far too slow for its pace: the clock waits for
/// the recording, so every sample is judged at its place and the session is the replay's.
@Suite struct RehearsalPacingTests {
    final class Collected: Sendable {
        let events = Mutex<[SessionEvent]>([])
        func add(_ e: [SessionEvent]) { events.withLock { $0 += e } }
        var all: [SessionEvent] { events.withLock { $0 } }
    }

    /// What both runs must agree on: the episodes (when, how long, how they ended) and the outcome.
    func essentials(_ events: [SessionEvent]) -> [String] {
        events.compactMap { e in
            switch e.kind {
            case .episodeEnded(let ep):
                "episode \(ep.number) \(ep.start.nanoseconds)-\(ep.end?.nanoseconds ?? 0) \(ep.cause) \(ep.closedBy?.rawValue ?? "")"
            case .sessionEnded(let s): "ended \(s.outcome) at \(s.ended.nanoseconds), distracted \(s.distractedSeconds)"
            default: nil
            }
        }
    }

    /// At a pace of ten million, the coffee break's 25 minutes are 0.15 ms: no machine delivers
    /// 1,500 samples in that time. Before the clock waited, the session's clock ran ahead of the
    /// samples and the session differed from run to run (the plan or the feed ended it early).
    @Test(arguments: ["coffee-break", "leaving-building", "loud-room", "app-switching-storm"])
    func aRehearsalTooFastForTheMachineIsTheReplay(_ scenario: String) async throws {
        let path = "\(root)/Samples/\(scenario)/session.jsonl"
        func recording() throws -> MergedRecordings {
            try MergedRecordings([try RecordingFiles.open(path: path, configuration: .default, signals: .builtIn).source])
        }

        let replayed = Collected()
        let replay = try recording()
        _ = try Replayer(configuration: .default, signals: .builtIn, task: nil, plannedSeconds: nil).run(replay) { replayed.add([$0]) }

        let merged = try recording()
        let pacer = RecordingPacer()
        let clock = ScaledClock(pace: 1e7, pacer: pacer)
        let feed = RecordingFeed(merged, clock: clock, start: clock.now, pacer: pacer)
        let start = try #require(replayed.all.first?.time)
        let rehearsed = Collected()
        let live = LiveSession(
            configuration: .default, signals: .builtIn, task: nil, plannedSeconds: merged.plannedSeconds, wallStart: start, clock: clock
        ) { rehearsed.add($0) }
        await live.begin(statuses: [])
        let (commands, _) = AsyncStream<LiveCommand>.makeStream()
        await live.run(detectors: [feed], commands: commands, endWithDetectors: true)

        #expect(!essentials(replayed.all).isEmpty)
        #expect(essentials(rehearsed.all) == essentials(replayed.all))
    }

    /// Every sample reaches the session at its own instant, to the nanosecond, however its offset
    /// from the start reads in seconds (906.3 s through a Double came out a nanosecond short, and
    /// the log's millisecond, truncated, a whole millisecond early: seen once in the fault test),
    /// and however the threads reading the clock interleave (a reading that waited for the pacer's
    /// lock put the clock back, by seconds at this pace, and a sample was stamped before its place:
    /// seen when this test ran beside the one above).
    @Test func samplesArriveAtTheirOwnInstants() async throws {
        let start = Timestamp(nanoseconds: 1_773_655_198_700_000_000)
        let offsets: [Int64] = (1...3000).map { Int64($0) * 302_100_000 }  // 0.3021 s apart: few are exact in binary
        let samples = offsets.map { Sample(time: Timestamp(nanoseconds: start.nanoseconds + $0), payload: .audio(AudioLevel(rms: -50, peak: -40))) }
        let merged = try MergedRecordings([SampleArray(path: "memory", start: start, samples: samples)])
        let pacer = RecordingPacer()
        let clock = ScaledClock(pace: 1e7, pacer: pacer)
        let feed = RecordingFeed(merged, clock: clock, start: clock.now, pacer: pacer)
        let taken = Mutex<[Timestamp]>([])
        let live = LiveSession(
            configuration: .default, signals: .builtIn, task: nil, plannedSeconds: nil, wallStart: start, clock: clock,
            onSample: { s in if case .audio = s.payload { taken.withLock { $0.append(s.time) } } }, onEvents: { _ in })
        await live.begin(statuses: [])
        let (commands, _) = AsyncStream<LiveCommand>.makeStream()
        await live.run(detectors: [feed], commands: commands, endWithDetectors: true)
        let times = taken.withLock { $0 }
        #expect(times.count == samples.count)
        let off = zip(times, samples).filter { $0 != $1.time }.map { "\($0.0) for \($0.1.time)" }
        let offCount = off.count
        #expect(offCount == 0, "samples off their instants, the first: \(off.first ?? "")")
    }
}
