import Foundation
import TestSupport
import Testing

/// The all-day watch (`vigil daemon --watch`) on a real X server with i3 and logind (python-dbusmock
/// on a private bus standing in for the system bus): a day compressed into a minute of focus
/// changes (i3-msg), input and its absence (xdotool), a lock, and a focus session, then the stretches
/// in the log and `vigil report` against the times the test drove. The boundaries are allowed
/// `slack` seconds: the X idle time is polled every second and the test's own commands take time
/// to land on a loaded machine. Away is `watch_away_after` (30 s) without input: far longer than a
/// loaded machine may keep the test's key presses from reaching the X server (11 s was seen with a
/// release build beside the whole suite), so a stall never reads as the person leaving.
@Suite(.serialized) struct DayWatchCLITests {
    static let slack = 4.0

    struct Desktop {
        let x: XServer
        let wm: I3WindowManager
        let windows: [ChildProcess]
        let system: SessionBus
        let logind: DBusMock
        let home: String
        var env: [String: String]
        static let session = "/org/freedesktop/login1/session/c1"

        init() async throws {
            let x = try XServer()
            let wm = try I3WindowManager(on: x)
            self.x = x
            self.wm = wm
            windows = try ["Videos", "Editor"].map { try x.start("/usr/bin/xterm", ["-class", $0, "-T", "secret title \($0)"]) }
            for cls in ["Videos", "Editor"] {
                let placed = try await eventually(30) { ActionsCLITests.place(wm, cls) != nil }
                #expect(placed, "\(cls) never appeared")
            }
            let system = try SessionBus()
            let logind = try DBusMock(on: system, name: "org.freedesktop.login1", template: "logind", system: true)
            self.system = system
            self.logind = logind
            try logind.call("/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddSession", ["c1", "seat0", "0", "root", "true"])
            try logind.addMethod(
                "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetSessionByPID", in: "u", out: "o", "ret = '\(Self.session)'")
            let home = freshHome()
            self.home = home
            write(
                "daemon:\n  watch_away_after: 30s\napps:\n  rules:\n    - {name: videos, class: Videos, category: distracting}\n"
                    + "    - {name: editor, class: Editor, category: work}\n",
                to: home + "/config/vigil/config.yaml")
            var env = sessionEnvironment(on: x, home: home)
            env["DBUS_SYSTEM_BUS_ADDRESS"] = system.address
            self.env = env
        }

        func focus(_ cls: String) -> Date {
            let r = wm.msg("[class=\"\(cls)\"] focus")
            #expect(r.status == 0, "\(r.output)")
            return Date()
        }

        /// Input for `seconds`: Shift pressed every 400 ms by one xdotool (XTest, which resets X's
        /// idle time), one process for the whole stretch, so a loaded machine slow to start
        /// processes leaves no pause in the input. Not the pointer: i3's focus follows the mouse.
        /// Returns when the last press was sent at the latest: the input's end.
        @discardableResult
        func work(_ seconds: Double) async throws -> Date {
            let presses = try x.start("/usr/bin/xdotool", ["key", "--repeat", "100000", "--delay", "400", "shift"])
            try await Task.sleep(for: .seconds(seconds))
            presses.kill(SIGKILL)
            _ = await offPool { presses.wait() }
            return Date()
        }

        func lock(_ locked: Bool) throws -> Date {
            try logind.call(Self.session, "org.freedesktop.login1.Session.SetLockedHint", [locked ? "true" : "false"])
            return Date()
        }

        func startDaemon(_ name: String) async throws -> ChildProcess {
            let log = home + "/\(name).log"
            let daemon = try ChildProcess(vigilBinary, ["daemon", "--watch"], environment: env, output: log)
            let started = try await eventually(60) {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return text.contains("the day watch: app works") && text.contains("the day watch: desktop works")
                    && !text.contains("logind: cannot")
            }
            #expect(started, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            return daemon
        }

        /// The stretches in the log: kind, class, start and end (Unix seconds).
        func stretches() -> [(kind: String, app: String, start: Double, end: Double)] {
            let out = runTool(
                "/usr/bin/sqlite3",
                [
                    "-separator", "|", home + "/data/vigil/vigil.sqlite3",
                    "SELECT kind, coalesce(app_class, ''), start_ms, end_ms FROM day_stretches ORDER BY start_ms",
                ]
            ).output
            return out.split(separator: "\n").compactMap { line in
                let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                guard f.count == 4, let s = Double(f[2]), let e = Double(f[3]) else { return nil }
                return (f[0], f[1], s / 1000, e / 1000)
            }
        }
    }

