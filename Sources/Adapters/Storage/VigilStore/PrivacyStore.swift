import Foundation
import GRDB
import VigilCore

/// What the person can do with what Vigil stores about them: take it all, or forget a period.
extension EventStore {
    /// Every table of the log, in the order they are written out.
    public static let exportedTables = [
        "sessions", "state_changes", "episodes", "alarms", "alarm_deliveries", "snoozes", "sensor_events", "gaps", "activities",
        "tasks", "habits", "habit_days", "habit_notes", "reminders_sent", "devices", "sync_tombstones", "sync_state",
        "imports", "day_stretches", "forgotten_periods",
        "undo_journal", "undo_overtaken",
    ]

    /// Streams every row of every table as JSON, one table after the other:
    /// `{"vigil":"export","version":1,"tables":{"sessions":[{...},...],...}}`. Columns keep their
    /// names; times are Unix milliseconds as stored (the columns are described in docs/privacy.md).
    public func exportAll(_ emit: (String) -> Void) throws(StoreError) {
        try read { db in
            emit("{\"vigil\":\"export\",\"version\":1,\"tables\":{")
            for (t, table) in Self.exportedTables.enumerated() {
                emit((t > 0 ? "," : "") + "\n\"\(table)\":[")
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
                var first = true
                while let row = try rows.next() {
                    // One object a row, keys sorted, written by the core's JSON writer as every
                    // other line Vigil writes (a blob as base64, a non-finite real as null).
                    var fields: [(String, JSONValue)] = []
                    for (column, value) in row {
                        switch value.storage {
                        case .null: fields.append((column, .null))
                        case .int64(let v): fields.append((column, .integer(v)))
                        case .double(let v): fields.append((column, .exact(v)))
                        case .string(let v): fields.append((column, .str(v)))
                        case .blob(let v): fields.append((column, .str(v.base64EncodedString())))
                        }
                    }
                    emit((first ? "\n" : ",\n") + JSONValue.object(fields.sorted { $0.0 < $1.0 }).text)
                    first = false
                }
                emit("]")
            }
            emit("\n}}\n")
        }
    }

    /// Sessions that started in [from, to).
    public func sessionCount(from: Timestamp, to: Timestamp) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM sessions WHERE started_ms >= ? AND started_ms < ?",
                arguments: [from.millisecondBound, to.millisecondBound])
                ?? 0
        }
    }

    /// Deletes what happened in [from, to): the sessions that started then, with all
    /// their events, the habit days then and the reminders sent then. Deleted content is
    /// overwritten (secure_delete) and the write-ahead log truncated, so it does not linger in the
    /// file. Returns how many rows of each kind were deleted.
    @discardableResult
    public func forget(from: Timestamp, to: Timestamp, fromDay: Int, toDay: Int) throws(StoreError) -> ForgottenRows {
        let (from, to) = (from.millisecondBound, to.millisecondBound)
        var counts = ForgottenRows()
        try write { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            let sessions = "SELECT id FROM sessions WHERE started_ms >= \(from) AND started_ms < \(to)"
            for table in ["state_changes", "episodes", "alarms", "alarm_deliveries", "snoozes", "sensor_events", "gaps", "activities"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE session_id IN (\(sessions))")
                counts.events += db.changesCount
            }
            // What an import remembered of these sessions (Timewarrior's times and tags) goes with them.
            try db.execute(sql: "DELETE FROM imports WHERE tbl = 'sessions' AND row_id IN (\(sessions))")
            try db.execute(sql: "DELETE FROM sessions WHERE started_ms >= ? AND started_ms < ?", arguments: [from, to])
            counts.sessions = db.changesCount
            try db.execute(sql: "DELETE FROM habit_days WHERE day >= ? AND day <= ?", arguments: [fromDay, toDay])
            counts.habitDays = db.changesCount
            try db.execute(sql: "DELETE FROM reminders_sent WHERE at_ms >= ? AND at_ms < ?", arguments: [from, to])
            counts.reminders = db.changesCount
            // The watch's stretches that touch the period: a stretch across its edge goes whole.
            try db.execute(sql: "DELETE FROM day_stretches WHERE end_ms > ? AND start_ms < ?", arguments: [from, to])
            counts.dayStretches = db.changesCount
            // A running watch's stretch in progress must not bring the period back when it ends.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try db.execute(sql: "DELETE FROM forgotten_periods WHERE at_ms < ?", arguments: [now - 86_400_000])
            try db.execute(sql: "INSERT INTO forgotten_periods (at_ms, from_ms, to_ms) VALUES (?, ?, ?)", arguments: [now, from, to])
            // The last change's before-image may hold what was just forgotten: undo forgets it too.
            try db.execute(sql: "DELETE FROM undo_journal")
            try db.execute(sql: "DELETE FROM undo_overtaken")
        }
        do {
            try db.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            throw StoreError(path: path, message: "the period was forgotten, but the log could not be compacted: \(error)")
        }
        return counts
    }
}

/// What `forget` deleted: sessions, their events (state changes, episodes, alarms and their
/// deliveries, snoozes, sensor changes, gaps, activities), habit days, reminders sent and the
/// all-day watch's stretches.
public struct ForgottenRows: Sendable, Hashable {
    public var sessions = 0
    public var events = 0
    public var habitDays = 0
    public var reminders = 0
    /// The all-day watch's stretches.
    public var dayStretches = 0
    public init() {}
}
