import GRDB
import VigilCore
import VigilStats

/// The SQLite event log: sessions, distraction episodes, alarms, state changes, sensor status, gaps;
/// in the same file, tasks, habits and sent reminders.
///
/// Write-ahead logging with `synchronous = FULL`: once `append` returns, its events survive a crash
/// or a power cut. Each `append` is one transaction, so a batch is all there or not at all.
///
/// This class opens the file and hands each call to the type whose job it is; each of those is
/// given only the connection it needs:
/// - `LogFile` (LogFile.swift): creating and opening the file; the schema and migrations of every feature.
/// - `EventLog`: sessions, their events and alarm deliveries, as rows.
/// - `CrashRecovery`: marking a running session alive; closing the sessions a crash left open.
/// - `StatisticsReader`: the facts the statistics read, the report's hot path, on raw SQLite.
/// - `LogQueries`: sessions, episodes, deliveries, task names, row counts.
/// - TimeColumns.swift: times as the rows keep them (Unix ms) read and written as `Timestamp`s.
/// - PlannerStore.swift (tasks, habits, reminders) and PrivacyStore.swift (export, forget).
public final class EventStore: Sendable {
    public let path: String
    /// Why the log was opened read-only although it could be written (a data directory that is
    /// not the person's): the command should say it.
    public let warning: String?
    let db: any DatabaseWriter
    private let log: EventLog
    private let recovery: CrashRecovery
    private let statistics: StatisticsReader
    private let queries: LogQueries

    /// Opens (creating if needed) the log at `path`. The directory is created 0700 and the file 0600:
    /// the log describes a person's behaviour.
    ///
    /// - Parameter readOnly: the caller only reads: a log it may not write is opened read-only.
    public convenience init(path: String, readOnly: Bool = false) throws(StoreError) {
        var warning: String?
        let db = try LogFile.pool(at: path, readOnly: readOnly, warning: &warning)
        self.init(path: path, db: db, warning: warning)
    }

    /// A private in-memory log, for tests and for replays that are not logged.
    public convenience init() {
        self.init(path: ":memory:", db: LogFile.inMemory())
    }

    private init(path: String, db: any DatabaseWriter, warning: String? = nil) {
        self.path = path
        self.warning = warning
        self.db = db
        log = EventLog(writer: db, path: path)
        recovery = CrashRecovery(writer: db, path: path)
        statistics = StatisticsReader(reader: db, path: path)
        queries = LogQueries(reader: db, path: path)
    }

    /// Applied migrations, oldest first.
    public func appliedMigrations() throws -> [String] { try LogFile.appliedMigrations(in: db) }

    // MARK: Writing (EventLog)

    /// Opens a session row. Returns its id, which `append` needs.
    public func beginSession(
        task: String?, taskId: Int64? = nil, tags: [String] = [], source: SessionSource, recording: String?, startedAt: Timestamp,
        plannedSeconds: Double?, intent: String? = nil
    )
        throws(StoreError) -> Int64
    {
        try log.beginSession(
            task: task, taskId: taskId, tags: tags, source: source, recording: recording, startedAt: startedAt, plannedSeconds: plannedSeconds,
            intent: intent)
    }

    /// Writes a batch of a session's events in one durable transaction.
    public func append(_ events: [SessionEvent], session: Int64) throws(StoreError) { try log.append(events, session: session) }

    /// Writes a whole session (a replay) in one transaction: it is in the log completely or not at all.
    @discardableResult
    public func appendSession(_ events: [SessionEvent], source: SessionSource, recording: String?) throws(StoreError) -> Int64? {
        try log.appendSession(events, source: source, recording: recording)
    }

    /// Writes many whole sessions in one transaction (a simulated history, a split replay): all or
    /// none. Returns the new sessions' ids.
    @discardableResult
    public func appendSessions(_ sessions: [[SessionEvent]], source: SessionSource, recording: String? = nil) throws(StoreError) -> [Int64] {
        try log.appendSessions(sessions, source: source, recording: recording)
    }

    /// Like `appendSessions`, but only into a log without sessions, checked in the same transaction
    /// (a simulated history must not mix with others, nor with another simulation started at the
    /// same time). Returns how many sessions the log already had: 0 when the batch was written.
    public func appendSessionsIntoAnEmptyLog(_ sessions: [[SessionEvent]], source: SessionSource) throws(StoreError) -> Int {
        try log.appendSessionsIntoAnEmptyLog(sessions, source: source)
    }

