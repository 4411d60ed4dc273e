import Foundation
import Synchronization
import VigilCore
import VigilPlanner
import VigilStats
import VigilStore

/// The all-day watch's stretch in progress, shared with the reminder rounds of the same daemon: a
/// limit is crossed while the person is still in the application, before the stretch is written.
public final class DayWatchState: Sendable {
    private let current = Mutex<DayStretch?>(nil)
    public init() {}
    public var stretch: DayStretch? { current.withLock { $0 } }
    func set(_ stretch: DayStretch?) { current.withLock { $0 = stretch } }
}

/// Limits and goals as the daemon tells them (`goals:`): at each look, the current day's (or
/// week's) minutes of each goal, and every threshold crossed since, once per goal, period and
/// threshold (recorded as a reminder sent, so a restart does not repeat it).
enum GoalNotices {
    /// The notices due: `figures` are the goals over the current period (its last period still
    /// running), `sent` the reminder keys already sent.
    static func due(_ figures: [Report.GoalFigures], sent: Set<String>) -> [Reminder] {
        var out: [Reminder] = []
        for g in figures {
            guard let period = g.periods.last, period.met == nil else { continue }
            let when = g.per == "week" ? "this week" : "today"
            for (i, threshold) in g.thresholdMinutes.enumerated() where period.minutes >= threshold {
                let key = "goal|\(g.name)|\(period.period)|\(jsonNumber(threshold))"
                guard !sent.contains(key) else { continue }
                let last = i == g.thresholdMinutes.count - 1
                let amount = "\(hoursMinutes(threshold)) of \(g.what) \(when)"
                let (title, body): (String, String)
                switch (g.direction == "at_most", last) {
                case (true, true): (title, body) = ("Limit reached: \(g.name)", "\(amount): your limit.")
                case (true, false): (title, body) = (g.name, "\(amount), of at most \(hoursMinutes(g.targetMinutes)).")
                case (false, true): (title, body) = ("Goal reached: \(g.name)", "\(amount). Well done.")
                case (false, false): (title, body) = (g.name, "\(amount), of \(hoursMinutes(g.targetMinutes)).")
                }
                out.append(Reminder(key: key, title: title, body: body))
            }
        }
        return out
    }

    /// "30 min", "4 h", "1 h 30 min": a goal's amounts as people say them.
    static func hoursMinutes(_ minutes: Double) -> String {
        if minutes < 1 { return "\(Int((minutes * 60).rounded())) s" }
        let m = Int(minutes.rounded())
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min"
    }
}

extension ReminderRound {
    /// The goals' notices due at `now` (the current day and, for weekly goals, week so far).
    func goalNotices(_ goals: [Goal], now: LocalNow, openStretch: DayStretch?) throws -> [Reminder] {
        guard !goals.isEmpty else { return [] }
        let monday = now.day - (isoWeekday(ofDay: now.day) - 1)
        var query = ReportQuery(from: goals.contains { $0.per == .week } ? monday : now.day, to: now.day, zone: zone, today: now.day)
        query.goals = goals
        query.openStretch = openStretch
        return GoalNotices.due(try ReportService(store: store).report(query).goals, sent: try store.sentReminders())
    }
}

extension ReminderRound {
    /// How long after a scheduled focus block began the daemon still tells it (a daemon started, or
    /// a computer woken, a little into the block).
    static let blockGrace = 10 * 60.0

    /// "thesis is scheduled now": each focus block of the calendars that began in the last
    /// `blockGrace`, once.
    func blockNotices(_ files: [String], now: LocalNow, sent: Set<String>) throws -> [Reminder] {
        guard !files.isEmpty else { return [] }
        let listing = try CalendarService(files: files).events(from: now.now - Self.blockGrace, to: now.now + 1, zone: zone)
        return listing.events.compactMap { e -> Reminder? in
            guard let subject = e.focusSubject, !e.allDay, e.start <= now.now, e.start > now.now - Self.blockGrace else { return nil }
            let key = "block|\(e.uid)|\(e.start.millisecondsSinceEpoch)"
            guard !sent.contains(key) else { return nil }
            let format = LocalTimeFormat(zone: zone)
            return Reminder(
                key: key, title: "\(subject) is scheduled now",
                body: "\(e.summary), \(format.clock(e.start))–\(format.clock(e.end)). Start it: vigil start --task \"\(subject)\"")
        }
    }
}
