import Foundation
import GRDB
import GRDBSQLite
import SystemCalls
import VigilCore
import VigilStats

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
            do {
                let fd = try syscall("open", path: path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
                close(fd)
            } catch where error.errno == EEXIST {
                // Another vigil created it in the meantime, which is fine.
            } catch {
                throw StoreError(path: path, message: "cannot create the event log: \(error.reason). Choose another data directory with --data-dir, or fix the permissions of \(dir).")
            }
        }
        do {
            try syscall("access", path: path) { access(path, W_OK) }
        } catch {
            throw StoreError(path: path, message: "the event log is not writable: \(error.reason). Fix its permissions or choose another data directory with --data-dir.")
        }
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        config.busyMode = .timeout(5)
        // Two vigil processes opening a new or older log at once would both set it up and both
        // apply the same migration ("table already exists"): opening is serialised by a lock file.
        // Best effort: without the lock file (a read-only directory) the log is opened unserialised.
        let lockPath = path + ".open-lock"
        let lockFD = try? syscall("open", path: lockPath) { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        if let lockFD { _ = try? syscall("flock", path: lockPath) { flock(lockFD, LOCK_EX) } }
        defer {
            if let lockFD {
                flock(lockFD, LOCK_UN)
                close(lockFD)
            }
        }
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
        m.registerMigration("v3: index for the statistics' pauses") { db in
            // The statistics need only the state changes into and out of pauses and breaks, a
            // tiny share of them: a partial index lets the report skip the rest, and covering the
            // states it needs spares a lookup in the table for each.
            try db.execute(sql: """
                CREATE INDEX state_changes_pauses ON state_changes(session_id, at_ms, from_state, to_state)
                    WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break');
                """)
        }
        m.registerMigration("v4: tasks, habits, reminders") { db in
            try db.execute(sql: """
                CREATE TABLE tasks (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    note TEXT,
                    due_day INTEGER,
                    due_minute INTEGER,
                    priority TEXT NOT NULL,
                    term TEXT NOT NULL,
                    estimate_min INTEGER,
                    tags TEXT NOT NULL DEFAULT '',
                    created_ms INTEGER NOT NULL,
                    done_ms INTEGER
                );
                ALTER TABLE sessions ADD COLUMN task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL;
                CREATE INDEX sessions_task ON sessions(task_id);
                CREATE TABLE habits (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    schedule TEXT NOT NULL,
                    goal INTEGER,
                    color TEXT,
                    reminder TEXT,
                    priority TEXT NOT NULL,
                    flagged INTEGER NOT NULL DEFAULT 0,
                    auto_task TEXT,
                    auto_minutes INTEGER,
                    created_day INTEGER NOT NULL,
                    archived_ms INTEGER
                );
                CREATE TABLE habit_days (
                    habit_id INTEGER NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                    day INTEGER NOT NULL,
                    status TEXT NOT NULL,
                    source TEXT NOT NULL,
                    PRIMARY KEY (habit_id, day)
                );
                CREATE TABLE habit_notes (
                    habit_id INTEGER NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
                    week TEXT NOT NULL,
                    text TEXT NOT NULL,
                    PRIMARY KEY (habit_id, week)
                );
                CREATE TABLE reminders_sent (
                    key TEXT PRIMARY KEY,
                    at_ms INTEGER NOT NULL
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
    public func beginSession(task: String?, taskId: Int64? = nil, source: String, recording: String?, startedAt: Timestamp, plannedSeconds: Double?) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(
                sql: "INSERT INTO sessions (task, task_id, source, recording, started_ms, planned_s, last_event_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [task, taskId, source, recording, startedAt.millisecondsSinceEpoch, plannedSeconds, startedAt.millisecondsSinceEpoch])
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
        try write { db in try Self.insertSession(events, source: source, recording: recording, db: db) }
    }

    /// Writes many whole sessions in one transaction (a simulated history): all or none.
    public func appendSessions(_ sessions: [[SessionEvent]], source: String) throws(StoreError) {
        try write { db in
            for events in sessions { try Self.insertSession(events, source: source, recording: nil, db: db) }
        }
    }

    private static func insertSession(_ events: [SessionEvent], source: String, recording: String?, db: Database) throws -> Int64? {
        guard let first = events.first, case .sessionStarted(let task, let planned) = first.kind else { return nil }
        try db.execute(
            sql: "INSERT INTO sessions (task, source, recording, started_ms, planned_s, last_event_ms) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [task, source, recording, first.time.millisecondsSinceEpoch, planned, first.time.millisecondsSinceEpoch])
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

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.write(body)
        } catch {
            throw StoreError(path: path, message: "cannot write to the event log: \(reasonText(error))")
        }
    }

    // MARK: Reading

    /// Marks a running session as seen at `at`: where it is closed if the process dies.
    public func touch(session: Int64, at: Timestamp) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET last_event_ms = max(last_event_ms, ?) WHERE id = ? AND ended_ms IS NULL",
                           arguments: [at.millisecondsSinceEpoch, session])
        }
    }

    /// Closes the sessions whose end was never logged (the process was killed or the machine lost
    /// power) as interrupted at their last sign of life, with their totals worked out from what
    /// they logged, in one transaction. Only to be called when no session can be running (the
    /// session lock is held). Returns the ids closed.
    @discardableResult
    public func closeInterruptedSessions() throws(StoreError) -> [Int64] {
        let open: [Int64] = try read { db in try Int64.fetchAll(db, sql: "SELECT id FROM sessions WHERE ended_ms IS NULL ORDER BY id") }
        guard !open.isEmpty else { return [] }
        let facts = try statisticsFacts(before: .max)
        try write { db in
            for s in facts.sessions where open.contains(s.id) {
                let active = facts.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)].reduce(0) { $0 + $1.milliseconds }
                let episodes = facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)]
                let distracted = episodes.reduce(0) { $0 + $1.span.milliseconds }
                let gaps = try Int64.fetchOne(db, sql: "SELECT coalesce(sum(to_ms - from_ms), 0) FROM gaps WHERE session_id = ?", arguments: [s.id]) ?? 0
                let whole = s.end - s.start
                try db.execute(sql: "UPDATE episodes SET ended_ms = ?, closed_by = 'interrupted' WHERE session_id = ? AND ended_ms IS NULL",
                               arguments: [s.end, s.id])
                try db.execute(sql: """
                    UPDATE sessions SET ended_ms = ?, outcome = 'interrupted', active_s = ?, focused_s = ?, distracted_s = ?, paused_s = ?,
                        gap_s = ?, episodes = (SELECT count(*) FROM episodes WHERE session_id = ?), alarms = (SELECT count(*) FROM alarms WHERE session_id = ?)
                    WHERE id = ?
                    """, arguments: [s.end, Double(active) / 1000, Double(max(0, active - distracted)) / 1000, Double(distracted) / 1000,
                                     Double(max(0, whole - active - gaps)) / 1000, Double(gaps) / 1000, s.id, s.id, s.id])
            }
        }
        return open
    }

    /// Sessions, newest first.
    public func sessions(limit: Int = 20) throws(StoreError) -> [StoredSession] {
        try read { try StoredSession.fetchAll($0, sql: "SELECT * FROM sessions ORDER BY started_ms DESC, id DESC LIMIT ?", arguments: [limit]) }
    }

    public func episodes(session: Int64) throws(StoreError) -> [StoredEpisode] {
        try read { try StoredEpisode.fetchAll($0, sql: "SELECT * FROM episodes WHERE session_id = ? ORDER BY number", arguments: [session]) }
    }

    /// What the statistics need about every session that started before `before` (Unix ms),
    /// optionally of one task: judged spans (pauses, breaks and gaps taken out), episodes, alarms.
    ///
    /// This is the report's hot path (years of a heavy user are hundreds of thousands of rows), so
    /// rows are stepped with SQLite's own column functions rather than GRDB's `Row`, tables are
    /// scanned in rowid order and grouped by session with a counting sort, of the state changes
    /// only those into and out of pauses are read (a covering partial index), and sessions and
    /// their episodes and alarms are read at the same time on two connections; what the second
    /// sees beyond the first's snapshot is left out, so a session being written meanwhile cannot
    /// tear the figures.
    public func statisticsFacts(before: Int64, task: String? = nil) throws(StoreError) -> StatisticsFacts {
        let results = Results()
        do {
            if let pool = db as? DatabasePool {
                // The children's reader starts once the sessions' reader holds its snapshot, so it
                // sees the same log or a later one; rows written after the sessions' snapshot are
                // then recognised by their times and left out (`assemble`).
                let sessionsReading = DispatchSemaphore(value: 0)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    do {
                        if i == 0 {
                            let rows = try pool.read { try Self.readSessions($0, before: before, task: task, snapshotTaken: { sessionsReading.signal() }) }
                            results.withLock { $0.sessions = rows }
                        } else {
                            sessionsReading.wait()
                            let rows = try pool.read { try Self.readChildren($0) }
                            results.withLock { $0.children = rows }
                        }
                    } catch {
                        results.withLock { $0.error = error }
                    }
                }
            } else {
                let rows = try db.read { ($0, try Self.readSessions($0, before: before, task: task, snapshotTaken: {}), try Self.readChildren($0)) }
                results.withLock { $0.sessions = rows.1; $0.children = rows.2 }
            }
            if let error = results.withLock({ $0.error }) { throw error }
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(reasonText(error))")
        }
        let (sessionRows, childRows) = results.withLock { ($0.sessions, $0.children) }
        return Self.assemble(sessionRows, childRows)
    }

    private struct SessionRows {
        var facts = StatisticsFacts()
        var sessions: [SessionFacts] = []
        /// Each session's last logged event, as the snapshot saw it: rows of the other reader
        /// after it were written later.
        var lastEvents: [Int64] = []
        /// Pauses, breaks and gaps by session id.
        var holes: [(Int64, Span)] = []
    }

    private struct ChildRows {
        var episodes: [(Int64, EpisodeFacts)] = []
        var alarms: [(Int64, AlarmFacts)] = []
    }

    /// What the two readers hand back.
    private final class Results: @unchecked Sendable {
        struct Values {
            var sessions = SessionRows()
            var children = ChildRows()
            var error: (any Error)?
        }
        private let lock = NSLock()
        private var values = Values()
        func withLock<T>(_ body: (inout Values) -> T) -> T { lock.withLock { body(&values) } }
    }

    /// `snapshotTaken` is called once the read transaction has its snapshot of the log.
    private static func readSessions(_ db: Database, before: Int64, task: String?, snapshotTaken: () -> Void) throws -> SessionRows {
        var out = SessionRows()
        // Any read fixes the snapshot; this one is tiny.
        _ = try Int64.fetchOne(db, sql: "SELECT max(id) FROM sessions")
        snapshotTaken()
        let sql = "SELECT id, task, started_ms, coalesce(ended_ms, last_event_ms), outcome, last_event_ms FROM sessions WHERE started_ms < ?"
            + (task == nil ? "" : " AND task = ?") + " ORDER BY id"
        try stepRows(db, sql, task == nil ? [before] : [before, task]) { p in
            let start = sqlite3_column_int64(p, 2)
            out.sessions.append(SessionFacts(id: sqlite3_column_int64(p, 0), task: out.facts.internTask(text(p, 1)), start: start,
                                             end: max(start, sqlite3_column_int64(p, 3)), outcome: .init(text(p, 4))))
            out.lastEvents.append(sqlite3_column_int64(p, 5))
        }
        // Pauses and breaks from the state changes into and out of them (in session, then time order).
        var pausedSince: (session: Int64, at: Int64)?
        var ends: [Int64: Int64] = [:]
        func end(of session: Int64) -> Int64 {
            if ends.isEmpty { for s in out.sessions { ends[s.id] = s.end } }
            return ends[session] ?? .max
        }
        try stepRows(db, """
            SELECT session_id, at_ms, from_state IN ('pause', 'break'), to_state IN ('pause', 'break')
            FROM state_changes INDEXED BY state_changes_pauses
            WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break') ORDER BY session_id, at_ms
            """) { p in
            let session = sqlite3_column_int64(p, 0)
            if let open = pausedSince, open.session != session {  // never resumed: paused to its end
                out.holes.append((open.session, Span(open.at, end(of: open.session))))
                pausedSince = nil
            }
            let at = sqlite3_column_int64(p, 1)
            let pausedBefore = sqlite3_column_int(p, 2) != 0, pausedAfter = sqlite3_column_int(p, 3) != 0
            if pausedAfter, !pausedBefore, pausedSince == nil { pausedSince = (session, at) }
            if !pausedAfter, let open = pausedSince {
                out.holes.append((session, Span(open.at, at)))
                pausedSince = nil
            }
        }
        if let open = pausedSince { out.holes.append((open.session, Span(open.at, end(of: open.session)))) }
        try stepRows(db, "SELECT session_id, from_ms, to_ms FROM gaps") { p in
            out.holes.append((sqlite3_column_int64(p, 0), Span(sqlite3_column_int64(p, 1), sqlite3_column_int64(p, 2))))
        }
        return out
    }

    private static func readChildren(_ db: Database) throws -> ChildRows {
        var out = ChildRows()
        try stepRows(db, "SELECT session_id, number, started_ms, ended_ms, cause FROM episodes") { p in
            guard let cause = text(p, 4).flatMap(Cause.init(rawValue:)) else { return }
            let start = sqlite3_column_int64(p, 2)
            // An episode never closed ends with its session (Int64.max until assembled).
            let end = sqlite3_column_type(p, 3) == SQLITE_NULL ? Int64.max : max(start, sqlite3_column_int64(p, 3))
            out.episodes.append((sqlite3_column_int64(p, 0), EpisodeFacts(number: Int(sqlite3_column_int64(p, 1)), span: Span(start, end), cause: cause)))
        }
        try stepRows(db, "SELECT session_id, episode_number, at_ms, repeat, cleared_ms FROM alarms") { p in
            out.alarms.append((sqlite3_column_int64(p, 0), AlarmFacts(
                episode: Int(sqlite3_column_int64(p, 1)), at: sqlite3_column_int64(p, 2), repeatCount: Int(sqlite3_column_int64(p, 3)),
                cleared: sqlite3_column_type(p, 4) == SQLITE_NULL ? nil : sqlite3_column_int64(p, 4))))
        }
        return out
    }

    /// Puts the rows in the statistics' layout: sessions in start order, each one's judged spans,
    /// episodes and alarms in consecutive ranges.
    private static func assemble(_ rows: SessionRows, _ children: ChildRows) -> StatisticsFacts {
        var sessions = rows.sessions
        // What the sessions' snapshot had seen of each session (ids ascending, as read).
        let lastEventById = rows.lastEvents
        // Statistics want start order; ids are nearly always in it already.
        if !sessions.isSorted(by: { ($0.start, $0.id) <= ($1.start, $1.id) }) { sessions.sort { ($0.start, $0.id) < ($1.start, $1.id) } }
        // Session id -> position, as a flat table: ids are dense.
        let firstId = sessions.map(\.id).min() ?? 0
        var position = [Int32](repeating: -1, count: sessions.isEmpty ? 0 : Int((sessions.map(\.id).max() ?? 0) - firstId + 1))
        for (i, s) in sessions.enumerated() { position[Int(s.id - firstId)] = Int32(i) }
        func index(_ id: Int64) -> Int32? {
            let k = id - firstId
            guard k >= 0, k < position.count, position[Int(k)] >= 0 else { return nil }
            return position[Int(k)]
        }
        // The last event the sessions' snapshot saw, by session position.
        var seenUntil = [Int64](repeating: .max, count: sessions.count)
        for (k, s) in rows.sessions.enumerated() { if let i = index(s.id) { seenUntil[Int(i)] = lastEventById[k] } }
        // Rows written after that snapshot: episodes and alarms that began later are left out, and
        // an end or a clearing that came later is not known yet.
        let episodes = children.episodes.compactMap { (id, e) -> (Int64, EpisodeFacts)? in
            guard let i = index(id) else { return nil }
            let seen = seenUntil[Int(i)]
            guard e.span.start <= seen else { return nil }
            var e = e
            if e.span.end > seen { e.span.end = .max }
            return (id, e)
        }
        let alarms = children.alarms.compactMap { (id, a) -> (Int64, AlarmFacts)? in
            guard let i = index(id) else { return nil }
            let seen = seenUntil[Int(i)]
            guard a.at <= seen else { return nil }
            return a.clearedAt > seen ? (id, AlarmFacts(episode: Int(a.episode), at: a.at, repeatCount: Int(a.repeatCount), cleared: nil)) : (id, a)
        }
        let (holeList, holeRanges) = groupBySession(rows.holes, sessions: sessions.count, index)
        var (episodeList, episodeRanges) = groupBySession(episodes, sessions: sessions.count, index)
        var (alarmList, alarmRanges) = groupBySession(alarms, sessions: sessions.count, index)

        var active: [Span] = []
        active.reserveCapacity(sessions.count + holeList.count)
        for i in sessions.indices {
            let whole = Span(sessions[i].start, sessions[i].end)
            let first = Int32(active.count)
            let r = holeRanges[i]
            if r.isEmpty {
                active.append(whole)
            } else {
                subtract(union(Array(holeList[Int(r.lowerBound)..<Int(r.upperBound)])), from: CollectionOfOne(whole), into: &active)
            }
            sessions[i].active = first..<Int32(active.count)
            sessions[i].episodes = episodeRanges[i]
            sessions[i].alarms = alarmRanges[i]
            let e = Int(episodeRanges[i].lowerBound)..<Int(episodeRanges[i].upperBound)
            for k in e where episodeList[k].span.end == .max { episodeList[k].span.end = max(episodeList[k].span.start, whole.end) }
            // Rowid order is the order they were logged in; sort only what is not in order.
            if !episodeList[e].isSorted(by: { $0.span.start <= $1.span.start }) { episodeList[e].sort { $0.span.start < $1.span.start } }
            let a = Int(alarmRanges[i].lowerBound)..<Int(alarmRanges[i].upperBound)
            if !alarmList[a].isSorted(by: { $0.at <= $1.at }) { alarmList[a].sort { $0.at < $1.at } }
        }
        return StatisticsFacts(sessions: sessions, tasks: rows.facts.tasks, active: active, episodes: episodeList, alarms: alarmList)
    }

    /// Distinct task names in the log, for `--task` suggestions.
    public func taskNames() throws(StoreError) -> [String] {
        try read { try String.fetchAll($0, sql: "SELECT DISTINCT task FROM sessions WHERE task IS NOT NULL ORDER BY task") }
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

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.read(body)
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(reasonText(error))")
        }
    }
}

/// `mkdir -p` with mode 0700 for the directories it creates. Returns the directory that could not
/// be created and why (strerror), or nil.
/// Steps a statement's rows with SQLite's column functions.
private func stepRows(_ db: Database, _ sql: String, _ arguments: StatementArguments = [], _ body: (OpaquePointer) throws -> Void) throws {
    let statement = try db.makeStatement(sql: sql)
    try statement.setArguments(arguments)
    let p = statement.sqliteStatement
    defer { sqlite3_reset(p) }
    while true {
        let rc = sqlite3_step(p)
        if rc == SQLITE_DONE { return }
        guard rc == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        try body(p)
    }
}

private func text(_ p: OpaquePointer, _ column: Int32) -> String? {
    guard let c = sqlite3_column_text(p, column) else { return nil }
    return String(cString: c)
}

/// Groups (session id, item) pairs by the session's position (`index`; pairs of sessions not
/// wanted are dropped), keeping each session's items in the order given: a counting sort, one
/// pass to count and one to place.
private func groupBySession<T>(_ items: [(Int64, T)], sessions: Int, _ index: (Int64) -> Int32?) -> ([T], [Range<Int32>]) {
    var counts = [Int32](repeating: 0, count: sessions + 1)
    var positions = [Int32](repeating: -1, count: items.count)
    for (k, (id, _)) in items.enumerated() {
        if let i = index(id) {
            positions[k] = i
            counts[Int(i) + 1] += 1
        }
    }
    for i in 0..<sessions { counts[i + 1] += counts[i] }
    let ranges = (0..<sessions).map { counts[$0]..<counts[$0 + 1] }
    guard let any = items.first?.1 else { return ([], ranges) }
    var out = [T](repeating: any, count: Int(counts[sessions]))
    var next = counts
    for (k, (_, item)) in items.enumerated() where positions[k] >= 0 {
        let i = Int(positions[k])
        out[Int(next[i])] = item
        next[i] += 1
    }
    return (out, ranges)
}

extension Collection {
    fileprivate func isSorted(by ordered: (Element, Element) -> Bool) -> Bool {
        var previous: Element?
        for e in self {
            if let p = previous, !ordered(p, e) { return false }
            previous = e
        }
        return true
    }
}

private func makeDirectories(_ path: String) -> (path: String, reason: String)? {
    guard !path.isEmpty else { return nil }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        return isDirectory.boolValue ? nil : (path, "a file of that name is in the way")
    }
    let parent = (path as NSString).deletingLastPathComponent
    if parent != path, let failure = makeDirectories(parent) { return failure }
    do {
        try makeDirectory(path, mode: 0o700)
    } catch {
        return (path, error.reason)
    }
    return nil
}

private func reasonText(_ error: any Error) -> String {
    if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
    if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
        // Foundation's file errors carry the errno of the call beneath; only its text is wanted.
        return SystemError(call: "Foundation", errno: Int32(u.code)).reason
    }
    return "\(error)"
}
