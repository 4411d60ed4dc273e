import Foundation
import GRDB
import Testing
import VigilCore
import VigilPlanner

@testable import VigilStore

/// `vigil import`'s writes: once per record, all in one transaction, nothing with a dry run.
@Suite struct ImportStoreTests {
    let now = Timestamp(seconds: 1_795_000_000)

    @Test func aTaskIsImportedOnceAndADryRunWritesNothing() throws {
        let store = EventStore()
        let tasks = [("u1", TaskItem(id: 0, title: "a", created: now)), ("u2", TaskItem(id: 0, title: "b", tags: ["x"], created: now))]
        let dry = try store.importTasks(tasks, dryRun: true, at: now)
        #expect(dry.added == 2 && dry.addedKeys == ["u1", "u2"])
        #expect(try store.tasks().isEmpty)
        let first = try store.importTasks(tasks, dryRun: false, at: now)
        #expect(first.added == 2)
        let second = try store.importTasks(tasks + [("u3", TaskItem(id: 0, title: "c", created: now))], dryRun: false, at: now)
        #expect(second.added == 1 && second.already == 2 && second.addedKeys == ["u3"])
        #expect(try store.tasks().map(\.title) == ["a", "b", "c"])
        // Deleted after the import: not brought back.
        let b = try #require(try store.tasks().first { $0.title == "b" })
        try store.deleteTask(id: b.id)
        let third = try store.importTasks(tasks, dryRun: false, at: now)
        #expect(third.added == 0 && third.already == 2)
    }

    /// Imported time is tracked, not judged: its tags are the session's, it has no focused time
    /// (not even when a report asks for imported sessions), and it is the report's tracked time.
    @Test func importedSessionsAreTaggedTrackedTimeNeverJudged() throws {
        let store = EventStore()
        let s = ImportedSession(
            key: "k", task: nil, tags: ["deep work", "thesis"], start: now, end: now + 5400, detail: "[\"Deep Work\",\"thesis\"]")
        let count = try store.importSessions([s, s], dryRun: false, at: now)
        #expect(count.added == 1 && count.already == 1, "the same interval twice in one file is one session")
        #expect(try store.sessions().isEmpty)
        let imported = try store.sessions(sources: [.imported])
        #expect(imported.count == 1)
        #expect(imported.first?.focusedSeconds == nil && imported.first?.distractedSeconds == nil, "nobody judged it")
        #expect(imported.first?.ended == now + 5400)
        let id = try #require(imported.first?.id)
        let record = try #require(try store.sessionRecord(id: id))
        #expect(record.tags == ["deep work", "thesis"] && record.task == nil && record.focusedSeconds == nil)
        #expect(try store.sessionIDs(tagged: "thesis") == [id])
        // Not in the judged figures, even when asked for; its time is tracked time.
        let (facts, bySource) = try store.reportFacts(before: now + 86_400, tag: "thesis", sources: [.imported, .live], sourcesFrom: now)
        #expect(bySource[.imported] == 1)
        #expect(facts.sessions.isEmpty)
        #expect(facts.tracked.map { [$0.start, $0.end] } == [[now.millisecondsSinceEpoch, (now + 5400).millisecondsSinceEpoch]])
        #expect(try store.reportFacts(before: now + 86_400, tag: "other", sources: [.imported], sourcesFrom: now).facts.tracked.isEmpty)
        #expect(try store.reportFacts(before: now + 86_400, sources: [.live], sourcesFrom: now).facts.tracked.isEmpty, "not selected")
        // Sync sends it like any session: its tags, and no judged time.
        let outgoing = try store.outgoingSessions(limit: 10, shareReasons: false)
        #expect(outgoing.ids == [id])
        #expect(outgoing.sessions[0][5] == .text("imported") && outgoing.sessions[0][18] == .text("deep work,thesis"))
        #expect(outgoing.sessions[0][11] == .null, "focused_s")
    }

