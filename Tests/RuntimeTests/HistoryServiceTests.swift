import Foundation
import LogServices
import Testing
import VigilCore
import VigilPlanner
import VigilStore

/// The session history's rules on an in-memory log, as `vigil session` asks: what may be
/// corrected, what makes a session, what must end first, and that a refusal writes nothing.
@Suite struct HistoryServiceTests {
    let noon = parseRFC3339("2026-11-16T12:00:00Z")!

    /// A judged session of 25 minutes that started an hour ago, and the service.
    func judged() throws -> (HistoryService, Int64) {
        let store = EventStore()
        let start = noon - 3600
        var session = FocusSession(configuration: .default, task: "essay", plannedSeconds: 1500)
        let events = session.start(at: start) + session.tick(at: start + 1500) + session.end(.planReached, at: start + 1500)
        let id = try #require(try store.appendSession(events, source: .live, recording: nil))
        return (HistoryService(store: store, now: noon), id)
    }

    @Test func aJudgedSessionKeepsItsTimesAndTakesATaskTagsAndANote() throws {
        let (history, id) = try judged()
        let before = try history.session(id)
        #expect(throws: HistoryError.judgedTimes(id, source: .live)) {
            var change = SessionChange()
            change.end = noon - 60
            try history.edit(id, change)
        }
        #expect(try history.session(id) == before, "refused, nothing written")
        var change = SessionChange()
        change.task = .set("thesis")
        change.addTags = ["Deep", "late"]
        change.note = .set("door closed")
        let edited = try history.edit(id, change)
        #expect(edited.task == "thesis" && edited.taskId == nil && edited.tags == ["deep", "late"] && edited.note == "door closed")
        #expect(edited.started == before.started && edited.ended == before.ended)
        #expect(try history.retag(id, adding: ["x", "deep"], removing: ["LATE"]) == ["deep", "x"])
        change = SessionChange()
        change.task = .clear
        change.note = .clear
        let cleared = try history.edit(id, change)
        #expect(cleared.task == nil && cleared.note == nil)
        #expect(throws: HistoryError.nothingToChange) { try history.edit(id, SessionChange()) }
        #expect(throws: HistoryError.noSession(99)) { try history.edit(99, change) }
    }

    @Test func aTaskIsLinkedByItsNumberOrTitle() throws {
        let (history, id) = try judged()
        let task = try PlannerService(store: history.store, now: LocalNow(at: noon)).addTask(title: "Write chapter 3")
        var change = SessionChange()
        change.task = .set("\(task.id)")
        let linked = try history.edit(id, change)
        #expect(linked.task == "Write chapter 3" && linked.taskId == task.id)
        change.task = .set("99")
        #expect(throws: PlannerError.noTask(99)) { try history.edit(id, change) }
    }

    @Test func addedTimeMakesASessionOrIsRefused() throws {
        let (history, _) = try judged()
        #expect(throws: HistoryError.span(.endsBeforeStart)) { try history.add(task: nil, tags: [], note: nil, from: noon - 60, to: noon - 120) }
        #expect(throws: HistoryError.span(.notOver)) { try history.add(task: nil, tags: [], note: nil, from: noon - 60, to: noon + 60) }
        #expect(throws: HistoryError.span(.longerThanADay(seconds: 90_000))) {
            try history.add(task: nil, tags: [], note: nil, from: noon - 90_000, to: noon)
        }
        #expect(try history.sessions(from: Timestamp(nanoseconds: .min), sources: [.added]).isEmpty, "refused, nothing written")
        let id = try history.add(task: "reading", tags: ["Library"], note: nil, from: noon - 7200, to: noon - 3600)
        let added = try history.session(id)
        #expect(added.source == .added && added.focusedSeconds == nil && added.tags == ["library"])
        // Its times may be corrected, within the same rules.
        var change = SessionChange()
        change.end = noon - 5400
        #expect(try history.edit(id, change).ended == noon - 5400)
        change.end = noon + 60
        #expect(throws: HistoryError.span(.notOver)) { try history.edit(id, change) }
        #expect(try history.sessions(from: Timestamp(nanoseconds: .min), sources: [.added], tag: "LIBRARY").map(\.id) == [id])
        #expect(try history.sessions(from: Timestamp(nanoseconds: .min), sources: [.added], tag: "deep").isEmpty)
    }

    /// A running session is refused before anyone is asked; an ended one is deleted only when
    /// the person says so.
    @Test func deletingAsksOnlyWhenItMayDelete() throws {
        let store = EventStore()
        let running = try store.beginSession(task: "essay", source: .live, recording: nil, startedAt: noon - 60, plannedSeconds: nil)
        let history = HistoryService(store: store, now: noon)
        var asked = 0
        #expect(throws: HistoryError.running(running)) {
            try history.delete(running) { _ in
                asked += 1
                return true
            }
        }
        #expect(asked == 0)
        let id = try history.add(task: nil, tags: [], note: nil, from: noon - 7200, to: noon - 3600)
        #expect(try history.delete(id) { _ in false } == false)
        #expect(try history.session(id).id == id, "kept when the answer is no")
        #expect(try history.delete(id) { $0.id == id })
        #expect(throws: HistoryError.noSession(id)) { try history.session(id) }
    }
}
