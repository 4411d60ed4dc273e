import GRDB
import SessionViews
import VigilCore

/// The event log proper: a session's row, its events as rows of their tables, and what each alarm
/// channel did.
///
/// Every call is one transaction, durable when it returns (`synchronous = FULL`, set where the file
/// is opened): a batch is in the log completely or not at all.
struct EventLog: Sendable {
    let writer: any DatabaseWriter
    /// The file, for messages.
    let path: String

    func beginSession(
        task: String?, taskId: Int64? = nil, tags: [String] = [], source: SessionSource, recording: String?, startedAt: Timestamp,
        plannedSeconds: Double?, intent: String? = nil
    ) throws(StoreError) -> Int64 {
        try writer.write(logAt: path) { db in
            try db.execute(
                sql:
                    "INSERT INTO sessions (task, task_id, tags, source, recording, started_ms, planned_s, last_event_ms, intent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    task, taskId, tags.joined(separator: ","), source.rawValue, recording, startedAt.millisecondsSinceEpoch, plannedSeconds,
                    startedAt.millisecondsSinceEpoch, intent,
                ])
            return db.lastInsertedRowID
        }
    }

    func append(_ events: [SessionEvent], session: Int64) throws(StoreError) {
        guard let last = events.last else { return }
        try writer.write(logAt: path) { db in
            for e in events { try Self.insert(e, session: session, db: db) }
            try db.execute(
                sql: "UPDATE sessions SET last_event_ms = max(last_event_ms, ?) WHERE id = ?",
                arguments: [last.time.millisecondsSinceEpoch, session])
        }
    }

    func appendSession(_ events: [SessionEvent], source: SessionSource, recording: String?) throws(StoreError) -> Int64? {
        try writer.write(logAt: path) { db in try Self.insertSession(events, source: source, recording: recording, db: db) }
    }

    func appendSessions(_ sessions: [[SessionEvent]], source: SessionSource, recording: String?) throws(StoreError) -> [Int64] {
        try writer.write(logAt: path) { db in
            try sessions.compactMap { events in try Self.insertSession(events, source: source, recording: recording, db: db) }
        }
    }

    func appendSessionsIntoAnEmptyLog(_ sessions: [[SessionEvent]], source: SessionSource) throws(StoreError) -> Int {
        // In the writing transaction: two writers cannot both see the log empty. Under the setup
        // lock: a second claimant waits for the first claim's transaction however long it takes,
        // rather than for SQLite's busy timeout, and then finds the log taken.
        try LogFile.serialised(path) { () throws(StoreError) -> Int in
            // A claimed log is told by a read, which waits for no writer: the claimant may be
            // writing its next month by now.
            let claimed = try writer.read(logAt: path) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0 }
            if claimed > 0 { return claimed }
            return try writer.write(logAt: path) { db in
                let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0
                guard existing == 0 else { return existing }
                for events in sessions { try Self.insertSession(events, source: source, recording: nil, db: db) }
                return 0
            }
        }
    }

    func appendDeliveries(_ deliveries: [AlarmDelivery], session: Int64) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        try writer.write(logAt: path) { db in
            for d in deliveries {
                try db.execute(
                    sql: """
                        INSERT INTO alarm_deliveries (session_id, episode_number, at_ms, level, repeat, channel, action, delivered, detail)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        session, d.episode, d.time.millisecondsSinceEpoch, d.level, d.repeatCount, d.channel.rawValue, d.action.rawValue,
                        d.delivered, d.detail,
                    ])
            }
        }
    }

    // MARK: Events to rows

    @discardableResult
    private static func insertSession(_ events: [SessionEvent], source: SessionSource, recording: String?, db: Database) throws -> Int64? {
        guard let first = events.first, case .sessionStarted(let task, let planned) = first.kind else { return nil }
        try db.execute(
            sql: "INSERT INTO sessions (task, source, recording, started_ms, planned_s, last_event_ms) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [task, source.rawValue, recording, first.time.millisecondsSinceEpoch, planned, first.time.millisecondsSinceEpoch])
        let id = db.lastInsertedRowID
        for e in events.dropFirst() { try insert(e, session: id, db: db) }
        try db.execute(sql: "UPDATE sessions SET last_event_ms = ? WHERE id = ?", arguments: [events.last!.time.millisecondsSinceEpoch, id])
        return id
    }

    private static func insert(_ e: SessionEvent, session: Int64, db: Database) throws {
        let at = e.time.millisecondsSinceEpoch
        switch e.kind {
        case .sessionStarted:
            break
        case .stateChanged(let from, let to, let score, let reason):
            var level: Int?
            if case .alarm(let l) = to { level = l }
            try db.execute(
                sql: "INSERT INTO state_changes (session_id, at_ms, from_state, to_state, alarm_level, score, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [session, at, from.name, to.name, level, score, reason?.words])
        case .episodeStarted(let ep):
            try db.execute(
                sql: "INSERT INTO episodes (session_id, number, started_ms, confirmed_ms, cause, peak_score, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    session, ep.number, ep.start.millisecondsSinceEpoch, ep.confirmedAt.millisecondsSinceEpoch, ep.cause.rawValue, ep.peakScore,
                    ep.reason,
                ])
        case .episodeEnded(let ep):
            try db.execute(
                sql:
                    "UPDATE episodes SET ended_ms = ?, peak_score = ?, reason = ?, alarm_level = ?, closed_by = ? WHERE session_id = ? AND number = ?",
                arguments: [ep.end?.millisecondsSinceEpoch, ep.peakScore, ep.reason, ep.alarmLevel, ep.closedBy?.rawValue, session, ep.number])
        case .alarm(let level, let rep, let episode, let cause, let reason):
            try db.execute(
                sql: "INSERT INTO alarms (session_id, episode_number, at_ms, level, repeat, cause, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [session, episode, at, level, rep, cause.rawValue, reason])
        case .alarmCleared(_, let episode, _, let recovery):
            // A recovery time only for a return to work; a pause, a break or the end stops the
            // alarm without one (and the statistics count only returns).
            try db.execute(
                sql: """
                    UPDATE alarms SET cleared_ms = ?, recovery_s = CASE WHEN ? THEN (? - at_ms) / 1000.0 END
                    WHERE session_id = ? AND episode_number = ? AND cleared_ms IS NULL
                    """,
                arguments: [at, recovery != nil, at, session, episode])
        case .alarmSnoozed(let level, let episode, let until, let left):
            try db.execute(
                sql: "INSERT INTO snoozes (session_id, at_ms, episode_number, level, until_ms, snoozes_left) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [session, at, episode, level, until.millisecondsSinceEpoch, left])
        case .snoozeRefused(let refusal):
            // The log keeps what the timeline said.
            try db.execute(sql: "INSERT INTO snoozes (session_id, at_ms, refused) VALUES (?, ?, ?)", arguments: [session, at, refusal.words])
        case .sensorStatus(let s):
            try db.execute(
                sql: "INSERT INTO sensor_events (session_id, at_ms, sensor, state, detail) VALUES (?, ?, ?, ?, ?)",
                arguments: [session, at, s.sensor.rawValue, s.state.rawValue, s.detail])
        case .gap(let from, _):
            try db.execute(
                sql: "INSERT INTO gaps (session_id, from_ms, to_ms) VALUES (?, ?, ?)",
                arguments: [session, from.millisecondsSinceEpoch, at])
        case .activity(let span):
            let (kind, appClass, category, rule): (String, String?, String?, String?) =
                switch span.activity {
                case .app(let cls, let category, let rule): ("app", cls, category.rawValue, rule)
                case .call: ("call", nil, nil, nil)
                }
            try db.execute(
                sql: "INSERT INTO activities (session_id, kind, app_class, category, start_ms, end_ms, rule) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [session, kind, appClass, category, span.start.millisecondsSinceEpoch, at, rule])
        case .sessionEnded(let s):
            try db.execute(
                sql: """
                    UPDATE sessions SET ended_ms = ?, outcome = ?, active_s = ?, focused_s = ?, distracted_s = ?,
                        paused_s = ?, gap_s = ?, episodes = ?, alarms = ? WHERE id = ?
                    """,
                arguments: [
                    s.ended.millisecondsSinceEpoch, s.outcome.rawValue, s.activeSeconds, s.focusedSeconds, s.distractedSeconds,
                    s.pausedSeconds, s.gapSeconds, s.episodes, s.alarms, session,
                ])
        }
    }
}
