import Foundation
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

    @Test func importedSessionsAreApartFromTheCountedOnes() throws {
        let store = EventStore()
        let s = ImportedSession(key: "k", task: "thesis", start: now, end: now + 5400, detail: "[\"thesis\"]")
        let count = try store.importSessions([s, s], dryRun: false, at: now)
        #expect(count.added == 1 && count.already == 1, "the same interval twice in one file is one session")
        #expect(try store.sessions().isEmpty)
        let imported = try store.sessions(sources: [.imported])
        #expect(imported.count == 1)
        #expect(imported.first?.focusedSeconds == 5400)
        #expect(imported.first?.endedAt == now + 5400)
        let facts = try store.statisticsFacts(before: now + 86_400, sources: [.imported])
        #expect(facts.sessions.count == 1)
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
}
