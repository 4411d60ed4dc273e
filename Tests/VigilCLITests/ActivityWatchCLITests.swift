import Foundation
import TestSupport
import Testing

/// An ActivityWatch export made by ActivityWatch's own server (aw-server 0.12.0 from PyPI, which
/// `scripts/setup.sh --tests` installs in a virtual environment), fed through its REST API with
/// heartbeats as its window, afk and browser watchers send them (aw_feed.py: two days, a long
/// lunch, a night with the laptop suspended), exported with `GET /api/0/export`, and inspected,
/// replayed and reported by Vigil as a native format.
@Suite struct ActivityWatchCLITests {
    static let tools = ProcessInfo.processInfo.environment["VIGIL_TEST_TOOLS"] ?? (NSHomeDirectory() + "/.cache/vigil-tests")
    static let feed = repo + "/Tests/VigilCLITests/Data/aw_feed.py"

    @Test func anExportFromARealAwServerReplaysToTheSessionsAndEpisodesItHolds() async throws {
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
        // What the feed worked out from the export: its shape as the watchers leave it (events of
        // one window a second apart) and its changes of application.
        let held = try #require(
            fed.output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            "\(fed.output)")
        #expect((held["short_gaps"] as? Int ?? 0) >= 5 && (held["longest_short_gap"] as? Double ?? 9) <= 2, "\(held)")
        let changes = try #require(held["app_changes"] as? Int)
        #expect((held["window_events"] as? Int ?? 0) > changes - 3, "title changes make more events than changes of application: \(held)")
        #expect((held["web_events"] as? Int ?? 0) >= 5, "aw-watcher-web's tabs: \(held)")

