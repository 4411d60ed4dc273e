import Foundation
import TestSupport
import Testing

/// The person in the loop (issue 37) through the real binary: the intention at the start, the
/// question on return and the question at the end, answered with keys in a pseudo-terminal (by
/// Data/pty_drive.py, which types each key only once its question is on the screen), and the same
/// answers given later with `vigil episode` and `vigil session intent`; reports follow them.
/// The steps' deadlines only bound a failure: a slow machine waits longer, it does not fail.
@Suite struct PersonsWordCLITests {
    static let driver = repo + "/Tests/VigilCLITests/Data/pty_drive.py"
    /// Typing until 8:00, away for a coffee until 16:30 (8 min 35 s: past `session.ask_after`'s 5
    /// minutes), typing again until 25:00.
    static let coffeeBreak = repo + "/Samples/coffee-break/session.jsonl"

    struct Step: Encodable {
        var wait: String
        var send: String
        var timeout: Double = 300
    }

    /// `vigil start` in a pseudo-terminal, answering each question (a pattern of its text, then
    /// the key) as it comes; then whatever it wrote, escape sequences removed. The coffee break
    /// rehearsed at 100 times its pace, logged, so that the answers have a session to go to.
    static func session(_ home: String, _ answers: [(String, String)], extra: [String] = [], columns: Int = 160) async throws -> (
        status: Int32, output: String
    ) {
        let steps = String(decoding: try JSONEncoder().encode(answers.map { Step(wait: $0.0, send: $0.1) }), as: UTF8.self)
        let capture = home + "/screen.out"
        let r = await runProcess(
            "/usr/bin/python3",
            [driver, String(columns), "50", capture, steps, "--"] + [
                "env", "TERM=xterm-256color", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "PATH=/usr/bin:/bin",
                "DBUS_SYSTEM_BUS_ADDRESS=\(noSystemBus)", "TZ=UTC", vigilBinary, "start", "--replay", coffeeBreak, "--pace", "100", "--log",
                "--data-dir", home + "/d",
            ] + extra)
        let screen = String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self)
        return (r.status, LiveViewTests.plain(screen))
    }

    static func show(_ home: String, _ id: Int = 1) async throws -> [String: Any] {
        let run = try await vigil(["session", "show", String(id), "--json", "--data-dir", home + "/d"], home: home)
        #expect(run.status == 0, "\(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    static func report(_ home: String) async throws -> [String: Any] {
        let run = try await vigil(["report", "--last", "all", "--source", "all", "--format", "json", "--data-dir", home + "/d"], home: home)
        #expect(run.status == 0, "\(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    /// The live screen: the intention under the title, "m" for the coffee break (a meeting), "d"
    /// for the intention (done). The episode is labelled, the intention answered, and the report
    /// moves the episode's time out of the distracted time.
    @Test func keysOnTheLiveScreenAnswerTheReturnAndTheIntention() async throws {
        let home = freshHome()
        let run = try await Self.session(home, [("What was it\\?", "m"), ("Did you do it\\?", "d")], extra: ["--intent", "finish the slides"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Intent    finish the slides"), "shown under the title: \(run.output.suffix(3000))")
        #expect(run.output.contains("Welcome back: away 8 min 35 s"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("noted: episode 1 was a meeting or a call"), "\(run.output.suffix(3000))")
        #expect(run.output.contains("noted: your intention done"), "\(run.output.suffix(3000))")

        let session = try await Self.show(home)
        #expect(session["intent"] as? String == "finish the slides" && session["intent_kept"] as? String == "done", "\(session)")
        let episodes = try #require(session["episodes"] as? [[String: Any]])
        #expect(episodes.map { $0["label"] as? String } == ["meeting"], "\(episodes)")

        let report = try await Self.report(home)
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["distracted_minutes"] as? Double == 0, "a meeting is not distraction: \(totals)")
        let intentions = try #require(report["intentions"] as? [String: Any], "\(report)")
        #expect(intentions["sessions"] as? Int == 1 && intentions["done"] as? Int == 1, "\(intentions)")
        let relabelled = try #require(report["relabelled"] as? [String: Any], "\(report)")
        let labels = try #require(relabelled["labels"] as? [[String: Any]])
        #expect(labels.map { $0["label"] as? String } == ["meeting"] && labels.first?["episodes"] as? Int == 1, "\(labels)")
        #expect(abs((relabelled["minutes"] as? Double ?? 0) - 8.58) < 0.02, "8 min 35 s: \(relabelled)")
    }

    /// Plain lines in a terminal: a letter and Enter. "o" (working away from the computer) makes
    /// the coffee break focused time; Enter at the end leaves the intention for later, and says how.
    @Test func plainLinesTakeALetterAndEnterAndEnterAnswersLater() async throws {
        let home = freshHome()
        let run = try await Self.session(
            home, [("What was it\\?", "o\r"), ("Did you do it\\?", "\r")], extra: ["--plain", "--intent", "finish the slides"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("noted: episode 1 was work away from the computer: its time counts as focus"), "\(run.output)")
        #expect(run.output.contains("your intention is not answered: `vigil session intent 1 done|partly|no` answers it later"), "\(run.output)")
        let session = try await Self.show(home)
        #expect(session["intent_kept"] is NSNull, "\(session)")
        let report = try await Self.report(home)
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["focused_minutes"] as? Double == 25, "the whole session focused: \(totals)")
        let intentions = try #require(report["intentions"] as? [String: Any], "\(report)")
        #expect(intentions["unanswered"] as? Int == 1, "\(intentions)")

        // Later, from any terminal: the intention answered, the episode labelled again, then undone.
        let answer = try await vigil(["session", "intent", "1", "partly", "--data-dir", home + "/d"], home: home)
        #expect(answer.status == 0 && answer.stdout.contains("\"finish the slides\": partly"), "\(answer)")
        let relabel = try await vigil(["episode", "1", "--was", "distracted", "--data-dir", home + "/d"], home: home)
        #expect(relabel.status == 0 && relabel.stdout.contains("episode 1 (away, 8 min 35 s): a distraction."), "\(relabel)")
        let after = try await Self.report(home)
        let distracted = (after["totals"] as? [String: Any])?["distracted_minutes"] as? Double ?? 0
        #expect(abs(distracted - 8.58) < 0.02, "8 min 35 s: \(after)")
        #expect(after["relabelled"] is NSNull, "a distraction it stays: nothing moved")
        let undo = try await vigil(["undo", "--data-dir", home + "/d"], home: home)
        #expect(undo.status == 0 && undo.stdout.contains("episode 1 of session #1"), "\(undo)")
        let episodes = try #require(try await Self.show(home)["episodes"] as? [[String: Any]])
        #expect(episodes.first?["label"] as? String == "offline_work", "back to the answer before: \(episodes)")
    }

    /// Enter on the live screen leaves the stretch as judged (on a terminal 40 columns wide, which
    /// still shows every answer); without an intention nothing is asked at the end; with
    /// `session.ask_after: 0` nothing is asked at all.
    @Test func enterLeavesTheStretchAsJudgedAndAskAfterZeroNeverAsks() async throws {
        let home = freshHome()
        let run = try await Self.session(home, [("Enter: as judged", "\r")], columns: 40)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("o working away from the computer"), "\(run.output.suffix(2000))")
        #expect(!run.output.contains("Did you do it?") && !run.output.contains("noted:"), "\(run.output.suffix(2000))")
        let episodes = try #require(try await Self.show(home)["episodes"] as? [[String: Any]])
        #expect(episodes.first?["label"] is NSNull, "\(episodes)")

        let quiet = freshHome()
        write("session:\n  ask_after: 0\n", to: quiet + "/quiet.yaml")
        let never = try await Self.session(quiet, [], extra: ["--config", quiet + "/quiet.yaml"])
        #expect(never.status == 0, "\(never.output)")
        #expect(!never.output.contains("What was it?"), "\(never.output.suffix(2000))")
    }

    /// What is refused, and how it says so: an answer or a label Vigil does not know, a session
    /// without an intention, an episode that is not there. Nothing is changed.
    @Test func refusedAnswersSayWhyAndChangeNothing() async throws {
        let home = freshHome()
        let run = try await Self.session(home, [("What was it\\?", "\r")])
        #expect(run.status == 0, "\(run.output)")
        let data = ["--data-dir", home + "/d"]
        let unknown = try await vigil(["episode", "1", "--was", "coffee"] + data, home: home)
        #expect(unknown.status == 64 && unknown.stderr.contains("--was is one of break, meeting, offline_work, distracted, work, none"), "\(unknown)")
        let missing = try await vigil(["episode", "7"] + ["--was", "work"] + data, home: home)
        #expect(missing.status == 65 && missing.stderr.contains("session #1 has no episode 7"), "\(missing)")
        let noIntent = try await vigil(["session", "intent", "1", "done"] + data, home: home)
        #expect(noIntent.status == 65 && noIntent.stderr.contains("was started without an intention"), "\(noIntent)")
        let badAnswer = try await vigil(["session", "intent", "1", "maybe"] + data, home: home)
        #expect(badAnswer.status == 64 && badAnswer.stderr.contains("done, partly, no or none"), "\(badAnswer)")
        let blank = try await vigil(["start", "--intent", "  "] + data, home: home)
        #expect(blank.status == 64 && blank.stderr.contains("--intent must not be blank"), "\(blank)")
        let episodes = try #require(try await Self.show(home)["episodes"] as? [[String: Any]])
        #expect(episodes.first?["label"] is NSNull, "\(episodes)")
    }

    /// The intention of a running session, where the person looks: `vigil status` (text, JSON)
    /// and a status bar's tooltip.
    @Test func statusShowsTheIntention() async throws {
        let home = freshHome()
        let data = home + "/d"
        let p = try background(vigilBinary, ["start", "--minutes", "30", "--json", "--intent", "draft the intro", "--data-dir", data], home: home)
        defer { p.process.kill(SIGKILL) }
        #expect(try await eventually(300) { p.printed.contains("session_started") || !p.process.isRunning }, "\(p.said)")
        let text = try await vigil(["status", "--data-dir", data], home: home)
        #expect(text.stdout.contains("Intent: draft the intro"), "\(text)")
        let json = try await vigil(["status", "--json", "--data-dir", data], home: home)
        #expect(json.stdout.contains("\"intent\":\"draft the intro\""), "\(json)")
        let bar = try await vigil(["status", "--format", "waybar", "--data-dir", data], home: home)
        #expect(bar.stdout.contains("Intent: draft the intro"), "\(bar)")
        let stop = try await vigil(["stop", "--data-dir", data], home: home)
        #expect(stop.status == 0, "\(stop)")
        #expect(await p.process.exited() == 0, "\(p.said)")
        // Not at a terminal: it says how to answer later.
        #expect(p.said.contains("you meant to: draft the intro. Did you do it? `vigil session intent 1 done|partly|no`"), "\(p.said)")
    }
}
