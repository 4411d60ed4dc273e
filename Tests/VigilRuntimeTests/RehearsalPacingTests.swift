import Foundation
import RecordingFormats
import Synchronization
import Testing
import VigilCore
import VigilRecording
import VigilRuntime

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
            case .episodeEnded(let ep): "episode \(ep.number) \(ep.start.nanoseconds)-\(ep.end?.nanoseconds ?? 0) \(ep.cause) \(ep.closedBy ?? "")"
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
        func recording() throws -> MergedRecordings { try MergedRecordings([try RecordingFiles.open(path: path, configuration: .default).source]) }

        let replayed = Collected()
        let replay = try recording()
        _ = try Replayer(configuration: .default, task: nil, plannedSeconds: nil).run(replay) { replayed.add([$0]) }

        let merged = try recording()
        let pacer = RecordingPacer()
        let clock = ScaledClock(pace: 1e7, pacer: pacer)
        let feed = RecordingFeed(merged, clock: clock, start: clock.now, pacer: pacer)
        let start = try #require(replayed.all.first?.time)
        let rehearsed = Collected()
        let live = LiveSession(
            configuration: .default, task: nil, plannedSeconds: merged.plannedSeconds, wallStart: start, clock: clock
        ) { rehearsed.add($0) }
        await live.begin(statuses: [])
        let (commands, _) = AsyncStream<LiveCommand>.makeStream()
        await live.run(detectors: [feed], commands: commands, endWithDetectors: true)

        #expect(!essentials(replayed.all).isEmpty)
        #expect(essentials(rehearsed.all) == essentials(replayed.all))
    }
}