    /// A log that imported Timewarrior before v11 (the tags joined as the task, the whole time as
    /// focused) is brought in line: tags from the import's record, the task a tag names, no judged
    /// figures; what the person changed since stays. The change is an edit that sync sends again.
    @Test func migrationElevenTagsSessionsImportedBefore() throws {
        let path = tempDir() + "/vigil.sqlite3"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: path)
            try LogFile.migrator.migrate(queue, upTo: "v10: recovery only for returns")
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO tasks (title, priority, term, tags, created_ms) VALUES ('Write chapter 3', 'medium', 'short', '', 0)")
                let rows: [(String, String?, String, String)] = [
                    ("a", "thesis, Deep Work", #"["thesis","Deep Work"]"#, ""),
                    ("b", "Write chapter 3, thesis", #"["Write chapter 3","thesis"]"#, ""),
                    ("c", "my own name", #"["x"]"#, "mine"),
                    ("d", nil, "[]", ""),
                ]
                for (i, (key, task, detail, tags)) in rows.enumerated() {
                    let start = now.millisecondsSinceEpoch + Int64(i) * 7_200_000
                    try db.execute(
                        sql: """
                            INSERT INTO sessions (task, source, started_ms, ended_ms, outcome, active_s, focused_s, distracted_s, paused_s, gap_s,
                                episodes, alarms, last_event_ms, tags, pushed)
                            VALUES (?, 'imported', ?, ?, 'completed', 3600, 3600, 0, 0, 0, 0, 0, ?, ?, 1)
                            """, arguments: [task, start, start + 3_600_000, start + 3_600_000, tags])
                    try db.execute(
                        sql:
                            "INSERT INTO imports (source, external_id, tbl, row_id, detail, imported_ms) VALUES ('timewarrior', ?, 'sessions', ?, ?, 0)",
                        arguments: [key, db.lastInsertedRowID, detail])
                }
            }
        }
        let store = try EventStore(path: path)
        #expect(try store.appliedMigrations().contains("v11: imported sessions tagged, not judged"))
        let records = try store.sessionRecords(from: now, to: now + 86_400, sources: [.imported])
        #expect(records.map(\.tags) == [["thesis", "deep work"], ["write chapter 3", "thesis"], ["mine"], []])
        #expect(records.map(\.task) == [nil, "Write chapter 3", "my own name", nil])
        #expect(records[1].taskId == 1, "linked to the task a tag names")
        let figures = try store.db.read { try Row.fetchAll($0, sql: "SELECT focused_s, active_s, pushed FROM sessions ORDER BY id") }
        #expect(figures.allSatisfy { ($0[0] as Double?) == nil && ($0[1] as Double?) == nil }, "nobody judged imported time")
        #expect(figures.map { $0[2] as Int } == [2, 2, 1, 1], "the changed ones are sent again, as edits")
    }

    /// `vigil forget` leaves no trace of an imported session: its record in `imports` (the
    /// interval's times and tags) goes too.
    @Test func forgettingAnImportedSessionForgetsItsRecord() throws {
        let store = EventStore()
        let sessions = [
            ImportedSession(key: "a", task: "x", start: now, end: now + 60, detail: "[\"x\"]"),
            ImportedSession(key: "b", task: "y", start: now + 86_400, end: now + 86_460, detail: "[\"y\"]"),
        ]
        _ = try store.importSessions(sessions, dryRun: false, at: now)
        try store.forget(from: now, to: now + 3600, fromDay: 0, toDay: 0)
        let left = try store.read { try String.fetchAll($0, sql: "SELECT external_id FROM imports ORDER BY external_id") }
        #expect(left == ["b"])
    }

    @Test func habitDaysNeverOverrideThePersonsOwnMarks() throws {
        let store = EventStore()
        let today = 20_780
        let id = try store.addHabit(Habit(id: 0, name: "Meditate", schedule: .daily, createdDay: 20_778))
        try store.setHabitDay(id: id, day: 20_778, status: .failed, source: "person")
        try store.setHabitDay(id: id, day: 20_779, status: .failed, source: "auto")
        let loop = ImportedHabit(
            name: "meditate", schedule: .daily, color: nil, archived: false,
            days: [20_775: .completed, 20_778: .completed, 20_779: .completed, 20_781: .completed], firstDay: 20_775)
        let count = try store.importHabits([loop], dryRun: false, today: today, at: now)
        #expect(count.added == 0 && count.merged == 1, "into the habit of the same name")
        #expect(count.days == 2, "20775 and the automatic failure of 20779; not the person's 20778, not a future day")
        let days = try store.habitDays(id: id)
        #expect(days == [20_775: .completed, 20_778: .failed, 20_779: .completed])
        #expect(try store.habit(id: id)?.createdDay == 20_775)
        let again = try store.importHabits([loop], dryRun: false, today: today, at: now)
        #expect(again.days == 0 && again.merged == 1)
        #expect(try store.habits().count == 1)
    }

