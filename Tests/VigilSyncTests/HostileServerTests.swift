import Foundation
import GRDB
import TestSupport
import Testing
import VigilCore
import VigilPlanner
import VigilSync

@testable import VigilStore

/// The server is shared: whatever is in it may have been written by a damaged or newer Vigil, a
/// group member or anyone with the database's password. Rows written by hand into every synced
/// table, each with one value the log cannot hold, are refused one by one and named with the device
/// that made them; every good row still arrives, and the log stays usable.
@Suite(.serialized) struct HostileServerTests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    static let evil = "6e7e0000-0000-4000-8000-00000000e711"

    /// A session of the device `evil` as SQL values, with `changes` (column → SQL) applied.
    func session(_ id: Int, _ changes: [String: String] = [:]) -> String {
        let start = 1_760_000_000_000 + Int64(id) * 10_000_000
        var values: [(String, String)] = [
            ("origin_device", "'\(Self.evil)'"), ("origin_id", "\(id)"), ("task", "'essay'"), ("source", "'live'"), ("started_ms", "\(start)"),
            ("planned_s", "3600"), ("ended_ms", "\(start + 3_600_000)"), ("outcome", "'completed'"), ("active_s", "3600"), ("focused_s", "3000"),
            ("distracted_s", "600"), ("paused_s", "0"), ("gap_s", "0"), ("episodes", "1"), ("alarms", "1"),
            ("last_event_ms", "\(start + 3_600_000)"), ("tags", "''"), ("intent", "'draft the intro'"), ("intent_kept", "'partly'"),
            ("labels", "'1:meeting'"), ("edited_hlc", "0"),
        ]
        for (i, (name, _)) in values.enumerated() { if let v = changes[name] { values[i].1 = v } }
        return "INSERT INTO vigil.sessions (\(values.map(\.0).joined(separator: ", "))) VALUES (\(values.map(\.1).joined(separator: ", ")));"
    }

    /// A session's events: a state change, an episode, an alarm and a gap; `changes` by "table.column".
    func events(_ session: Int, _ changes: [String: String] = [:]) -> String {
        let start = 1_760_000_000_000 + Int64(session) * 10_000_000
        func v(_ key: String, _ value: String) -> String { changes[key] ?? value }
        let id = session * 10
        return """
            INSERT INTO vigil.state_changes (origin_device, origin_id, session_id, at_ms, from_state, to_state, score)
                VALUES ('\(Self.evil)', \(id), \(session), \(start + 1000), 'focused', 'distracted', \(v("state_changes.score", "0.8")));
            INSERT INTO vigil.episodes (origin_device, origin_id, session_id, number, started_ms, confirmed_ms, ended_ms, cause, peak_score, alarm_level)
                VALUES ('\(Self.evil)', \(id), \(session), 1, \(start + 1000), \(start + 2000), \(v("episodes.ended_ms", "\(start + 60_000)")), 'input', \(v("episodes.peak_score", "0.9")), 1);
            \(changes["episodes.twice"] != nil ? "INSERT INTO vigil.episodes (origin_device, origin_id, session_id, number, started_ms, confirmed_ms, cause, peak_score, alarm_level) VALUES ('\(Self.evil)', \(id + 1), \(session), 1, \(start + 90_000), \(start + 91_000), 'input', 0.5, 0);" : "")
            INSERT INTO vigil.alarms (origin_device, origin_id, session_id, episode_number, at_ms, level, repeat, cause, recovery_s)
                VALUES ('\(Self.evil)', \(id), \(session), 1, \(start + 2000), \(v("alarms.level", "1")), 0, 'input', \(v("alarms.recovery_s", "30")));
            INSERT INTO vigil.gaps (origin_device, origin_id, session_id, from_ms, to_ms)
                VALUES ('\(Self.evil)', \(id), \(session), \(start + 100_000), \(v("gaps.to_ms", "\(start + 200_000)")));
            """
    }

    func edited(_ table: String, _ id: Int, _ columns: [(String, String)], hlc: String = "1760000000000000", sub: String? = nil) -> String {
        let names = ["origin_device", "origin_id"] + (sub == nil ? [] : ["sub"]) + columns.map(\.0) + ["hlc", "hlc_device"]
        let values = ["'\(Self.evil)'", "\(id)"] + (sub.map { ["'\($0)'"] } ?? []) + columns.map(\.1) + [hlc, "'\(Self.evil)'"]
        return "INSERT INTO vigil.\(table) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
    }

    func task(_ id: Int, _ changes: [String: String] = [:], hlc: String = "1760000000000000") -> String {
        let columns = [
            ("title", "'Chapter \(id)'"), ("due_day", "20300"), ("due_minute", "600"), ("priority", "'high'"), ("term", "'short'"),
            ("estimate_min", "90"), ("tags", "''"),
            ("created_ms", "1760000000000"),
        ].map { ($0.0, changes[$0.0] ?? $0.1) }
        return edited("tasks", id, columns, hlc: hlc)
    }

    func habit(_ id: Int, _ changes: [String: String] = [:]) -> String {
        let columns = [("name", "'Run \(id)'"), ("schedule", "'day'"), ("priority", "'medium'"), ("flagged", "0"), ("created_day", "20300")]
            .map { ($0.0, changes[$0.0] ?? $0.1) }
        return edited("habits", id, columns)
    }

    @Test func hostileRowsInEveryTableAreRefusedOneByOneAndTheRestArrives() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let desktop = try Device("desktop")
        // The first sync makes the schema; then "evil" writes straight into it.
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let hostile = [
            "INSERT INTO vigil.devices (id, name) VALUES ('\(Self.evil)', 'evil');",
            session(1), events(1),  // a good session with its events
            session(2, ["focused_s": "'NaN'"]), events(2),
            session(3, ["focused_s": "1e300"]), events(3),
            session(4, ["source": "NULL"]), events(4),
            session(5, ["edited_hlc": "9223372036854775000"]), events(5),
            session(6, ["ended_ms": "9223372036854775807"]), events(6),
            session(7), events(7, ["episodes.peak_score": "'Infinity'"]),
            session(8), events(8, ["episodes.twice": "1"]),
            session(9), events(9, ["alarms.level": "-5"]),
            session(10), events(10, ["alarms.recovery_s": "'NaN'"]),
            session(11), events(11, ["state_changes.score": "'-Infinity'"]),
            session(12), events(12, ["gaps.to_ms": "1"]),
            session(13), events(13, ["episodes.ended_ms": "1000"]),
            session(14, ["intent_kept": "'maybe'"]), events(14),
            session(15, ["labels": "'meeting'"]), events(15),
            session(16, ["labels": "'1:break,1:work'"]), events(16),
            session(17, ["labels": "'1:DROP TABLE'"]), events(17),
            task(1), task(2, ["estimate_min": "9223372036854775807"]), task(3, ["title": "NULL"]),
            task(4, hlc: "9223372036854775000"), task(5, ["due_minute": "-1"]),
            habit(1), habit(2, ["created_day": "99999999"]), habit(3, ["schedule": "NULL"]),
            // Habit 1's days: one in a status from a newer Vigil (kept), one on no day at all.
            edited("habit_days", 1, [("status", "'half-done'"), ("source", "'person'")], sub: "20301"),
            edited("habit_days", 1, [("status", "'completed'"), ("source", "'person'")], sub: "not-a-day"),
            edited("habit_days", 1, [("status", "NULL"), ("source", "'person'")], sub: "20302"),
            edited("habit_notes", 1, [("text", "'steady'")], sub: "2025-W40"),
            edited("habit_notes", 1, [("text", "NULL")], sub: "2025-W41"),
        ]
        try server.sql(hostile.joined(separator: "\n"), database: database)

        let summary = try await SyncClient.sync(store: desktop.store, address: address)
        let rejected = summary.rejected.map { "\($0.table) \($0.id ?? 0)\($0.sub.map { " " + $0 } ?? "")" }
        #expect(
            Set(rejected)
                == [
                    "sessions 2", "sessions 3", "sessions 4", "sessions 5", "sessions 6", "sessions 7", "sessions 8", "sessions 9", "sessions 10",
                    "sessions 11", "sessions 12", "sessions 13", "sessions 14", "sessions 15", "sessions 16", "sessions 17", "tasks 2", "tasks 3",
                    "tasks 4", "tasks 5", "habits 2", "habits 3",
                    "habit_days 1 not-a-day",
                    "habit_days 1 20302", "habit_notes 1 2025-W41",
                ], "\(summary.rejected)")
        #expect(summary.rejected.allSatisfy { $0.device == Self.evil && !$0.reason.isEmpty })
        let reasons = summary.rejected.map(\.reason).joined(separator: "\n")
        #expect(reasons.contains("focused_s is not a finite number") && reasons.contains("episode number 1 twice"), "\(reasons)")

        // The good rows arrived, the session with all its events, and nothing of the bad ones.
        let counts = try desktop.counts()
        #expect(counts["sessions"] == 1 && counts["episodes"] == 1 && counts["alarms"] == 1, "\(counts)")
        #expect(counts["state_changes"] == 1 && counts["gaps"] == 1, "\(counts)")
        #expect(try desktop.store.tasks().map(\.title) == ["Chapter 1"])
        let habits = try desktop.store.habits()
        #expect(habits.map(\.name) == ["Run 1"])
        let habitID = try #require(habits.first?.id)
        // The unknown status is kept, read as unknown, and failing unmarked days works around it.
        #expect(try desktop.store.habitDays(id: habitID)[20301] == .unknown)
        _ = try desktop.store.failUnmarkedHabitDays(today: 20_310)
        #expect(try desktop.store.habitDays(id: habitID)[20301] == .unknown)
        #expect(try desktop.store.habitNotes(id: habitID).map(\.week) == ["2025-W40"])
        let sessions = try desktop.store.sessions(limit: 10, sources: Set(SessionSource.allCases))
        #expect(sessions.count == 1 && sessions.first?.focusedSeconds == 3000)
        // The good session's intention, its answer and its episode's label came with it.
        #expect(sessions.first?.intent == "draft the intro" && sessions.first?.intentKept == .partly)
        let episodes = try desktop.store.episodes(session: try #require(sessions.first?.id))
        #expect(episodes.map(\.label) == [.meeting])

        // The clock did not move towards Int64.max: the next local edit is stamped and pushed.
        let clock = try await desktop.store.db.read { try Int64.fetchOne($0, sql: "SELECT hlc FROM sync_clock") ?? 0 }
        #expect(clock < IncomingRows.clock.upperBound)
        _ = try desktop.store.addTask(TaskItem(id: 0, title: "after", created: Timestamp(milliseconds: 1_760_000_000_000)))
        let next = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(next.sent["tasks"] == 1 && next.rejected.isEmpty)
        #expect(try server.sql("SELECT count(*) FROM vigil.tasks WHERE title = 'after'", database: database) == "1")
    }

    /// A row written by hand with a `server_seq` the sequence never drew (Int64.max) does not carry
    /// the pull's watermark past every later change: changes made after it still arrive.
    @Test func aForgedServerSequenceDoesNotStopLaterPulls() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let desktop = try Device("desktop")
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        try server.sql(
            "INSERT INTO vigil.devices (id, name) VALUES ('\(Self.evil)', 'evil');" + task(1) + task(2)
                + "UPDATE vigil.tasks SET server_seq = 9223372036854775807 WHERE origin_id = 2;", database: database)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        try server.sql(task(3) + session(4) + events(4), database: database)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(try desktop.store.tasks().map(\.title) == ["Chapter 1", "Chapter 3"])
        #expect(try desktop.counts()["sessions"] == 1)
    }

    /// A log whose clock an older Vigil let run up to the end of the range still stamps, and
    /// clamps what it observes.
    @Test func theClockNeverPassesItsRange() async throws {
        let device = try Device("clock")
        try device.store.observeClock(Int64.max)
        let clock = try await device.store.db.read { try Int64.fetchOne($0, sql: "SELECT hlc FROM sync_clock") ?? 0 }
        #expect(clock == IncomingRows.clock.upperBound)
        _ = try device.store.addTask(TaskItem(id: 0, title: "still stamped", created: Timestamp(milliseconds: 1_760_000_000_000)))
        let hlc = try await device.store.db.read { try Int64.fetchOne($0, sql: "SELECT hlc FROM tasks") ?? 0 }
        #expect(hlc == IncomingRows.clock.upperBound + 1)

        // A log an older Vigil left at the end of Int64 (its next stamp overflowed, in SQLite, to a
        // real number that no push could carry): the next sync's repair brings it back.
        try await device.store.db.write { try $0.execute(sql: "UPDATE sync_clock SET hlc = 9223372036854775807") }
        _ = try device.store.addTask(TaskItem(id: 0, title: "overflowed", created: Timestamp(milliseconds: 1_760_000_000_000)))
        try device.store.repairClock()
        let repaired = try await device.store.db.read {
            try Row.fetchAll(
                $0, sql: "SELECT typeof(hlc), hlc <= ? FROM tasks UNION ALL SELECT typeof(hlc), hlc <= ? FROM sync_clock",
                arguments: [IncomingRows.clock.upperBound + 1, IncomingRows.clock.upperBound]
            ).map { "\($0[0] as String) \($0[1] as Bool)" }
        }
        #expect(repaired == ["integer true", "integer true", "integer true"], "\(repaired)")
    }
}
