import GRDB
import VigilCore

extension EpisodeRecord: FetchableRecord {
    public init(row r: Row) {
        self.init(
            id: r["id"], sessionId: r["session_id"], number: r["number"], startedAt: r.time("started_ms"), confirmedAt: r.time("confirmed_ms"),
            endedAt: r.optionalTime("ended_ms"), cause: r["cause"], peakScore: r["peak_score"], reason: r["reason"],
            alarmLevel: r["alarm_level"], closedBy: r["closed_by"])
        // A label this Vigil does not know (a newer one's, synced): as judged.
        label = (r["label"] as String?).flatMap(EpisodeLabel.init(rawValue:))
    }
}

/// What the commands look up in the log: sessions, their episodes and alarm deliveries, task
/// names, row counts.
struct LogQueries: Sendable {
    let reader: any DatabaseReader
    /// The file, for messages.
    let path: String

    func sessionsBySource(from: Timestamp?, to: Timestamp) throws(StoreError) -> [SessionSource: Int] {
        try reader.read(logAt: path) { db in
            var out: [SessionSource: Int] = [:]
            // `+started_ms`: not by the start's index (a lookup of every session's row for its
            // source, 26 ms on 51,000 sessions) but a scan of the covering source index (5 ms).
            let rows = try Row.fetchAll(
                db, sql: "SELECT source, count(*) FROM sessions WHERE +started_ms >= ? AND +started_ms < ? GROUP BY source",
                arguments: [from?.millisecondsSinceEpoch ?? Int64.min, to.millisecondsSinceEpoch])
            for r in rows {
                if let source = SessionSource(rawValue: r[0]) { out[source, default: 0] += r[1] }
            }
            return out
        }
    }

    func episodes(session: Int64) throws(StoreError) -> [EpisodeRecord] {
        try reader.read(logAt: path) {
            try EpisodeRecord.fetchAll($0, sql: "SELECT * FROM episodes WHERE session_id = ? ORDER BY number", arguments: [session])
        }
    }

    func deliveries(session: Int64) throws(StoreError) -> [AlarmDelivery] {
        do {
            return try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM alarm_deliveries WHERE session_id = ? ORDER BY at_ms, id", arguments: [session]).compactMap {
                    r in
                    guard let name = r["channel"] as String?, let action = AlarmDelivery.Action(rawValue: r["action"]) else { return nil }
                    let channel = AlarmChannel(rawValue: name)
                    return AlarmDelivery(
                        time: r.time("at_ms"), episode: r["episode_number"], level: r["level"],
                        repeatCount: r["repeat"], channel: channel, action: action, delivered: r["delivered"], detail: r["detail"])
                }
            }
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(error)")
        }
    }

    /// Time in each application (by class and the category it had) and on calls, within
    /// [from, to): stretches are clipped to the period.
    func activityTotals(from: Timestamp, to: Timestamp, sources: Set<SessionSource>) throws(StoreError) -> [ActivityTotal] {
        try reader.read(logAt: path) { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, app_class, category, SUM(MIN(end_ms, ?2) - MAX(start_ms, ?1)) AS ms, COUNT(*) AS stretches
                    FROM activities WHERE end_ms > ?1 AND start_ms < ?2
                        AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = session_id AND s.source IN (\(SessionSource.sqlList(sources))))
                    GROUP BY kind, app_class, category ORDER BY ms DESC, app_class
                    """,
                arguments: [from.millisecondsSinceEpoch, to.millisecondsSinceEpoch]
            ).map { r in
                ActivityTotal(
                    isCall: r["kind"] == "call", appClass: r["app_class"], category: (r["category"] as String?).flatMap(AppCategory.init),
                    seconds: Double(r["ms"] as Int64) / 1000, stretches: r["stretches"])
            }
        }
    }

    /// Whether a session has exactly this task (the same bytes): the first such row answers, where
    /// `taskNames` reads every session.
    func hasSession(task: String) throws(StoreError) -> Bool {
        try reader.read(logAt: path) {
            try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM sessions WHERE task = ?)", arguments: [task]) ?? false
        }
    }

    func taskNames() throws(StoreError) -> [String] {
        try reader.read(logAt: path) { try String.fetchAll($0, sql: "SELECT DISTINCT task FROM sessions WHERE task IS NOT NULL ORDER BY task") }
    }

    func counts() throws(StoreError) -> [String: Int] {
        try reader.read(logAt: path) { db in
            var out: [String: Int] = [:]
            for t in ["sessions", "episodes", "alarms", "state_changes", "sensor_events", "gaps"] {
                out[t] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(t)") ?? 0
            }
            return out
        }
    }
}
