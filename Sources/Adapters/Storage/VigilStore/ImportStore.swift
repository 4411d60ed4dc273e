import Foundation
import GRDB
import VigilCore
import VigilPlanner

/// Where an imported record came from: the `imports` table's `source`.
public enum ImportSource: String, Sendable {
    case taskwarrior, timewarrior, loop
}

/// A tracked interval of another tool, as an imported session.
public struct ImportedSession: Sendable, Hashable {
    /// What identifies it in the other tool, across its exports.
    public var key: String
    /// The task's title, and the task when it is one of Vigil's (linked, as `--task` links).
    public var task: String?
    public var taskId: Int64?
    /// The session's tags, normalized (`TaskItem.normalizedTags`).
    public var tags: [String]
    public var start: Timestamp
    public var end: Timestamp
    /// Kept with the import's record (Timewarrior's tags as it wrote them, as a JSON array).
    public var detail: String?
    public init(
        key: String, task: String?, taskId: Int64? = nil, tags: [String] = [], start: Timestamp, end: Timestamp, detail: String?
    ) {
        self.key = key
        self.task = task
        self.taskId = taskId
        self.tags = tags
        self.start = start
        self.end = end
        self.detail = detail
    }
}

/// A habit of another tool with its marked days.
public struct ImportedHabit: Sendable {
    /// Its name, which identifies it (habits have no other id in Loop's CSV export).
    public var name: String
    public var schedule: Schedule
    public var color: String?
    public var archived: Bool
    /// Completed and skipped days.
    public var days: [Int: DayStatus]
    /// The first day it was judged; nil: today.
    public var firstDay: Int?
    public init(name: String, schedule: Schedule, color: String?, archived: Bool, days: [Int: DayStatus], firstDay: Int?) {
        self.name = name
        self.schedule = schedule
        self.color = color
        self.archived = archived
        self.days = days
        self.firstDay = firstDay
    }
}

/// What an import added and what it found there already.
public struct ImportCount: Sendable, Equatable {
    /// Records added (tasks, sessions, habits).
    public var added = 0
    /// Records imported before (by an earlier import of the same record), left as they are.
    public var already = 0
    /// Habits only: existing habits the file's days went into (imported before, or of the same name).
    public var merged = 0
    /// Habits only: days marked.
    public var days = 0
    /// The keys of the records added (or, with a dry run, that would be).
    public var addedKeys: [String] = []
    public init() {}
}

/// `vigil import`: records of other tools written as tasks, sessions and habits, each import in
/// one transaction (all of a file or nothing), with each record's id in its tool remembered in
/// `imports` so that the same record is never imported twice.
extension EventStore {
    /// Adds the tasks not imported before, as one change `vigil undo` takes back. With `dryRun`,
    /// counts without writing. `file` names the export in what `undo` says.
    public func importTasks(_ tasks: [(key: String, task: TaskItem)], dryRun: Bool, at now: Timestamp, from file: String = "a file")
        throws(StoreError)
        -> ImportCount
    {
        try importing(dryRun: dryRun) { db in
            var count = ImportCount()
            var journal = try ImportJournal(db)
            for (key, t) in tasks {
                guard try !Self.wasImported(db, .taskwarrior, key) else {
                    count.already += 1
                    continue
                }
                let id = try Self.insertTask(t, db)
                journal.added("tasks", id)
                try Self.remember(db, .taskwarrior, key, table: "tasks", row: id, detail: nil, at: now)
                count.added += 1
                count.addedKeys.append(key)
            }
            try journal.finish(db, "import of \(count.added) task\(count.added == 1 ? "" : "s") from \(file)")
            return count
        }
    }

