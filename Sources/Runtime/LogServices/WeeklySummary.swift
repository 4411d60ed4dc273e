import Foundation
import ReportViews
import SessionRuntime
import VigilCore
import VigilPlanner
import VigilStats

/// The weekly summary (`daemon.weekly_summary`), as RescueTime's weekly email, kept on this computer:
/// at the daemon's first look from 06:00 on a Monday, last week's HTML report written to the data
/// directory's `weekly/` folder, and a notification with its headline figures against the week
/// before. Once a week (recorded as a reminder sent); a week without sessions or the watch's time
/// writes nothing.
public struct WeeklySummary: Sendable {
    /// Where the reports go (`$XDG_DATA_HOME/vigil/weekly`).
    public let directory: String
    public init(directory: String) { self.directory = directory }

    /// Monday, from this local minute of the day on.
    static let morning = 6 * 60

    /// The summary due at `now`, with its report written; nil when none is due.
    func due(_ round: ReminderRound, now: LocalNow, sent: Set<String>) throws -> Reminder? {
        guard isoWeekday(ofDay: now.day) == 1, ((now.minute % 1440) + 1440) % 1440 >= Self.morning else { return nil }
        let (first, last) = (now.day - 7, now.day - 1)
        let week = Statistics.isoWeek(first)
        let key = "weekly|\(week)"
        guard !sent.contains(key) else { return nil }
        var query = ReportQuery(from: first, to: last, zone: round.zone, today: now.day)
        query.goals = round.goals
        query.calendarFiles = round.calendarFiles
        query.now = now.now
        let report = try ReportService(store: round.store).report(query)
        guard report.totals.sessions > 0 || report.wholeDay != nil else { return nil }
        let path = directory + "/\(week).html"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = try OutputWriter(path: path, what: "the weekly report")
        try file.write(report.rendered(as: .html).utf8)
        try file.commit()
        return Reminder(key: key, title: "Your week \(week)", body: Self.headline(report) + " Report: \(path)")
    }

    /// "Focused 12 h 30 min (+2 h 10 min on the week before) · focus share 72 % (was 68 %) · 4 of 5
    /// days free of procrastination."
    static func headline(_ r: Report) -> String {
        let t = r.totals
        var parts = ["Focused \(GoalNotices.hoursMinutes(t.focusedMinutes))"]
        if let p = r.previous, p.sessions > 0 {
            let change = t.focusedMinutes - p.focusedMinutes
            parts[0] += " (\(change >= 0 ? "+" : "-")\(GoalNotices.hoursMinutes(abs(change))) on the week before)"
        }
        if let share = t.focusShare {
            var s = "focus share \(Int((share * 100).rounded())) %"
            if let was = r.previous?.focusShare { s += " (was \(Int((was * 100).rounded())) %)" }
            parts.append(s)
        }
        let f = r.procrastinationFree
        if f.daysWithSessions > 0 { parts.append("\(f.freeDays) of \(f.daysWithSessions) days free of procrastination") }
        if let d = r.wholeDay, d.outside.distractingMinutes > 0 {
            parts.append("\(GoalNotices.hoursMinutes(d.outside.distractingMinutes)) distracting outside sessions")
        }
        return parts.joined(separator: " · ") + "."
    }
}
