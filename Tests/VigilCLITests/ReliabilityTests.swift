import Foundation
import TestSupport
import Testing

/// Faults on real processes: a session killed with SIGKILL, two sessions started at once.
@Suite struct ReliabilityTests {
    static let scenario = repo + "/Samples/coffee-break/session.jsonl"

    /// The running session's status file, what `vigil status` reads (read directly: polling ten
    /// times a second with a new process each time would load the machine it waits on).
    func statusJSON(_ home: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: home + "/d/running-session.json") else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// Killed with SIGKILL in the middle of a distraction episode: everything logged before the
    /// kill is there, the next start closes the session as interrupted at its last sign of life,
    /// and the statistics count it.
    @Test func aSessionKilledWithSIGKILLIsClosedAsInterruptedOnTheNextStart() async throws {
        let home = freshHome()
        // At 10x the alarm is on for about 70 s, and a machine too busy to run the session for
        // 9 s (a gap at 10x) is rare: the poll sees the alarm on a loaded machine too.
        let p = try background(
            vigilBinary,
            ["start", "--replay", Self.scenario, "--pace", "10", "--minutes", "25", "--task", "slides", "--log", "--data-dir", home + "/d"],
            home: home
        ).process
        // Watched and killed from a thread of its own: with both cores busy, a task on the
        // cooperative pool could be starved past the alarm's whole minute on screen, or past the
        // session's end (full runs under load missed the one, then the other).
        let (pid, status) = (p.pid, home + "/d/running-session.json")
        let elapsedAtKill = await offPool { () -> Double in
            let deadline = ContinuousClock.now + .seconds(300)
            while p.isRunning, ContinuousClock.now < deadline {
                usleep(50_000)
                if let data = FileManager.default.contents(atPath: status),
                    let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any], (s["alarms"] as? Int ?? 0) >= 1
                {
                    kill(pid, SIGKILL)
                    return s["elapsed_s"] as? Double ?? 0
                }
            }
            return 0
        }
        #expect(elapsedAtKill >= 12 * 60, "the episode and its first alarm were on screen (at \(elapsedAtKill) s)")
        await p.exited()
        #expect(p.signal == SIGKILL)
        // What the session's status file said last (it is left behind by a killed session): on
        // a loaded machine the kill can come seconds after the poll above, tens of session seconds.
        let elapsedLast = try #require(statusJSON(home)?["elapsed_s"] as? Double)

