import DesktopNotifier
import Foundation
import LogServices
import RecordingFormats
import SessionRuntime
import SessionViews
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilPlanner
import VigilStore
import VigilTesting

/// A sink that keeps what it was sent, with the instant.
final class CollectingSink: ReminderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Reminder] = []
    var sent: [Reminder] { lock.withLock { list } }
    func send(_ reminder: Reminder) throws(AlarmChannelUnavailable) { lock.withLock { list.append(reminder) } }
}

/// The daemon's rounds on an injected clock: a whole day stepped every 30 s, as the daemon looks.
@Suite struct ReminderDaemonTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Monday 2026-11-16, local midnight in Berlin (CET, UTC+1).
    let midnight = parseRFC3339("2026-11-15T23:00:00Z")!
    var monday: Int { civilDay("2026-11-16")! }

    func at(_ h: Int, _ m: Int, _ s: Int = 0) -> Timestamp { midnight + Double(h * 3600 + m * 60 + s) }

    @Test func aDayOfRemindersOnAnInjectedClock() throws {
        let store = EventStore()
        let stretch = try store.addHabit(Habit(id: 0, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday))
        try store.addHabit(Habit(id: 0, name: "Piano", schedule: .weekdays([2, 4]), reminder: "10:30", createdDay: monday))  // not on Mondays
        try store.addTask(TaskItem(id: 0, title: "Send the report", due: Deadline(day: monday, minute: 17 * 60), created: at(8, 0)))
        let sink = CollectingSink()
        var config = VigilConfiguration.Reminders()
        config.repeatEvery = 2 * 3600
        let round = ReminderRound(store: store, configuration: config, sink: sink, zone: berlin)
        var log: [(String, String)] = []
        var t = at(7, 0)
        while t < at(23, 59) {
            if t == at(15, 0) { try store.setHabitDay(id: stretch, day: monday, status: .completed, source: "person") }
            for r in try round.run(at: t).sent {
                let s = Int(t - midnight)
                log.append((String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60), r.title))
            }
            t = t + 30
        }
        #expect(log.map(\.0) == ["10:30:00", "12:30:00", "14:30:00", "16:00:00", "17:00:00"], "\(log)")
        #expect(
            log.map(\.1) == [
                "Time for: Stretch", "Still to do today: Stretch", "Still to do today: Stretch",
                "Due at 17:00: Send the report", "Overdue: Send the report",
            ])
        // A restarted daemon (a new round on the same log) sends nothing twice.
        let again = CollectingSink()
        let restarted = ReminderRound(store: store, configuration: config, sink: again, zone: berlin)
        #expect(try restarted.run(at: at(17, 0, 30)).sent.isEmpty)
        // Quiet from 22:00; the next morning the overdue task comes back, and yesterday's
        // unmarked Piano day... was not scheduled (a Monday), so nothing failed.
        #expect(try restarted.run(at: at(23, 0)).sent.isEmpty)
        let tuesday = try restarted.run(at: at(24 + 10, 30)).sent.map(\.title)
        #expect(tuesday.sorted() == ["Overdue: Send the report", "Time for: Piano", "Time for: Stretch"])
        #expect(try store.habitDays(id: stretch)[monday] == .completed)
    }

    @Test func unmarkedDaysFailAndSessionsCompleteHabits() throws {
        let store = EventStore()
        let read = try store.addHabit(Habit(id: 0, name: "Read", schedule: .daily, createdDay: monday))
        let thesis = try store.addHabit(
            Habit(
                id: 0, name: "Thesis", schedule: .weekdays([1, 2, 3, 4, 5]), autoTask: "thesis", autoMinutes: 50,
                createdDay: monday))
        // A 60-minute focused session on Tuesday on a task tagged thesis.
        let taskId = try store.addTask(TaskItem(id: 0, title: "Chapter 3", tags: ["thesis"], created: at(8, 0)))
        let start = at(24 + 9, 0)
        var session = FocusSession(configuration: .default, task: "Chapter 3", plannedSeconds: 3600)
        var events = session.start(at: start)
        for k in 1...720 {
            events += session.receive(Sample(time: start + Double(k * 5), payload: .input(InputActivity(window: 5, keyPresses: 10, idle: 0))))
        }
        let id = try store.beginSession(task: "Chapter 3", taskId: taskId, source: .live, recording: nil, startedAt: start, plannedSeconds: 3600)
        try store.append(Array(events.dropFirst()), session: id)
        #expect(try store.taskEffort()[taskId]?.focusedMinutes == 60)
        // Wednesday morning: Monday and Tuesday of Read were never marked; Tuesday of Thesis was
        // done by the session; Monday of Thesis was not.
        let round = ReminderRound(store: store, configuration: .init(), sink: CollectingSink(), zone: berlin)
        _ = try round.run(at: at(48 + 7, 0))
        #expect(try store.habitDays(id: read) == [monday: .failed, monday + 1: .failed])
        #expect(try store.habitDays(id: thesis) == [monday: .failed, monday + 1: .completed])
    }

    /// End to end: the reminders go through the real desktop channel, libdbus on a private session
    /// bus, to a real notification service.
    @Test func remindersReachANotificationService() throws {
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        let store = EventStore()
        try store.addHabit(Habit(id: 0, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday))
        let round = ReminderRound(
            store: store, configuration: .init(), sink: DesktopReminderSink(notifier: DesktopNotifier(busAddress: bus.address)),
            zone: berlin)
        let outcome = try round.run(at: at(10, 31))
        #expect(outcome.sent.count == 1 && outcome.failed.isEmpty, "\(outcome.failed)")
        let calls = SessionBus.notifications(log)
        #expect(calls.count == 1)
        #expect(calls.first?["summary"] as? String == "Time for: Stretch")
        #expect((calls.first?["body"] as? String)?.contains("vigil habit check 1") == true)
    }

    /// No notification daemon: the reminder is not recorded as sent, so it goes out once one is there.
    @Test func aReminderThatCannotBeDeliveredIsTriedAgain() throws {
        let bus = try SessionBus()
        let store = EventStore()
        try store.addHabit(Habit(id: 0, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday))
        let round = ReminderRound(
            store: store, configuration: .init(), sink: DesktopReminderSink(notifier: DesktopNotifier(busAddress: bus.address)),
            zone: berlin)
        let first = try round.run(at: at(10, 31))
        #expect(first.sent.isEmpty && first.failed.count == 1)
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        #expect(try round.run(at: at(10, 32)).sent.map(\.title) == ["Time for: Stretch"])
        #expect(SessionBus.notifications(log).count == 1)
    }
}

