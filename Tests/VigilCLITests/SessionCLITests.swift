import Foundation
import TestSupport
import Testing

/// `vigil session`: past sessions listed, corrected, tagged, deleted, and added after the fact;
/// `report --tag` (in UTC, as `vigil()` sets TZ).
@Suite struct SessionCLITests {
    func run(_ args: [String], _ home: String, at now: String = "2026-11-24T10:00:00Z") async throws -> Run {
        try await vigil(args + ["--data-dir", home + "/d", "--now", now], home: home)
    }

    @Test func aForgottenSessionIsAddedTaggedCorrectedAndNeverJudged() async throws {
        let home = freshHome()
        #expect(try await run(["task", "add", "Thesis", "--tag", "writing"], home).status == 0)
        var r = try await run(["session", "add", "--start", "2026-11-23 14:00", "--end", "16:00", "--task", "thesis", "--tag", "Library,deep"], home)
        #expect(r.stdout == "Added session #1: 2026-11-23 14:00 to 2026-11-23 16:00 (2 h 00), not judged.\n", "\(r.stderr)")
        r = try await run(["session", "list"], home)
        #expect(r.stdout.contains("   1  2026-11-23 14:00  2 h 00  added            –           –  \"Thesis\"  [library, deep]"), "\(r.stdout)")
        r = try await run(["session", "tag", "1", "+focus", "-deep"], home)
        #expect(r.stdout == "Session #1: tags library, focus.\n", "\(r.stdout)\(r.stderr)")
        r = try await run(["session", "edit", "1", "--end", "15:30", "--note", "quiet"], home)
        #expect(r.status == 0, "\(r.stderr)")
        r = try await run(["session", "show", "1"], home)
        #expect(r.stdout.contains("end       2026-11-23 15:30") && r.stdout.contains("note      quiet"), "\(r.stdout)")
        #expect(r.stdout.contains("judged    no: time you tracked, not counted as focused"))

        // A report by the task's tag finds it, and still counts none of it as focused.
        r = try await run(["report", "--tag", "writing", "--last", "all", "--source", "all", "--format", "json"], home)
        #expect(r.status == 0 && r.stdout.contains("\"tag\": \"writing\""), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\"focused_minutes\": 0") && r.stdout.contains("\"source\": \"added\""), "\(r.stdout)")
        // It is the report's tracked time, without --source too: the person's own time.
        r = try await run(["report", "--tag", "writing", "--last", "all", "--format", "json"], home)
        #expect(r.stdout.contains("\"tracked_sessions\": 1,") && r.stdout.contains("\"tracked_minutes\": 90\n"), "\(r.stdout)")
        #expect(r.stdout.contains("\"focused_minutes\": 0,") && r.stdout.contains("\"active_minutes\": 0,"), "\(r.stdout)")

        // Bad times are bad values; a session ends after it starts and before now.
        r = try await run(["session", "add", "--start", "2026-11-23", "--end", "16:00"], home)
        #expect(r.status == 64 && r.stderr.contains("--start: '2026-11-23' is a day; a session needs a time too"), "\(r.stderr)")
        r = try await run(["session", "add", "--start", "2026-11-23 16:00", "--end", "15:00"], home)
        #expect(r.status == 64 && r.stderr.contains("must end after it starts"), "\(r.stderr)")
        r = try await run(["session", "add", "--start", "2026-11-24 09:00", "--end", "11:00"], home)
        #expect(r.status == 64 && r.stderr.contains("has not come yet"), "\(r.stderr)")

        // Deleting asks; without a terminal it needs --yes.
        r = try await run(["session", "delete", "1"], home)
        #expect(r.status == 1 && r.stderr.contains("add --yes to delete session #1"), "\(r.stderr)")
        #expect(try await run(["session", "delete", "1", "--yes"], home).stdout == "Deleted session #1.\n")
        r = try await run(["session", "show", "1"], home)
        #expect(r.status == 65 && r.stderr.contains("no session #1"), "\(r.stderr)")

        // Undo puts the last change back, once.
        #expect(try await run(["undo"], home).stdout == "Undid: session delete #1.\n")
        #expect(try await run(["session", "show", "1"], home).stdout.contains("note      quiet"))
        r = try await run(["undo"], home)
        #expect(r.status == 1 && r.stderr.contains("nothing to undo"), "\(r.stderr)")
        #expect(try await run(["task", "delete", "thesis", "--yes"], home).status == 0)
        #expect(try await run(["undo"], home).stdout == "Undid: task delete #1 \"Thesis\".\n")
        r = try await run(["task", "show", "1"], home)
        #expect(r.stdout.contains("tags      writing") && r.stdout.contains("in 0 sessions"), "\(r.stdout)")
    }

    /// Every `--source` names every source there is (SessionSource.allCases), in its help and
    /// when it refuses a word, with the command's own default.
    @Test func everySourceIsNamedInHelpAndRefusals() async throws {
        let home = freshHome()
        let all = "live, simulated, replay, rehearsal, imported, added"
        for (command, defaults) in [
            (["report"], "live,simulated,imported,added"), (["session", "list"], "live,simulated,imported,added"), (["log"], "live,simulated"),
            (["apps"], "live,simulated"),
        ] {
            let help = try await run(command + ["--help"], home)
            let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("\(all), several with commas, or all (default: \(defaults))."), "\(command): \(help.stdout)")
            let refused = try await run(command + ["--source", "bogus"], home)
            #expect(refused.status == 64, "\(command)")
            #expect(refused.stderr.contains("--source takes \(all) (several with commas), or all; got 'bogus'."), "\(command): \(refused.stderr)")
        }
    }

    @Test func aJudgedSessionKeepsItsTimesButTakesATaskTagsAndANote() async throws {
        let home = freshHome()
        let replay = try await vigil(
            ["replay", "--log", "--task", "draft", "--data-dir", home + "/d", repo + "/Samples/coffee-break/session.jsonl"], home: home)
        #expect(replay.status == 0, "\(replay.stderr)")
        var r = try await run(["session", "edit", "1", "--start", "2026-03-02 08:00"], home)
        #expect(r.status == 1 && r.stderr.contains("session #1 was judged (replay): its times are what was measured"), "\(r.stderr)")
        #expect(try await run(["task", "add", "Write chapter"], home).status == 0)
        r = try await run(["session", "edit", "1", "--task", "write CHAPTER", "--tag", "deep"], home)
        #expect(r.stdout == "Updated session #1: \"Write chapter\"  [deep].\n", "\(r.stdout)\(r.stderr)")
        // The report by tag selects it; by another tag, nothing.
        let tagged = try await run(["report", "--tag", "deep", "--last", "all", "--source", "all", "--format", "json"], home)
        let other = try await run(["report", "--tag", "shallow", "--last", "all", "--source", "all", "--format", "json"], home)
        #expect(tagged.stdout.contains("\"task\": \"Write chapter\""), "\(tagged.stdout)")
        #expect(!other.stdout.contains("\"task\": \"Write chapter\""))
        r = try await run(["session", "list", "--last", "all", "--source", "replay"], home)
        #expect(r.stdout.contains("replay") && r.stdout.contains("\"Write chapter\"  [deep]"), "\(r.stdout)")
        r = try await run(["session", "edit", "1"], home)
        #expect(r.status == 64 && r.stderr.contains("say what to change"), "\(r.stderr)")
    }
}