    /// What the test drove: a kind and class from one instant to the next.
    struct Phase {
        var kind: String
        var app: String
        var start: Date
        var end: Date
        /// The window was in front already when the phase began (the daemon saw it from its start).
        var already = false
    }

    @Test func aDayOfFocusChangesAwayALockAndASessionIsRecordedAsDriven() async throws {
        let d = try await Desktop()
        defer {
            d.x.kill()
            for w in d.windows { w.kill() }
        }
        _ = d.focus("Editor")
        try await d.work(1)
        let daemon = try await d.startDaemon("daemon")
        defer { daemon.kill(SIGKILL) }
        var phases: [Phase] = []
        func phase(_ kind: String, _ app: String, from start: Date, to end: Date, already: Bool = false) {
            phases.append(Phase(kind: kind, app: app, start: start, end: end, already: already))
        }

        let t0 = d.focus("Editor")
        try await d.work(8)
        let t1 = d.focus("Videos")
        try await d.work(6)
        let t2 = d.focus("Editor")
        let t3 = try await d.work(5)  // the last input: away from here, once 30 s have passed
        try await Task.sleep(for: .seconds(36))
        let t4 = Date()
        try await d.work(4)
        let t5 = try d.lock(true)
        try await Task.sleep(for: .seconds(6))
        let t6 = try d.lock(false)
        try await d.work(4)
        phase("app", "Editor", from: t0, to: t1, already: true)
        phase("app", "Videos", from: t1, to: t2)
        phase("app", "Editor", from: t2, to: t3)
        phase("away", "", from: t3, to: t4)
        phase("app", "Editor", from: t4, to: t5)
        phase("locked", "", from: t5, to: t6)

        // A focus session: the watch records nothing while it runs.
        let start = try await vigil(["start", "--background", "--task", "essay", "--minutes", "30"], home: d.home, env: d.env)
        #expect(start.status == 0, "\(start)")
        let sessionStart = Date()
        try await d.work(12)
        let stop = try await vigil(["stop"], home: d.home, env: d.env)
        #expect(stop.status == 0, "\(stop)")
        let sessionEnd = Date()
        try await d.work(8)
        let t7 = Date()
        daemon.kill(SIGTERM)
        #expect(try await eventually(30) { !daemon.isRunning })

        let stored = d.stretches()
        let shown = stored.map {
            "\($0.kind) \($0.app) \(String(format: "%.1f", $0.start - t0.timeIntervalSince1970))-\(String(format: "%.1f", $0.end - t0.timeIntervalSince1970))"
        }
        // Each phase the test drove is one stretch, from its start to its end, give or take the slack.
        for p in phases {
            let match = stored.first { s in
                let start = p.start.timeIntervalSince1970
                return s.kind == p.kind && s.app == p.app && (p.already ? s.start <= start + Self.slack : abs(s.start - start) <= Self.slack)
                    && abs(s.end - p.end.timeIntervalSince1970) <= Self.slack
            }
            #expect(
                match != nil,
                "no \(p.kind) \(p.app) from \(p.start.timeIntervalSince(t0)) to \(p.end.timeIntervalSince(t0)) s: \(shown)"
            )
        }
        // Nothing in the session but at its edges (the watch looks every 5 s), and the time after it.
        let inside = stored.filter { $0.end > sessionStart.timeIntervalSince1970 + 6 && $0.start < sessionEnd.timeIntervalSince1970 - 6 }
        #expect(inside.isEmpty, "stretches during the session: \(shown)")
        #expect(stored.contains { $0.kind == "app" && $0.app == "Editor" && $0.end >= t7.timeIntervalSince1970 - Self.slack }, "\(shown)")
        // Never a title.
        let dump = await runProcess("/usr/bin/sqlite3", [d.home + "/data/vigil/vigil.sqlite3", ".dump"]).output
        #expect(!dump.contains("secret title"))

