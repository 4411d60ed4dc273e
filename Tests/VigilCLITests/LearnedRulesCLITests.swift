import Foundation
import TestSupport
import Testing

/// "This was work" teaching the rules (issue 37), through the real binary: a recorded session with
/// a false alarm (a lecture on YouTube, typed notes all along), the episode said to be work, the
/// proposed rule learned with consent, and the replay of the same recording without the alarm;
/// the person's config byte for byte as it was.
@Suite struct LearnedRulesCLITests {
    /// Fifteen minutes in Firefox on YouTube (the default `youtube` rule: distracting), typing
    /// every five seconds: a false alarm when the video is a lecture.
    static func lecture(_ path: String, minutes: Int = 15) {
        var lines = [
            #"{"vigil":"recording","version":1,"start":"2026-11-20T10:00:00Z","source":"a test","task":"lecture notes"}"#,
            #"{"t":0,"kind":"app","class":"firefox","category":"distracting","rule":"youtube"}"#,
        ]
        for t in stride(from: 5, through: minutes * 60, by: 5) { lines.append(#"{"t":\#(t),"kind":"input","window":5,"keys":12,"idle":0.4}"#) }
        write(lines.joined(separator: "\n") + "\n", to: path)
    }

    /// The person's own config, with comments: never rewritten.
    static let config = """
        # My Vigil settings. Please keep my comments.
        session:
          # a long session
          default_minutes: 50
        """

    /// `vigil start --replay RECORDING --log` on the live screen of a pseudo-terminal, driven by
    /// `steps`; its status and what it showed, escape sequences removed.
    static func rehearse(_ recording: String, home: String, pace: Int, steps: [PersonsWordCLITests.Step], extra: [String] = []) async throws
        -> (Int32, String)
    {
        let capture = home + "/screen.out"
        let run = await runProcess(
            "/usr/bin/python3",
            [
                LiveViewTests.driver, "160", "50", capture, String(decoding: try JSONEncoder().encode(steps), as: UTF8.self), "--", "env",
                "TERM=xterm-256color", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "PATH=/usr/bin:/bin", "TZ=UTC", vigilBinary, "start",
                "--replay", recording, "--pace", String(pace), "--log", "--data-dir", home + "/d",
            ] + extra)
        return (run.status, LiveViewTests.plain(String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self)))
    }

    func alarms(_ timeline: String) -> Int { timeline.split(separator: "\n").filter { $0.contains("alarm 1") }.count }

    @Test func aLearnedRuleRemovesTheFalseAlarmFromTheReplayAndLeavesTheConfigAlone() async throws {
        let home = freshHome()
        let recording = home + "/lecture.jsonl"
        Self.lecture(recording)
        let config = home + "/config/vigil/config.yaml"
        write(Self.config, to: config)
        let before = try Data(contentsOf: URL(fileURLWithPath: config))
        let data = ["--data-dir", home + "/d"]

        let first = try await vigil(["replay", recording] + data, home: home)
        #expect(first.status == 0 && alarms(first.stdout) == 1, "\(first)")
        let logged = try await vigil(["replay", recording, "--log"] + data, home: home)
        #expect(logged.status == 0, "\(logged)")
        // Not at a terminal, and without --learn: the rule is proposed, not learned.
        let proposed = try await vigil(["episode", "1", "--was", "work"] + data, home: home)
        #expect(proposed.status == 0, "\(proposed)")
        #expect(proposed.stdout.contains("The rule that would have prevented it: firefox where the youtube rule matches is work."), "\(proposed)")
        #expect(proposed.stdout.contains("--was work --learn` learns it"), "\(proposed)")
        #expect(!FileManager.default.fileExists(atPath: home + "/config/vigil/learned-rules.yaml"))
        let learned = try await vigil(["episode", "1", "--was", "work", "--learn"] + data, home: home)
        #expect(learned.status == 0 && learned.stdout.contains("Learned: firefox where the youtube rule matches is work"), "\(learned)")

        // The same recording, replayed now: no alarm, the application is work.
        let after = try await vigil(["replay", recording] + data, home: home)
        #expect(after.status == 0 && alarms(after.stdout) == 0, "\(after.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before, "the person's config is byte-identical")
        let rules = try await vigil(["rules"] + data, home: home)
        #expect(rules.stdout.contains("1  firefox where the youtube rule matches is work  (learned "), "\(rules)")
        #expect(rules.stdout.contains("session 1, episode 1"), "\(rules)")
        let again = try await vigil(["episode", "1", "--was", "work", "--learn"] + data, home: home)
        #expect(again.stdout.contains("Vigil has learned already"), "\(again)")
        // The report sets the false alarm (the week of 20 November) beside the rule learned (today).
        let report = try await vigil(["report", "--last", "all", "--source", "all", "--format", "json"] + data, home: home)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], "\(report)")
        let weeks = try #require((figures["relabelled"] as? [String: Any])?["false_alarms"] as? [[String: Any]], "\(figures)")
        #expect(weeks.first?["week"] as? String == "2026-W47" && weeks.first?["false_alarms"] as? Int == 1, "\(weeks)")
        #expect(weeks.map { $0["rules_learned"] as? Int ?? 0 }.reduce(0, +) == 1, "\(weeks)")

