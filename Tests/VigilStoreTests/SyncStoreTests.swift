import Foundation
import GRDB
import Testing
import VigilCore
import VigilPlanner

@testable import VigilStore

/// The log's side of sync (SyncMigration): every local change is stamped and every delete kept as
/// a tombstone by the triggers, whatever code makes it; sync's own writes are not.
@Suite struct SyncStoreTests {
    func clock(_ store: EventStore, _ table: String, id: Int64) throws -> (hlc: Int64, dirty: Bool) {
        try store.db.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT hlc, dirty FROM \(table) WHERE id = ?", arguments: [id]))
            return (row[0], row[1])
        }
    }

    @Test func aNewLogIsANewDeviceWithItsHostName() throws {
        let a = EventStore()
        let b = EventStore()
        let first = try a.thisDevice()
        let second = try b.thisDevice()
        #expect(first.id != second.id)
        #expect(first.id.count == 36)
        #expect(!first.name.isEmpty)
        try a.renameThisDevice("laptop")
        let renamed = try a.thisDevice().name
        #expect(renamed == "laptop")
    }

    @Test func everyEditIsStampedLaterThanTheLastAndMarkedToSend() throws {
        let store = EventStore()
        let id = try store.addTask(TaskItem(id: 0, title: "Write", created: Timestamp(milliseconds: 1_000)))
        let made = try clock(store, "tasks", id: id)
        #expect(made.dirty)
        #expect(made.hlc > 1_700_000_000_000_000, "the wall clock in ms × 1000")
        try store.markSent(try store.outgoingEdits(.tasks, limit: 10), of: .tasks)
        let sent = try clock(store, "tasks", id: id)
        #expect(!sent.dirty)
        #expect(sent.hlc == made.hlc, "marking it sent is no edit")
        var task = try #require(try store.task(id: id))
        task.title = "Write more"
        try store.updateTask(task)
        let edited = try clock(store, "tasks", id: id)
        #expect(edited.dirty)
        #expect(edited.hlc > made.hlc)
        // A clock seen from another device far ahead: the next edit is later still.
        try store.observeClock(edited.hlc + 1_000_000_000)
        try store.updateTask(task)
        let afterSeen = try clock(store, "tasks", id: id)
        #expect(afterSeen.hlc > edited.hlc + 1_000_000_000)
    }

    @Test func deletesBecomeTombstonesButADeletedHabitsDaysGoWithIt() throws {
        let store = EventStore()
        let habit = try store.addHabit(Habit(id: 0, name: "Run", schedule: .daily, createdDay: 20_000))
        for day in 20_000..<20_010 { try store.setHabitDay(id: habit, day: day, status: .completed, source: "person") }
        try store.setHabitDay(id: habit, day: 20_003, status: .incomplete, source: "person")
        let dayTombstones = try store.outgoingEdits(.habitDays, limit: 100).filter { $0.last == .integer(1) }
        #expect(dayTombstones.count == 1)
        #expect(dayTombstones.first?[2] == .text("20003"))
        try store.deleteHabit(id: habit)
        let tombstones = try store.db.read { try String.fetchAll($0, sql: "SELECT tbl || ' ' || sub FROM sync_tombstones ORDER BY tbl, sub") }
        #expect(tombstones == ["habit_days 20003", "habits "])
    }

    @Test func onlySessionsTheServerMayHaveLeaveATombstone() throws {
        let store = EventStore()
        let t0 = Timestamp(milliseconds: 1_760_000_000_000)
        func session(_ minute: Double) -> [SessionEvent] {
            var s = FocusSession(configuration: .default, task: nil, plannedSeconds: 60)
            let start = t0 + minute * 60
            return s.start(at: start) + s.receive(Sample(time: start + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
                + s.end(.user, at: start + 60)
        }
        try store.appendSessions([session(0), session(10)], source: .simulated)
        let batch = try store.outgoingSessions(limit: 1, shareReasons: false)
        #expect(batch.ids.count == 1)
        try store.markSent(batch)
        _ = try store.forget(from: t0, to: t0 + 3600, fromDay: 0, toDay: 0)
        let deleted = try store.outgoingSessions(limit: 10, shareReasons: false).deleted.map(\.id)
        #expect(deleted == batch.ids, "the unsent one is simply gone")
    }
}