        // Before the next start: logged up to the kill, not closed.
        var log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home).stdout
        #expect(log.contains("\"outcome\":null") && log.contains("\"cause\":\"away\""), "\(log)")

        let next = try await vigil(["start", "--minutes", "0.02", "--data-dir", home + "/d"], home: home)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("session 1 had not been saved as ended"), "\(next.stderr)")
        log = try await vigil(["log", "--json", "--limit", "5", "--source", "all", "--data-dir", home + "/d"], home: home).stdout
        let first = try #require(
            jsonRecords(log).first { $0["id"] as? Int == 1 })
        #expect(first["outcome"] as? String == "interrupted")
        // Closed at its last sign of life: within the 10 s heartbeat (and a screen refresh) of
        // what the status file showed, never later than the kill.
        func date(_ text: String?) -> Date? {
            guard let text else { return nil }
            let f = ISO8601DateFormatter()
            if let d = f.date(from: text) { return d }
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.date(from: text)
        }
        let start = try #require(date(first["start"] as? String))
        let end = try #require(date(first["end"] as? String))
        let length = end.timeIntervalSince(start)
        #expect(length >= elapsedLast - 30 && length <= elapsedLast + 15, "closed at \(length) s; the status said \(elapsedLast) s last")
        #expect((first["focused_s"] as? Double ?? 0) >= 7 * 60, "\(first)")
        let episodes = first["episodes"] as? [[String: Any]] ?? []
        #expect(episodes.count == 1 && episodes[0]["end"] as? String != nil, "the open episode is closed too: \(episodes)")

        // The report counts the interrupted rehearsal when asked to (at the recording's times, in
        // March 2026), with the live session after it; by default only the live one.
        let report = try await vigil(
            ["report", "--last", "all", "--format", "json", "--time-zone", "UTC", "--source", "all", "--data-dir", home + "/d"], home: home)
        let totals = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["totals"] as? [String: Any])
        #expect(totals["interrupted"] as? Int == 1 && totals["sessions"] as? Int == 2, "\(totals)")
        #expect((totals["focused_minutes"] as? Double ?? 0) >= 7)
        let own = try await vigil(["report", "--last", "all", "--format", "json", "--time-zone", "UTC", "--data-dir", home + "/d"], home: home)
        let ownTotals = try #require((try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [String: Any])?["totals"] as? [String: Any])
        #expect(ownTotals["interrupted"] as? Int == 0 && ownTotals["sessions"] as? Int == 1, "\(ownTotals)")
    }

    /// A status file whose pid no session can have (a process group, or more than pid_t holds), or
    /// one no session holds the lock for, is no session: `status` and `stop` say so and signal nothing. (The test never writes -1 or 1:
    /// should the guard break, kill(-1) would end every process of the user and kill(1) init.)
    @Test func aStatusFileWithAnImpossiblePidIsNoSession() async throws {
        let home = freshHome()
        try FileManager.default.createDirectory(atPath: home + "/d", withIntermediateDirectories: true)
        for pid in ["0", "-7", "99999999999", "2147483648", "1e3", "\"12\""] {
            let status =
                #"{"alarms":0,"elapsed_s":5,"episodes":0,"pid":"# + pid
                + #","planned_s":null,"score":0,"started":"2026-03-02T09:00:00Z","state":"focused","task":null,"updated":0}"#
            try status.write(toFile: home + "/d/running-session.json", atomically: true, encoding: .utf8)
            let shown = try await vigil(["status", "--data-dir", home + "/d"], home: home)
            #expect(shown.status == 1 && shown.stdout.contains("No focus session is running"), "pid \(pid): \(shown.stdout)\(shown.stderr)")
            let stopped = try await vigil(["stop", "--data-dir", home + "/d"], home: home)
            #expect(stopped.status == 1 && stopped.stdout.contains("No focus session is running"), "pid \(pid): \(stopped.stdout)\(stopped.stderr)")
        }
        // A live process that is no session (a status file left behind, or planted in a shared
        // directory): no session holds the lock, so `stop` leaves it alone.
        let bystander = try background("/bin/sleep", ["120"], home: home).process
        defer { bystander.terminate() }
        let planted =
            #"{"alarms":0,"elapsed_s":5,"episodes":0,"pid":\#(bystander.pid),"planned_s":null,"score":0,"#
            + #""started":"2026-03-02T09:00:00Z","state":"focused","task":null,"updated":0}"#
        try planted.write(toFile: home + "/d/running-session.json", atomically: true, encoding: .utf8)
        let stopped = try await vigil(["stop", "--data-dir", home + "/d"], home: home)
        #expect(stopped.status == 1 && stopped.stdout.contains("No focus session is running"), "\(stopped.stdout)\(stopped.stderr)")
        #expect(bystander.isRunning, "the bystander was not signalled")
    }

    /// Files dated where the time type cannot go (a modification time in 9999, as a restored
    /// backup or a broken clock leaves): their times are unknown, not a crash (SIGILL before).
    @Test func aFileDatedInTheYear9999IsReadNotACrash() async throws {
        let home = freshHome()
        let wav = home + "/far.wav"
        let yml = home + "/far.yml"
        try FileManager.default.copyItem(atPath: repo + "/Tests/VigilAudioTests/Data/1770-2_Comp_AbsGateTest.wav", toPath: wav)
        try FileManager.default.copyItem(atPath: repo + "/Tests/InputDetectorTests/Data/mouse.yml", toPath: yml)
        let far = try #require(ISO8601DateFormatter().date(from: "9999-06-01T00:00:00Z"))
        for file in [wav, yml] { try FileManager.default.setAttributes([.modificationDate: far], ofItemAtPath: file) }
        let inspected = try await vigil(["inspect", wav, yml], home: home)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let replayed = try await vigil(["replay", wav], home: home)
        #expect(replayed.status == 0 && replayed.stdout.contains("ended"), "\(replayed.stderr)")
    }

    /// Empty paths are mistakes, said as such: `--data-dir ""` once put the log at
    /// /vigil.sqlite3, and `--config ""` meant the defaults without a word.
    @Test func emptyPathsAreUsageErrors() async throws {
        let home = freshHome()
        for (option, command) in [("--data-dir", ["log"]), ("--data-dir", ["task", "add", "x"]), ("--config", ["report"]), ("--config", ["start"])] {
            let r = try await vigil(command + [option, ""], home: home)
            #expect(r.status == 64, "\(command) \(option) \"\": \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("\(option): the path is empty"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home + "/data/vigil/vigil.sqlite3"), "nothing is stored")
    }

    /// One-character relative paths, as people type them (`--data-dir d`): Foundation's
    /// NSString path methods trap on them, which made every command that creates the data
    /// directory die with SIGILL.
    @Test func oneCharacterRelativePathsWork() async throws {
        let home = freshHome()
        let added = try await vigil(["task", "add", "Slides", "--data-dir", "d"], home: home, in: home)
        #expect(added.status == 0, "\(added.stderr)")
        let replayed = try await vigil(
            ["replay", "--log", "--data-dir", "d", repo + "/Samples/coffee-break/session.jsonl"], home: home, in: home)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let listed = try await vigil(["log", "--source", "all", "--data-dir", "d"], home: home, in: home)
        #expect(listed.status == 0 && listed.stdout.contains("#1"), "\(listed.stdout)\(listed.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/d/vigil.sqlite3"))
    }

    /// A damaged recording is refused by a rehearsal as by a replay: its file and line, exit 65,
    /// and nothing logged (a rehearsal once took the damage for the recording's end and logged a
    /// "completed" session, exit 0).
    @Test func aDamagedRecordingIsRefusedByARehearsalAsByAReplay() async throws {
        let home = freshHome()
        var lines = try String(contentsOfFile: repo + "/Samples/coffee-break/session.jsonl", encoding: .utf8).split(separator: "\n")
        lines[499] = "{\"t\": 600, \"kind\": \"audio\", \"rms\": "
        let damaged = home + "/damaged.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        try await expectRefusedAsDamaged(damaged, line: 500, home: home)
    }

    /// A log written by a newer Vigil (a migration this version does not know) is neither read nor
    /// written: its rows may mean what this version cannot tell. The file is left as it was.
    @Test func aLogFromANewerVigilIsRefusedAndLeftAlone() async throws {
        let home = freshHome()
        let dir = home + "/d"
        let added = try await vigil(["task", "add", "Slides", "--data-dir", dir], home: home)
        try #require(added.status == 0, "\(added.stderr)")
        let sql = await runProcess("/usr/bin/sqlite3", [dir + "/vigil.sqlite3", "INSERT INTO grdb_migrations VALUES ('v99: from the future')"])
        try #require(sql.status == 0, "\(sql.output)")
        // Its rows, as sqlite3 dumps them (SQLite itself may touch the header on any open).
        func dump() async -> String { await runProcess("/usr/bin/sqlite3", [dir + "/vigil.sqlite3", ".dump"]).output }
        let before = await dump()
        for command in [["log"], ["task", "list"], ["task", "add", "More"], ["report"], ["export", "--all"], ["simulate", "--days", "3"]] {
            let r = try await vigil(command + ["--data-dir", dir], home: home)
            #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("newer version of Vigil") && r.stderr.contains("v99: from the future"), "\(command): \(r.stderr)")
        }
        let after = await dump()
        #expect(after == before && after.contains("Slides"), "the log is unchanged")
    }

    /// Two recordings as far apart as the supported dates allow (1970 and the end of 2199, 230
    /// years; each valid alone) replay together as one session with a gap between them. Before
    /// the dates were bounded, two more than 292 years apart wrapped the nanosecond difference and
    /// `replay` spun at 100 % CPU forever; the bound keeps every difference inside 64 bits.
    @Test func recordingsTheWholeSupportedRangeApartReplayAsOneSessionWithAGap() async throws {
        let home = freshHome()
        let body = try String(contentsOfFile: repo + "/Samples/coffee-break/session.jsonl", encoding: .utf8).split(separator: "\n").dropFirst()
            .prefix(40)
        for (name, start) in [("first", "1970-01-01T00:00:00Z"), ("last", "2199-12-31T23:00:00Z")] {
            let text = ([#"{"vigil":"recording","version":1,"start":"\#(start)"}"#] + body.map(String.init)).joined(separator: "\n") + "\n"
            try text.write(toFile: "\(home)/\(name).jsonl", atomically: true, encoding: .utf8)
        }
        let r = try await vigil(["replay", home + "/first.jsonl", home + "/last.jsonl", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("gap           no samples for 2016142 h 59 min"), "\(r.stdout.suffix(800))")
        #expect(r.stdout.contains("ended         completed"))
        let beyond = try String(contentsOfFile: home + "/last.jsonl", encoding: .utf8).replacingOccurrences(
            of: "2199-12-31T23", with: "2200-01-01T00")
        try beyond.write(toFile: home + "/beyond.jsonl", atomically: true, encoding: .utf8)
        let refused = try await vigil(["replay", home + "/first.jsonl", home + "/beyond.jsonl", "--data-dir", home + "/d"], home: home)
        #expect(
            refused.status == 65 && refused.stderr.contains("beyond.jsonl:1") && refused.stderr.contains("outside the dates Vigil supports"),
            "\(refused.stderr)")
    }

    /// Dates an older Vigil stored before it checked them (a task "someday", due 9999-12-31; a
    /// session dated past 2262, a habit's day in the year 9999) are read as the nearest supported
    /// date by every command that shows them: no trap on every run until the row is deleted.
    @Test func datesAnOlderVigilStoredOutOfRangeAreReadNotATrap() async throws {
        let home = freshHome()
        let dir = home + "/d"
        for add in [["task", "add", "someday", "--due", "2199-12-31"], ["habit", "add", "Read"], ["simulate", "--days", "3"]] {
            let r = try await vigil(add + ["--data-dir", dir, "--now", "2026-11-20T09:00:00Z"], home: home)
            try #require(r.status == 0, "\(add): \(r.stderr)")
        }
        // As an older version wrote them: 9999-12-31 as a day, and in milliseconds.
        let statements = [
            "UPDATE tasks SET due_day = 2932896, due_minute = 600;",
            "UPDATE habits SET created_day = 2932896;",
            "INSERT INTO habit_days (habit_id, day, status, source) VALUES (1, 2932896, 'done', 'manual');",
            "UPDATE sessions SET started_ms = 253402214400000, ended_ms = 253402214460000, last_event_ms = 253402214460000",
            "  WHERE id = (SELECT max(id) FROM sessions);",
            "UPDATE episodes SET started_ms = 253402214400000, ended_ms = 253402214460000 WHERE session_id = (SELECT max(id) FROM sessions);",
        ]
        let sql = await runProcess("/usr/bin/sqlite3", [dir + "/vigil.sqlite3", statements.joined(separator: "\n")])
        try #require(sql.status == 0, "\(sql.output)")
        for command in [
            ["task", "list"], ["task", "show", "1"], ["task", "why", "1"], ["next"], ["today"], ["habit", "list"], ["habit", "show", "1"], ["log"],
            ["session", "list", "--last", "all", "--source", "all"], ["report"], ["report", "--format", "json"], ["export", "--all"],
        ] {
            let r = try await vigil(command + ["--data-dir", dir, "--now", "2026-11-20T09:00:00Z"], home: home)
            #expect(r.status == 0, "\(command): \(r.status) \(r.stderr.suffix(600))")
        }
        let shown = try await vigil(["task", "show", "1", "--data-dir", dir], home: home)
        #expect(shown.stdout.contains("2199-12-31"), "the farthest date Vigil plans with: \(shown.stdout)")
    }

    /// A log this user may read but not write (a copy on read-only media, another account's log
    /// shared read-only) is read by the commands that only read, and refused clearly by the others.
    @Test func aReadOnlyLogIsReadByTheCommandsThatOnlyRead() async throws {
        let home = freshHome()
        let dir = home + "/d"
        let made = try await vigil(["simulate", "--days", "5", "--data-dir", dir], home: home)
        try #require(made.status == 0, "\(made.stderr)")
        // Root may write any file: the commands run as nobody, owning the (read-only) log.
        let asRoot = getuid() == 0
        if asRoot {
            for path in [home, dir] { chmod(path, 0o755) }
            _ = await runProcess("/bin/chown", ["-R", "nobody", dir])
        }
        chmod(dir + "/vigil.sqlite3", 0o400)
        chmod(dir, 0o500)
        defer { chmod(dir, 0o700) }
        func run(_ args: [String]) async -> (status: Int32, output: String) {
            let command = [vigilBinary] + args + ["--data-dir", dir]
            let r = await runProcess(
                asRoot ? "/usr/sbin/runuser" : command[0], asRoot ? ["-u", "nobody", "--"] + command : Array(command.dropFirst()))
            return (r.status, r.output)
        }
        for command in [["log"], ["report", "--last", "7d"], ["export", "--all"], ["apps"]] {
            let r = await run(command)
            #expect(r.status == 0, "\(command): \(r.output)")
        }
        let listed = await run(["log"])
        #expect(listed.output.contains("#1"), "\(listed.output)")
        let added = await run(["task", "add", "x"])
        #expect(added.status != 0 && added.output.contains("not writable"), "\(added.output)")
    }

    /// A data directory that is not the person's is refused for writing, as ssh refuses a key
    /// others could change: one others may write to, a log others may write, one another user
    /// owns. Nothing is written there; a command that only reads reads it and says why only that.
    @Test func aDataDirectoryThatIsNotYoursIsNotWritten() async throws {
        let home = freshHome()
        let dir = home + "/d"
        let made = try await vigil(["task", "add", "Slides", "--data-dir", dir], home: home)
        try #require(made.status == 0, "\(made.stderr)")
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }
        let before = try files()
        let log = dir + "/vigil.sqlite3"
        for (path, mode, words) in [(dir, 0o777, "chmod go-w \(dir)"), (dir, 0o720, "chmod go-w \(dir)"), (log, 0o666, "chmod 600 \(log)")] {
            chmod(path, mode_t(mode))
            defer { chmod(path, path == dir ? 0o700 : 0o600) }
            let added = try await vigil(["task", "add", "Other", "--data-dir", dir], home: home)
            #expect(added.status == 73, "\(String(mode, radix: 8)): \(added.status) \(added.stderr)")
            #expect(added.stderr.contains("others may write") && added.stderr.contains(words), "\(added.stderr)")
            #expect(added.stderr.contains("nothing was written"), "\(added.stderr)")
            let listed = try await vigil(["log", "--data-dir", dir], home: home)
            #expect(listed.status == 0, "\(listed.stdout) \(listed.stderr)")
            #expect(listed.stderr.contains("reading it only"), "\(listed.stderr)")
            #expect(try files() == before)
        }
        // Another user's: refused even to root, whose files there its owner could not write. As
        // another user than root, a directory of root's stands in for it.
        let other = getuid() == 0 ? dir : "/var/tmp"
        if getuid() == 0 { _ = await runProcess("/bin/chown", ["-R", "nobody", dir]) }
        let added = try await vigil(["task", "add", "Other", "--data-dir", other], home: home)
        #expect(added.status == 73, "\(added.status) \(added.stderr)")
        #expect(added.stderr.contains("is not yours") && added.stderr.contains(getuid() == 0 ? "nobody" : "root"), "\(added.stderr)")
        if getuid() == 0 {
            #expect(try files() == before)
            let listed = try await vigil(["log", "--data-dir", dir], home: home)
            #expect(listed.status == 0, "\(listed.stdout) \(listed.stderr)")
            #expect(listed.stderr.contains("is not yours") && listed.stderr.contains("reading it only"), "\(listed.stderr)")
        }
    }

    /// A damaged log says what to do, not only SQLite's "file is not a database".
    @Test func aDamagedLogSaysHowToRecover() async throws {
        let home = freshHome()
        let dir = home + "/d"
        let made = try await vigil(["task", "add", "Slides", "--data-dir", dir], home: home)
        try #require(made.status == 0, "\(made.stderr)")
        let handle = try #require(FileHandle(forUpdatingAtPath: dir + "/vigil.sqlite3"))
        try handle.write(contentsOf: Data("not SQLite at all, sorry".utf8))
        try handle.close()
        let r = try await vigil(["log", "--data-dir", dir], home: home)
        #expect(r.status == 65, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains(".recover") && r.stderr.contains("backup"), "\(r.stderr)")
    }

    /// Two `vigil start` at the same instant: one runs, the other is told so; the log is sound.
    @Test func twoSessionsStartedAtOnceOneIsRefused() async throws {
        let home = freshHome()
        _ = try await vigil(["config", "paths", "--data-dir", home + "/d"], home: home)
        try FileManager.default.createDirectory(atPath: home + "/d", withIntermediateDirectories: true)
        let args = ["start", "--replay", Self.scenario, "--pace", "30", "--minutes", "25", "--log", "--data-dir", home + "/d"]
        let outs = [home + "/a.err", home + "/b.err"]
        // Both started before either is looked at, each with its standard error in a file.
        let ps = try outs.map { try background(vigilBinary, args, home: home, stderr: $0).process }
        // The refused one ends at once; stop the other.
        var refused: Int?
        let deadline = ContinuousClock.now + .seconds(300)
        while refused == nil, ContinuousClock.now < deadline {
            refused = ps.firstIndex { !$0.isRunning }
            if refused == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let r = try #require(refused)
        #expect(await ps[r].exited() == 1)
        let said = (try? String(contentsOfFile: outs[r], encoding: .utf8)) ?? ""
        #expect(said.contains("a session is already running") && said.contains("vigil stop"), "\(said)")
        let other = ps[1 - r]
        #expect(other.isRunning)
        _ = try await vigil(["stop", "--data-dir", home + "/d"], home: home)
        #expect(await other.exited() == 0)
        let check = await integrityCheck(home + "/d/vigil.sqlite3")
        #expect(check == "ok\n", "\(check)")
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home).stdout
        #expect(jsonRecords(log).count == 1 && log.contains("\"outcome\":\"abandoned\""), "\(log)")
    }
}
