import DesktopNotifier
import Foundation
import SessionRuntime
import Synchronization
import VigilCore
import VigilPlanner
import VigilStore

/// Where reminders go: desktop notifications in `vigil daemon`, a list in tests.
public protocol ReminderSink: Sendable {
    func send(_ reminder: Reminder) throws(AlarmChannelUnavailable)
}

/// Reminders as freedesktop notifications, the alarms' desktop channel.
public struct DesktopReminderSink: ReminderSink {
    let notifier: DesktopNotifier
    public init(notifier: DesktopNotifier = DesktopNotifier()) { self.notifier = notifier }
    public func send(_ reminder: Reminder) throws(AlarmChannelUnavailable) {
        do {
            _ = try notifier.notify(summary: reminder.title, body: reminder.body, urgency: .normal)
        } catch {
            throw AlarmChannelUnavailable(error.detail)
        }
    }
}

/// One look at what is due: housekeeping (sessions complete habits, unmarked days fail), then the
/// reminders `ReminderPlanner` finds, each sent once and recorded as sent (so a restart does not
/// repeat them). The daemon calls it every `reminders.check` seconds with its clock's time; tests
/// call it with chosen instants.
public struct ReminderRound: Sendable {
    public let store: EventStore
    public let settings: ReminderSettings
    public let sink: any ReminderSink
    public let zone: TimeZone
    /// Limits and goals to tell as their thresholds are crossed (`GoalNotices`).
    public var goals: [Goal] = []
    /// The all-day watch's stretch in progress, when the same daemon runs it.
    public var watch: DayWatchState? = nil
    /// Calendars whose focus blocks are told as they begin (`calendar.files`).
    public var calendarFiles: [String] = []
    /// Last week's report and headline on Monday mornings (`daemon.weekly_summary`).
    public var weekly: WeeklySummary? = nil

    public init(store: EventStore, configuration: VigilConfiguration.Reminders, sink: any ReminderSink, zone: TimeZone = .current) {
        self.store = store
        var s = ReminderSettings()
        s.defaultMinute = configuration.defaultTime
        s.beforeDue = Int(configuration.beforeDue / 60)
        s.repeatEvery = max(1, Int(configuration.repeatEvery / 60))
        s.quietFrom = configuration.quietFrom
        s.quietTo = configuration.quietTo
        settings = s
        self.sink = sink
        self.zone = zone
    }

    public struct Outcome: Sendable {
        public var sent: [Reminder] = []
        /// Reminders the sink could not deliver (they are tried again next round), and why.
        public var failed: [(Reminder, String)] = []
        /// Why the calendars could not be read, when they could not.
        public var calendarProblem: String?
    }

    public func run(at time: Timestamp) throws(StoreError) -> Outcome {
        let now = LocalNow(at: time, zone: zone)
        try PlannerHousekeeping.run(store: store, now: now)
        var dueHabits: [Habit] = []
        for h in try store.habits() where isStillDue(h, statuses: try store.habitDays(id: h.id), today: now.day) {
            dueHabits.append(h)
        }
        var reminders = ReminderPlanner.due(
            now: now.minute, habits: dueHabits, tasks: try store.tasks(includeDone: false),
            settings: settings, sent: try store.sentReminders())
        // Limits and goals, but not in the quiet hours (a threshold still crossed after them is
        // told then, within its day or week).
        if !goals.isEmpty, !settings.isQuiet(((now.minute % 1440) + 1440) % 1440) {
            do { reminders += try goalNotices(goals, now: now, openStretch: watch?.stretch) } catch let e as StoreError { throw e } catch {
                throw StoreError(path: store.path, message: "the goals could not be read: \(error)")
            }
        }
        // A scheduled block is told when it begins, quiet hours or not: the person scheduled it.
        // Calendars that cannot be read are said by the daemon (`calendarProblems`), not fatal.
        var calendarProblem: String?
        do { reminders += try blockNotices(calendarFiles, now: now, sent: try store.sentReminders()) } catch let e as StoreError { throw e } catch {
            calendarProblem = "\(error)"
        }
        if let weekly, !settings.isQuiet(((now.minute % 1440) + 1440) % 1440) {
            do {
                if let summary = try weekly.due(self, now: now, sent: try store.sentReminders()) { reminders.append(summary) }
            } catch let e as StoreError { throw e } catch {
                calendarProblem = calendarProblem ?? "the weekly report could not be written: \(error)"
            }
        }
        var outcome = Outcome()
        outcome.calendarProblem = calendarProblem
        for r in reminders {
            do {
                try sink.send(r)
                try store.markReminderSent(r.key, at: time)
                outcome.sent.append(r)
            } catch let e as AlarmChannelUnavailable {
                outcome.failed.append((r, e.detail))
            } catch let e as StoreError {
                throw e
            } catch {
                outcome.failed.append((r, "\(error)"))
            }
        }
        return outcome
    }
}

/// `vigil daemon`: a reminder round every `reminders.check` seconds on a clock until the task
/// running it is cancelled (a signal), saying what it sent, and saying once when reminders cannot
/// be delivered and once when they can again. The wait between rounds is a sleep on the clock that
/// cancellation ends at once, not a poll; tests run it on a `ManualClock`.
public final class ReminderDaemon<C: Clock>: Sendable where C.Duration == Duration {
    private let round: ReminderRound
    private let every: Double
    private let clock: C
    private let now: @Sendable () -> Timestamp
    private let report: @Sendable (String, Diagnostics.Level) -> Void
    private let failing = Mutex<String?>(nil)
    private let calendarFailing = Mutex<String?>(nil)

    /// - Parameters:
    ///   - every: seconds between rounds (`reminders.check`).
    ///   - now: the wall time of a round.
    ///   - report: a line for the person, with its level (the journal's priority, under systemd).
    public init(
        round: ReminderRound, every: Double, clock: C, now: @escaping @Sendable () -> Timestamp,
        report: @escaping @Sendable (String, Diagnostics.Level) -> Void
    ) {
        self.round = round
        self.every = every
        self.clock = clock
        self.now = now
        self.report = report
    }

    /// One round, and what it has to say.
    /// One look; returns how many due reminders could not be sent (they wait for the next look).
    @discardableResult
    public func runOnce() throws(StoreError) -> Int {
        let outcome = try round.run(at: now())
        for r in outcome.sent { report("reminded: \(r.title.terminalSafe)", .info) }
        calendarFailing.withLock { said in
            if let why = outcome.calendarProblem, said != why { report("cannot read the calendars: \(why.terminalSafe)", .warning) }
            said = outcome.calendarProblem
        }
        failing.withLock { unavailable in
            if let (r, why) = outcome.failed.first {
                if unavailable != why {
                    report("cannot send reminders (\(why)); '\(r.title.terminalSafe)' and any others wait until notifications work", .warning)
                }
                unavailable = why
            } else if unavailable != nil, !outcome.sent.isEmpty {
                report("notifications work again", .info)
                unavailable = nil
            }
        }
        return outcome.failed.count
    }

    /// Rounds until cancelled; a store that cannot be read ends it with the error.
    public func run() async throws(StoreError) {
        while !Task.isCancelled {
            try runOnce()
            do { try await clock.sleep(for: .seconds(every)) } catch { return }
        }
    }
}
