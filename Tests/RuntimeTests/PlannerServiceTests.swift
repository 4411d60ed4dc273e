import Foundation
import LogServices
import Testing
import VigilCore
import VigilPlanner
import VigilStore

/// The planner's requests on an in-memory log, as the task, habit, today and start commands make
/// them: what is found, what is written, and what is refused (with nothing written).
@Suite struct PlannerServiceTests {
    /// Monday 2026-11-16 at 12:00 UTC.
    let noon = parseRFC3339("2026-11-16T12:00:00Z")!
    var monday: Int { civilDay("2026-11-16")! }
    let utc = TimeZone(identifier: "UTC")!

    func planner(_ store: EventStore, plusDays days: Int = 0, minutes: Int = 0) -> PlannerService {
        PlannerService(store: store, now: LocalNow(at: noon + Double(days * 86_400 + minutes * 60), zone: utc))
    }

    // MARK: The one task resolver

    @Test func aTaskByNumberOrTitleOrWhyNot() throws {
        let store = EventStore()
        let p = planner(store)
        let slides = try p.addTask(title: "Slides")
        let essay = try p.addTask(title: "Essay")
        let twin = try p.addTask(title: "essay")
        let done = try p.addTask(title: "Invoice")
        _ = try p.completeTask("\(done.id)")
        let lookup = TaskLookup(store: store)

        #expect(try lookup.task("\(slides.id)").title == "Slides")
        #expect(try lookup.task("\(done.id)").isDone, "by number, a done task too")
        #expect(try lookup.task("SLIDES").id == slides.id, "a title without regard to case")
        #expect(throws: PlannerError.noTask(99)) { try lookup.task("99") }
        #expect(try lookup.task("invoice").id == done.id, "a done task by its title, when no open one has it")
        #expect(throws: PlannerError.noTaskTitled("Invoices", candidates: [try store.task(id: done.id)!])) { try lookup.task("Invoices") }
        #expect(throws: PlannerError.noTaskTitled("Budget", candidates: [])) { try lookup.task("Budget") }
        #expect(throws: PlannerError.noTaskTitled("lid", candidates: [slides])) { try lookup.task("lid") }
        #expect(throws: PlannerError.ambiguousTask(titled: "Essay", ids: [essay.id, twin.id])) { try lookup.task("Essay") }
        // The service's commands use the same resolver.
        #expect(throws: PlannerError.ambiguousTask(titled: "Essay", ids: [essay.id, twin.id])) { try p.completeTask("Essay") }
        #expect(try store.task(id: essay.id)?.isDone == false)
    }

    /// `vigil start --task`: a task links the session; an unknown title names it; an unknown
    /// number or a shared title is an error.
    @Test func whatASessionIsAbout() throws {
        let store = EventStore()
        let p = planner(store)
        let slides = try p.addTask(title: "Slides")
        func subject(_ reference: String) throws -> String {
            let s = try TaskLookup(store: store).sessionSubject(reference)
            return "\(s.name) #\(s.taskId.map(String.init) ?? "-")"
        }
        #expect(try subject("1") == "Slides #\(slides.id)")
        #expect(try subject("slides") == "Slides #\(slides.id)", "named by the task's own title")
        #expect(try subject("code review") == "code review #-", "not a task: a name")
        #expect(throws: PlannerError.noTask(7)) { try TaskLookup(store: store).sessionSubject("7") }
        _ = try p.addTask(title: "slides")
        #expect(throws: PlannerError.ambiguousTask(titled: "Slides", ids: [1, 2])) { try TaskLookup(store: store).sessionSubject("Slides") }
    }

    /// `vigil report --task`: what sessions carry (their task's title) from a number, a title in
    /// any case, or a session's own name; nil when nothing is called so.
    @Test func whatAReportSelects() throws {
        let store = EventStore()
        let p = planner(store)
        let thesis = try p.addTask(title: "Thesis")
        let lookup = TaskLookup(store: store)
        let names = ["Thesis", "code review"]
        #expect(try lookup.sessionName("\(thesis.id)", among: names) == "Thesis")
        #expect(try lookup.sessionName("THESIS", among: names) == "Thesis")
        #expect(try lookup.sessionName("Code Review", among: names) == "code review", "a session's own name, in any case")
        #expect(try lookup.sessionName("gardening", among: names) == nil)
        #expect(throws: PlannerError.noTask(9)) { try lookup.sessionName("9", among: names) }
    }

    /// `vigil habit add --auto "50m on 3"`: the rule names the task by its title, as sessions do;
    /// a tag stays as it is.
    @Test func anAutoRuleNamesItsTaskByTitle() throws {
        let store = EventStore()
        let p = planner(store)
        let thesis = try p.addTask(title: "Thesis chapter")
        let byNumber = try p.addHabit(name: "Write", auto: AutoRule(task: "\(thesis.id)", minutes: 50))
        #expect(byNumber.autoRule == AutoRule(task: "Thesis chapter", minutes: 50))
        let byTag = try p.addHabit(name: "Study", auto: AutoRule(task: "thesis", minutes: 30))
        #expect(byTag.autoRule == AutoRule(task: "thesis", minutes: 30))
        #expect(throws: PlannerError.noTask(8)) { try p.addHabit(name: "X", auto: AutoRule(task: "8", minutes: 30)) }
        var changes = HabitChanges()
        changes.auto = .set(AutoRule(task: "thesis CHAPTER", minutes: 20))
        #expect(try p.editHabit("Study", changes).autoRule == AutoRule(task: "Thesis chapter", minutes: 20))
    }

