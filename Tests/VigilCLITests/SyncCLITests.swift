import Foundation
import TestSupport
import Testing

/// One PostgreSQL server for the CLI's sync tests, a database per test.
private let postgres: Result<PostgresServer, any Error> = Result { try PostgresServer() }

/// `vigil sync` and `vigil device` as a person runs them: two computers are two homes with their
/// own config and data directory, and the same `sync.url`.
@Suite(.serialized) struct SyncCLITests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    func computer(_ name: String, url: String) async throws -> String {
        let home = freshHome()
        write("sync:\n  url: \(url)\n", to: home + "/config/vigil/config.yaml")
        let named = try await vigil(["device", "--name", name], home: home)
        try #require(named.status == 0, "\(named.stderr)")
        return home
    }

    @Test func twoComputersSyncAndSeeEachOthersSessions() async throws {
        let url = server.url(try server.createDatabase())
        let laptop = try await computer("laptop", url: url)
        let desktop = try await computer("desktop", url: url)
        for (home, seed) in [(laptop, "1"), (desktop, "2")] {
            let r = try await vigil(["simulate", "--days", "14", "--seed", seed], home: home)
            try #require(r.status == 0, "\(r.stderr)")
        }
        let env = ["PGPASSWORD": server.password]
        let first = try await vigil(["sync"], home: laptop, env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("(the first time)"), "\(first.stdout)")
        #expect(first.stdout.contains("Received 0 sessions"), "\(first.stdout)")
        let second = try await vigil(["sync"], home: desktop, env: env)
        #expect(second.status == 0, "\(second.stderr)")
        let third = try await vigil(["sync"], home: laptop, env: env)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout.contains("Devices: desktop, laptop."), "\(third.stdout)")
        let again = try await vigil(["sync"], home: laptop, env: env)
        #expect(again.stdout.contains("Up to date: nothing to send or receive."), "\(again.stdout)")

        // Both logs hold both computers' sessions.
        func sessions(_ home: String) async throws -> Int {
            jsonRecords(try await vigil(["log", "--json", "--limit", "100000", "--source", "all"], home: home).stdout).count
        }
        let onLaptop = try await sessions(laptop)
        let onDesktop = try await sessions(desktop)
        #expect(onLaptop == onDesktop)
        #expect(onLaptop > 20)
        // The log says which sessions came from the other computer.
        let log = try await vigil(["log", "--limit", "100000", "--source", "all"], home: laptop).stdout
        #expect(log.contains("simulated on desktop"), "\(log.prefix(400))")
        let json = try await vigil(["log", "--json", "--limit", "100000", "--source", "all"], home: desktop).stdout
        #expect(json.contains("\"device\":\"laptop\"") && json.contains("\"device\":null"), "\(json.prefix(400))")
        let devices = try await vigil(["device"], home: laptop).stdout
        #expect(devices.contains("laptop") && devices.contains("(this device)") && devices.contains("desktop"), "\(devices)")
    }

    /// Polls `condition` (a psql query printing t or f) until it holds; false after 60 s.
    func waitFor(_ query: String, database: String) async throws -> Bool {
        for _ in 0..<1200 {
            if try server.sql(query, database: database) == "t" { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// A psql transaction that inserts a session's key and holds it (for two minutes at most), so
    /// that a sync sending that session waits for it; returned once it holds the key.
    func holdKey(device: String, session: String, database: String, log: String) async throws -> ChildProcess {
        let holder = try ChildProcess(
            "/usr/bin/env",
            [
                "PGPASSWORD=\(server.password)", "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(server.port), "-U", server.user, "-d", database,
                "-X", "-q",
                "-c", "BEGIN; INSERT INTO vigil.sessions (origin_device, origin_id) VALUES ('\(device)', \(session)); SELECT pg_sleep(120); COMMIT;",
            ], output: log)
        #expect(
            try await waitFor(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND state = 'active' AND pid <> pg_backend_pid())",
                database: database))
        return holder
    }

    /// `vigil sync` killed with SIGKILL in the middle of sending (its second batch of sessions,
    /// held on the server by a row another transaction is inserting), then the server stopped
    /// under a second try: nothing sent twice, nothing lost, counted row by row.
    @Test func syncKilledMidTransferOrCutByAServerStopCompletesNextTime() async throws {
        let database = try server.createDatabase()
        let url = server.url(database)
        let laptop = try await computer("laptop", url: url)
        let env = ["PGPASSWORD": server.password]
        // The first sync registers the device (and makes the schema) before there is anything to send.
        let registered = try await vigil(["sync"], home: laptop, env: env)
        try #require(registered.status == 0, "\(registered.stderr)")
        let simulated = try await vigil(["simulate", "--days", "400", "--seed", "7"], home: laptop)
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let log = laptop + "/data/vigil/vigil.sqlite3"
        let count =
            Int(await runProcess("/usr/bin/sqlite3", [log, "SELECT count(*) FROM sessions"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 0
        try #require(count > 1000, "two batches of 500 and more: \(count)")
        let device = await runProcess("/usr/bin/sqlite3", [log, "SELECT id FROM devices WHERE is_self = 1"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let blocker = await runProcess("/usr/bin/sqlite3", [log, "SELECT id FROM sessions ORDER BY id LIMIT 1 OFFSET 500"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)

        // Another transaction inserts the 501st session's key and holds it: the second batch waits.
        let holder = try await holdKey(device: device, session: blocker, database: database, log: laptop + "/holder.log")
        let sync = try ChildProcess(
            vigilBinary, ["sync"],
            environment: [
                "HOME": laptop, "XDG_DATA_HOME": laptop + "/data", "XDG_CONFIG_HOME": laptop + "/config", "PGPASSWORD": server.password, "TZ": "UTC",
            ],
            output: laptop + "/sync.log")
        #expect(
            try await waitFor(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO vigil.sessions%')",
                database: database))
        sync.kill(SIGKILL)
        _ = sync.wait()
        try server.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()")
        _ = holder.wait()
        #expect(
            try await waitFor(
                "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO vigil.sessions%' AND pid <> pg_backend_pid())",
                database: database))
        let afterKill = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        #expect(afterKill == "500", "the first batch, committed and marked; the second rolled back")

        // Once more, and the server stops while the second batch waits.
        let holder2 = try await holdKey(device: device, session: blocker, database: database, log: laptop + "/holder2.log")
        async let cut = vigil(["sync"], home: laptop, env: env)
        #expect(
            try await waitFor(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO vigil.sessions%')",
                database: database))
        server.stop(mode: "fast")
        let stopped = try await cut
        _ = holder2.wait()
        #expect(stopped.status == 75, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("Waiting here:"), "\(stopped.stderr)")
        try server.start()

        let done = try await vigil(["sync"], home: laptop, env: env)
        #expect(done.status == 0, "\(done.stderr)")
        for table in ["sessions", "episodes", "alarms", "state_changes", "gaps"] {
            let local = await runProcess("/usr/bin/sqlite3", [log, "SELECT count(*) FROM \(table)"]).output.trimmingCharacters(
                in: .whitespacesAndNewlines)
            let remote = try server.sql("SELECT count(*) FROM vigil.\(table)", database: database)
            #expect(local == remote, "\(table)")
        }
        // Row by row: the same sessions, each once.
        let localIDs = await runProcess("/usr/bin/sqlite3", [log, "SELECT group_concat(id, ',') FROM (SELECT id FROM sessions ORDER BY id)"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let remoteIDs = try server.sql("SELECT string_agg(origin_id::text, ',' ORDER BY origin_id) FROM vigil.sessions", database: database)
        #expect(localIDs == remoteIDs)
        let pending = await runProcess("/usr/bin/sqlite3", [log, "SELECT count(*) FROM sessions WHERE pushed = 0"]).output
        #expect(pending.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// The daemon syncs when sync is set up: at once, then every `sync.every`.
    @Test func theDaemonSyncs() async throws {
        let database = try server.createDatabase()
        let home = try await computer("laptop", url: server.url(database))
        write("sync:\n  url: \(server.url(database))\n  every: 1h\n", to: home + "/config/vigil/config.yaml")
        let simulated = try await vigil(["simulate", "--days", "10", "--seed", "3"], home: home)
        try #require(simulated.status == 0)
        let sessions =
            Int(
                await runProcess("/usr/bin/sqlite3", [home + "/data/vigil/vigil.sqlite3", "SELECT count(*) FROM sessions"]).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let daemon = try ChildProcess(
            vigilBinary, ["daemon"],
            environment: [
                "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "PGPASSWORD": server.password, "TZ": "UTC",
            ],
            output: home + "/daemon.log")
        // The daemon says when its first sync is done.
        var said = ""
        for _ in 0..<1200 where !said.contains("Synced with") {
            try await Task.sleep(for: .milliseconds(50))
            said = (try? String(contentsOfFile: home + "/daemon.log", encoding: .utf8)) ?? ""
        }
        daemon.kill(SIGTERM)
        let status = daemon.wait()
        said = (try? String(contentsOfFile: home + "/daemon.log", encoding: .utf8)) ?? ""
        let onServer = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        #expect(onServer == String(sessions), "\(said)")
        #expect(status == 0, "\(said)")
        #expect(said.contains("syncing with the server of sync.url every 1 h 00 min"), "\(said)")
        #expect(said.contains("Synced with"), "\(said)")
    }

    /// Two people, each with their own sync database, share a group database: each publishes only
    /// daily figures, which equal their own reports, and `report --group` compares them.
    @Test func aGroupSeesDailyFiguresAndNothingFiner() async throws {
        let group = try server.createDatabase()
        var homes: [String] = []
        for (person, seed) in [("ana", "11"), ("ben", "12")] {
            let home = freshHome()
            write(
                "sync:\n  url: \(server.url(try server.createDatabase()))\n  group: study-club\n  group_url: \(server.url(group))\n  alias: \(person)\n",
                to: home + "/config/vigil/config.yaml")
            let simulated = try await vigil(["simulate", "--days", "20", "--seed", seed, "--sessions-per-day", "2-4"], home: home)
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let synced = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.contains("Published 30 days to the group study-club as \(person)."), "\(synced.stdout)")
            homes.append(home)
        }
        // What the group holds: one row per person and day, those columns only.
        let columns = try server.sql(
            "SELECT string_agg(column_name, ' ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'vigil_group' AND table_name = 'days'",
            database: group)
        #expect(columns == "group_name person alias day focused_minutes distracted_minutes sessions streak published_at owner")
        let everything = try server.sql("SELECT string_agg(d::text, ' ') FROM vigil_group.days d", database: group)
        let tasks = await runProcess("/usr/bin/sqlite3", [homes[0] + "/data/vigil/vigil.sqlite3", "SELECT DISTINCT task FROM sessions"]).output
            .split(separator: "\n").map(String.init)
        #expect(!tasks.isEmpty)
        for task in tasks { #expect(!everything.contains(task), "a task name reached the group: \(task)") }
        let tables = try server.sql(
            "SELECT string_agg(table_name, ' ' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'vigil_group'",
            database: group)
        #expect(tables == "days people schema_version")

        // The comparison: each member's focused minutes over the week equal their own report's.
        let compared = try await vigil(
            ["report", "--group", "--last", "7d", "--format", "json"], home: homes[0], env: ["PGPASSWORD": server.password])
        #expect(compared.status == 0, "\(compared.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Any])
        let members = try #require(json["members"] as? [[String: Any]])
        #expect(Set(members.compactMap { $0["alias"] as? String }) == ["ana", "ben"])
        for (home, person) in zip(homes, ["ana", "ben"]) {
            let own = try await vigil(["report", "--last", "7d", "--format", "json"], home: home)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [String: Any])
            let totals = try #require(report["totals"] as? [String: Any])
            let member = try #require(members.first { $0["alias"] as? String == person })
            let published = (member["focused_minutes"] as? NSNumber)?.doubleValue ?? -1
            let reported = (totals["focused_minutes"] as? NSNumber)?.doubleValue ?? -2
            #expect(abs(published - reported) < 0.05, "\(person): \(published) published, \(reported) in their report")
        }
        let text = try await vigil(["report", "--group"], home: homes[1], env: ["PGPASSWORD": server.password])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Group study-club") && text.stdout.contains("ana") && text.stdout.contains("ben"), "\(text.stdout)")
        let byTask = try await vigil(["report", "--group", "--task", "x"], home: homes[1])
        #expect(byTask.status == 64)
    }

    /// Three computers with a month each sync at the same time, then once more: every one of them
    /// reports the same figures, and those figures are what the independent computation
    /// (Data/reference_report.py, overlapping time counted once) finds in the merged log. All but
    /// the applications, byte for byte: the time in each application stays on its device
    /// (docs/sync.md), so each reports its own.
    @Test func threeComputersReportTheSameFiguresAsAnIndependentComputation() async throws {
        let url = server.url(try server.createDatabase())
        var homes: [String] = []
        for (name, seed) in [("laptop", "21"), ("desktop", "22"), ("office", "23")] {
            let home = try await computer(name, url: url)
            let r = try await vigil(
                ["simulate", "--days", "30", "--until", "2026-11-10", "--seed", seed, "--time-zone", "Europe/Berlin"], home: home)
            try #require(r.status == 0, "\(r.stderr)")
            homes.append(home)
        }
        let env = ["PGPASSWORD": server.password]
        let (h0, h1, h2) = (homes[0], homes[1], homes[2])
        async let a = vigil(["sync"], home: h0, env: env)
        async let b = vigil(["sync"], home: h1, env: env)
        async let c = vigil(["sync"], home: h2, env: env)
        let first = try await [a, b, c]
        for r in first { #expect(r.status == 0, "\(r.stderr)") }
        for home in homes {
            let r = try await vigil(["sync"], home: home, env: env)
            #expect(r.status == 0, "\(r.stderr)")
        }
        var reports: [String] = []
        for home in homes {
            let r = try await vigil(
                ["report", "--from", "2026-10-01", "--to", "2026-11-10", "--time-zone", "Europe/Berlin", "--format", "json", "-o", home + "/r.json"],
                home: home)
            #expect(r.status == 0, "\(r.stderr)")
            reports.append((try? String(contentsOfFile: home + "/r.json", encoding: .utf8)) ?? "")
        }
        // The same bytes once each report's own applications are taken out.
        func withoutApplications(_ report: String) -> String {
            report.replacingOccurrences(of: #"\n  "applications": \{[\s\S]*?\n  \},"#, with: "", options: .regularExpression)
        }
        let shared = reports.map(withoutApplications)
        #expect(zip(shared, reports).allSatisfy { $0 != $1 && !$0.contains("\"applications\"") }, "each has its own applications")
        #expect(shared[0] == shared[1] && shared[1] == shared[2])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(reports[0].utf8)) as? [String: Any])
        let devices = (parsed["devices"] as? [[String: Any]])?.compactMap { $0["device"] as? String }
        #expect(Set(devices ?? []) == ["laptop", "desktop", "office"], "the by-device figures")
        let check = await runProcess(
            "/usr/bin/python3",
            [ReportCLITests.reference, homes[0] + "/data/vigil/vigil.sqlite3", homes[0] + "/r.json", "Europe/Berlin", "2026-10-01", "2026-11-10"])
        #expect(check.status == 0, "\(check.output)")
    }

    /// Each failure says what to do, with its own exit code, and leaves the log as it was.
    @Test func failuresNameTheRemedyAndTheirExitCode() async throws {
        let database = try server.createDatabase()
        let home = try await computer("laptop", url: server.url(database))
        let simulated = try await vigil(["simulate", "--days", "10"], home: home)
        try #require(simulated.status == 0)

        let wrong = try await vigil(["sync"], home: home, env: ["PGPASSWORD": "not-it"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("sync.password_file or PGPASSWORD"), "\(wrong.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(freePort())/x?sslmode=disable\n", to: home + "/config/vigil/config.yaml")
        let down = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(down.status == 75)
        #expect(down.stderr.contains("cannot be reached") && down.stderr.contains("Waiting here:"), "\(down.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(server.port)/x?sslmode=sometimes\n", to: home + "/config/vigil/config.yaml")
        // A URL sync cannot use is a problem of the config file, found before sync runs (exit 65,
        // as `config check` finds it).
        let badMode = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(badMode.status == 65)
        #expect(badMode.stderr.contains("sslmode must be one of"), "\(badMode.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(server.port)/no_such_db?sslmode=disable\n", to: home + "/config/vigil/config.yaml")
        let noDatabase = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(noDatabase.status == 78)
        #expect(noDatabase.stderr.contains("createdb no_such_db"), "\(noDatabase.stderr)")

        let passwordFile = home + "/pw"
        write(server.password + "\n", to: passwordFile)
        chmod(passwordFile, 0o644)
        write(
            "sync:\n  url: \(server.url(database))\n  password_file: \(passwordFile)\n", to: home + "/config/vigil/config.yaml")
        let open = try await vigil(["sync"], home: home)
        #expect(open.status == 78)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")
        chmod(passwordFile, 0o600)
        let fine = try await vigil(["sync"], home: home)
        #expect(fine.status == 0, "\(fine.stderr)")

        // vigil without vigil-sync beside it (a copy of the binary alone) says what is missing.
        let alone = freshHome() + "/bin"
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: vigilBinary, toPath: alone + "/vigil")
        let missing = await runProcess(
            alone + "/vigil", ["sync", "--config", home + "/config/vigil/config.yaml", "--data-dir", home + "/data/vigil"])
        #expect(missing.status == 69)
        #expect(missing.output.contains("vigil-sync next to vigil"), "\(missing.output)")

        let notSetUp = try await vigil(["sync"], home: freshHome())
        #expect(notSetUp.status == 78)
        #expect(notSetUp.stderr.contains("sync is not set up"), "\(notSetUp.stderr)")
    }
}
