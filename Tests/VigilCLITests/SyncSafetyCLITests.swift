import Foundation
import TestSupport
import Testing

/// A PostgreSQL server of this suite's own, a database per test.
private let postgres: Result<PostgresServer, any Error> = Result { try PostgresServer() }

/// Sync against a server that is shared and may misbehave (issue 33): it never waits for ever,
/// never shows a password to other users, takes no row it cannot hold, and a group member writes
/// only their own figures.
@Suite(.serialized) struct SyncSafetyCLITests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    /// The environment `vigil` runs with in these tests (as `vigil(_:home:env:)` sets it).
    func environment(_ home: String, _ env: [String: String]) -> [String: String] {
        ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin", "TZ": "UTC"]
            .merging(env) { $1 }
    }

    /// Runs vigil with `args` in the background; once it has become vigil-sync, returns what `ps`
    /// shows of its command line, then its exit status, output and how long it took.
    func runWatchingCommandLine(_ args: [String], home: String, env: [String: String]) async throws -> (
        commandLine: String, status: Int32, output: String, seconds: Double
    ) {
        let output = home + "/.out-\(UUID().uuidString.prefix(6))"
        let started = Date()
        let child = try ChildProcess(vigilBinary, args, environment: environment(home, env), output: output)
        // Watched from a thread of its own, not the cooperative pool: with both cores busy, a
        // task could be starved past vigil-sync's whole run (a CI run missed it so). The sync's
        // bounds (lock and connect timeouts of 5 s) keep vigil-sync running long enough to be seen.
        let pid = child.pid
        let commandLine = await offPool { () -> String in
            var line = ""
            for _ in 0..<12_000 where !line.contains("vigil-sync") {
                // (Empty while it is a zombie; gone once reaped.)
                let fd = open("/proc/\(pid)/cmdline", O_RDONLY)
                guard fd >= 0 else { break }
                var raw = [UInt8](repeating: 0, count: 65_536)
                let n = read(fd, &raw, raw.count)
                close(fd)
                raw = Array(raw.prefix(max(0, n)))
                if !raw.isEmpty { line = String(decoding: raw.map { $0 == 0 ? 32 : $0 }, as: UTF8.self) }
                usleep(5_000)
            }
            return line
        }
        let status = await Task.detached { child.wait() }.value
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (commandLine, status, text, Date().timeIntervalSince(started))
    }

    /// A listener that accepts connections and never says a word, as a hung server does; or, with
    /// `answeringStartUp`, one that completes PostgreSQL's start-up (authentication ok, ready for
    /// queries) and then never answers a statement.
    func silentServer(answeringStartUp: Bool = false) throws -> (ChildProcess, Int) {
        let port = freePort()
        let script = """
            import socket, struct
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", \(port))); s.listen(8)
            held = []
            while True:
                c, _ = s.accept(); held.append(c)
                if \(answeringStartUp ? "True" : "False"):
                    try:
                        n = struct.unpack("!i", c.recv(4))[0]; c.recv(n - 4)
                        # AuthenticationOk, BackendKeyData, ReadyForQuery; then silence.
                        c.sendall(b"R" + struct.pack("!ii", 8, 0) + b"K" + struct.pack("!iii", 12, 1, 2) + b"Z" + struct.pack("!i", 5) + b"I")
                    except Exception:
                        pass  # the readiness probe below, which says nothing
            """
        let child = try ChildProcess("/usr/bin/python3", ["-c", script])
        // Ready once it accepts (a connect succeeds).
        for _ in 0..<400 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { break }
            usleep(25_000)
        }
        return (child, port)
    }

    /// A device that dropped off holding the push lock, and a server that accepts the connection and
    /// never answers: each sync ends within its bound with exit 75 and a clear message, the log as
    /// it was; and throughout, vigil-sync's command line (what `ps` shows every user) holds no
    /// password, which no message shows either.
    @Test func aHeldLockOrASilentServerEndsTheSyncAndNoPasswordIsEverOnTheCommandLine() async throws {
        let database = try server.createDatabase()
        let home = freshHome()
        let url = "postgres://vigil:\(server.password)@127.0.0.1:\(server.port)/\(database)?sslmode=disable"
        write("sync:\n  url: \(url)\n", to: home + "/config/vigil/config.yaml")
        let first = try await vigil(["sync"], home: home)
        try #require(first.status == 0, "\(first.stderr)")
        let simulated = try await vigil(["simulate", "--days", "5", "--seed", "3"], home: home)
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let log = home + "/data/vigil/vigil.sqlite3"
        func unsent() async -> String {
            await runProcess("/usr/bin/sqlite3", [log, "SELECT count(*) FROM sessions WHERE pushed = 0"]).output
        }
        let before = await unsent()

        // Another device's connection holds the push lock (as one that dropped off mid-push would).
        let holderLog = home + "/holder.log"
        let holder = try ChildProcess(
            "/usr/bin/env",
            [
                "PGPASSWORD=\(server.password)", "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(server.port), "-U", server.user, "-d", database,
                "-X", "-q", "-c", "SELECT pg_advisory_lock(\(0x76_69_67_69_6c)); SELECT pg_sleep(120);",
            ], output: holderLog)
        defer { holder.kill() }
        var held = false
        for _ in 0..<1200 where !held {
            held =
                try server.sql("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted)", database: database) == "t"
            if !held { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(held)
        let locked = try await runWatchingCommandLine(["sync"], home: home, env: ["VIGIL_SYNC_LOCK_TIMEOUT": "5"])
        #expect(locked.status == 75, "\(locked.output)")
        #expect(locked.output.contains("sync lock"), "\(locked.output)")
        #expect(locked.seconds < 90, "a generous bound: the lock timeout is 5 s")
        #expect(locked.commandLine.contains("vigil-sync") && locked.commandLine.contains("--log"), "\(locked.commandLine)")
        #expect(!locked.commandLine.contains(server.password), "\(locked.commandLine)")
        #expect(!locked.output.contains(server.password), "\(locked.output)")
        #expect(await unsent() == before, "the log is as it was")
        holder.kill()

        // A server that accepts and never answers: given up after connect_timeout, for a sync and
        // for a group's report alike, with the group's password as hidden as the server's.
        let (silent, port) = try silentServer()
        defer { silent.kill() }
        write(
            "sync:\n  url: postgres://vigil:\(server.password)@127.0.0.1:\(port)/x?sslmode=disable&connect_timeout=5\n  group: club\n  group_url: postgres://ana:group-secret-pw@127.0.0.1:\(port)/g?sslmode=disable&connect_timeout=5\n",
            to: home + "/config/vigil/config.yaml")
        let hung = try await runWatchingCommandLine(["sync"], home: home, env: [:])
        #expect(hung.status == 75, "\(hung.output)")
        #expect(hung.output.contains("did not answer within 5 s"), "\(hung.output)")
        #expect(hung.seconds < 90)
        #expect(hung.commandLine.contains("vigil-sync"), "\(hung.commandLine)")
        for secret in [server.password, "group-secret-pw"] {
            #expect(!hung.commandLine.contains(secret) && !hung.output.contains(secret), "\(hung.commandLine) \(hung.output)")
        }
        #expect(await unsent() == before)
        let report = try await runWatchingCommandLine(["report", "--group"], home: home, env: [:])
        #expect(report.status == 75, "\(report.output)")
        #expect(report.commandLine.contains("vigil-sync") && !report.commandLine.contains("group-secret-pw"), "\(report.commandLine)")
        #expect(!report.output.contains("group-secret-pw"), "\(report.output)")
    }

    /// A server that completes the start-up (authentication, ready for queries) and then never
    /// answers a statement, with the connection open: the sync ends after the server's timeouts and
    /// a margin, with exit 75, the log as it was.
    @Test func aServerThatStopsAnsweringAfterTheStartUpEndsTheSync() async throws {
        let (silent, port) = try silentServer(answeringStartUp: true)
        defer { silent.kill() }
        let home = freshHome()
        write("sync:\n  url: postgres://vigil@127.0.0.1:\(port)/x?sslmode=disable&connect_timeout=30\n", to: home + "/config/vigil/config.yaml")
        let simulated = try await vigil(["simulate", "--days", "2", "--seed", "5"], home: home)
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let r = try await vigil(["sync"], home: home, env: ["PGPASSWORD": "x", "VIGIL_SYNC_LOCK_TIMEOUT": "1", "VIGIL_SYNC_STATEMENT_TIMEOUT": "1"])
        #expect(r.status == 75, "\(r.stderr)")
        #expect(r.stderr.contains("stopped answering: no reply within 7 s"), "\(r.stderr)")
        let unsent = await runProcess("/usr/bin/sqlite3", [home + "/data/vigil/vigil.sqlite3", "SELECT count(*) FROM sessions WHERE pushed <> 0"])
        #expect(unsent.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// psql as `role` (with `password`) on `database`; the status and output.
    func psql(_ statement: String, role: String, password: String, database: String) async -> (status: Int32, output: String) {
        await runProcess(
            "/usr/bin/env",
            [
                "PGPASSWORD=\(password)", "/usr/bin/psql", "-h", "127.0.0.1", "-p", String(server.port), "-U", role, "-d", database, "-X", "-q", "-t",
                "-A", "-v", "ON_ERROR_STOP=1", "-c", statement,
            ])
    }

    /// Two people with a database role each share a group database: both publish, each reads the
    /// other's figures, and neither can rewrite, zero, delete or impersonate the other's. A row of
    /// impossible figures written by hand is left out of everyone's report, which still works.
    @Test func eachGroupMemberWritesOnlyTheirOwnFigures() async throws {
        let group = try server.createDatabase()
        let suffix = String(group.suffix(6))
        let (ana, ben) = ("ana_" + suffix, "ben_" + suffix)
        // The setup docs/sync.md gives: a role per person, who may connect; the first to publish
        // makes the group's schema.
        try server.sql("CREATE ROLE \(ana) LOGIN PASSWORD 'ana-pw'; CREATE ROLE \(ben) LOGIN PASSWORD 'ben-pw'")
        try server.sql(
            "REVOKE CONNECT ON DATABASE \(group) FROM PUBLIC; GRANT CONNECT ON DATABASE \(group) TO \(ana), \(ben); GRANT CREATE ON DATABASE \(group) TO \(ana)"
        )
        var homes: [String: String] = [:]
        for (role, seed) in [(ana, "31"), (ben, "32")] {
            let home = freshHome()
            let alias = String(role.prefix(3))
            write(
                "sync:\n  url: \(server.url(try server.createDatabase()))\n  group: club\n  group_url: postgres://\(role):\(alias)-pw@127.0.0.1:\(server.port)/\(group)?sslmode=disable\n  alias: \(alias)\n",
                to: home + "/config/vigil/config.yaml")
            let simulated = try await vigil(["simulate", "--days", "10", "--seed", seed], home: home)
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let synced = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.contains("Published 30 days"), "\(synced.stdout) \(synced.stderr)")
            homes[alias] = home
        }
        func anaFigures() throws -> String {
            try server.sql(
                "SELECT count(*) || ' ' || sum(focused_minutes) || ' ' || min(owner) FROM vigil_group.days WHERE alias = 'ana'", database: group)
        }
        let anaBefore = try anaFigures()
        #expect(anaBefore.hasPrefix("30 ") && anaBefore.hasSuffix(" \(ana)"), "\(anaBefore)")
        let anaPerson = try server.sql("SELECT DISTINCT person FROM vigil_group.days WHERE alias = 'ana'", database: group)

        // Ben tries to zero, rewrite and delete ana's days, and to publish as her.
        let zero = await psql(
            "UPDATE vigil_group.days SET focused_minutes = 0 WHERE alias = 'ana' RETURNING 1", role: ben, password: "ben-pw", database: group)
        #expect(zero.status == 0 && zero.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(zero.output)")
        let delete = await psql("DELETE FROM vigil_group.days WHERE alias = 'ana' RETURNING 1", role: ben, password: "ben-pw", database: group)
        #expect(delete.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(delete.output)")
        for statement in [
            "INSERT INTO vigil_group.days (group_name, person, alias, day, focused_minutes, distracted_minutes, sessions, streak) VALUES ('club', '\(anaPerson)', 'ana', '2001-01-01', 0, 900, 1, 0)",
            "INSERT INTO vigil_group.days (group_name, person, alias, day, focused_minutes, distracted_minutes, sessions, streak, owner) VALUES ('club', gen_random_uuid(), 'ana', '2001-01-01', 0, 900, 1, 0, '\(ana)')",
            "UPDATE vigil_group.days SET owner = '\(ana)' WHERE alias = 'ben'",
        ] {
            let refused = await psql(statement, role: ben, password: "ben-pw", database: group)
            #expect(refused.status != 0 && refused.output.contains("row-level security"), "\(statement): \(refused.output)")
        }
        #expect(try anaFigures() == anaBefore)

        // A row of impossible figures (written by someone the policies do not bind) is left out.
        try server.sql(
            "INSERT INTO vigil_group.days (group_name, person, alias, day, focused_minutes, distracted_minutes, sessions, streak) VALUES ('club', gen_random_uuid(), 'mallory', current_date, 'Infinity', 'NaN', 2000000000, -1)",
            database: group)
        let compared = try await vigil(["report", "--group", "--format", "json"], home: homes["ben"]!, env: ["PGPASSWORD": server.password])
        #expect(compared.status == 0, "\(compared.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Any])
        let members = try #require(json["members"] as? [[String: Any]])
        #expect(Set(members.compactMap { $0["alias"] as? String }) == ["ana", "ben", "mallory"])
        let mallory = try #require(members.first { $0["alias"] as? String == "mallory" })
        #expect((mallory["skipped_days"] as? NSNumber)?.intValue == 1 && (mallory["focused_minutes"] as? NSNumber)?.doubleValue == 0, "\(mallory)")
        #expect(members.first { $0["alias"] as? String == "ana" }?["role"] as? String == ana)
        let text = try await vigil(["report", "--group"], home: homes["ana"]!, env: ["PGPASSWORD": server.password])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Left out: 1 of mallory"), "\(text.stdout)")
    }

    /// Rows written by hand on the server reach `vigil sync` on another computer: the bad ones are
    /// named with the device that made them and kept out, a habit day's status from a newer Vigil
    /// is kept and shown as unknown, and every command reading them still works.
    @Test func hostileRowsAreNamedAndAnUnknownHabitStatusBreaksNothing() async throws {
        let database = try server.createDatabase()
        let url = server.url(database)
        let env = ["PGPASSWORD": server.password]
        let laptop = freshHome()
        let desktop = freshHome()
        for (home, name) in [(laptop, "laptop"), (desktop, "desktop")] {
            write("sync:\n  url: \(url)\n", to: home + "/config/vigil/config.yaml")
            let named = try await vigil(["device", "--name", name], home: home)
            try #require(named.status == 0, "\(named.stderr)")
        }
        let now = ["--now", "2026-11-20T12:00:00Z"]
        let added = try await vigil(["habit", "add", "Run", "--every", "day", "--since", "2026-11-01"] + now, home: laptop)
        try #require(added.status == 0, "\(added.stderr)\(added.stdout)")
        let simulated = try await vigil(["simulate", "--days", "3", "--seed", "4"], home: laptop)
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let sent = try await vigil(["sync"], home: laptop, env: env)
        try #require(sent.status == 0, "\(sent.stderr)")
        // On the server: the habit's day in a status from a newer Vigil, and a session whose focused
        // time is 10^300 seconds.
        try server.sql(
            """
            INSERT INTO vigil.habit_days (origin_device, origin_id, sub, status, source, hlc, hlc_device)
                SELECT origin_device, origin_id, '20765', 'half-done', 'person', hlc + 1, origin_device FROM vigil.habits;
            UPDATE vigil.sessions SET focused_s = 1e300 WHERE origin_id = (SELECT min(origin_id) FROM vigil.sessions);
            """, database: database)
        let received = try await vigil(["sync"], home: desktop, env: env)
        #expect(received.status == 0, "\(received.stderr)")
        #expect(received.stdout.contains("Not taken: 1 row"), "\(received.stdout)")
        #expect(received.stdout.contains("from laptop (") && received.stdout.contains("focused_s"), "\(received.stdout)")
        // The daemon reminds of the habit due today: a notification service of the test's own.
        let bus = try SessionBus()
        let (service, _) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        for args in [["habit", "list"], ["habit", "show", "Run"], ["today"], ["daemon", "--once"], ["session", "list"], ["log"]] {
            let r = try await vigil(args + now, home: desktop, env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let shown = try await vigil(["habit", "show", "Run", "--json"] + now, home: desktop)
        #expect(shown.stdout.contains("\"unknown\""), "\(shown.stdout)")
        let check = try await vigil(["habit", "check", "Run"] + now, home: desktop)
        #expect(check.status == 0, "\(check.stderr)")
    }
}
