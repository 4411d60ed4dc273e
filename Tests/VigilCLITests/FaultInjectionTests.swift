import Foundation
import TestSupport
import Testing

/// Faults injected into whole sessions of the real binary: a long day of sensor faults, a log that
/// cannot be written for a while (or at all), a wall clock that jumps. After each, the log must be
/// consistent with what the session printed and with itself.
@Suite struct FaultInjectionTests {
    static let scenario = repo + "/Samples/coffee-break/session.jsonl"

    /// Every table of the log, through `vigil export --all`.
    func exported(_ home: String, _ dataDir: String) async throws -> [String: [[String: Any]]] {
        let r = try await vigil(["export", "--all", "--data-dir", dataDir], home: home)
        try #require(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return try #require(json["tables"] as? [String: [[String: Any]]])
    }

    func timeline(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The log of the one session in `tables` says what its printed timeline says, and adds up.
    func expectConsistent(_ tables: [String: [[String: Any]]], with events: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation) {
        func count(_ name: String) -> Int { events.filter { $0["event"] as? String == name }.count }
        func ms(_ v: Any?) -> Int64? { (v as? NSNumber)?.int64Value }
        func seconds(_ v: Any?) -> Double { (v as? NSNumber)?.doubleValue ?? .nan }
        guard let session = tables["sessions"]?.first, tables["sessions"]?.count == 1,
            let ended = events.last, ended["event"] as? String == "session_ended"
        else {
            Issue.record("one session, ended, expected: \(tables["sessions"] ?? [])", sourceLocation: sourceLocation)
            return
        }
        // Everything printed is in the log.
        #expect(tables["state_changes"]?.count == count("state"), sourceLocation: sourceLocation)
        #expect(tables["episodes"]?.count == count("episode_started"), sourceLocation: sourceLocation)
        #expect(tables["alarms"]?.count == count("alarm"), sourceLocation: sourceLocation)
        #expect(tables["sensor_events"]?.count == count("sensor"), sourceLocation: sourceLocation)
        #expect(tables["gaps"]?.count == count("gap"), sourceLocation: sourceLocation)
        #expect(session["outcome"] as? String == ended["outcome"] as? String, sourceLocation: sourceLocation)
        for key in ["active", "focused", "distracted", "paused"] {
            #expect(abs(seconds(session[key + "_s"]) - seconds(ended[key])) < 0.002, "\(key)", sourceLocation: sourceLocation)
        }
        // Totals add up: judged time is focused plus distracted; the session is judged time,
        // pauses and gaps; distracted time is the episodes'.
        let start = ms(session["started_ms"]) ?? 0
        let end = ms(session["ended_ms"]) ?? 0
        let active = seconds(session["active_s"])
        #expect(abs(seconds(session["focused_s"]) + seconds(session["distracted_s"]) - active) < 0.01, sourceLocation: sourceLocation)
        #expect(
            abs(active + seconds(session["paused_s"]) + seconds(session["gap_s"]) - Double(end - start) / 1000) < 0.01, sourceLocation: sourceLocation
        )
        let episodes = (tables["episodes"] ?? []).sorted { ms($0["started_ms"]) ?? 0 < ms($1["started_ms"]) ?? 0 }
        var distracted = 0.0
        for (i, e) in episodes.enumerated() {
            guard let from = ms(e["started_ms"]), let to = ms(e["ended_ms"]) else {
                Issue.record("episode \(i + 1) is not closed: \(e)", sourceLocation: sourceLocation)
                continue
            }
            #expect(from >= start && to <= end && from <= to, "episode \(e)", sourceLocation: sourceLocation)
            #expect(e["closed_by"] is String, sourceLocation: sourceLocation)
            if i + 1 < episodes.count, let next = ms(episodes[i + 1]["started_ms"]) {
                #expect(to <= next, "episodes \(i + 1) and \(i + 2) overlap", sourceLocation: sourceLocation)
            }
            distracted += Double(to - from) / 1000
        }
        #expect(abs(distracted - seconds(session["distracted_s"])) < 0.01, sourceLocation: sourceLocation)
        // Every alarm was cleared (back at work) or closed with its episode, never before it fired.
        for a in tables["alarms"] ?? [] {
            guard let at = ms(a["at_ms"]), let cleared = ms(a["cleared_ms"]) else {
                Issue.record("alarm left open: \(a)", sourceLocation: sourceLocation)
                continue
            }
            #expect(at <= cleared && cleared <= end, sourceLocation: sourceLocation)
        }
    }