    // MARK: Tasks

    @Test func listNextAndTheOverdueFilter() throws {
        let store = EventStore()
        let p = planner(store)
        let invoice = try p.addTask(title: "Invoice", due: Deadline(day: monday, minute: 17 * 60), tags: [" Admin ", ""])
        let chapter = try p.addTask(title: "Chapter", due: Deadline(day: monday + 4), priority: .high)
        let rust = try p.addTask(title: "Rust", priority: .low, term: .long)
        #expect(invoice.tags == ["admin"], "tags stored normalized")
        #expect(try p.tasks().map(\.task.id) == [chapter.id, invoice.id, rust.id])
        #expect(try p.next(2).map(\.task.id) == [chapter.id, invoice.id])
        #expect(try p.tasks(TaskFilter(tag: "ADMIN")).map(\.task.id) == [invoice.id])
        #expect(try p.tasks(TaskFilter(overdueOnly: true)).isEmpty)
        // At 17:00 the invoice is overdue.
        let five = planner(store, minutes: 5 * 60)
        #expect(try five.tasks(TaskFilter(overdueOnly: true)).map(\.task.id) == [invoice.id])
        #expect(try five.rankedTask("Invoice").urgency.parts[1].why == "overdue since 2026-11-16 17:00")
    }

    @Test func doneReopenedEditedDeleted() throws {
        let store = EventStore()
        let p = planner(store)
        let t = try p.addTask(title: "Invoice", note: "ACME", tags: ["admin"])
        #expect(try p.completeTask("Invoice").changed)
        #expect(try p.completeTask("\(t.id)").changed == false, "done already")
        #expect(try store.task(id: t.id)?.done == noon)
        #expect(try p.reopenTask("\(t.id)").changed)
        #expect(try !p.reopenTask("\(t.id)").changed, "open already")
        var c = TaskChanges()
        c.note = .clear
        c.addTags = ["Money"]
        _ = try p.editTask("Invoice", c)
        let edited = try #require(try store.task(id: t.id))
        #expect(edited.note == nil && edited.tags == ["admin", "money"])
        #expect(try p.deleteTask("Invoice").id == t.id)
        #expect(try store.task(id: t.id) == nil)
    }

    // MARK: Habits

    @Test func aHabitByNumberOrName() throws {
        let store = EventStore()
        let p = planner(store)
        let read = try p.addHabit(name: "Read")
        #expect(read.createdDay == monday)
        #expect(try p.habit("read").id == read.id)
        #expect(throws: PlannerError.noHabit(42)) { try p.habit("42") }
        _ = try p.finishHabit("Read")
        #expect(throws: PlannerError.noHabitNamed("Read")) { try p.habit("Read") }
        #expect(try p.habit("\(read.id)").archived == noon, "by number, an archived one too")
    }

    /// A habit with a chosen start (`--since`): the days from it on can be marked and count, and
    /// moving the start (`habit edit --since`) is stored; a start after today is refused.
    @Test func aHabitStartsWhereThePersonSays() throws {
        let store = EventStore()
        let p = planner(store)
        let walk = try p.addHabit(name: "Walk", since: monday - 3)
        #expect(try store.habit(id: walk.id)?.createdDay == monday - 3)
        let marked = try p.mark("Walk", on: "3d", .completed)
        #expect(marked.mark.day == monday - 3)
        #expect(throws: PlannerError.beforeStart(id: walk.id, name: "Walk", start: monday - 3, day: monday - 4)) {
            try p.mark("Walk", on: "4d", .completed)
        }
        // Marked on each day from the start: a streak of four, counted from the start.
        for ago in ["2d", "yesterday", "today"] { _ = try p.mark("Walk", on: ago, .completed) }
        #expect(try p.habitDetail("Walk").progress.current == 4)

        // Moved earlier: the earlier day can be marked now, and is stored.
        var changes = HabitChanges()
        changes.since = monday - 5
        _ = try p.editHabit("Walk", changes)
        #expect(try store.habit(id: walk.id)?.createdDay == monday - 5)
        #expect(try p.mark("Walk", on: "4d", .completed).mark.day == monday - 4)
        // The unmarked day at the new start was failed by the housekeeping: the streak is five.
        #expect(try store.habitDays(id: walk.id)[monday - 5] == .failed)
        #expect(try p.habitDetail("Walk").progress.current == 5)

