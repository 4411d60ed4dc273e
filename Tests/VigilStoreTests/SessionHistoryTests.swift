import Foundation
import GRDB
import Testing
import VigilCore
import VigilPlanner

@testable import VigilStore

/// Sessions a person corrects (migration v8): tags, notes, added sessions, and edits made after a
/// session was sent, which the trigger stamps so that they are sent again.
@Suite struct SessionHistoryTests {
    let t0 = Timestamp(milliseconds: 1_760_000_000_000)

    func judged(_ store: EventStore, at minute: Double = 0) throws -> Int64 {
        var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 60)
        let start = t0 + minute * 60
        let events =
            s.start(at: start) + s.receive(Sample(time: start + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
            + s.end(.user, at: start + 60)
        try store.appendSessions([events], source: .live)
        return try #require(try store.db.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM sessions") })
    }

    func pushed(_ store: EventStore, _ id: Int64) throws -> (pushed: Int, edited: Int64) {
        try store.db.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT pushed, edited_hlc FROM sessions WHERE id = ?", arguments: [id]))
            return (row[0], row[1])
        }
    }

    @Test func anAddedSessionIsListedTaggedAndNeverJudged() throws {
        let store = EventStore()
        let task = try store.addTask(TaskItem(id: 0, title: "Thesis", tags: ["writing"], created: t0))
        let id = try store.addSession(task: "Thesis", taskId: task, tags: ["library"], note: "quiet", from: t0, to: t0 + 7200)
        let s = try #require(try store.sessionRecord(id: id))
        #expect(s.source == .added && s.tags == ["library"] && s.note == "quiet" && s.ended == t0 + 7200)
        #expect(s.focusedSeconds == nil, "nothing judged it")
        let live = try judged(store, at: 300)
        // By its own tag, or its task's.
        #expect(try store.sessionIDs(tagged: "library") == [id])
        #expect(try store.sessionIDs(tagged: "writing") == [id])
        #expect(try store.sessionIDs(tagged: "writ").isEmpty, "a whole tag, not a part of one")
        // Counted among the sources, never in the figures, even when asked for.
        let (facts, bySource) = try store.reportFacts(before: t0 + 86_400, sources: [.added, .live], sourcesFrom: t0)
        #expect(bySource[.added] == 1 && bySource[.live] == 1)
        #expect(facts.sessions.map(\.id) == [live])
        let tagged = try store.reportFacts(before: t0 + 86_400, tag: "library", sources: Set(SessionSource.allCases), sourcesFrom: t0)
        #expect(tagged.facts.sessions.isEmpty)
        let listed = try store.sessionRecords(from: t0, to: t0 + 86_400, sources: [.added]).map(\.id)
        #expect(listed == [id])
    }

    @Test func anEditAfterTheSessionWasSentIsSentAgainWithoutItsEvents() throws {
        let store = EventStore()
        let id = try judged(store)
        #expect(try pushed(store, id) == (0, 0))
        // Tags given while it ran, or before it was ever sent, are no edit to resend.
        try store.editSession(id: id, SessionEdit(tags: ["deep"]))
        let beforeSending = try pushed(store, id)
        #expect(beforeSending.pushed == 0 && beforeSending.edited > 0)
        let first = try store.outgoingSessions(limit: 10, shareReasons: false)
        #expect(first.ids == [id] && !(first.events["state_changes"] ?? []).isEmpty)
        #expect(first.sessions[0][18] == .text("deep"), "tags travel")
        try store.markSent(first)
        #expect(try pushed(store, id).pushed == 1)

        try store.editSession(id: id, SessionEdit(task: .set("novel"), note: .set("door closed")))
        let edited = try pushed(store, id)
        #expect(edited.pushed == 2 && edited.edited > beforeSending.edited)
        let (_, edits, _) = try store.pendingSync()
        #expect(edits == 1)
        let again = try store.outgoingSessions(limit: 10, shareReasons: false)
        #expect(again.ids == [id])
        #expect(again.events.isEmpty, "the server has its events")
        #expect(again.sessions[0][2] == .text("novel") && again.sessions[0][19] == .text("door closed"))
        #expect(again.sessions[0].last == .integer(edited.edited))
        // An edit made between sending and marking is still to be sent.
        try store.editSession(id: id, SessionEdit(tags: ["deep", "late"]))
        try store.markSent(again)
        #expect(try pushed(store, id).pushed == 2)
        try store.markSent(try store.outgoingSessions(limit: 10, shareReasons: false))
        #expect(try pushed(store, id).pushed == 1)

        // Deleted after an edit: a tombstone, so other devices forget it too.
        try store.editSession(id: id, SessionEdit(note: .clear))
        try store.deleteSession(id: id)
        #expect(try store.sessionRecord(id: id) == nil)
        let deleted = try store.outgoingSessions(limit: 10, shareReasons: false).deleted.map(\.id)
        #expect(deleted == [id])
        let events = try store.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM state_changes WHERE session_id = ?", arguments: [id]) }
        #expect(events == 0)
    }
}
