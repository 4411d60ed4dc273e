import GRDB
import VigilCore

/// A session as the log keeps it.
public struct StoredSession: Hashable, Sendable, FetchableRecord {
    public var id: Int64
    public var task: String?
    /// Where it came from: a `SessionSource` (a log from a newer Vigil may hold others).
    public var source: String
    public var recording: String?
    public var startedAt: Timestamp
    public var plannedSeconds: Double?
    public var endedAt: Timestamp?
    public var outcome: String?
    public var activeSeconds: Double?
    public var focusedSeconds: Double?
    public var distractedSeconds: Double?
    public var pausedSeconds: Double?
    public var gapSeconds: Double?
    public var episodes: Int?
    public var alarms: Int?
    /// The time of the last event written: where an interrupted session is closed.
    public var lastEventAt: Timestamp
    /// The name of the device it ran on, when that is not this one (a session received by sync).
    public var device: String?

    public init(row r: Row) {
        id = r["id"]
        task = r["task"]
        source = r["source"]
        recording = r["recording"]
        startedAt = r.time("started_ms")
        plannedSeconds = r["planned_s"]
        endedAt = r.optionalTime("ended_ms")
        outcome = r["outcome"]
        // Tracked time (`SessionSource.isJudged`) has no judged figures, whatever its row holds
        // (imports before v11 stored their whole time as focused).
        if SessionSource(rawValue: source)?.isJudged ?? true {
            activeSeconds = r["active_s"]
            focusedSeconds = r["focused_s"]
            distractedSeconds = r["distracted_s"]
            pausedSeconds = r["paused_s"]
            gapSeconds = r["gap_s"]
            episodes = r["episodes"]
            alarms = r["alarms"]
        }
        lastEventAt = r.time("last_event_ms")
        device = r.hasColumn("device_name") ? r["device_name"] : nil
    }
}

public struct StoredEpisode: Hashable, Sendable, FetchableRecord {
    public var id: Int64
    public var sessionId: Int64
    public var number: Int
    /// From the cause's start (dated back).
    public var startedAt: Timestamp
    /// When it was confirmed (the session entered `distracted`); its alarms count from here.
    public var confirmedAt: Timestamp
    /// When the person was back; nil while open.
    public var endedAt: Timestamp?
    public var cause: String
    public var peakScore: Double
    public var reason: String
    public var alarmLevel: Int
    public var closedBy: String?

    public init(row r: Row) {
        id = r["id"]
        sessionId = r["session_id"]
        number = r["number"]
        startedAt = r.time("started_ms")
        confirmedAt = r.time("confirmed_ms")
        endedAt = r.optionalTime("ended_ms")
        cause = r["cause"]
        peakScore = r["peak_score"]
        reason = r["reason"]
        alarmLevel = r["alarm_level"]
        closedBy = r["closed_by"]
    }
}

/// What the commands look up in the log: sessions, their episodes and alarm deliveries, task
/// names, row counts.
struct LogQueries: Sendable {
    let reader: any DatabaseReader
    /// The file, for messages.
    let path: String

    func sessions(limit: Int, sources: Set<SessionSource>) throws(StoreError) -> [StoredSession] {
        try reader.read(logAt: path) {
            try StoredSession.fetchAll(
                $0,
                sql: """
                    SELECT s.*, d.name AS device_name FROM sessions s LEFT JOIN devices d ON d.id = s.origin_device
                    WHERE s.source IN (\(SessionSource.sqlList(sources))) ORDER BY s.started_ms DESC, s.id DESC LIMIT ?
                    """,
                arguments: [limit])
        }
    }

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

    func episodes(session: Int64) throws(StoreError) -> [StoredEpisode] {
        try reader.read(logAt: path) {
            try StoredEpisode.fetchAll($0, sql: "SELECT * FROM episodes WHERE session_id = ? ORDER BY number", arguments: [session])
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

/// Time in one application (with the category it had when it was in front) or on calls.
public struct ActivityTotal: Hashable, Sendable {
    public var isCall: Bool
    public var appClass: String?
    public var category: AppCategory?
    public var seconds: Double
    /// How many stretches of time it was in front (or calls).
    public var stretches: Int
}