        changes.since = monday + 1
        #expect(throws: PlannerError.futureStart(monday + 1)) { try p.editHabit("Walk", changes) }
        #expect(throws: PlannerError.futureStart(monday + 1)) { try p.addHabit(name: "Run", since: monday + 1) }
        #expect(try store.habit(id: walk.id)?.createdDay == monday - 5, "nothing written")
    }

    /// A mark is written; a refused one writes nothing, not even the housekeeping's failures.
    @Test func marksAllowedAndRefused() throws {
        let store = EventStore()
        let read = try planner(store).addHabit(name: "Read", goal: 2)
        let wednesday = planner(store, plusDays: 2)
        #expect(throws: PlannerError.futureDay(monday + 3)) { try wednesday.mark("Read", on: "2026-11-19", .completed) }
        #expect(throws: PlannerError.beforeStart(id: read.id, name: "Read", start: monday, day: monday - 1)) {
            try wednesday.mark("Read", on: "2026-11-15", .completed)
        }
        #expect(try store.habitDays(id: read.id).isEmpty, "nothing written, Monday and Tuesday not failed yet")

        let yesterday = try wednesday.mark("Read", on: "yesterday", .completed)
        #expect(yesterday.mark.day == monday + 1)
        // The housekeeping ran first: Monday was failed, Tuesday is as marked.
        #expect(try store.habitDays(id: read.id) == [monday: .failed, monday + 1: .completed])
        #expect(yesterday.mark.progress.current == 1 && yesterday.mark.goalReached == nil)
        let today = try wednesday.mark("\(read.id)", on: nil, .completed)
        let reached = try #require(today.mark.goalReached)
        #expect(reached.goal == 2 && today.mark.progress.current == 2)

        // Finishing archives it; an archived habit takes no marks.
        let finished = try wednesday.decide(.finish, for: reached)
        #expect(try store.habit(id: read.id)?.archived == finished.archived && finished.archived != nil)
        #expect(throws: PlannerError.archivedHabit(read.id)) { try wednesday.mark("\(read.id)", on: nil, .skipped) }
        // Continuing brings it back with the goal doubled.
        _ = try wednesday.decide(.continueTo(reached.nextGoal), for: reached)
        let back = try #require(try store.habit(id: read.id))
        #expect(back.archived == nil && back.goal == 4)
    }

    @Test func sessionsCompleteAHabitBeforeItIsListed() throws {
        let store = EventStore()
        let p = planner(store)
        let thesis = try p.addHabit(name: "Thesis", auto: AutoRule(task: "thesis", minutes: 50))
        let taskId = try store.addTask(TaskItem(id: 0, title: "Chapter", tags: ["thesis"], created: noon))
        let start = noon - 2 * 3600
        var session = FocusSession(configuration: .default, task: "Chapter", plannedSeconds: 3600)
        var events = session.start(at: start)
        for k in 1...720 {
            events += session.receive(Sample(time: start + Double(k * 5), payload: .input(InputActivity(window: 5, keyPresses: 10, idle: 0))))
        }
        let id = try store.beginSession(task: "Chapter", taskId: taskId, source: .live, recording: nil, startedAt: start, plannedSeconds: 3600)
        try store.append(Array(events.dropFirst()), session: id)

        let listing = try p.habits()
        #expect(listing.completedBySessions.map { [$0.habit.id, Int64($0.day)] } == [[thesis.id, Int64(monday)]])
        #expect(listing.rows.map(\.today) == [.marked(.completed)])
        #expect(try p.habits().completedBySessions.isEmpty, "said once")
    }

    @Test func notesAndTheirWeeks() throws {
        let store = EventStore()
        let p = planner(store)
        _ = try p.addHabit(name: "Read")
        #expect(try p.noteHabit("Read", "Mornings.", week: nil).week == "2026-W47")
        #expect(throws: PlannerError.notAWeek("2026-47")) { try p.noteHabit("Read", "x", week: "2026-47") }
        #expect(try p.habitDetail("Read").notes.map { $0.text } == ["Mornings."])
    }

    // MARK: Today

    @Test func theAgendaFromTheLog() throws {
        let store = EventStore()
        let p = planner(store)
        let stretch = try p.addHabit(name: "Stretch", reminder: "10:30")
        _ = try p.addHabit(name: "Piano", schedule: .weekdays([2, 4]))
        _ = try p.addTask(title: "Invoice", due: Deadline(day: monday, minute: 17 * 60))
        _ = try p.addTask(title: "Taxes", due: Deadline(day: monday + 14))
        var agenda = try p.agenda()
        #expect(agenda.toDo == 2 && agenda.items.count == 2)
        _ = try p.mark("Stretch", on: nil, .completed)
        agenda = try p.agenda()
        #expect(agenda.toDo == 1)
        guard case .habit(let h, let status, let streak) = agenda.items.first else {
            Issue.record("\(agenda.items)")
            return
        }
        #expect(h.id == stretch.id && status == .completed && streak == 1)
        // The next day Piano is due, and the invoice overdue.
        let tuesday = try planner(store, plusDays: 1).agenda()
        #expect(tuesday.toDo == 3)
        guard case .task(_, let when) = tuesday.items.last else {
            Issue.record("\(tuesday.items)")
            return
        }
        #expect(when == .overdue)
    }
}