        // The report's whole day: the times the test drove, outside sessions and in the session.
        let day = ISO8601DateFormatter.string(from: t0, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let last = ISO8601DateFormatter.string(from: t7, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let report = try await vigil(["report", "--from", day, "--to", last, "--time-zone", "UTC", "--format", "json"], home: d.home, env: d.env)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let whole = try #require(json["whole_day"] as? [String: Any], "\(json.keys)")
        let apps = try #require(whole["apps"] as? [[String: Any]])
        func outside(_ cls: String) -> Double { (apps.first { $0["app_class"] as? String == cls }?["outside_minutes"] as? Double ?? 0) * 60 }
        let videos = t2.timeIntervalSince(t1)
        #expect(abs(outside("Videos") - videos) <= 2 * Self.slack, "Videos \(outside("Videos")) s, driven \(videos) s")
        #expect(apps.first { $0["app_class"] as? String == "Videos" }?["category"] as? String == "distracting")
        let o = try #require(whole["outside"] as? [String: Double])
        #expect(abs((o["away_minutes"] ?? 0) * 60 - t4.timeIntervalSince(t3)) <= 2 * Self.slack, "\(o)")
        #expect(abs((o["locked_minutes"] ?? 0) * 60 - t6.timeIntervalSince(t5)) <= 2 * Self.slack, "\(o)")
        let session = (whole["session_minutes"] as? Double ?? 0) * 60
        #expect(abs(session - sessionEnd.timeIntervalSince(sessionStart)) <= 2 * Self.slack, "session \(session) s")
        let editorInSession = (apps.first { $0["app_class"] as? String == "Editor" }?["session_minutes"] as? Double ?? 0) * 60
        #expect(editorInSession > 0, "the session's own stretches join the day: \(apps)")
        let text = try await vigil(["report", "--from", day, "--to", last, "--time-zone", "UTC"], home: d.home, env: d.env)
        #expect(text.stdout.contains("The whole day") && text.stdout.contains("Videos"), "\(text.stdout)")
    }

    /// A limit crossed live: the daemon tells each threshold once, through a private notification
    /// service, while the person is still in the application (the stretch in progress counts).
    @Test func aLimitCrossedLiveIsNotifiedAtEachThresholdOnce() async throws {
        var d = try await Desktop()
        defer {
            d.x.kill()
            for w in d.windows { w.kill() }
        }
        write(
            "daemon:\n  watch_away_after: 30s\napps:\n  rules:\n    - {name: videos, class: Videos, category: distracting}\n"
                + "reminders:\n  check: 1s\n  quiet_from: \"00:00\"\n  quiet_to: \"00:00\"\n"
                + "goals:\n  less video: {what: category distracting, at_most: 20s, per: day, thresholds: [10s, 20s]}\n",
            to: d.home + "/config/vigil/config.yaml")
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        d.env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        _ = d.focus("Editor")
        let daemon = try await d.startDaemon("daemon")
        defer { daemon.kill(SIGKILL) }
        #expect(SessionBus.notifications(log).isEmpty, "nothing before the first threshold")
        _ = d.focus("Videos")
        let working = try d.x.start("/usr/bin/xdotool", ["key", "--repeat", "100000", "--delay", "400", "shift"])
        defer { working.kill(SIGKILL) }
        func said() -> [String] { SessionBus.notifications(log).map { "\($0["summary"] ?? "") | \($0["body"] ?? "")" } }
        #expect(try await eventually(60) { said().count >= 2 }, "\(said())")
        // A little longer: still two, each once.
        try await Task.sleep(for: .seconds(4))
        let today = "today"
        #expect(
            said() == [
                "less video | 10 s of category distracting \(today), of at most 20 s.",
                "Limit reached: less video | 20 s of category distracting \(today): your limit.",
            ], "\(said())")
        // Sent while the Videos stretch was still in progress: nothing of it was in the log yet.
        #expect(!d.stretches().contains { $0.app == "Videos" }, "\(d.stretches())")
    }

