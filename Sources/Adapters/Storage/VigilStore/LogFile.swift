import Foundation
import GRDB
import SystemCalls

/// The SQLite file behind `EventStore`: where it is created, how it is opened, and the schema of
/// every feature (the event log, tasks and habits) as named migrations.
///
/// A migration, once released, is never edited: an existing log is brought up to date by the
/// ones it has not run yet, recognised by their names. A change to the schema is a new migration
/// at the end of `migrator`, which keeps the whole history in the order it was made.
enum LogFile {
    /// Opens (creating if needed) the log at `path`, brought up to the current schema. The
    /// directory is created 0700 and the file 0600: the log describes a person's behaviour.
    ///
    /// - Parameter readOnly: for commands that only read (log, report, export, apps): a log they
    ///   may not write is opened read-only instead of refused, as long as it needs no migration.
    ///   A log in a data directory that is not the person's (`DataDirectoryTrust`) is only read,
    ///   and `warning` says why; the other commands refuse it.
    static func pool(at path: String, readOnly: Bool = false, warning: inout String?) throws(StoreError) -> DatabasePool {
        let dir = FilePaths.directory(of: path)
        let untrusted = DataDirectoryTrust.problem(directory: dir, log: path)
        if readOnly, access(path, R_OK) == 0, untrusted != nil || access(path, W_OK) != 0 {
            warning = untrusted.map { "\($0); reading it only." }
            return try readOnlyPool(at: path, mayCreateFiles: untrusted == nil)
        }
        if let untrusted { throw StoreError(path: dir, message: untrusted + "; nothing was written. " + DataDirectoryTrust.advice) }
        if let failure = makeDirectories(dir) {
            throw StoreError(
                path: failure.path,
                message:
                    "cannot create the data directory: \(failure.reason). Choose another with --data-dir or XDG_DATA_HOME, or fix its permissions.")
        }
        if !FileManager.default.fileExists(atPath: path) {
            do {
                let fd = try syscall("open", path: path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
                close(fd)
            } catch  where error.errno == EEXIST {
                // Another vigil created it in the meantime, which is fine.
            } catch {
                throw StoreError(
                    path: path,
                    message:
                        "cannot create the event log: \(error.reason). Choose another data directory with --data-dir, or fix the permissions of \(dir)."
                )
            }
        }
        do {
            try syscall("access", path: path) { access(path, W_OK) }
        } catch {
            throw StoreError(
                path: path,
                message: "the event log is not writable: \(error.reason). Fix its permissions or choose another data directory with --data-dir.")
        }
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        config.busyMode = .timeout(5)
        // Two vigil processes opening a new or older log at once would both set it up and both
        // apply the same migration ("table already exists"): opening is serialised.
        return try serialised(path) { () throws(StoreError) -> DatabasePool in
            let pool = try storeCall(path, failing: "cannot open the event log") { try DatabasePool(path: path, configuration: config) }
            try refuseNewer(pool, at: path)
            // Asked in a read first: migrating takes the write lock even when there is nothing to
            // do, and another process may be holding it for a long transaction.
            let current = try pool.read(logAt: path) { try migrator.hasCompletedMigrations($0) }
            if !current { try storeCall(path, failing: "cannot open the event log") { try migrator.migrate(pool) } }
            return pool
        }
    }

    /// Runs `body` holding the log's setup lock (a lock file beside it, `flock`ed), which
    /// serialises what must not interleave between processes and cannot wait on SQLite's busy
    /// timeout: setting the log up, and claiming an empty log (`vigil simulate`), whose first
    /// transaction may take longer than any timeout on a loaded machine. Whoever comes second
    /// waits for the first to finish, however long, and then sees what it did.
    /// Best effort: without the lock file (a read-only directory) `body` runs unserialised.
    static func serialised<T>(_ path: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let lockPath = path + ".open-lock"
        let lockFD = try? syscall("open", path: lockPath) { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        if let lockFD { _ = try? syscall("flock", path: lockPath) { flock(lockFD, LOCK_EX) } }
        defer {
            if let lockFD {
                flock(lockFD, LOCK_UN)
                close(lockFD)
            }
        }
        return try body()
    }

    /// A log this process may read but not write, opened read-only: it must be at this version's
    /// schema, since it cannot be brought up to it.
    /// - Parameter mayCreateFiles: false in a directory that is not the person's, where SQLite's
    ///   shared-memory file is not made (it would belong to this user, not the directory's owner).
    private static func readOnlyPool(at path: String, mayCreateFiles: Bool) throws(StoreError) -> DatabasePool {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        // SQLite reads a write-ahead log through its -shm file; in a directory this process may not
        // write, where none is there to share, it can only read the file as immutable (nobody
        // could be writing it here either).
        let shared = FileManager.default.fileExists(atPath: path + "-shm")
        let canCreate = mayCreateFiles && access(FilePaths.directory(of: path), W_OK) == 0
        let location = shared || canCreate ? path : "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1"
        let pool = try storeCall(path, failing: "cannot open the event log read-only") { try DatabasePool(path: location, configuration: config) }
        try refuseNewer(pool, at: path)
        let current = try pool.read(logAt: path) { try migrator.hasCompletedMigrations($0) }
        guard current else {
            throw StoreError(
                path: path,
                message:
                    "the event log was written by an older Vigil and must be updated to be read, but it is read-only. Make it writable once (any vigil command updates it), or read a writable copy with --data-dir."
            )
        }
        return pool
    }

    /// A log with migrations this version does not know was written by a newer Vigil: its rows
    /// may mean what this version cannot tell, and writing them could spoil them. Refused, as a
    /// recording from a newer version is.
    private static func refuseNewer(_ pool: DatabasePool, at path: String) throws(StoreError) {
        let unknown = try pool.read(logAt: path) { db in
            try migrator.hasBeenSuperseded(db) ? try migrator.appliedIdentifiers(db).subtracting(migrator.migrations) : []
        }
        guard unknown.isEmpty else {
            throw StoreError(
                path: path,
                message:
                    "the event log was written by a newer version of Vigil (it has \(unknown.sorted().map { "'\($0)'" }.joined(separator: ", ")), which this version does not know). Update Vigil to read or write it; nothing was changed.",
                kind: .contents)
        }
    }

    /// A private in-memory log, for tests and for replays that are not logged.
    static func inMemory() -> DatabaseQueue {
        let db = try! DatabaseQueue()
        try! migrator.migrate(db)
        return db
    }

    /// Applied migrations, oldest first.
    static func appliedMigrations(in reader: any DatabaseReader) throws -> [String] {
        try reader.read { try migrator.appliedMigrations($0) }
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: sessions and events") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    CREATE INDEX state_changes_pauses ON state_changes(session_id, at_ms, from_state, to_state)
                        WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break');
                    """)
        }
        m.registerMigration("v4: tasks, habits, reminders") { db in
            try db.execute(
                sql: """
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
        // The application in front and calls, as stretches of judged time: an application's class
        // and category (never a window title), or a call.
        m.registerMigration("v5: time in applications and on calls") { db in
            try db.execute(
                sql: """
                    CREATE TABLE activities (
                        session_id INTEGER NOT NULL REFERENCES sessions(id),
                        kind TEXT NOT NULL CHECK (kind IN ('app', 'call')),
                        app_class TEXT,
                        category TEXT,
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL
                    );
                    CREATE INDEX activities_by_session ON activities(session_id);
                    """)
        }
        // Reports count sessions by where they came from (live, simulated, replay, rehearsal) and
        // say what they left out: an index that answers that without reading the sessions.
        m.registerMigration("v6: sessions by source") { db in
            try db.execute(sql: "CREATE INDEX sessions_by_source ON sessions(source, started_ms)")
        }
        // Sync between a person's devices (docs/sync.md): this device's identity, every row's global
        // identity (its origin device and its id there), a hybrid logical clock on the rows that are
        // edited, tombstones for deletes, and what was already sent. Every write path of the edited
        // tables is stamped by triggers, so no caller can forget to.
        m.registerMigration("v7: sync between devices") { db in
            try db.execute(sql: SyncMigration.devicesTable)
            try db.execute(
                sql: "INSERT INTO devices (id, name, is_self, created_ms) VALUES (?, ?, 1, ?)",
                arguments: [DeviceIdentity.newID(), DeviceIdentity.defaultName(), Int64(Date().timeIntervalSince1970 * 1000)])
            try db.execute(sql: SyncMigration.sql)
        }
        // What came in from other tools (`vigil import`, docs/imports.md): each imported record's
        // id there (a Taskwarrior uuid, a Timewarrior interval's start, end and tags, a Loop habit's
        // name) and the row it became, so that importing the same export again adds nothing. Kept
        // on this device only (not synced); it outlives the rows, so what the person deleted after
        // an import does not come back with the next one.
        m.registerMigration("v8: imports from other tools") { db in
            try db.execute(
                sql: """
                    CREATE TABLE imports (
                        source TEXT NOT NULL,
                        external_id TEXT NOT NULL,
                        tbl TEXT NOT NULL,
                        row_id INTEGER NOT NULL,
                        detail TEXT,
                        imported_ms INTEGER NOT NULL,
                        PRIMARY KEY (source, external_id)
                    );
                    """)
        }
        // Sessions a person corrects (docs/history.md): tags and a note of their own, and the
        // clock of their last edit, so that an edit made after the session was sent travels too.
        m.registerMigration("v9: session tags, notes, edits and undo") { db in
            try db.execute(sql: SyncMigration.sessionEdits)
        }
        // A recovery is a return to work: alarms of episodes that a pause, a break, a gap or the
        // session's end closed were logged with one before, and the statistics counted them.
        m.registerMigration("v10: recovery only for returns") { db in
            try db.execute(
                sql: """
                    UPDATE alarms SET recovery_s = NULL WHERE recovery_s IS NOT NULL AND EXISTS (
                        SELECT 1 FROM episodes e WHERE e.session_id = alarms.session_id AND e.number = alarms.episode_number
                            AND e.closed_by IS NOT NULL AND e.closed_by <> 'back')
                    """)
        }
        // Imported time is tracked, not judged (docs/imports.md): a Timewarrior interval's tags are
        // the session's tags, not its task, and it has no focused time (EventStore.tagImportedSessions).
        m.registerMigration("v11: imported sessions tagged, not judged") { db in
            try EventStore.tagImportedSessions(db)
        }
        // `vigil undo` after a sync must not write over another device's later change
        // (UndoJournal.overtakenMigration).
        m.registerMigration("v12: undo sees other devices' changes") { db in
            try db.execute(sql: UndoJournal.overtakenMigration)
        }
        // The person in the loop (docs/person-in-the-loop-design.md): what they meant to do and
        // whether they did, and their word on an episode; each an edit that travels.
        m.registerMigration("v13: intentions and the person's labels") { db in
            try db.execute(sql: SyncMigration.personsWord)
            // The `apps` rule that gave a stretch its category (its name, as the config has it): a
            // rule learned from "this was work" must outrank it. Stays on this device, as the
            // stretches do.
            try db.execute(sql: "ALTER TABLE activities ADD COLUMN rule TEXT")
        }
        // The whole day (docs/whole-day-design.md): the all-day watch's stretches, outside sessions.
        // On this device only (not synced), kept `daemon.watch_days`.
        m.registerMigration("v14: the day outside sessions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE day_stretches (
                        kind TEXT NOT NULL CHECK (kind IN ('app', 'away', 'locked', 'asleep')),
                        app_class TEXT,
                        category TEXT,
                        rule TEXT,
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL CHECK (end_ms >= start_ms)
                    );
                    CREATE INDEX day_stretches_by_start ON day_stretches(start_ms);
                    -- Periods `vigil forget` deleted, while a watch may hold a stretch that began
                    -- before: what it writes later is cut out of them. Kept a day.
                    CREATE TABLE forgotten_periods (at_ms INTEGER NOT NULL, from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL);
                    """)
        }
        return m
    }
}

/// `mkdir -p` with mode 0700 for the directories it creates. Returns the directory that could not
/// be created and why, or nil.
private func makeDirectories(_ path: String) -> (path: String, reason: String)? {
    guard !path.isEmpty else { return nil }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        return isDirectory.boolValue ? nil : (path, "a file of that name is in the way")
    }
    let parent = FilePaths.directory(of: path)
    if parent != path, let failure = makeDirectories(parent) { return failure }
    do {
        try makeDirectory(path, mode: 0o700)
    } catch {
        return (path, error.reason)
    }
    return nil
}

/// Whether a data directory is the person's own, as ssh asks of a key: one another user owns (even
/// for root, whose files there its owner could no longer write), or that others may write to (who
/// could replace the log, or plant a file in its place), holds no log of theirs to write.
enum DataDirectoryTrust {
    static let advice = "Use a directory of your own with --data-dir (or XDG_DATA_HOME)."

    /// What is wrong with `directory` and the log in it, or nil: the directory (when it exists)
    /// and the log (when it exists) must belong to this user, and neither be writable by others.
    static func problem(directory: String, log: String) -> String? {
        var info = stat()
        if stat(directory, &info) == 0 {
            if let problem = problem(info, directory, "the data directory", fix: "chmod go-w") { return problem }
        }
        if lstat(log, &info) == 0 {
            return problem(info, log, "the event log", fix: "chmod 600")
        }
        return nil
    }

    private static func problem(_ info: stat, _ path: String, _ what: String, fix: String) -> String? {
        if info.st_uid != geteuid() {
            return "\(what) \(path) is not yours: it belongs to \(userName(info.st_uid)), and this is \(userName(geteuid()))"
        }
        if info.st_mode & 0o022 != 0 {
            return
                "others may write to \(what) \(path) (mode \(String(info.st_mode & 0o7777, radix: 8))), so they could change your log: `\(fix) \(path)`"
        }
        return nil
    }

    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }
}
