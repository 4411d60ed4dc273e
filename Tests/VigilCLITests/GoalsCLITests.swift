import Foundation
import TestSupport
import Testing

/// Limits and goals (`goals:`): each day, weekday or week of a simulated history with the day
/// around its sessions met or missed, against an independent computation (Data/goals_reference.py).
@Suite struct GoalsCLITests {
    static let reference = repo + "/Tests/VigilCLITests/Data/goals_reference.py"
    static let config = """
        goals:
          less video: {what: category distracting, at_most: 1h, per: day, thresholds: [30m, 1h]}
          deep work: {what: focus, at_least: 2h, per: weekday}
          thesis: {what: task thesis, at_least: 3h, per: week}
          some work: {what: category work, at_least: 1h30m, per: day}

        """
    /// The same goals as the reference reads them.
    static let goals = """
        [{"name": "less video", "what": "category distracting", "direction": "at_most", "minutes": 60, "per": "day"},
         {"name": "deep work", "what": "focus", "direction": "at_least", "minutes": 120, "per": "weekday"},
         {"name": "thesis", "what": "task thesis", "direction": "at_least", "minutes": 180, "per": "week"},
         {"name": "some work", "what": "category work", "direction": "at_least", "minutes": 90, "per": "day"}]
        """

    @Test func metAndMissedAgreeWithAnIndependentComputation() async throws {
        let home = freshHome()
        write(Self.config, to: home + "/config/vigil/config.yaml")
        // Forty-five days in Berlin across the night clocks went back, with the day around the sessions.
        let zone = ["--data-dir", home + "/d", "--time-zone", "Europe/Berlin"]
        let sim = try await vigil(["simulate", "--days", "45", "--until", "2026-11-10", "--seed", "7", "--watch"] + zone, home: home)
        #expect(sim.status == 0, "\(sim.stderr)")
        let period = ["--from", "2026-10-05", "--to", "2026-11-08", "--now", "2026-11-12T12:00:00Z", "--format", "json"] + zone
        let report = try await vigil(["report", "-o", home + "/r.json"] + period, home: home)
        #expect(report.status == 0, "\(report.stderr)")
        let task = try await vigil(["report", "--task", "thesis", "-o", home + "/t.json"] + period, home: home)
        #expect(task.status == 0, "\(task.stderr)")
        write(Self.goals, to: home + "/goals.json")
        let check = await runProcess(
            "/usr/bin/python3",
            [
                Self.reference, home + "/d/vigil.sqlite3", home + "/r.json", "Europe/Berlin", "2026-10-05", "2026-11-08", home + "/goals.json",
                home + "/t.json",
            ])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains(", 0 mismatches"), "\(check.output)")

        // The history has both kinds of period, so the comparison can fail.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home + "/r.json"))) as? [String: Any])
        let goals = try #require(json["goals"] as? [[String: Any]])
        for g in goals where g["name"] as? String != "thesis" {
            #expect(
                (g["met"] as? Int ?? 0) > 0 && (g["missed"] as? Int ?? 0) > 0,
                "\(g["name"] ?? ""): \(g["met"] ?? "") met, \(g["missed"] ?? "") missed")
        }
        let deep = try #require(goals.first { $0["name"] as? String == "deep work" })
        #expect((deep["periods"] as? [Any])?.count == 25, "the weekdays of 2026-10-05 to 2026-11-08")
        let thesis = try #require(goals.first { $0["name"] as? String == "thesis" })
        #expect((thesis["periods"] as? [Any])?.count == 5, "five ISO weeks, Monday to Sunday")

        let text = try await vigil(["report", "--from", "2026-10-05", "--to", "2026-11-08", "--now", "2026-11-12T12:00:00Z"] + zone, home: home)
        #expect(
            text.stdout.contains("Limits and goals") && text.stdout.contains("deep work: at least 2 h 00 min of focus a weekday: met"),
            "\(text.stdout)")
    }

    @Test func aBadGoalIsNamedWithItsLineAndWhatToWrite() async throws {
        let home = freshHome()
        for (goal, words) in [
            ("  video: {what: videos, at_most: 30m}", "what: expected focus, category work|neutral|distracting, task NAME or tag NAME"),
            ("  video: {what: focus, at_most: 30m, at_least: 1h}", "give at_least or at_most, not both"),
            ("  video: {what: focus}", "needs at_least or at_most"),
            ("  video: {what: focus, at_most: 30m, per: month}", "per: expected day, weekday or week"),
            ("  video: {what: focus, at_most: 1h, thresholds: [10m, 20m, 30m, 40m]}", "at most three thresholds"),
            ("  video: {what: focus, at_most: 30h}", "goals.video"),
            ("  video: {what: focus, at_most: 30m, every: day}", "unknown key 'every'"),
        ] {
            write("goals:\n" + goal + "\n", to: home + "/config/vigil/config.yaml")
            let r = try await vigil(["config", "check"], home: home)
            #expect(r.status != 0 && r.stderr.contains("config.yaml:2") && r.stderr.contains(words), "\(goal): \(r.stderr)")
        }
    }
}

/// The weekly summary: on a Monday morning the daemon writes last week's HTML report and tells its
/// headline against the week before, once; on another day, or again, nothing.
@Suite struct WeeklySummaryCLITests {
    @Test func mondayMorningBringsLastWeeksReportOnce() async throws {
        let home = freshHome()
        let sim = try await vigil(["simulate", "--days", "21", "--until", "2026-11-29", "--time-zone", "UTC"], home: home)
        #expect(sim.status == 0, "\(sim.stderr)")
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        func look(_ now: String) async throws -> Run {
            try await vigil(["daemon", "--once", "--now", now, "--time-zone", "UTC"], home: home, env: env)
        }
        // Sunday evening: not yet.
        #expect(try await look("2026-11-29T20:00:00Z").status == 0)
        #expect(SessionBus.notifications(log).isEmpty)
        // Monday at 09:00 (after the quiet hours): the week 2026-W48, Monday 23 to Sunday 29 November.
        let monday = try await look("2026-11-30T09:00:00Z")
        #expect(monday.status == 0, "\(monday.stderr)")
        let said = SessionBus.notifications(log)
        #expect(said.count == 1, "\(said)")
        #expect(said.first?["summary"] as? String == "Your week 2026-W48")
        let body = said.first?["body"] as? String ?? ""
        #expect(body.hasPrefix("Focused ") && body.contains("on the week before") && body.contains("focus share"), "\(body)")
        let path = home + "/data/vigil/weekly/2026-W48.html"
        #expect(body.hasSuffix("Report: \(path)"), "\(body)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains("<h1>Vigil report</h1>") && html.contains("2026-11-23"), "the week's report")
        // The figures are the report's for that week.
        let r = try await vigil(["report", "--from", "2026-11-23", "--to", "2026-11-29", "--time-zone", "UTC", "--format", "json"], home: home)
        let totals = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["totals"] as? [String: Any]
        let share = Int(((totals?["focus_share"] as? Double ?? 0) * 100).rounded())
        #expect(body.contains("focus share \(share) %"), "\(body) vs \(String(describing: totals))")
        // Once.
        #expect(try await look("2026-11-30T11:00:00Z").status == 0)
        #expect(SessionBus.notifications(log).count == 1)
    }
}