    @Test func killedHardTheWatchLosesOnlyTheStretchInProgress() async throws {
        let d = try await Desktop()
        defer {
            d.x.kill()
            for w in d.windows { w.kill() }
        }
        _ = d.focus("Editor")
        let daemon = try await d.startDaemon("daemon")
        defer { daemon.kill(SIGKILL) }
        let t0 = d.focus("Videos")
        try await d.work(5)
        let t1 = d.focus("Editor")
        try await d.work(4)
        // The daemon has seen the focus move (the Videos stretch it closed is in the log): what is
        // in progress now is the Editor's stretch, and that is what the kill may lose.
        let closed = try await eventually(30) { d.stretches().contains { $0.app == "Videos" } }
        #expect(closed, "\(d.stretches())")
        daemon.kill(SIGKILL)
        #expect(try await eventually(30) { !daemon.isRunning })
        let stored = d.stretches()
        let last = try #require(stored.last, "nothing stored")
        // The Videos stretch was closed when the focus moved, and is there whole; the Editor one,
        // in progress at the kill, is all that was lost.
        #expect(last.kind == "app" && last.app == "Videos", "\(stored)")
        #expect(abs(last.start - t0.timeIntervalSince1970) <= Self.slack && abs(last.end - t1.timeIntervalSince1970) <= Self.slack, "\(stored)")
        let check = await runProcess("/usr/bin/sqlite3", [d.home + "/data/vigil/vigil.sqlite3", "PRAGMA integrity_check"])
        #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        // A new daemon goes on in the same log.
        let again = try await d.startDaemon("again")
        defer { again.kill(SIGKILL) }
        _ = d.focus("Videos")
        try await d.work(2)
        again.kill(SIGTERM)
        #expect(try await eventually(30) { !again.isRunning })
        #expect(d.stretches().count > stored.count)
    }
}

/// `vigil simulate --watch`: the day around the sessions, as the watch records it, and the same
/// sessions as without it.
@Suite struct SimulatedDayCLITests {
    @Test func theDayAroundTheSessionsLeavesTheSessionsAsTheyWere() async throws {
        let home = freshHome()
        let args = ["simulate", "--days", "14", "--until", "2026-11-10", "--seed", "3", "--time-zone", "Europe/Berlin"]
        #expect(try await vigil(args + ["--data-dir", home + "/plain"], home: home).status == 0)
        let watched = try await vigil(args + ["--data-dir", home + "/day", "--watch"], home: home)
        #expect(watched.status == 0, "\(watched.stderr)")
        let log = ["log", "--json", "--limit", "1000", "--time-zone", "Europe/Berlin"]
        let plain = try await vigil(log + ["--data-dir", home + "/plain"], home: home).stdout
        #expect(try await vigil(log + ["--data-dir", home + "/day"], home: home).stdout == plain)
        #expect(jsonRecords(plain).count > 20)

        let report = ["report", "--from", "2026-10-28", "--to", "2026-11-10", "--time-zone", "Europe/Berlin", "--format", "json"]
        let without = try #require(
            try JSONSerialization.jsonObject(with: Data(try await vigil(report + ["--data-dir", home + "/plain"], home: home).stdout.utf8))
                as? [String: Any])
        #expect(without["whole_day"] is NSNull, "no watch, no whole day")
        let with = try #require(
            try JSONSerialization.jsonObject(with: Data(try await vigil(report + ["--data-dir", home + "/day"], home: home).stdout.utf8))
                as? [String: Any])
        let whole = try #require(with["whole_day"] as? [String: Any])
        let days = try #require(whole["days"] as? [[String: Any]])
        #expect(days.count == 14)
        // The judged figures are the sessions' alone: the same with the day around them.
        #expect(
            NSDictionary(dictionary: with["totals"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: without["totals"] as? [String: Any] ?? [:]))
        // No stretch overlaps another or a session: every day adds up to at most 24 hours (25 on the
        // night clocks go back).
        for day in days {
            let outside = try #require(day["outside"] as? [String: Double])
            let total = outside.values.reduce(0, +) + (day["session_minutes"] as? Double ?? 0)
            #expect(total <= 25 * 60 + 0.1, "\(day)")
        }
        let o = try #require(whole["outside"] as? [String: Double])
        #expect((o["distracting_minutes"] ?? 0) > 0 && (o["away_minutes"] ?? 0) > 0 && (o["asleep_minutes"] ?? 0) > 0, "\(o)")
        // Forgetting the period forgets the watch's time too.
        let forgot = try await vigil(
            ["forget", "--from", "2026-10-28", "--to", "2026-11-10", "--yes", "--time-zone", "Europe/Berlin", "--data-dir", home + "/day"], home: home
        )
        #expect(forgot.status == 0, "\(forgot.stderr)")
        let left = await runProcess("/usr/bin/sqlite3", [home + "/day/vigil.sqlite3", "SELECT count(*) FROM day_stretches"]).output
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(left)")
    }
}
