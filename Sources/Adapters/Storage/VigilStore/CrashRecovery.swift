import GRDB
import VigilCore
import VigilStats

/// Crash recovery: a running session marks itself alive as it goes (`touch`), so one whose
/// process was killed or whose machine lost power can be closed later at its last sign of life,
/// with its totals worked out from what it logged (`closeInterruptedSessions`). One killed before
/// it logged anything is removed.
///
/// Closing is only safe when no session can be running: the caller holds the session lock.
struct CrashRecovery: Sendable {
    let writer: any DatabaseWriter
    /// The file, for messages.
    let path: String

    func touch(session: Int64, at: Timestamp) throws(StoreError) {
        try writer.write(logAt: path) { db in
            try db.execute(
                sql: "UPDATE sessions SET last_event_ms = max(last_event_ms, ?) WHERE id = ? AND ended_ms IS NULL",
                arguments: [at.millisecondsSinceEpoch, session])
        }
    }

    /// The tables that hold a session's events (a session that has none of them never began).
    static let eventTables = ["episodes", "alarms", "state_changes", "sensor_events", "gaps", "alarm_deliveries", "snoozes", "activities"]

    func closeInterruptedSessions() throws(StoreError) -> (closed: [Int64], removed: [Int64]) {
        // A session killed before its first event (a start that crashed) holds nothing but its
        // start: booked as an interrupted 0-second session, it would count against the person
        // (one more session not completed). It is removed instead; nothing of the person's is lost.
        let hasEvents = Self.eventTables.map { "EXISTS (SELECT 1 FROM \($0) WHERE session_id = sessions.id)" }.joined(separator: " OR ")
        let (open, empty): ([Int64], [Int64]) = try writer.read(logAt: path) { db in
            (
                try Int64.fetchAll(db, sql: "SELECT id FROM sessions WHERE ended_ms IS NULL ORDER BY id"),
                try Int64.fetchAll(
                    db, sql: "SELECT id FROM sessions WHERE ended_ms IS NULL AND last_event_ms <= started_ms AND NOT (\(hasEvents)) ORDER BY id")
            )
        }
        guard !open.isEmpty else { return ([], []) }
        let facts = try StatisticsReader(reader: writer, path: path).facts(before: .max, sources: Set(SessionSource.allCases))
        try writer.write(logAt: path) { db in
            for id in empty {
                // Checked again in this transaction: only a session still without events goes.
                try db.execute(
                    sql: "DELETE FROM sessions WHERE id = ? AND ended_ms IS NULL AND last_event_ms <= started_ms AND NOT (\(hasEvents))",
                    arguments: [id])
            }
            for s in facts.sessions where open.contains(s.id) && !empty.contains(s.id) {
                let active = facts.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)].reduce(0) { $0 + $1.milliseconds }
                let episodes = facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)]
                let distracted = episodes.reduce(0) { $0 + $1.span.milliseconds }
                let gaps =
                    try Int64.fetchOne(db, sql: "SELECT coalesce(sum(to_ms - from_ms), 0) FROM gaps WHERE session_id = ?", arguments: [s.id]) ?? 0
                let whole = s.end - s.start
                try db.execute(
                    sql: "UPDATE episodes SET ended_ms = ?, closed_by = 'interrupted' WHERE session_id = ? AND ended_ms IS NULL",
                    arguments: [s.end, s.id])
                try db.execute(
                    sql: """
                        UPDATE sessions SET ended_ms = ?, outcome = 'interrupted', active_s = ?, focused_s = ?, distracted_s = ?, paused_s = ?,
                            gap_s = ?, episodes = (SELECT count(*) FROM episodes WHERE session_id = ?), alarms = (SELECT count(*) FROM alarms WHERE session_id = ?)
                        WHERE id = ?
                        """,
                    arguments: [
                        s.end, Double(active) / 1000, Double(max(0, active - distracted)) / 1000, Double(distracted) / 1000,
                        Double(max(0, whole - active - gaps)) / 1000, Double(gaps) / 1000, s.id, s.id, s.id,
                    ])
                // A strict session (issue 36) is a commitment to its planned end: one that was killed
                // broke it, and says so in its tags (`vigil log`, `vigil report --tag broken`).
                try db.execute(
                    sql: """
                        UPDATE sessions SET tags = tags || ',broken'
                        WHERE id = ? AND (',' || tags || ',') LIKE '%,strict,%' AND (',' || tags || ',') NOT LIKE '%,broken,%'
                        """,
                    arguments: [s.id])
            }
        }
        return (open.filter { !empty.contains($0) }, empty)
    }
}
