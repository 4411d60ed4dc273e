import Foundation
import GRDB
import VigilCore

/// What `vigil session edit` changes (`keep` and nil: kept). Times only for a session nothing
/// judged (`HistoryService` holds that rule).
public struct SessionEdit: Sendable, Hashable {
    public var task: FieldChange<String>
    public var taskId: FieldChange<Int64>
    public var tags: [String]?
    public var note: FieldChange<String>
    public var started: Timestamp?
    public var ended: Timestamp?
    public init(
        task: FieldChange<String> = .keep, taskId: FieldChange<Int64> = .keep, tags: [String]? = nil, note: FieldChange<String> = .keep,
        started: Timestamp? = nil, ended: Timestamp? = nil
    ) {
        self.task = task
        self.taskId = taskId
        self.tags = tags
        self.note = note
        self.started = started
        self.ended = ended
    }
}

extension EventStore {
    private static let recordColumns = """
        s.id, s.task, s.task_id, s.source, s.started_ms, s.ended_ms, s.outcome, s.focused_s, s.distracted_s, s.episodes, s.tags, s.note,
        d.name, s.planned_s, s.intent, s.intent_kept
        """
    private static let recordJoin = "sessions s LEFT JOIN devices d ON d.id = s.origin_device"

    private static func record(_ r: Row) -> SessionRecord {
        let tags: String = r[10]
        let source = (r[3] as String?).flatMap(SessionSource.init(rawValue:))
        // Tracked time was judged by nobody, whatever figures its row holds (imports before v11
        // stored their whole time as focused).
        let judged = source?.isJudged ?? true
        var record = SessionRecord(
            id: r[0], task: r[1], taskId: r[2], source: source,
            started: storedTime(r[4]), ended: (r[5] as Int64?).map(storedTime), plannedSeconds: r[13],
            outcome: r[6],
            focusedSeconds: judged ? r[7] : nil, distractedSeconds: judged ? r[8] : nil, episodes: judged ? r[9] : nil,
            tags: tags.split(separator: ",").map(String.init), note: r[11], device: r[12])
        record.intent = r[14]
        record.intentKept = (r[15] as String?).flatMap(IntentAnswer.init(rawValue:))
        return record
    }