    /// Adds the sessions not imported before, as source `imported`: ended, completed, with their
    /// tags, no events, and no judged figures: tracked time, which Vigil did not watch, is never
    /// focused (`SessionSource.isJudged`). One change `vigil undo` takes back. With `dryRun`, counts
    /// without writing.
    public func importSessions(_ sessions: [ImportedSession], dryRun: Bool, at now: Timestamp, from file: String = "a file") throws(StoreError)
        -> ImportCount
    {
        try importing(dryRun: dryRun) { db in
            var count = ImportCount()
            var journal = try ImportJournal(db)
            for s in sessions {
                guard try !Self.wasImported(db, .timewarrior, s.key) else {
                    count.already += 1
                    continue
                }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO sessions (task, task_id, source, started_ms, ended_ms, outcome, last_event_ms, tags)
                        VALUES (?, ?, ?, ?, ?, 'completed', ?, ?)
                        """
                ).execute(
                    arguments: [
                        s.task, s.taskId, SessionSource.imported.rawValue, s.start.millisecondsSinceEpoch, s.end.millisecondsSinceEpoch,
                        s.end.millisecondsSinceEpoch, s.tags.joined(separator: ","),
                    ])
                journal.added("sessions", db.lastInsertedRowID)
                try Self.remember(db, .timewarrior, s.key, table: "sessions", row: db.lastInsertedRowID, detail: s.detail, at: now)
                count.added += 1
                count.addedKeys.append(s.key)
            }
            try journal.finish(db, "import of \(count.added) session\(count.added == 1 ? "" : "s") from \(file)")
            return count
        }
    }

    /// Adds the habits and their days. A habit imported before (still there), or else one of the
    /// same name that is not archived, gets the file's days that it has not marked itself (days
    /// Vigil failed automatically take the file's mark), and starts as early as the file's first
    /// day; a habit imported and deleted since is left alone. One change `vigil undo` takes back
    /// (the habits it added, and the days and starts of those it merged into, as they were). With
    /// `dryRun`, counts without writing.
    ///
    /// Linear in the habits: the habits already here are read once, by name, not looked up with a
    /// scan of the table each; each statement is prepared once (GRDB's authorizer and SQLite's
    /// compiling of the sync triggers cost more than running it: 225,000 days took 45 s).
    public func importHabits(_ habits: [ImportedHabit], dryRun: Bool, today: Int, at now: Timestamp, from file: String = "a file")
        throws(StoreError) -> ImportCount
    {
        try importing(dryRun: dryRun) { db in
            var count = ImportCount()
            var journal = try ImportJournal(db)
            // The habits not archived, by name as SQLite's NOCASE compares (ASCII letters folded),
            // the oldest of a name first.
            var byName: [String: Int64] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT id, name FROM habits WHERE archived_ms IS NULL ORDER BY id") {
                let key = Self.nocase(r["name"])
                if byName[key] == nil { byName[key] = r["id"] }
            }
            for h in habits {
                let mapped = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT row_id FROM imports WHERE source = ? AND external_id = ?"),
                    arguments: [ImportSource.loop.rawValue, h.name])
                let firstDay = min(h.firstDay ?? today, today)
                var id: Int64
                /// When it was here before: its first day then.
                var startedOn: Int?
                if let mapped {
                    guard let day = try Int.fetchOne(db.cachedStatement(sql: "SELECT created_day FROM habits WHERE id = ?"), arguments: [mapped])
                    else {
                        count.already += 1
                        continue
                    }
                    (id, startedOn) = (mapped, day)
                    count.merged += 1
                } else if let same = byName[Self.nocase(h.name)] {
                    (id, startedOn) = (
                        same, try Int.fetchOne(db.cachedStatement(sql: "SELECT created_day FROM habits WHERE id = ?"), arguments: [same])
                    )
                    count.merged += 1
                    try Self.remember(db, .loop, h.name, table: "habits", row: id, detail: nil, at: now)
                } else {
                    try db.cachedStatement(
                        sql: "INSERT INTO habits (name, schedule, color, priority, created_day, archived_ms) VALUES (?, ?, ?, 'medium', ?, ?)"
                    ).execute(
                        arguments: [h.name, h.schedule.text, h.color, firstDay, h.archived ? now.millisecondsSinceEpoch : nil])
                    id = db.lastInsertedRowID
                    journal.added("habits", id)
                    if !h.archived, byName[Self.nocase(h.name)] == nil { byName[Self.nocase(h.name)] = id }
                    count.added += 1
                    count.addedKeys.append(h.name)
                    try Self.remember(db, .loop, h.name, table: "habits", row: id, detail: nil, at: now)
                }
                var marked: [Int: String] = [:]
                for r in try Row.fetchAll(db.cachedStatement(sql: "SELECT day, source FROM habit_days WHERE habit_id = ?"), arguments: [id]) {
                    marked[r["day"]] = r["source"]
                }
                let days = h.days.sorted(by: { $0.key < $1.key }).filter { day, _ in
                    day <= today && (marked[day] == nil || marked[day] == "auto")
                }
                // A habit that was here: as it was, for `vigil undo`, when the import changes it.
                if let startedOn, !days.isEmpty || startedOn > firstDay {
                    try journal.before(
                        db, [.init(table: "habits", column: "id", value: id), .init(table: "habit_days", column: "habit_id", value: id)])
                }
                try db.cachedStatement(sql: "UPDATE habits SET created_day = ? WHERE id = ? AND created_day > ?").execute(arguments: [
                    firstDay, id, firstDay,
                ])
                for (day, status) in days {
                    try db.cachedStatement(sql: "INSERT OR REPLACE INTO habit_days (habit_id, day, status, source) VALUES (?, ?, ?, 'import')")
                        .execute(arguments: [id, day, status.rawValue])
                    count.days += 1
                }
            }
            try journal.finish(
                db,
                "import of \(count.added) habit\(count.added == 1 ? "" : "s") and \(count.days) day\(count.days == 1 ? "" : "s") from \(file)",
                children: ["habits": [("habit_days", "habit_id")]])
            return count
        }
    }

    /// A name as SQLite's NOCASE collation compares it: ASCII letters in lower case.
    static func nocase(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Migration v11, for sessions imported before it: Timewarrior's tags (kept with each import's
    /// record) become the session's tags, and its task the one a tag names (`TaskByTag`) instead of
    /// the tags joined; only where the person has not given the session tags or another task since.
    /// The judged figures those imports stored (their whole time as focused) are cleared: nobody
    /// judged that time. Changed tags and tasks are stamped as edits by the log's trigger, so they
    /// reach the other devices with the next sync.
    static func tagImportedSessions(_ db: Database) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT s.id, s.task, s.task_id, s.tags, i.detail FROM imports i JOIN sessions s ON s.id = i.row_id
                WHERE i.source = ? AND i.tbl = 'sessions' AND s.source = ? ORDER BY s.id
                """, arguments: [ImportSource.timewarrior.rawValue, SessionSource.imported.rawValue])
        if !rows.isEmpty {
            let tasks = TaskByTag(try Row.fetchAll(db, sql: "SELECT * FROM tasks ORDER BY id").map(Self.task))
            for r in rows {
                let detail: String? = r[4]
                guard let data = detail?.data(using: .utf8), let given = (try? JSONSerialization.jsonObject(with: data)) as? [String] else {
                    continue
                }
                let (id, task, taskId, tags): (Int64, String?, Int64?, String) = (r[0], r[1], r[2], r[3])
                var sets: [String] = []
                var arguments: [(any DatabaseValueConvertible)?] = []
                let normalized = TaskItem.normalizedTags(given)
                if tags.isEmpty, !normalized.isEmpty {
                    sets.append("tags = ?")
                    arguments.append(normalized.joined(separator: ","))
                }
                // The task the import made (the tags joined), not one the person gave it since.
                let linked = tasks.task(for: given)
                if taskId == nil, task == (given.isEmpty ? nil : given.joined(separator: ", ")), linked != nil || task != nil {
                    sets += ["task = ?", "task_id = ?"]
                    arguments += [linked?.title, linked?.id]
                }
                guard !sets.isEmpty else { continue }
                try db.execute(
                    sql: "UPDATE sessions SET \(sets.joined(separator: ", ")) WHERE id = ?", arguments: StatementArguments(arguments + [id]))
            }
        }
        try db.execute(
            sql: """
                UPDATE sessions SET active_s = NULL, focused_s = NULL, distracted_s = NULL, paused_s = NULL, gap_s = NULL, episodes = NULL,
                    alarms = NULL
                WHERE source = ?
                """, arguments: [SessionSource.imported.rawValue])
    }

    /// Runs `body` in one transaction, rolled back with `dryRun`.
    private func importing(dryRun: Bool, _ body: (Database) throws -> ImportCount) throws(StoreError) -> ImportCount {
        try storeCall(path, failing: "cannot write to the event log") {
            var result = ImportCount()
            try db.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return dryRun ? .rollback : .commit
                }
            }
            return result
        }
    }

    /// An import's entry in the undo journal (`UndoJournal`): begun at its first change, so an
    /// import that changes nothing leaves the last change to undo as it was. The rows an import
    /// adds in its one transaction have consecutive ids, so each table's are one range.
    struct ImportJournal {
        /// The `imports` rows before this import: those after it are its own.
        let importsBefore: Int64
        private var begun = false
        private var ranges: [(table: String, first: Int64, last: Int64)] = []

        init(_ db: Database) throws {
            importsBefore = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM imports") ?? 0
        }

        /// Notes a row the import added.
        mutating func added(_ table: String, _ id: Int64) {
            if let i = ranges.firstIndex(where: { $0.table == table }) {
                ranges[i].first = min(ranges[i].first, id)
                ranges[i].last = max(ranges[i].last, id)
            } else {
                ranges.append((table, id, id))
            }
        }

        /// Records rows as they are, before the import changes them.
        mutating func before(_ db: Database, _ parts: [UndoJournal.Part]) throws {
            try begin(db)
            try UndoJournal.record(db, parts)
        }

        private mutating func begin(_ db: Database) throws {
            guard !begun else { return }
            try UndoJournal.begin(db, "import")
            begun = true
        }

        /// Records the rows added (and, for each added table in `children`, its child rows
        /// by their parent's id) and names the change.
        mutating func finish(_ db: Database, _ label: String, children: [String: [(table: String, column: String)]] = [:]) throws {
            guard begun || !ranges.isEmpty else { return }
            try begin(db)
            for r in ranges {
                try UndoJournal.record(db, [.range(r.table, "id", from: r.first, to: r.last)], before: false)
                for child in children[r.table] ?? [] {
                    try UndoJournal.record(db, [.range(child.table, child.column, from: r.first, to: r.last)], before: false)
                }
            }
            if let last = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM imports"), last > importsBefore {
                try UndoJournal.record(db, [.range("imports", "rowid", from: importsBefore + 1, to: last)], before: false)
            }
            try db.execute(sql: "UPDATE undo_journal SET label = ?", arguments: [label])
        }
    }

    private static func wasImported(_ db: Database, _ source: ImportSource, _ key: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM imports WHERE source = ? AND external_id = ?"), arguments: [source.rawValue, key])
            == true
    }

    private static func remember(_ db: Database, _ source: ImportSource, _ key: String, table: String, row: Int64, detail: String?, at now: Timestamp)
        throws
    {
        try db.cachedStatement(sql: "INSERT INTO imports (source, external_id, tbl, row_id, detail, imported_ms) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [source.rawValue, key, table, row, detail, now.millisecondsSinceEpoch])
    }
}
