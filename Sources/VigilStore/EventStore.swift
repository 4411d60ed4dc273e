import Foundation
import GRDB
import VigilCore

/// The store cannot be opened or written, with the path and what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// A session as the log keeps it.
public struct StoredSession: Hashable, Sendable, Codable, FetchableRecord {
    public var id: Int64
    public var task: String?
    /// `live` or `replay`.
    public var source: String
    public var recording: String?
    public var startedMs: Int64
    public var plannedSeconds: Double?
    public var endedMs: Int64?
    public var outcome: String?
    public var activeSeconds: Double?
    public var focusedSeconds: Double?
    public var distractedSeconds: Double?
    public var pausedSeconds: Double?
    public var gapSeconds: Double?
    public var episodes: Int?
    public var alarms: Int?
    /// The time of the last event written: where an interrupted session is closed.
    public var lastEventMs: Int64

    enum CodingKeys: String, CodingKey {
        case id, task, source, recording
        case startedMs = "started_ms", plannedSeconds = "planned_s", endedMs = "ended_ms", outcome
        case activeSeconds = "active_s", focusedSeconds = "focused_s", distractedSeconds = "distracted_s"
        case pausedSeconds = "paused_s", gapSeconds = "gap_s", episodes, alarms, lastEventMs = "last_event_ms"
    }
}

public struct StoredEpisode: Hashable, Sendable, Codable, FetchableRecord {
    public var id: Int64
    public var sessionId: Int64
    public var number: Int
    public var startedMs: Int64
    public var confirmedMs: Int64
    public var endedMs: Int64?
    public var cause: String
    public var peakScore: Double
    public var reason: String
    public var alarmLevel: Int
    public var closedBy: String?

    enum CodingKeys: String, CodingKey {
        case id, sessionId = "session_id", number, startedMs = "started_ms", confirmedMs = "confirmed_ms", endedMs = "ended_ms"
        case cause, peakScore = "peak_score", reason, alarmLevel = "alarm_level", closedBy = "closed_by"
    }
}

/// The SQLite event log: sessions, distraction episodes, alarms, state changes, sensor status, gaps.
///
/// Write-ahead logging with `synchronous = FULL`: once `append` returns, its events survive a crash
/// or a power cut. Each `append` is one transaction, so a batch is all there or not at all.
public final class EventStore: Sendable {
    public let path: String
    let db: any DatabaseWriter

