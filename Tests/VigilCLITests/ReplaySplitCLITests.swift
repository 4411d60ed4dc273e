import Foundation
import Testing

/// Recordings of separate sessions (issue 20: two sessions a day apart were replayed as one
/// 50-hour session, without a word).
@Suite struct ReplaySplitCLITests {
    let monday = repo + "/Samples/steady-focus/session.jsonl"  // 2026-03-02 09:00, 25 min
    let tuesday = repo + "/Samples/coffee-break/session.jsonl"  // 2026-03-03 14:00, 25 min

    @Test func separateRecordingsAreSaidToBeSo() async throws {
        let together = try await vigil(["replay", monday, tuesday])
        #expect(together.status == 0)
        #expect(together.stdout.contains("gaps 28 h 35 min"), "\(together.stdout)")
        #expect(
            together.stderr.contains(
                "vigil: note: these recordings are of 2 separate stretches of time (29 h from the end of the first to the start of the last), replayed as one session; `--split` replays each as a session of its own"
            ), "\(together.stderr)")
        // Recordings of one session (the sensors' files of the same hour) are not.
        let one = try await vigil(["replay", repo + "/Samples/coffee-break/session.jsonl", repo + "/Samples/coffee-break/session.jsonl"])
        #expect(one.status == 0 && !one.stderr.contains("separate"), "\(one.stderr)")
    }

    /// Split, each session is the one its recording replays to alone: same task, same start,
    /// the same timeline line for line.
    @Test func splitEachStretchIsItsOwnSession() async throws {
        let split = try await vigil(["replay", "--split", monday, tuesday])
        #expect(split.status == 0, "\(split.stderr)")
        #expect(!split.stderr.contains("separate"))
        var alone: [String] = []
        for day in [monday, tuesday] { alone.append(try await vigil(["replay", day]).stdout) }
        #expect(split.stdout == alone.joined(separator: "\n"), "\(split.stdout)")

        // Logged, they are two replay sessions, written together.
        let home = freshHome()
        let logged = try await vigil(["replay", "--split", "--log", monday, tuesday], home: home)
        #expect(logged.stderr.contains("logged as sessions 1, 2 in"), "\(logged.stderr)")
        let log = try await vigil(["log", "--source", "replay", "--json"], home: home)
        let sessions = jsonRecords(log.stdout)
        let tasks = sessions.compactMap { $0["task"] as? String }.sorted()
        #expect(tasks == ["report draft", "slides"], "\(log.stdout)")
    }
}