        // Forgotten: the alarm is back.
        let forget = try await vigil(["rules", "forget", "1"] + data, home: home)
        #expect(forget.status == 0 && forget.stdout.contains("Forgot: firefox where the youtube rule matches is work."), "\(forget)")
        let without = try await vigil(["replay", recording] + data, home: home)
        #expect(alarms(without.stdout) == 1, "\(without.stdout)")
        let none = try await vigil(["rules", "forget", "1"] + data, home: home)
        #expect(none.status == 65 && none.stderr.contains("there is no learned rule 1"), "\(none)")
    }

    /// In a terminal `vigil episode --was work` asks before it learns; y learns.
    @Test func inATerminalTheRuleIsLearnedOnlyWithConsent() async throws {
        let home = freshHome()
        let recording = home + "/lecture.jsonl"
        Self.lecture(recording)
        let logged = try await vigil(["replay", recording, "--log", "--data-dir", home + "/d"], home: home)
        #expect(logged.status == 0, "\(logged)")
        let capture = home + "/screen.out"
        let steps = #"[{"wait": "Learn it\\? \\[y/N\\]", "send": "y\r", "timeout": 300}]"#
        let run = await runProcess(
            "/usr/bin/python3",
            [
                LiveViewTests.driver, "120", "30", capture, steps, "--", "env", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "TZ=UTC",
                vigilBinary, "episode", "1", "--was", "work", "--data-dir", home + "/d",
            ])
        let screen = String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self)
        #expect(run.status == 0, "\(screen)")
        #expect(screen.contains("Learned: firefox where the youtube rule matches is work"), "\(screen)")
        let file = try String(contentsOfFile: home + "/config/vigil/learned-rules.yaml", encoding: .utf8)
        #expect(file.contains(#"{"class": "firefox", "instead_of": "youtube", "category": "work""#), "\(file)")
    }

    /// On the live screen: w while YouTube rings, then y. The episode is labelled work, the rule is
    /// learned into the file Vigil owns, and the session says so.
    @Test func wOnTheLiveScreenLabelsTheEpisodeAndLearnsTheRule() async throws {
        let home = freshHome()
        let recording = home + "/lecture.jsonl"
        Self.lecture(recording, minutes: 30)
        let steps = [
            PersonsWordCLITests.Step(wait: "State +ALARM", send: "w"), PersonsWordCLITests.Step(wait: "Learn it\\?", send: "y"),
            PersonsWordCLITests.Step(wait: "learned: firefox", send: ""), PersonsWordCLITests.Step(wait: "Did you do it\\?", send: "d"),
        ]
        let (status, screen) = try await Self.rehearse(recording, home: home, pace: 60, steps: steps, extra: ["--intent", "notes of lecture 4"])
        #expect(status == 0, "\(screen.suffix(3000))")
        #expect(screen.contains("noted: episode 1 was work: its time counts as focus"), "\(screen.suffix(3000))")
        let file = try String(contentsOfFile: home + "/config/vigil/learned-rules.yaml", encoding: .utf8)
        #expect(file.contains(#""from": "session 1, episode 1""#), "\(file)")
        let show = try await vigil(["session", "show", "1", "--json", "--data-dir", home + "/d"], home: home)
        let session = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any], "\(show)")
        let episodes = try #require(session["episodes"] as? [[String: Any]])
        #expect(episodes.first?["label"] as? String == "work", "\(episodes)")
    }

    /// x on the live screen: the application in front, which no rule called distracting, is a
    /// distraction. Learned with y; the replay of the same recording then rings.
    @Test func xOnTheLiveScreenTeachesThatAnApplicationIsADistraction() async throws {
        let home = freshHome()
        let recording = home + "/news.jsonl"
        var lines = [
            #"{"vigil":"recording","version":1,"start":"2026-11-20T10:00:00Z","source":"a test","task":"report"}"#,
            #"{"t":0,"kind":"app","class":"newsreader","category":"neutral"}"#,
        ]
        for t in stride(from: 5, through: 1800, by: 5) { lines.append(#"{"t":\#(t),"kind":"input","window":5,"keys":12,"idle":0.4}"#) }
        write(lines.joined(separator: "\n") + "\n", to: recording)
        let before = try await vigil(["replay", recording, "--data-dir", home + "/d"], home: home)
        #expect(alarms(before.stdout) == 0, "neutral: no alarm \(before.stdout)")

        let steps = [
            PersonsWordCLITests.Step(wait: "State +FOCUSED", send: "x"), PersonsWordCLITests.Step(wait: "Learn it\\?", send: "y"),
            PersonsWordCLITests.Step(wait: "learned: newsreader", send: "q"), PersonsWordCLITests.Step(wait: "End the session now\\?", send: "y"),
        ]
        let (status, screen) = try await Self.rehearse(recording, home: home, pace: 20, steps: steps)
        #expect(status == 0, "\(screen.suffix(3000))")
        #expect(screen.contains("The rule that would have caught it: newsreader is distracting."), "\(screen.suffix(3000))")
        let file = try String(contentsOfFile: home + "/config/vigil/learned-rules.yaml", encoding: .utf8)
        #expect(file.contains(#"{"class": "newsreader", "instead_of": "none", "category": "distracting""#), "\(file)")
        let after = try await vigil(["replay", recording, "--data-dir", home + "/d"], home: home)
        #expect(alarms(after.stdout) == 1, "now a distraction: \(after.stdout)")
    }

    /// A learned-rules file damaged by hand: sessions and replays go on without the rules and say
    /// why, naming the line; `vigil rules` names it too, with the remedy; nothing is rewritten.
    @Test func aDamagedRulesFileIsNamedAndNothingStops() async throws {
        let home = freshHome()
        let recording = home + "/lecture.jsonl"
        Self.lecture(recording)
        let file = home + "/config/vigil/learned-rules.yaml"
        let damaged = "learned:\n  - {\"class\": \"firefox\", \"category\": \"work\"}\n  - [1, 2\n"
        write(damaged, to: file)
        let replay = try await vigil(["replay", recording, "--data-dir", home + "/d"], home: home)
        #expect(replay.status == 0 && alarms(replay.stdout) == 1, "\(replay)")
        #expect(
            replay.stderr.contains("learned-rules.yaml:4: not valid YAML") && replay.stderr.contains("not used until the file is mended"),
            "\(replay.stderr)")
        let rules = try await vigil(["rules", "--data-dir", home + "/d"], home: home)
        #expect(rules.status == 65 && rules.stderr.contains("Mend that line, or remove the file"), "\(rules)")
        let forget = try await vigil(["rules", "forget", "1", "--data-dir", home + "/d"], home: home)
        #expect(forget.status == 65, "\(forget)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == damaged, "left as it was")
        write("learned:\n  - {\"class\": \"firefox\", \"category\": \"maybe\"}\n", to: file)
        let category = try await vigil(["rules", "--data-dir", home + "/d"], home: home)
        #expect(category.stderr.contains(":2: category: expected work, neutral or distracting, got 'maybe'"), "\(category)")
    }
}
