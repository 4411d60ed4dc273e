import Foundation
import GRDB
import Testing
import VigilCore
import VigilPlanner

@testable import VigilStore

/// `vigil undo`: the last change to tasks, habits and sessions, put back as it was, one level.
@Suite struct UndoJournalTests {
    let t0 = Timestamp(milliseconds: 1_760_000_000_000)

    @Test func aDeletedTaskComesBackWithItsSessionsLinked() throws {
        let store = EventStore()
        let id = try store.addTask(TaskItem(id: 0, title: "Write chapter", note: "one", tags: ["thesis"], created: t0))
        let session = try store.addSession(task: "Write chapter", taskId: id, tags: [], note: nil, from: t0, to: t0 + 600)
        let before = try #require(try store.task(id: id))
        try store.deleteTask(id: id)
        #expect(try store.sessionRecord(id: session)?.taskId == nil)
        let undone = try store.undoLastChange()
        #expect(undone == "task delete #\(id) \"Write chapter\"")
        #expect(try store.task(id: id) == before, "every field as it was")
        #expect(try store.sessionRecord(id: session)?.taskId == id)
        #expect(try store.undoLastChange() == nil, "one level")
        // The restored task is a change to send.
        #expect(try store.outgoingEdits(.tasks, limit: 10).contains { $0[1] == .integer(id) && $0.last == .integer(0) })
    }

    @Test func anEditAnAddAndAMarkAreUndone() throws {
        let store = EventStore()
        let id = try store.addTask(TaskItem(id: 0, title: "Slides", created: t0))
        var t = try #require(try store.task(id: id))
        t.title = "Slides v2"
        t.priority = .high
        try store.updateTask(t)
        #expect(try store.undoLastChange() == "task change #\(id) \"Slides v2\"")
        #expect(try store.task(id: id)?.title == "Slides" && store.task(id: id)?.priority == .medium)

        let added = try store.addTask(TaskItem(id: 0, title: "Extra", created: t0))
        #expect(try store.undoLastChange() == "task add #\(added) \"Extra\"")
        #expect(try store.task(id: added) == nil)

        let habit = try store.addHabit(Habit(id: 0, name: "Read", schedule: .daily, createdDay: 20_000))
        try store.setHabitDay(id: habit, day: 20_001, status: .completed, source: "person")
        try store.setHabitDay(id: habit, day: 20_002, status: .skipped, source: "person")
        #expect(try store.undoLastChange() == "habit #\(habit) \"Read\" marked skipped on \(civilDate(20_002))")
        #expect(try store.habitDays(id: habit) == [20_001: .completed])
        // Vigil's own marks are no command's change: the person's last one stays undoable.
        try store.setHabitDay(id: habit, day: 20_003, status: .completed, source: "person")
        try store.setHabitDay(id: habit, day: 20_004, status: .failed, source: "auto")
        _ = try store.undoLastChange()
        #expect(try store.habitDays(id: habit) == [20_001: .completed, 20_004: .failed])
    }

    @Test func aDeletedHabitAndADeletedSessionComeBackWhole() throws {
        let store = EventStore()
        let habit = try store.addHabit(Habit(id: 0, name: "Run", schedule: .daily, createdDay: 20_000))
        for day in 20_000..<20_005 { try store.setHabitDay(id: habit, day: day, status: .completed, source: "person") }
        try store.setHabitNote(id: habit, week: "2024-W40", text: "felt good")
        try store.deleteHabit(id: habit)
        #expect(try store.undoLastChange() == "habit delete #\(habit) \"Run\"")
        #expect(try store.habit(id: habit)?.name == "Run")
        #expect(try store.habitDays(id: habit).count == 5)
        #expect(try store.habitNotes(id: habit).map(\.text) == ["felt good"])

        var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 60)
        let events =
            s.start(at: t0) + s.receive(Sample(time: t0 + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
            + s.end(.user, at: t0 + 60)
        try store.appendSessions([events], source: .live)
        let id = try #require(try store.db.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM sessions") })
        let counts = try store.counts()
        try store.markSent(try store.outgoingSessions(limit: 10, shareReasons: false))
        try store.editSession(id: id, SessionEdit(tags: ["deep"]))
        try store.deleteSession(id: id)
        #expect(try store.undoLastChange() == "session delete #\(id)")
        #expect(try store.counts() == counts, "the session with every event")
        #expect(try store.sessionRecord(id: id)?.tags == ["deep"])
        let deletes = try store.outgoingSessions(limit: 10, shareReasons: false).deleted
        #expect(deletes.isEmpty, "the delete, not sent yet, is not sent at all")
    }
}
