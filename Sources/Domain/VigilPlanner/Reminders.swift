import VigilCore

/// When reminders may go out.
public struct ReminderSettings: Hashable, Sendable {
    /// For habits without a reminder time, and for tasks due on a day without a time.
    public var defaultMinute = 9 * 60
    /// How long before a task's due time it is reminded.
    public var beforeDue = 60
    /// A habit not done yet is reminded again at this interval through the day.
    public var repeatEvery = 120
    /// No reminders from `quietFrom` to `quietTo` (minutes after local midnight; may wrap midnight).
    public var quietFrom = 22 * 60
    public var quietTo = 8 * 60

    public init() {}

    public func isQuiet(_ minuteOfDay: Int) -> Bool {
        if quietFrom == quietTo { return false }
        return quietFrom < quietTo ? (minuteOfDay >= quietFrom && minuteOfDay < quietTo) : (minuteOfDay >= quietFrom || minuteOfDay < quietTo)
    }
}

/// A reminder to send. `key` names it uniquely (what, which day, which repetition), so one is
/// never sent twice, also across restarts of the daemon.
public struct Reminder: Hashable, Sendable {
    public var key: String
    public var title: String
    public var body: String

    public init(key: String, title: String, body: String) {
        self.key = key
        self.title = title
        self.body = body
    }
}

/// Which reminders are due at a local minute. Pure: the daemon asks it every half minute with the
/// time from its clock and the keys already sent.
public enum ReminderPlanner {
    /// - Parameters:
    ///   - now: local minutes since 1970-01-01.
    ///   - habits: the habits still to be done today (scheduled, not completed or skipped), with
    ///     how many completions they still need today's week for "N times a week".
    ///   - tasks: open tasks.
    public static func due(now: Int, habits: [Habit], tasks: [TaskItem], settings: ReminderSettings, sent: Set<String>) -> [Reminder] {
        let today = now >= 0 ? now / 1440 : (now - 1439) / 1440
        let minuteOfDay = now - today * 1440
        guard !settings.isQuiet(minuteOfDay) else { return [] }
        var out: [Reminder] = []
        for h in habits where h.archived == nil {
            let first = h.reminderMinute ?? settings.defaultMinute
            guard minuteOfDay >= first else { continue }
            // One reminder per interval since the first: only the current one, never a backlog.
            let slot = (minuteOfDay - first) / max(1, settings.repeatEvery)
            let key = "habit:\(h.id):\(civilDate(today)):\(slot)"
            guard !sent.contains(key) else { continue }
            out.append(
                Reminder(
                    key: key, title: slot == 0 ? "Time for: \(h.name)" : "Still to do today: \(h.name)",
                    body: "\(h.schedule.description.capitalizedFirst). Mark it with `vigil habit check \(h.id)`."))
        }
        for t in tasks where !t.isDone {
            guard let due = t.due else { continue }
            // A time of day is reminded `beforeDue` ahead; a day without one at the default time.
            let remindAt = due.minute == nil ? due.day * 1440 + settings.defaultMinute : due.localMinute - settings.beforeDue
            if now >= remindAt, !t.isOverdue(atLocalMinute: now) {
                let key = "task:\(t.id):due:\(due.text)"
                if !sent.contains(key) {
                    let when = due.time.map { "at \($0)" } ?? "today"
                    out.append(Reminder(key: key, title: "Due \(when): \(t.title)", body: "Start it with `vigil start --task \(t.id)`."))
                }
            } else if t.isOverdue(atLocalMinute: now), minuteOfDay >= settings.defaultMinute {
                // Overdue: once a day, at the default time.
                let key = "task:\(t.id):overdue:\(civilDate(today))"
                if !sent.contains(key) {
                    out.append(Reminder(key: key, title: "Overdue: \(t.title)", body: "It was due \(due.text). `vigil next` says what to do first."))
                }
            }
        }
        return out
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