    /// Opens (creating if needed) the log at `path`. The directory is created 0700 and the file 0600:
    /// the log describes a person's behaviour.
    public init(path: String) throws(StoreError) {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if let failure = makeDirectories(dir) {
            throw StoreError(path: failure.path, message: "cannot create the data directory: \(failure.reason). Choose another with --data-dir or XDG_DATA_HOME, or fix its permissions.")
        }
        if !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                let reason = String(cString: strerror(errno))
                throw StoreError(path: path, message: "cannot create the event log: \(reason). Choose another data directory with --data-dir, or fix the permissions of \(dir).")
            }
            close(fd)
        }
        guard access(path, W_OK) == 0 else {
            throw StoreError(path: path, message: "the event log is not writable: \(String(cString: strerror(errno))). Fix its permissions or choose another data directory with --data-dir.")
        }
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        config.busyMode = .timeout(5)
        do {
            db = try DatabasePool(path: path, configuration: config)
            try Self.migrator.migrate(db)
        } catch {
            throw StoreError(path: path, message: "cannot open the event log: \(reasonText(error))")
        }
    }

    /// A private in-memory log, for tests and for replays that are not logged.
    public init() {
        path = ":memory:"
        db = try! DatabaseQueue()
        try! Self.migrator.migrate(db)
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: sessions and events") { db in
            try db.execute(sql: """
                CREATE TABLE sessions (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    task TEXT,
                    source TEXT NOT NULL,
                    recording TEXT,
                    started_ms INTEGER NOT NULL,
                    planned_s REAL,
                    ended_ms INTEGER,
                    outcome TEXT,
                    active_s REAL, focused_s REAL, distracted_s REAL, paused_s REAL, gap_s REAL,
                    episodes INTEGER, alarms INTEGER,
                    last_event_ms INTEGER NOT NULL
                );
                CREATE INDEX sessions_started ON sessions(started_ms);
                CREATE TABLE episodes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    started_ms INTEGER NOT NULL,
                    confirmed_ms INTEGER NOT NULL,
                    ended_ms INTEGER,
                    cause TEXT NOT NULL,
                    peak_score REAL NOT NULL,
                    reason TEXT NOT NULL,
                    alarm_level INTEGER NOT NULL DEFAULT 0,
                    closed_by TEXT,
                    UNIQUE(session_id, number)
                );
                CREATE INDEX episodes_started ON episodes(started_ms);
                CREATE TABLE alarms (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    episode_number INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    level INTEGER NOT NULL,
                    repeat INTEGER NOT NULL,
                    cause TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    cleared_ms INTEGER,
                    recovery_s REAL
                );
                CREATE INDEX alarms_session ON alarms(session_id, at_ms);
                CREATE TABLE state_changes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    at_ms INTEGER NOT NULL,
                    from_state TEXT NOT NULL,
                    to_state TEXT NOT NULL,
                    alarm_level INTEGER,
                    score REAL NOT NULL,
                    reason TEXT
                );
                CREATE INDEX state_changes_session ON state_changes(session_id, at_ms);
                CREATE TABLE sensor_events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    at_ms INTEGER NOT NULL,
                    sensor TEXT NOT NULL,
                    state TEXT NOT NULL,
                    detail TEXT NOT NULL
                );
                CREATE TABLE gaps (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    from_ms INTEGER NOT NULL,
                    to_ms INTEGER NOT NULL
                );
                """)
        }
        m.registerMigration("v2: alarm deliveries per channel, snoozes") { db in
            try db.execute(sql: """
                CREATE TABLE alarm_deliveries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    episode_number INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    level INTEGER NOT NULL,
                    repeat INTEGER NOT NULL,
                    channel TEXT NOT NULL,
                    action TEXT NOT NULL,
                    delivered INTEGER NOT NULL,
                    detail TEXT NOT NULL
                );
                CREATE INDEX alarm_deliveries_session ON alarm_deliveries(session_id, at_ms);
                CREATE TABLE snoozes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    at_ms INTEGER NOT NULL,
                    episode_number INTEGER,
                    level INTEGER,
                    until_ms INTEGER,
                    snoozes_left INTEGER,
                    refused TEXT
                );
                """)
        }
        return m
    }

    /// Records what each alarm channel did, in one durable transaction.
    public func appendDeliveries(_ deliveries: [AlarmDelivery], session: Int64) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        try write { db in
            for d in deliveries {
                try db.execute(
                    sql: """
                        INSERT INTO alarm_deliveries (session_id, episode_number, at_ms, level, repeat, channel, action, delivered, detail)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [session, d.episode, d.time.millisecondsSinceEpoch, d.level, d.repeatCount, d.channel.rawValue, d.action.rawValue,
                                d.delivered, d.detail])
            }
        }
    }

    /// The alarm deliveries of a session, oldest first.
    public func deliveries(session: Int64) throws(StoreError) -> [AlarmDelivery] {
        do {
            return try db.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM alarm_deliveries WHERE session_id = ? ORDER BY at_ms, id", arguments: [session]).compactMap { r in
                    guard let channel = AlarmChannel(rawValue: r["channel"]), let action = AlarmDelivery.Action(rawValue: r["action"]) else { return nil }
                    return AlarmDelivery(time: Timestamp(nanoseconds: (r["at_ms"] as Int64) * 1_000_000), episode: r["episode_number"], level: r["level"],
                                         repeatCount: r["repeat"], channel: channel, action: action, delivered: r["delivered"], detail: r["detail"])
                }
            }
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(error)")
        }
    }

    /// Applied migrations, oldest first.
    public func appliedMigrations() throws -> [String] {
        try db.read { try Self.migrator.appliedMigrations($0) }
    }

    // MARK: Writing

    /// Opens a session row. Returns its id, which `append` needs.
    public func beginSession(task: String?, source: String, recording: String?, startedAt: Timestamp, plannedSeconds: Double?) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(
                sql: "INSERT INTO sessions (task, source, recording, started_ms, planned_s, last_event_ms) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [task, source, recording, startedAt.millisecondsSinceEpoch, plannedSeconds, startedAt.millisecondsSinceEpoch])
            return db.lastInsertedRowID
        }
    }

    /// Writes a batch of a session's events in one durable transaction.
    public func append(_ events: [SessionEvent], session: Int64) throws(StoreError) {
        guard let last = events.last else { return }
        try write { db in
            for e in events { try Self.insert(e, session: session, db: db) }
            try db.execute(sql: "UPDATE sessions SET last_event_ms = max(last_event_ms, ?) WHERE id = ?",
                           arguments: [last.time.millisecondsSinceEpoch, session])
        }
    }

    /// Writes a whole session (a replay) in one transaction: it is in the log completely or not at all.
    @discardableResult
    public func appendSession(_ events: [SessionEvent], source: String, recording: String?) throws(StoreError) -> Int64? {
        guard let first = events.first, case .sessionStarted(let task, let planned) = first.kind else { return nil }
        return try write { db in
            try db.execute(
                sql: "INSERT INTO sessions (task, source, recording, started_ms, planned_s, last_event_ms) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [task, source, recording, first.time.millisecondsSinceEpoch, planned, first.time.millisecondsSinceEpoch])
            let id = db.lastInsertedRowID
            for e in events.dropFirst() { try Self.insert(e, session: id, db: db) }
            try db.execute(sql: "UPDATE sessions SET last_event_ms = ? WHERE id = ?", arguments: [events.last!.time.millisecondsSinceEpoch, id])
            return id
        }
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
                arguments: [session, at, from.name, to.name, level, score, reason])
        case .episodeStarted(let ep):
            try db.execute(
                sql: "INSERT INTO episodes (session_id, number, started_ms, confirmed_ms, cause, peak_score, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [session, ep.number, ep.start.millisecondsSinceEpoch, ep.confirmedAt.millisecondsSinceEpoch, ep.cause.rawValue, ep.peakScore, ep.reason])
        case .episodeEnded(let ep):
            try db.execute(
                sql: "UPDATE episodes SET ended_ms = ?, peak_score = ?, reason = ?, alarm_level = ?, closed_by = ? WHERE session_id = ? AND number = ?",
                arguments: [ep.end?.millisecondsSinceEpoch, ep.peakScore, ep.reason, ep.alarmLevel, ep.closedBy, session, ep.number])
        case .alarm(let level, let rep, let episode, let cause, let reason):
            try db.execute(
                sql: "INSERT INTO alarms (session_id, episode_number, at_ms, level, repeat, cause, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [session, episode, at, level, rep, cause.rawValue, reason])
        case .alarmCleared(_, let episode, _):
            try db.execute(
                sql: "UPDATE alarms SET cleared_ms = ?, recovery_s = (? - at_ms) / 1000.0 WHERE session_id = ? AND episode_number = ? AND cleared_ms IS NULL",
                arguments: [at, at, session, episode])
        case .alarmSnoozed(let level, let episode, let until, let left):
            try db.execute(
                sql: "INSERT INTO snoozes (session_id, at_ms, episode_number, level, until_ms, snoozes_left) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [session, at, episode, level, until.millisecondsSinceEpoch, left])
        case .snoozeRefused(let reason):
            try db.execute(sql: "INSERT INTO snoozes (session_id, at_ms, refused) VALUES (?, ?, ?)", arguments: [session, at, reason])
        case .sensorStatus(let s):
            try db.execute(
                sql: "INSERT INTO sensor_events (session_id, at_ms, sensor, state, detail) VALUES (?, ?, ?, ?, ?)",
                arguments: [session, at, s.sensor.rawValue, s.state.rawValue, s.detail])
        case .gap(let from, _):
            try db.execute(sql: "INSERT INTO gaps (session_id, from_ms, to_ms) VALUES (?, ?, ?)",
                           arguments: [session, from.millisecondsSinceEpoch, at])
        case .sessionEnded(let s):
            try db.execute(
                sql: """
                    UPDATE sessions SET ended_ms = ?, outcome = ?, active_s = ?, focused_s = ?, distracted_s = ?,
                        paused_s = ?, gap_s = ?, episodes = ?, alarms = ? WHERE id = ?
                    """,
                arguments: [s.ended.millisecondsSinceEpoch, s.outcome.rawValue, s.activeSeconds, s.focusedSeconds, s.distractedSeconds,
                            s.pausedSeconds, s.gapSeconds, s.episodes, s.alarms, session])
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.write(body)
        } catch {
            throw StoreError(path: path, message: "cannot write to the event log: \(reasonText(error))")
        }
    }

    // MARK: Reading

    /// Sessions, newest first.
    public func sessions(limit: Int = 20) throws(StoreError) -> [StoredSession] {
        try read { try StoredSession.fetchAll($0, sql: "SELECT * FROM sessions ORDER BY started_ms DESC, id DESC LIMIT ?", arguments: [limit]) }
    }

    public func episodes(session: Int64) throws(StoreError) -> [StoredEpisode] {
        try read { try StoredEpisode.fetchAll($0, sql: "SELECT * FROM episodes WHERE session_id = ? ORDER BY number", arguments: [session]) }
    }

    /// Row counts per table, for checks and `vigil log --stats`.
    public func counts() throws(StoreError) -> [String: Int] {
        try read { db in
            var out: [String: Int] = [:]
            for t in ["sessions", "episodes", "alarms", "state_changes", "sensor_events", "gaps"] {
                out[t] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(t)") ?? 0
            }
            return out
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.read(body)
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(reasonText(error))")
        }
    }
}

/// `mkdir -p` with mode 0700 for the directories it creates. Returns the directory that could not
/// be created and why (strerror), or nil.
private func makeDirectories(_ path: String) -> (path: String, reason: String)? {
    guard !path.isEmpty else { return nil }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        return isDirectory.boolValue ? nil : (path, "a file of that name is in the way")
    }
    let parent = (path as NSString).deletingLastPathComponent
    if parent != path, let failure = makeDirectories(parent) { return failure }
    if mkdir(path, 0o700) != 0 && errno != EEXIST { return (path, String(cString: strerror(errno))) }
    return nil
}

private func reasonText(_ error: any Error) -> String {
    if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
    if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
        return String(cString: strerror(Int32(u.code)))
    }
    return "\(error)"
}