@Suite struct PomodoroPlanTests {
    @Test func plansParse() {
        #expect(PomodoroPlan.parse("25/5/15x4") == .classic)
        #expect(PomodoroPlan.parse("classic") == .classic)
        #expect(PomodoroPlan.parse("0.5/0.25/1x2") == PomodoroPlan(work: 30, shortBreak: 15, longBreak: 60, rounds: 2))
        for bad in ["25/5x4", "25/5/15", "25/5/15x0", "a/b/cx2", "25/-5/15x4"] { #expect(PomodoroPlan.parse(bad) == nil, "\(bad)") }
        // 4 × 25 + 3 × 5 = 115 minutes; the long break after every fourth period.
        #expect(PomodoroPlan.classic.setLength == 115 * 60)
        #expect((1...8).map { PomodoroPlan.classic.breakLength(after: $0) / 60 } == [5, 5, 5, 15, 5, 5, 5, 15])
        #expect(PomodoroPlan.classic.text == "25/5/15x4")
    }
}

/// The daemon's loop on a clock that moves only when told to: a round every `reminders.check`,
/// failures and recovery said once each, and a cancellation (SIGTERM) that ends the wait at once.
@Suite struct ReminderDaemonLoopTests {
    /// A sink that fails while `broken` is set.
    final class FlakySink: ReminderSink, @unchecked Sendable {
        private let lock = NSLock()
        private var isBroken = true
        private var list: [String] = []
        var broken: Bool {
            get { lock.withLock { isBroken } }
            set { lock.withLock { isBroken = newValue } }
        }
        var sent: [String] { lock.withLock { list } }
        func send(_ reminder: Reminder) throws(AlarmChannelUnavailable) {
            lock.lock()
            defer { lock.unlock() }
            if isBroken { throw AlarmChannelUnavailable("no notification daemon") }
            list.append(reminder.title)
        }
    }

    final class Lines: Sendable {
        let lines = Mutex<[(String, Diagnostics.Level)]>([])
        func add(_ s: String, _ level: Diagnostics.Level) { lines.withLock { $0.append((s, level)) } }
        var all: [String] { lines.withLock { $0.map(\.0) } }
        /// The warnings: a failure to deliver, and nothing else.
        var warnings: [String] { lines.withLock { $0.filter { $0.1 == .warning }.map(\.0) } }
    }

    @Test func roundsEveryCheckSayingFailureAndRecoveryOnce() async throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let monday = civilDay("2026-11-16")!
        let tenThirty = parseRFC3339("2026-11-16T09:30:00Z")!
        let store = EventStore()
        try store.addHabit(Habit(id: 0, name: "Stretch", schedule: .daily, reminder: "10:30", createdDay: monday))
        try store.addHabit(Habit(id: 0, name: "Read", schedule: .daily, reminder: "10:31", createdDay: monday))
        let sink = FlakySink()
        let clock = ManualClock()
        let lines = Lines()
        let daemon = ReminderDaemon(
            round: ReminderRound(store: store, configuration: .init(), sink: sink, zone: berlin), every: 30, clock: clock,
            now: { tenThirty + Double(clock.now.offset.components.seconds) }, report: { line, level in lines.add(line, level) })
        let run = Task { try await daemon.run() }
        await settle(sleepingOn: clock)
        // 10:30: Stretch is due, notifications do not work: said once.
        #expect(lines.all == ["cannot send reminders (no notification daemon); 'Time for: Stretch' and any others wait until notifications work"])
        clock.advance(by: .seconds(30))
        await settle(sleepingOn: clock)
        #expect(lines.all.count == 1, "the same failure is not said again: \(lines.all)")
        // 10:31: notifications work again: both reminders go, each said, and the recovery.
        sink.broken = false
        clock.advance(by: .seconds(30))
        await settle(sleepingOn: clock)
        #expect(Set(sink.sent) == ["Time for: Stretch", "Time for: Read"])
        #expect(Set(lines.all.dropFirst().dropLast()) == ["reminded: Time for: Stretch", "reminded: Time for: Read"])
        #expect(lines.all.last == "notifications work again")
        // No round before the next check is due.
        clock.advance(by: .seconds(29))
        await Task.yield()
        #expect(lines.all.count == 4)
        #expect(lines.warnings == [lines.all[0]], "the failure is the one warning")
        // Stopping wakes the wait at once: no clock time has to pass.
        run.cancel()
        try await run.value
        #expect(sink.sent.count == 2)
    }
}