    /// The `limit` latest sessions from these sources, newest first.
    public func sessions(limit: Int = 20, sources: Set<SessionSource> = SessionSource.counted) throws(StoreError) -> [SessionRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.recordColumns) FROM \(Self.recordJoin)
                    WHERE s.source IN (\(SessionSource.sqlList(sources))) ORDER BY s.started_ms DESC, s.id DESC LIMIT ?
                    """, arguments: [limit]
            ).map(Self.record)
        }
    }

    /// Sessions that started in [from, to) from these sources, oldest first.
    public func sessionRecords(from: Timestamp, to: Timestamp, sources: Set<SessionSource>) throws(StoreError) -> [SessionRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.recordColumns) FROM \(Self.recordJoin)
                    WHERE s.started_ms >= ? AND s.started_ms < ? AND s.source IN (\(SessionSource.sqlList(sources))) ORDER BY s.started_ms, s.id
                    """, arguments: [from.millisecondBound, to.millisecondBound]
            ).map(Self.record)
        }
    }

    public func sessionRecord(id: Int64) throws(StoreError) -> SessionRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.recordColumns) FROM \(Self.recordJoin) WHERE s.id = ?", arguments: [id]).map(Self.record)
        }
    }

    /// The ids of the sessions with a tag (the argument, twice), or on a task with it (`report --tag`).
    static let taggedSessionsSQL = """
        SELECT s.id FROM sessions s LEFT JOIN tasks t ON t.id = s.task_id
        WHERE instr(',' || s.tags || ',', ',' || ? || ',') > 0 OR instr(',' || coalesce(t.tags, '') || ',', ',' || ? || ',') > 0
        """

    /// The session of the episode logged last, of any source; nil when no session has one.
    public func latestSessionWithEpisodes() throws(StoreError) -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT session_id FROM episodes ORDER BY id DESC LIMIT 1") }
    }

    /// Ids of the sessions with this tag, or on a task with it.
    public func sessionIDs(tagged tag: String) throws(StoreError) -> Set<Int64> {
        try read { db in Set(try Int64.fetchAll(db, sql: Self.taggedSessionsSQL, arguments: [tag, tag])) }
    }

    /// A session the person says they spent (`vigil session add`): closed, with no events, source
    /// `added`. Returns its id.
    public func addSession(
        task: String?, taskId: Int64?, tags: [String], note: String?, from started: Timestamp, to ended: Timestamp
    ) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO sessions (task, task_id, source, started_ms, ended_ms, outcome, last_event_ms, tags, note)
                    VALUES (?, ?, 'added', ?, ?, 'added', ?, ?, ?)
                    """,
                arguments: [
                    task, taskId, started.millisecondsSinceEpoch, ended.millisecondsSinceEpoch, ended.millisecondsSinceEpoch,
                    tags.joined(separator: ","), note,
                ])
            let id = db.lastInsertedRowID
            try UndoJournal.begin(db, "session add #\(id)")
            try UndoJournal.record(db, [.init(table: "sessions", column: "id", value: id)], before: false)
            return id
        }
    }

    /// Changes a session's task, tags, note or (the caller decides when it is honest) times; the
    /// migration's trigger stamps the edit so that it travels.
    public func editSession(id: Int64, _ edit: SessionEdit) throws(StoreError) {
        try write { db in
            var sets: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = []
            func change<V: DatabaseValueConvertible>(_ column: String, _ field: FieldChange<V>) {
                if field != .keep { (sets, arguments) = (sets + ["\(column) = ?"], arguments + [field.applied(to: nil)]) }
            }
            change("task", edit.task)
            change("task_id", edit.taskId)
            if let tags = edit.tags { (sets, arguments) = (sets + ["tags = ?"], arguments + [tags.joined(separator: ",")]) }
            change("note", edit.note)
            if let started = edit.started { (sets, arguments) = (sets + ["started_ms = ?"], arguments + [started.millisecondsSinceEpoch]) }
            if let ended = edit.ended {
                (sets, arguments) = (
                    sets + ["ended_ms = ?", "last_event_ms = ?"], arguments + [ended.millisecondsSinceEpoch, ended.millisecondsSinceEpoch]
                )
            }
            guard !sets.isEmpty else { return }
            try UndoJournal.journal(db, "session edit #\(id)", [.init(table: "sessions", column: "id", value: id)])
            try db.execute(sql: "UPDATE sessions SET \(sets.joined(separator: ", ")) WHERE id = ?", arguments: StatementArguments(arguments + [id]))
        }
    }

    /// The person's answer to the session's intention (nil: not answered); the migration's
    /// trigger stamps it as an edit. False when the session has no intention.
    public func answerIntent(session id: Int64, _ answer: IntentAnswer?) throws(StoreError) -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT intent IS NOT NULL FROM sessions WHERE id = ?", arguments: [id]) == true else { return false }
            try UndoJournal.journal(db, "session intent #\(id)", [.init(table: "sessions", column: "id", value: id)])
            try db.execute(sql: "UPDATE sessions SET intent_kept = ? WHERE id = ?", arguments: [answer?.rawValue, id])
            return true
        }
    }

    /// The person's word on episode `number` of a session (nil: as judged); stamped as an edit of
    /// the session. False when the session has no such episode.
    public func labelEpisode(session id: Int64, number: Int, _ label: EpisodeLabel?) throws(StoreError) -> Bool {
        try write { db in
            let part = UndoJournal.Part(table: "episodes", [("session_id", id), ("number", Int64(number))])
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM episodes WHERE \(part.sql)", arguments: [id, number]) == true else { return false }
            // The session too: a label another device gave since is an edit of the session's row,
            // which `undo` must not write over.
            try UndoJournal.journal(db, "episode \(number) of session #\(id)", [.init(table: "sessions", column: "id", value: id), part])
            try db.execute(sql: "UPDATE episodes SET label = ? WHERE \(part.sql)", arguments: [label?.rawValue, id, number])
            return true
        }
    }

    /// The application in front in a session at `time`, as its stretch was logged: its class,
    /// category and the rule that gave it (nil: none did); nil when no stretch holds the instant.
    public func application(session id: Int64, at time: Timestamp) throws(StoreError) -> (appClass: String, category: AppCategory, rule: String?)? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT app_class, category, rule FROM activities
                        WHERE session_id = ? AND kind = 'app' AND start_ms <= ? AND end_ms > ? ORDER BY start_ms DESC LIMIT 1
                        """, arguments: [id, time.millisecondsSinceEpoch, time.millisecondsSinceEpoch]),
                let cls: String = row[0], let category = (row[1] as String?).flatMap(AppCategory.init(rawValue:))
            else { return nil }
            return (cls, category, row[2])
        }
    }

    /// Deletes a session with its events; a session the server may have leaves a tombstone.
    public func deleteSession(id: Int64) throws(StoreError) {
        try write { db in
            try UndoJournal.journal(
                db, "session delete #\(id)",
                [.init(table: "sessions", column: "id", value: id)]
                    + CrashRecovery.eventTables.map { .init(table: $0, column: "session_id", value: id) })
            for table in CrashRecovery.eventTables {
                try db.execute(sql: "DELETE FROM \(table) WHERE session_id = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id])
        }
    }
}