    /// Records what each alarm channel did, in one durable transaction.
    public func appendDeliveries(_ deliveries: [AlarmDelivery], session: Int64) throws(StoreError) {
        try log.appendDeliveries(deliveries, session: session)
    }

    // MARK: Crash recovery (CrashRecovery)

    /// Marks a running session as seen at `at`: where it is closed if the process dies.
    public func touch(session: Int64, at: Timestamp) throws(StoreError) { try recovery.touch(session: session, at: at) }

    /// Closes the sessions whose end was never logged (the process was killed or the machine lost
    /// power) as interrupted at their last sign of life, with their totals worked out from what
    /// they logged, in one transaction. Only to be called when no session can be running (the
    /// session lock is held). Returns the ids closed, and those removed: a session killed before
    /// its first event holds nothing (no time, no reading), and is not booked as one not completed.
    @discardableResult
    public func closeInterruptedSessions() throws(StoreError) -> (closed: [Int64], removed: [Int64]) {
        try recovery.closeInterruptedSessions()
    }

    // MARK: Reading (StatisticsReader, LogQueries)

    /// What the statistics need about every session that started before `before`, optionally of
    /// one task: judged spans (pauses, breaks and gaps taken out), episodes, alarms, in the
    /// statistics' columnar form (Unix ms, as the rows hold them). How it is read fast and
    /// consistently: `StatisticsReader`.
    /// Only the sessions from `sources` count (by default the person's own: `SessionSource.counted`),
    /// and with `device`, only those of the device of that name (`devices()`).
    public func statisticsFacts(
        before: Timestamp, task: String? = nil, device: String? = nil, sources: Set<SessionSource> = SessionSource.counted
    ) throws(StoreError) -> StatisticsFacts {
        try statistics.facts(before: before.millisecondBound, task: task, device: device, sources: sources)
    }

    /// `statisticsFacts`, and in the same read what `sessionsBySource(from: sourcesFrom, to:
    /// before)` counts: what a report reads, with one pass over the sessions instead of two.
    /// `tag`: only the sessions with this tag or on a task with it (`report --tag`). With
    /// `activities`, the sessions' stretches in applications and on calls that reach into
    /// [`sourcesFrom`, `before`) too (from the first session when `sourcesFrom` is nil): the
    /// report's period.
    public func reportFacts(
        before: Timestamp, task: String? = nil, tag: String? = nil, device: String? = nil, sources: Set<SessionSource> = SessionSource.counted,
        sourcesFrom: Timestamp?, activities: Bool = false
    ) throws(StoreError) -> (facts: StatisticsFacts, sessionsBySource: [SessionSource: Int]) {
        let from = sourcesFrom?.millisecondsSinceEpoch ?? Int64.min
        return try statistics.reportFacts(
            before: before.millisecondBound, task: task, tag: tag, device: device, sources: sources, countingSourcesFrom: from,
            activitiesFrom: activities ? from : nil)
    }

    /// Sessions from `sources`, newest first.
    /// How many sessions of each source started within [from, to) (from the first session when
    /// `from` is nil): what a report says it counted and what it left out.
    public func sessionsBySource(from: Timestamp?, to: Timestamp) throws(StoreError) -> [SessionSource: Int] {
        try queries.sessionsBySource(from: from, to: to)
    }

    public func episodes(session: Int64) throws(StoreError) -> [EpisodeRecord] { try queries.episodes(session: session) }

    /// The alarm deliveries of a session, oldest first.
    public func deliveries(session: Int64) throws(StoreError) -> [AlarmDelivery] { try queries.deliveries(session: session) }

    /// Whether a session has exactly this task (byte for byte, as `task:` filters compare it).
    public func hasSession(task: String) throws(StoreError) -> Bool { try queries.hasSession(task: task) }

    /// Distinct task names in the log, for `--task` suggestions.
    public func taskNames() throws(StoreError) -> [String] { try queries.taskNames() }

    /// Time in each application and on calls within [from, to).
    public func activityTotals(
        from: Timestamp, to: Timestamp, sources: Set<SessionSource> = SessionSource.counted
    ) throws(StoreError) -> [ActivityTotal] {
        try queries.activityTotals(from: from, to: to, sources: sources)
    }

    /// Row counts per table, for checks and `vigil log --stats`.
    public func counts() throws(StoreError) -> [String: Int] { try queries.counts() }

    // MARK: For the planner's and the privacy commands' extensions

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T { try db.read(logAt: path, body) }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T { try db.write(logAt: path, body) }
}
