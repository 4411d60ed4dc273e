import Foundation
import GRDB
import VigilCore
import VigilPlanner

/// Tasks, habits and sent reminders, in the same SQLite file as the sessions they are linked to.
extension EventStore {
    // MARK: Tasks

    @discardableResult
    public func addTask(_ t: TaskItem) throws(StoreError) -> Int64 {
        try write { db in
            let id = try Self.insertTask(t, db)
            try UndoJournal.begin(db, "task add #\(id) \"\(t.title)\"")
            try UndoJournal.record(db, [.init(table: "tasks", column: "id", value: id)], before: false)
            return id
        }
    }

    /// Writes a new task's row in `db`'s transaction; returns its id.
    static func insertTask(_ t: TaskItem, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO tasks (title, note, due_day, due_minute, priority, term, estimate_min, tags, created_ms, done_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                t.title, t.note, t.due?.day, t.due?.minute, t.priority.rawValue, t.term.rawValue, t.estimateMinutes,
                t.tags.joined(separator: ","), t.created.millisecondsSinceEpoch, t.done?.millisecondsSinceEpoch,
            ])
        return db.lastInsertedRowID
    }

    public func updateTask(_ t: TaskItem) throws(StoreError) {
        try write { db in
            try UndoJournal.journal(db, "task change #\(t.id) \"\(t.title)\"", [.init(table: "tasks", column: "id", value: t.id)])
            try db.execute(
                sql: """
                    UPDATE tasks SET title = ?, note = ?, due_day = ?, due_minute = ?, priority = ?, term = ?, estimate_min = ?, tags = ?, done_ms = ?
                    WHERE id = ?
                    """,
                arguments: [
                    t.title, t.note, t.due?.day, t.due?.minute, t.priority.rawValue, t.term.rawValue, t.estimateMinutes,
                    t.tags.joined(separator: ","), t.done?.millisecondsSinceEpoch, t.id,
                ])
        }
    }

    /// Deletes a task; its sessions stay in the log with the task's title.
    public func deleteTask(id: Int64) throws(StoreError) {
        try write { db in
            let title = try String.fetchOne(db, sql: "SELECT title FROM tasks WHERE id = ?", arguments: [id]) ?? ""
            // Its sessions lose their link to it: put back with it.
            try UndoJournal.journal(
                db, "task delete #\(id) \"\(title)\"",
                [.init(table: "tasks", column: "id", value: id), .init(table: "sessions", column: "task_id", value: id)])
            try db.execute(sql: "DELETE FROM tasks WHERE id = ?", arguments: [id])
        }
    }

    public func tasks(includeDone: Bool = true) throws(StoreError) -> [TaskItem] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tasks" + (includeDone ? "" : " WHERE done_ms IS NULL") + " ORDER BY id").map(Self.task)
        }
    }

    public func task(id: Int64) throws(StoreError) -> TaskItem? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM tasks WHERE id = ?", arguments: [id]).map(Self.task) }
    }

    static func task(_ r: Row) -> TaskItem {
        let day = r.optionalDay("due_day")
        let tags: String = r["tags"]
        return TaskItem(
            id: r["id"], title: r["title"], note: r["note"], due: day.map { Deadline(day: $0, minute: r["due_minute"]) },
            priority: Priority(rawValue: r["priority"]) ?? .medium, term: Term(rawValue: r["term"]) ?? .short,
            estimateMinutes: r["estimate_min"], tags: tags.split(separator: ",").map(String.init), created: r.time("created_ms"),
            done: r.optionalTime("done_ms"))
    }

    /// Per task: focused minutes, sessions and distraction episodes of the person's own sessions
    /// linked to it (`SessionSource.counted`: a rehearsal or a replay is not work done).
    public func taskEffort() throws(StoreError) -> [Int64: TaskEffort] {
        try read { db in
            var out: [Int64: TaskEffort] = [:]
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT s.task_id, coalesce(sum(s.focused_s), 0) / 60.0, count(*), coalesce(sum(s.episodes), 0)
                    FROM sessions s WHERE s.task_id IS NOT NULL AND s.source IN (\(SessionSource.sqlList(SessionSource.counted)))
                    GROUP BY s.task_id
                    """)
            {
                out[r[0]] = TaskEffort(focusedMinutes: r[1], sessions: r[2], episodes: r[3])
            }
            return out
        }
    }

    // MARK: Habits

    @discardableResult
    public func addHabit(_ h: Habit) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO habits (name, schedule, goal, color, reminder, priority, flagged, auto_task, auto_minutes, created_day, archived_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    h.name, h.schedule.text, h.goal, h.color, h.reminder, h.priority.rawValue, h.flagged, h.autoTask, h.autoMinutes,
                    h.createdDay, h.archived?.millisecondsSinceEpoch,
                ])
            let id = db.lastInsertedRowID
            try UndoJournal.begin(db, "habit add #\(id) \"\(h.name)\"")
            try UndoJournal.record(db, [.init(table: "habits", column: "id", value: id)], before: false)
            return id
        }
    }

    public func updateHabit(_ h: Habit) throws(StoreError) {
        try write { db in
            try UndoJournal.journal(db, "habit change #\(h.id) \"\(h.name)\"", [.init(table: "habits", column: "id", value: h.id)])
            try db.execute(
                sql: """
                    UPDATE habits SET name = ?, schedule = ?, goal = ?, color = ?, reminder = ?, priority = ?, flagged = ?, auto_task = ?,
                        auto_minutes = ?, created_day = ?, archived_ms = ? WHERE id = ?
                    """,
                arguments: [
                    h.name, h.schedule.text, h.goal, h.color, h.reminder, h.priority.rawValue, h.flagged, h.autoTask, h.autoMinutes,
                    h.createdDay, h.archived?.millisecondsSinceEpoch, h.id,
                ])
        }
    }

    public func deleteHabit(id: Int64) throws(StoreError) {
        try write { db in
            let name = try String.fetchOne(db, sql: "SELECT name FROM habits WHERE id = ?", arguments: [id]) ?? ""
            try UndoJournal.journal(
                db, "habit delete #\(id) \"\(name)\"",
                [
                    .init(table: "habits", column: "id", value: id), .init(table: "habit_days", column: "habit_id", value: id),
                    .init(table: "habit_notes", column: "habit_id", value: id),
                ])
            try db.execute(sql: "DELETE FROM habits WHERE id = ?", arguments: [id])
        }
    }

    public func habits(includeArchived: Bool = false) throws(StoreError) -> [Habit] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM habits" + (includeArchived ? "" : " WHERE archived_ms IS NULL") + " ORDER BY id").map(Self.habit)
        }
    }

    public func habit(id: Int64) throws(StoreError) -> Habit? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM habits WHERE id = ?", arguments: [id]).map(Self.habit) }
    }

    private static func habit(_ r: Row) -> Habit {
        Habit(
            id: r["id"], name: r["name"], schedule: Schedule.parse(r["schedule"]) ?? .daily, goal: r["goal"], color: r["color"],
            reminder: r["reminder"], priority: Priority(rawValue: r["priority"]) ?? .medium, flagged: r["flagged"],
            autoTask: r["auto_task"], autoMinutes: r["auto_minutes"], createdDay: r.day("created_day"), archived: r.optionalTime("archived_ms"))
    }

    /// Each marked day of a habit and how it was marked.
    public func habitDays(id: Int64) throws(StoreError) -> [Int: DayStatus] {
        try read { db in
            var out: [Int: DayStatus] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT day, status FROM habit_days WHERE habit_id = ?", arguments: [id]) {
                out[r.day("day")] = DayStatus(stored: r["status"])
            }
            return out
        }
    }

    /// Marks a day (`incomplete` removes the mark). `source`: `person`, `auto` (the day passed
    /// unmarked) or `session` (sessions reached the habit's focus goal).
    public func setHabitDay(id: Int64, day: Int, status: DayStatus, source: String) throws(StoreError) {
        try write { db in
            // The person's marks can be undone; Vigil's own (failed days, sessions) are not changes a command made.
            if source == "person" {
                let name = try String.fetchOne(db, sql: "SELECT name FROM habits WHERE id = ?", arguments: [id]) ?? ""
                try UndoJournal.journal(
                    db, "habit #\(id) \"\(name)\" marked \(status.rawValue) on \(civilDate(day))",
                    [.init(table: "habit_days", [("habit_id", id), ("day", Int64(day))])])
            }
            if status == .incomplete {
                try db.execute(sql: "DELETE FROM habit_days WHERE habit_id = ? AND day = ?", arguments: [id, day])
            } else {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO habit_days (habit_id, day, status, source) VALUES (?, ?, ?, ?)",
                    arguments: [id, day, status.rawValue, source])
            }
        }
    }

    /// Fails, in one transaction, the scheduled days before `today` that nobody marked.
    /// Returns how many days were failed.
    @discardableResult
    public func failUnmarkedHabitDays(today: Int) throws(StoreError) -> Int {
        let habits = try habits()
        var failed = 0
        try write { db in
            // One statement for every row: after a long absence (or a clock set years ahead) a
            // habit has thousands of days to fail, and compiling each insert took seconds.
            let insert = try db.cachedStatement(sql: "INSERT INTO habit_days (habit_id, day, status, source) VALUES (?, ?, 'failed', 'auto')")
            for h in habits {
                var marks: [Int: DayStatus] = [:]
                for r in try Row.fetchAll(db, sql: "SELECT day, status FROM habit_days WHERE habit_id = ?", arguments: [h.id]) {
                    marks[r.day("day")] = DayStatus(stored: r["status"])
                }
                for day in daysToFail(h, statuses: marks, today: today) {
                    try insert.execute(arguments: [h.id, day])
                    failed += 1
                }
            }
        }
        return failed
    }

    public func habitNotes(id: Int64) throws(StoreError) -> [(week: String, text: String)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT week, text FROM habit_notes WHERE habit_id = ? ORDER BY week", arguments: [id]).map {
                ($0["week"], $0["text"])
            }
        }
    }

    public func setHabitNote(id: Int64, week: String, text: String) throws(StoreError) {
        try write { db in
            try UndoJournal.journal(db, "habit #\(id) note for \(week)", [.init(table: "habit_notes", column: "habit_id", value: id)])
            try db.execute(sql: "INSERT OR REPLACE INTO habit_notes (habit_id, week, text) VALUES (?, ?, ?)", arguments: [id, week, text])
        }
    }

    /// Focused minutes of the person's own sessions (`SessionSource.counted`) that started in
    /// [from, to) on a task with this title, or linked to a task with this tag.
    public func focusedMinutes(from: Timestamp, to: Timestamp, task: String) throws(StoreError) -> Double {
        try read { db in
            try Double.fetchOne(
                db,
                sql: """
                    SELECT coalesce(sum(s.focused_s), 0) / 60.0 FROM sessions s LEFT JOIN tasks t ON t.id = s.task_id
                    WHERE s.started_ms >= ? AND s.started_ms < ? AND s.source IN (\(SessionSource.sqlList(SessionSource.counted)))
                      AND (s.task = ? COLLATE NOCASE OR (',' || t.tags || ',') LIKE ('%,' || ? || ',%'))
                    """, arguments: [from.millisecondBound, to.millisecondBound, task, task]) ?? 0
        }
    }

    // MARK: Reminders

    public func sentReminders() throws(StoreError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT key FROM reminders_sent")) }
    }

    public func markReminderSent(_ key: String, at time: Timestamp) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO reminders_sent (key, at_ms) VALUES (?, ?)", arguments: [key, time.millisecondsSinceEpoch])
        }
    }
}