    /// `vigil undo` takes an import back (what it added, the days it marked, what it remembered),
    /// and the same file then imports again. A habit it merged into gets its days and start back.
    @Test func anImportIsUndoneAndImportsAgain() throws {
        let store = EventStore()
        let sessions = [
            ImportedSession(key: "a", task: nil, start: now, end: now + 60, detail: "[]"),
            ImportedSession(key: "b", task: nil, start: now + 600, end: now + 660, detail: "[]"),
        ]
        _ = try store.importSessions(sessions, dryRun: false, at: now, from: "time.json")
        #expect(try store.lastChange() == "import of 2 sessions from time.json")
        #expect(try store.undoLastChange() == "import of 2 sessions from time.json")
        #expect(try store.sessions(sources: [.imported]).isEmpty)
        #expect(try store.undoLastChange() == nil, "one level")
        #expect(try store.importSessions(sessions, dryRun: false, at: now).added == 2, "forgotten with the rows, so it comes in again")

        let today = 20_780
        let id = try store.addHabit(Habit(id: 0, name: "Meditate", schedule: .daily, createdDay: 20_778))
        try store.setHabitDay(id: id, day: 20_779, status: .failed, source: "auto")
        let habits = [
            ImportedHabit(
                name: "meditate", schedule: .daily, color: nil, archived: false, days: [20_775: .completed, 20_779: .completed], firstDay: 20_775),
            ImportedHabit(name: "Floss", schedule: .daily, color: nil, archived: false, days: [20_776: .completed], firstDay: 20_770),
        ]
        let count = try store.importHabits(habits, dryRun: false, today: today, at: now, from: "loop")
        #expect(count.added == 1 && count.merged == 1 && count.days == 3)
        #expect(try store.undoLastChange() == "import of 1 habit and 3 days from loop")
        #expect(try store.habits().map(\.name) == ["Meditate"])
        #expect(try store.habitDays(id: id) == [20_779: .failed], "the automatic failure as it was")
        #expect(try store.habit(id: id)?.createdDay == 20_778)
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM imports WHERE source = 'loop'") } == 0)
        let again = try store.importHabits(habits, dryRun: false, today: today, at: now)
        #expect(again.added == 1 && again.merged == 1 && again.days == 3)
    }

    /// An import that adds nothing leaves the last change to undo as it was.
    @Test func anImportOfNothingNewKeepsTheLastChange() throws {
        let store = EventStore()
        let s = ImportedSession(key: "a", task: nil, start: now, end: now + 60, detail: "[]")
        _ = try store.importSessions([s], dryRun: false, at: now, from: "t")
        _ = try store.addTask(TaskItem(id: 0, title: "later", created: now))
        _ = try store.importSessions([s], dryRun: false, at: now, from: "t")
        #expect(try store.lastChange()?.hasPrefix("task add") == true)
    }

    /// Importing habits looks the habits already here up once, not once per habit (15,000 habits
    /// took 45 s): the queries on `habits` by name do not grow with the file.
    @Test func importingHabitsDoesNotLookEachUpInTheTable() throws {
        let store = EventStore()
        for i in 0..<50 { _ = try store.addHabit(Habit(id: 0, name: "Habit \(i)", schedule: .daily, createdDay: 20_700)) }
        let statements = StatementLog()
        try store.db.write { db in db.trace { statements.add("\($0)") } }
        let habits = (0..<100).map {
            ImportedHabit(name: "habit \($0)", schedule: .daily, color: nil, archived: false, days: [20_779: .completed], firstDay: 20_770)
        }
        let count = try store.importHabits(habits, dryRun: false, today: 20_780, at: now)
        #expect(count.merged == 50 && count.added == 50, "merged without regard to case, as before")
        // Reads of the habits other than of one habit by its id (a lookup in the table's key).
        let scans = statements.all.filter { $0.contains(/FROM habits(?! WHERE id = \?)/) }
        #expect(scans.count <= 1, "\(scans.count) reads of the habits for \(habits.count) habits: \(scans.prefix(3))")
    }
}

/// SQL statements a connection ran (GRDB's trace), for tests of how a write grows.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []
    func add(_ s: String) { lock.withLock { statements.append(s) } }
    var all: [String] { lock.withLock { statements } }
}
