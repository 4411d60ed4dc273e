import Foundation
import TestSupport
import Testing

/// An ActivityWatch export made by ActivityWatch's own server (aw-server 0.12.0 from PyPI, which
/// `scripts/setup.sh --tests` installs in a virtual environment): fed through its REST API as its
/// window and afk watchers would, exported with `GET /api/0/export`, and replayed and reported by
/// Vigil as a native format.
@Suite struct ActivityWatchCLITests {
    static let tools = ProcessInfo.processInfo.environment["VIGIL_TEST_TOOLS"] ?? (NSHomeDirectory() + "/.cache/vigil-tests")
    static let feed = repo + "/Tests/VigilCLITests/Data/aw_feed.py"

    @Test func anExportFromARealAwServerReplaysToTheExpectedEpisodes() async throws {
        let home = freshHome()
        let port = freePort()
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["XDG_DATA_HOME"] = home + "/aw-data"
        env["XDG_CONFIG_HOME"] = home + "/aw-config"
        // --testing: a server of its own (testing database and port); memory storage; loopback only
        // (it runs Flask's debug server).
        let server = try ChildProcess(
            Self.tools + "/aw-server/bin/aw-server", ["--testing", "--host", "127.0.0.1", "--port", String(port), "--storage", "memory"],
            environment: env, output: home + "/aw-server.log")
        defer { server.kill(SIGKILL) }
        let export = home + "/aw-buckets-export.json"
        let marker = "Qx9TitleMarker"
        let fed = await runProcess(Self.tools + "/aw-server/bin/python", [Self.feed, "http://127.0.0.1:\(port)", export, marker])
        try #require(fed.status == 0, "\(fed.output)\n\((try? String(contentsOfFile: home + "/aw-server.log", encoding: .utf8)) ?? "")")
        #expect((try String(contentsOfFile: export, encoding: .utf8)).contains(marker), "the export itself has the titles")

        let inspected = try await vigil(["inspect", export], home: home)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("ActivityWatch export, starts 2026-03-02T09:00:00Z, 40 min"))
        // Code 5 + 10 min, Firefox 7 min; the afk event's 8 minutes are the longest idle.
        #expect(inspected.stdout.contains("work 15 min, distracting 7 min"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("longest idle 8 min"), "\(inspected.stdout)")
        #expect(!inspected.stdout.contains(marker))

        let replay = try await vigil(["replay", "--json", "--log", export], home: home)
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = replay.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let episodes = events.filter { $0["event"] as? String == "episode_started" }
        // 09:05 a video in the browser for 7 minutes: the app episode, from when it came to the front.
        #expect(episodes.first?["cause"] as? String == "app")
        #expect(episodes.first?["since"] as? String == "2026-03-02T09:05:00Z")
        #expect((episodes.first?["reason"] as? String)?.hasSuffix("in Firefox — youtube (distracting)") == true)
        // 09:22 to 09:30 away (afk, dated from the last input): an away episode from 09:22, ended
        // soon after the not-afk event at 09:30.
        #expect(episodes.dropFirst().first?["cause"] as? String == "away")
        #expect(episodes.dropFirst().first?["since"] as? String == "2026-03-02T09:22:00Z")
        let ended = events.filter { $0["event"] as? String == "episode_ended" }
        let back = try #require(ended.dropFirst().first?["time"] as? String)
        #expect(back >= "2026-03-02T09:30:00Z" && back <= "2026-03-02T09:30:20Z", "\(back)")
        #expect(episodes.count == 2)

        // Reported by cause, and the titles stay in the export: not in the replay, the log or the report.
        let report = try await vigil(
            ["report", "--format", "json", "--last", "all", "--source", "replay", "--now", "2026-03-03T12:00:00Z"], home: home)
        #expect(report.status == 0, "\(report.stderr)")
        let byCause = try #require(
            ((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["episodes"] as? [String: Any])?["by_cause"]
                as? [[String: Any]])
        #expect(byCause.first { $0["key"] as? String == "app" }?["count"] as? Int == 1, "\(byCause)")
        #expect(byCause.first { $0["key"] as? String == "away" }?["count"] as? Int == 1, "\(byCause)")
        // Time by the category each application had, and the most distracting one.
        let applications = try #require(
            (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["applications"] as? [String: Any])
        #expect(applications["work_minutes"] as? Double == 15)
        #expect(applications["distracting_minutes"] as? Double == 7)
        #expect((applications["most_distracting"] as? [[String: Any]])?.first?["app_class"] as? String == "Firefox")
        #expect(applications["calls"] as? Int == 0)
        // Each application (Code before and after the video): the video's episode is Firefox's, where it
        // began at 09:05.
        let byApplication = (applications["apps"] as? [[String: Any]] ?? []).map {
            "\($0["app_class"] ?? "") \($0["category"] ?? "") \($0["minutes"] ?? "") \($0["stretches"] ?? "") \($0["episodes"] ?? "")"
        }
        #expect(byApplication == ["Code work 15 2 0", "Firefox distracting 7 1 1"], "\(byApplication)")
        #expect(!replay.stdout.contains(marker) && !report.stdout.contains(marker))
        // The applications it saw, with their time and the category they had.
        // (A replay is counted only when asked for: by default the person's own sessions.)
        let own = try await vigil(["apps", "--days", "36500"], home: home)
        #expect(own.stdout.hasPrefix("No applications seen in front"), "\(own.stdout)")
        let apps = try await vigil(["apps", "--days", "36500", "--source", "replay"], home: home)
        #expect(apps.status == 0, "\(apps.stderr)")
        let lines = apps.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines == ["Code 15 min work", "Firefox 7 min distracting (by class now: neutral)"], "\(apps.stdout)")

        // Forgetting the day forgets the applications too, without a trace in the log or its WAL.
        let forget = try await vigil(["forget", "--from", "2026-03-02", "--to", "2026-03-02", "--yes"], home: home)
        #expect(forget.status == 0, "\(forget.stderr)")
        let after = try await vigil(["apps", "--days", "36500", "--source", "replay"], home: home)
        #expect(after.stdout.hasPrefix("No applications seen in front"), "\(after.stdout)")
        var bytes = Data()
        for file in (try FileManager.default.contentsOfDirectory(atPath: home + "/data/vigil")) {
            bytes.append((try? Data(contentsOf: URL(fileURLWithPath: home + "/data/vigil/" + file))) ?? Data())
        }
        #expect(bytes.range(of: Data("Firefox".utf8)) == nil, "the application's name is gone from the log")
        for file in (try FileManager.default.contentsOfDirectory(atPath: home + "/data/vigil")) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: home + "/data/vigil/" + file))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds a window title")
        }
    }
}