    /// Eight hours with faults (Data/soak_day.py: keyboard unplugged, PulseAudio dead, gpsd dead,
    /// the laptop suspended, pauses, a snooze, six distraction episodes, the last still open at
    /// the end), replayed into the log and run as a live session at 1200x. Both logs are
    /// consistent with their timelines and with themselves, and the report counts what they hold.
    @Test func aLongDayWithFaultsLeavesAConsistentLog() async throws {
        let home = freshHome()
        let day = home + "/day.jsonl"
        let made = await runProcess("/usr/bin/python3", [repo + "/Tests/VigilCLITests/Data/soak_day.py", day, "1"])
        try #require(made.status == 0, "\(made.output)")
        async let replayed = vigil(["replay", "--log", "--json", "--minutes", "480", "--data-dir", home + "/replay", day], home: home)
        // At 1200x the default 90-second gap is 75 ms of wall time: a loaded machine stalling that
        // long would book a gap the test did not make. Ten minutes (half a second of wall time) still
        // books the half-hour suspend, and no stall of a busy CI machine.
        let tolerant = home + "/tolerant.yaml"
        try "session:\n  gap: 10m\n".write(toFile: tolerant, atomically: true, encoding: .utf8)
        async let live = vigil(
            [
                "start", "--replay", day, "--pace", "1200", "--minutes", "480", "--json", "--log", "--config", tolerant, "--data-dir",
                home + "/live",
            ], home: home)
        for (run, dir) in [(try await replayed, "/replay"), (try await live, "/live")] {
            #expect(run.status == 0, "\(dir): \(run.stderr)")
            let events = timeline(run.stdout)
            let tables = try await exported(home, home + dir)
            expectConsistent(tables, with: events)
            // The faults reached the log as the detectors reported them.
            let sensors = (tables["sensor_events"] ?? []).map { "\($0["sensor"] ?? "") \($0["state"] ?? "")" }
            #expect(
                sensors == ["input unavailable", "input available", "audio lost", "audio available", "location lost", "location available"], "\(dir)")
            #expect((tables["episodes"]?.count ?? 0) >= 6, "\(dir)")
            // Both close the last absence at the session's end. (The live run at 1200x once closed
            // it as "back" on a loaded machine: the recording's samples fell behind the session's
            // clock and the plan ran out first. A rehearsal's clock now waits for its recording.)
            let closer = (tables["episodes"] ?? []).last?["closed_by"] as? String
            #expect(closer == "ended", "\(dir): the last absence is closed by the session's end")
            #expect(tables["snoozes"]?.count == 1, "\(dir)")
            // The statistics, computed from the log's events rather than the session's totals, agree.
            // (Both runs are at the recording's own times, March 2026.)
            let report = try await vigil(
                [
                    "report", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "json", "--time-zone", "UTC", "--source", "all",
                    "--data-dir", home + dir,
                ], home: home)
            let totals = try #require(
                (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["totals"] as? [String: Any])
            let session = try #require(tables["sessions"]?.first)
            for key in ["focused", "distracted"] {
                let fromReport = (totals["\(key)_minutes"] as? NSNumber)?.doubleValue ?? .nan
                let fromLog = ((session["\(key)_s"] as? NSNumber)?.doubleValue ?? .nan) / 60
                #expect(abs(fromReport - fromLog) < 0.05, "\(dir) \(key): report \(fromReport) min, log \(fromLog) min")
            }
            #expect(totals["alarms"] as? Int == tables["alarms"]?.count, "\(dir)")
        }
        // The replay books the suspend as a gap (a live session books a stalled clock instead).
        let replayTables = try await exported(home, home + "/replay")
        #expect(replayTables["gaps"]?.count == 1)
        // However loaded the machine, the rehearsal judged every sample at its place in the
        // recording: it has the replay's episodes, to the millisecond, and more only where the
        // replay saw the suspend (live, the silence is nobody at the keyboard).
        func episodes(_ tables: [String: [[String: Any]]]) -> [String] {
            (tables["episodes"] ?? []).map { "\($0["started_ms"] ?? "")-\($0["ended_ms"] ?? "") \($0["closed_by"] ?? "")" }
        }
        let liveTables = try await exported(home, home + "/live")
        let fromReplay = episodes(replayTables)
        let suspend = try #require(replayTables["gaps"]?.first)
        let (from, to) = ((suspend["from_ms"] as? NSNumber)?.int64Value ?? 0, (suspend["to_ms"] as? NSNumber)?.int64Value ?? 0)
        let extra = (liveTables["episodes"] ?? []).filter { !fromReplay.contains(episodes(["episodes": [$0]])[0]) }
        #expect(
            episodes(liveTables).filter(fromReplay.contains) == fromReplay,
            "the live run's episodes \(episodes(liveTables)) hold the replay's \(fromReplay)")
        for e in extra {
            let start = (e["started_ms"] as? NSNumber)?.int64Value ?? 0
            #expect(start >= from - 60_000 && start < to, "an episode only the live run has, outside the suspend: \(e)")
        }
    }

    /// The data directory's file system fills up during a session (a file-size limit, set with
    /// prlimit, makes every write past it fail as a full disk does): the session goes on with its
    /// alarms, says so, keeps its events in memory, and once space is back (the limit lifted on
    /// the running process) writes them all. With the limit never lifted, the loss is reported
    /// with its count, the exit code is 74, and the log is intact.
    @Test func aFullDiskDuringASessionLosesNothingOnceThereIsRoomAgain() async throws {
        let home = freshHome()
        for dir in ["/d", "/full"] {
            let made = try await vigil(["task", "add", "Slides", "--data-dir", home + dir], home: home)
            try #require(made.status == 0, "\(made.stderr)")
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: home + "/d/vigil.sqlite3")[.size] as? Int)
        // Room for the database as it is and a few pages more: the session's writes soon fail.
        let limit = "--fsize=\(size + 8192):unlimited"
        let args = ["start", "--replay", Self.scenario, "--pace", "30", "--minutes", "25", "--json", "--log"]
        let recovering = try background("/usr/bin/prlimit", [limit, vigilBinary] + args + ["--data-dir", home + "/d"], home: home)
        let full = try background("/usr/bin/prlimit", [limit, vigilBinary] + args + ["--data-dir", home + "/full"], home: home)

        // The first alarm fires while the log cannot be written...
        #expect(try await eventually(120) { recovering.said.contains("cannot write the event log") }, "\(recovering.said)")
        #expect(try await eventually(120) { recovering.printed.contains("\"event\":\"alarm\"") })
        #expect(recovering.process.isRunning && !recovering.said.contains("written again"))
        // ...then there is room again.
        let lifted = await runProcess("/usr/bin/prlimit", ["--pid", String(recovering.process.pid), "--fsize=unlimited:unlimited"])
        #expect(lifted.status == 0, "\(lifted.output)")
        let recovered = await recovering.process.exited()
        let filled = await full.process.exited()

        #expect(recovered == 0, "\(recovering.said)")
        #expect(recovering.said.contains("the event log is written again"), "\(recovering.said)")
        let events = timeline(recovering.printed)
        #expect(events.contains { $0["event"] as? String == "episode_started" })
        expectConsistent(try await exported(home, home + "/d"), with: events)

        // Never lifted: reported, not a crash; the log is sound and still usable.
        #expect(filled == 74, "\(full.said)")
        #expect(full.said.contains("of its events could not be logged and are lost"), "\(full.said)")
        #expect(
            full.printed.contains("\"event\":\"alarm\"") && full.printed.contains("\"event\":\"session_ended\""),
            "the session ran to its end with its alarms")
        let check = await integrityCheck(home + "/full/vigil.sqlite3")
        #expect(check == "ok\n", "\(check)")
        let tasks = try await vigil(["task", "list", "--data-dir", home + "/full"], home: home)
        #expect(tasks.status == 0 && tasks.stdout.contains("Slides"), "\(tasks.stderr)")
    }

    /// Standard error on a full disk (/dev/full: every write fails with ENOSPC), standard output a
    /// pipe nobody reads any more: the messages are lost, the session is not. (Foundation's
    /// FileHandle.write traps on such a failure and SIGPIPE would end the process; Vigil's own
    /// writes drop the text, and a session ignores SIGPIPE.)
    @Test func unwritableStandardOutputAndErrorNeverEndASession() async throws {
        let home = freshHome()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        // Only the child gets the write end (as its standard output), not others started meanwhile.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let p = try background(
            vigilBinary, ["start", "--replay", Self.scenario, "--pace", "300", "--minutes", "25", "--log", "--data-dir", home + "/d"], home: home,
            stderr: "/dev/full", descriptors: [1: ends[1]])
        close(ends[1])
        let status = await p.process.exited()
        #expect(status == 0 && p.process.signal == nil, "\(status)")
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("\"outcome\":\"completed\"") && log.stdout.contains("\"cause\":\"away\""), "\(log.stdout)")
    }

    /// The wall clock jumps during a session (NTP, a manual change), forward three days and back
    /// two hours, through a small LD_PRELOAD shim (Data/wall_clock_shift.c, which says why not the
    /// machine's clock or libfaketime): the session's times and durations come from a monotonic
    /// clock, so the log holds the same 25 minutes with no negative or giant episode. The jump is
    /// real for the process: a task added under the same shifted clock is dated two hours back.
    @Test func wallClockJumpsDoNotBendTheSession() async throws {
        let home = freshHome()
        let shim = try await buildShim("wall_clock_shift", in: home)
        let shift = home + "/shift"
        func jump(_ seconds: Int) throws { try "\(seconds)\n".write(toFile: shift, atomically: true, encoding: .utf8) }
        try jump(0)
        let env = ["LD_PRELOAD": shim, "VIGIL_TEST_CLOCK_SHIFT": shift]
        let session = try background(
            vigilBinary, ["start", "--replay", Self.scenario, "--pace", "30", "--minutes", "25", "--json", "--log", "--data-dir", home + "/d"],
            home: home, env: env)
        #expect(try await eventually(120) { session.printed.contains("\"event\":\"episode_started\"") }, "\(session.said)")
        try jump(3 * 86_400)
        #expect(try await eventually(120) { session.printed.contains("\"event\":\"alarm\"") }, "\(session.said)")
        try jump(-7200)
        #expect(await session.process.exited() == 0, "\(session.said)")

        let events = timeline(session.printed)
        let tables = try await exported(home, home + "/d")
        expectConsistent(tables, with: events)
        let row = try #require(tables["sessions"]?.first)
        let started = (row["started_ms"] as? NSNumber)?.int64Value ?? 0
        let ended = (row["ended_ms"] as? NSNumber)?.int64Value ?? 0
        // 25 minutes, whatever the wall clock did (a replayed session ends with its recording,
        // which a busy machine can deliver a few session seconds early at 30x).
        #expect(abs(ended - started - 1_500_000) < 5_000, "\(ended - started) ms")
        // A logged rehearsal is dated at the recording's own start (2026-03-03T14:00:00Z), whatever
        // the wall clock says: its times are session time from there.
        #expect(started == 1_772_546_400_000, "dated at the recording's start: \(started)")
        var previous = -1.0
        for e in events {
            let elapsed = (e["elapsed"] as? NSNumber)?.doubleValue ?? -1
            #expect(elapsed >= previous && elapsed <= 1500, "\(e)")
            previous = elapsed
        }
        for e in tables["episodes"] ?? [] {
            let length = Double(((e["ended_ms"] as? NSNumber)?.int64Value ?? 0) - ((e["started_ms"] as? NSNumber)?.int64Value ?? 0)) / 1000
            #expect(length > 300 && length < 700, "the coffee break, about 8.5 minutes: \(length) s")
        }
        // The shifted clock did reach the process.
        let probe = try await vigil(["task", "add", "Probe", "--data-dir", home + "/probe"], home: home, env: env)
        #expect(probe.status == 0, "\(probe.stderr)")
        let created = try await exported(home, home + "/probe")["tasks"]?.first?["created_ms"] as? NSNumber
        let moved = (created?.doubleValue ?? 0) / 1000 - Date().timeIntervalSince1970
        #expect(abs(moved + 7200) < 600, "the shifted clock moved the task's date by \(moved) s")
    }
}