        let inspected = try await vigil(["inspect", export], home: home)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("ActivityWatch export, starts 2026-03-02T09:00:00Z"), "\(inspected.stdout)")
        // As many changes as the export holds: a second between two events of the same window is
        // no change, nor is another title of the same application.
        #expect(inspected.stdout.contains("apps      \(changes) changes of the application in front"), "\(inspected.stdout)")
        // Code: 09:00-09:05, 09:12 to the long afk at 09:30, 10:35-10:39:59; Tuesday 09:00-09:08
        // and 09:12-09:14:59 (the screen locked over lunch and the night are not in front).
        // Firefox: 09:05-09:12 and Tuesday 09:08-09:12.
        // Tuesday's video page has a title that does not name its site: the browser's tab
        // (aw-watcher-web's bucket) tells it is on youtube.com, which the default rules know.
        #expect(inspected.stdout.contains("work 38 min 58 s, distracting 11 min"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("longest idle 6 min"), "\(inspected.stdout)")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
        var buckets = try #require(document["buckets"] as? [String: Any])
        #expect(buckets.removeValue(forKey: "aw-watcher-web-firefox_testhost") != nil, "\(buckets.keys)")
        document["buckets"] = buckets
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: home + "/without-tabs.json"))
        let withoutTabs = try await vigil(["inspect", home + "/without-tabs.json"], home: home)
        #expect(withoutTabs.stdout.contains("work 38 min 58 s, neutral 4 min, distracting 7 min"), "\(withoutTabs.stdout)\(withoutTabs.stderr)")
        #expect(withoutTabs.stdout.contains("Firefox 4 min (neutral)"), "\(withoutTabs.stdout)")
        #expect(!inspected.stdout.contains(marker))
        // A `site:` rule finds the video site by the name its page titles end with, and by the
        // address of the tab where the title does not name it.
        write(
            "apps:\n  rules:\n    - {name: video, class: Firefox, site: [youtube.com], category: distracting}\n"
                + "    - {name: code, class: Code, category: work}\n",
            to: home + "/sites.yaml")
        let bySite = try await vigil(["inspect", "--config", home + "/sites.yaml", export], home: home)
        #expect(bySite.stdout.contains("work 38 min 58 s, distracting 11 min"), "\(bySite.stdout)\(bySite.stderr)")

        let replay = try await vigil(["replay", "--json", "--log", export], home: home)
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = replay.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        func times(_ kind: String) -> [String] { events.filter { $0["event"] as? String == kind }.compactMap { $0["time"] as? String } }
        // The sessions it holds: Monday morning, after the long lunch, Tuesday; no night in any.
        #expect(times("session_started") == ["2026-03-02T09:00:00Z", "2026-03-02T10:35:00Z", "2026-03-03T09:00:00Z"], "\(times("session_started"))")
        #expect(times("session_ended") == ["2026-03-02T09:30:00Z", "2026-03-02T10:39:59Z", "2026-03-03T09:14:59Z"], "\(times("session_ended"))")
        let episodes = events.filter { $0["event"] as? String == "episode_started" }
        let summary = episodes.map { "\($0["cause"] ?? "") \($0["since"] ?? "")" }
        // A video from 09:05 (the second video at 09:08 is no new episode), away from the last
        // input at 09:18, Tuesday's video from 09:08.
        #expect(summary == ["app 2026-03-02T09:05:00Z", "away 2026-03-02T09:18:00Z", "app 2026-03-03T09:08:00Z"], "\(summary)")
        #expect((episodes.first?["reason"] as? String)?.hasSuffix("in Firefox — youtube (distracting)") == true)
        let ended = events.filter { $0["event"] as? String == "episode_ended" }.compactMap { $0["time"] as? String }
        #expect(ended.count == 3 && ended[0] == "2026-03-02T09:12:00Z", "\(ended)")
        #expect(ended.count == 3 && ended[1] >= "2026-03-02T09:24:00Z" && ended[1] <= "2026-03-02T09:24:20Z", "\(ended)")
        #expect(!replay.stderr.contains("separate stretches"), "an export is replayed as its sessions: \(replay.stderr)")

        // Reported by cause, and the titles stay in the export: not in the replay, the log or the report.
        let report = try await vigil(
            ["report", "--format", "json", "--last", "all", "--source", "replay", "--now", "2026-03-04T12:00:00Z"], home: home)
        #expect(report.status == 0, "\(report.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let byCause = try #require((object["episodes"] as? [String: Any])?["by_cause"] as? [[String: Any]])
        #expect(byCause.first { $0["key"] as? String == "app" }?["count"] as? Int == 2, "\(byCause)")
        #expect(byCause.first { $0["key"] as? String == "away" }?["count"] as? Int == 1, "\(byCause)")
        // Time by the category each application had, and the most distracting one.
        let applications = try #require(object["applications"] as? [String: Any])
        #expect(applications["work_minutes"] as? Double == 38.97, "\(applications)")
        #expect(applications["distracting_minutes"] as? Double == 11)
        #expect((applications["most_distracting"] as? [[String: Any]])?.first?["app_class"] as? String == "Firefox")
        let byApplication = (applications["apps"] as? [[String: Any]] ?? []).map {
            "\($0["app_class"] ?? "") \($0["category"] ?? "") \($0["stretches"] ?? "") \($0["episodes"] ?? "")"
        }
        #expect(byApplication == ["Code work 5 0", "Firefox distracting 2 2"], "\(byApplication)")
        #expect(!replay.stdout.contains(marker) && !report.stdout.contains(marker))
        // The applications it saw, with their time and the category they had.
        // (A replay is counted only when asked for: by default the person's own sessions.)
        let own = try await vigil(["apps", "--days", "36500"], home: home)
        #expect(own.stdout.hasPrefix("No applications seen in front"), "\(own.stdout)")
        let apps = try await vigil(["apps", "--days", "36500", "--source", "replay"], home: home)
        #expect(apps.status == 0, "\(apps.stderr)")
        let lines = apps.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines == ["Code 38 min 58 s work", "Firefox 11 min distracting (by class now: neutral)"], "\(apps.stdout)")

        // Forgetting the days forgets the applications too, without a trace in the log or its WAL.
        let forget = try await vigil(["forget", "--from", "2026-03-02", "--to", "2026-03-03", "--yes"], home: home)
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
