import Foundation
import VigilCalendar
import VigilCore
import VigilPlanner
import VigilStats
import VigilStore

/// `vigil export --ics`: tasks with a deadline as to-dos and the person's sessions as events, in one
/// iCalendar file that other calendars read (GNOME Calendar, Thunderbird, khal).
public struct CalendarExportService: Sendable {
    let store: EventStore

    public struct Options: Sendable {
        /// The sessions that started in this period (all when nil).
        public var sessions: Range<Timestamp>?
        /// The person's own words too: the sessions' intentions and notes, the tasks' notes. Without
        /// it they stay home: a calendar file is made to be shared.
        public var withNotes: Bool
        public init(sessions: Range<Timestamp>? = nil, withNotes: Bool = false) {
            self.sessions = sessions
            self.withNotes = withNotes
        }
    }

    public struct Exported: Sendable {
        public var text: String
        public var todos: Int
        public var sessions: Int
    }

    public func export(_ options: Options, zone: TimeZone, now: Timestamp, version: String) throws -> Exported {
        let taskIDs = try store.globalIdentities(.tasks)
        let sessionIDs = try store.globalIdentities(.sessions)
        let tasks = try store.tasks(includeDone: true).filter { $0.due != nil }
        let days = tasks.compactMap { $0.due?.day }
        let clock = LocalClock(timeZone: zone, days: (days.min() ?? 0)...(days.max() ?? 0))
        let todos = tasks.map { task in
            CalendarTodo(
                uid: "vigil-task-\(taskIDs[task.id] ?? "\(task.id)")", title: task.title, note: options.withNotes ? task.note : nil,
                due: Self.due(task.due!, clock: clock), priority: Self.priority(task.priority), tags: task.tags, created: task.created,
                done: task.done)
        }
        let period = options.sessions ?? Timestamp(nanoseconds: .min)..<Timestamp(nanoseconds: .max)
        let sessions = try store.sessionRecords(from: period.lowerBound, to: period.upperBound, sources: SessionSource.own).compactMap {
            s -> CalendarSession? in
            guard let end = s.ended else { return nil }  // still running: not yet an event
            return CalendarSession(
                uid: "vigil-session-\(sessionIDs[s.id] ?? "\(s.id)")", summary: s.task ?? "Focus session",
                description: Self.description(s, withNotes: options.withNotes), start: s.started, end: end, tags: s.tags)
        }
        let text = try CalendarWriter.calendar(todos: todos, sessions: sessions, stamp: now, product: "-//Vigil//Vigil \(version)//EN")
        return Exported(text: text, todos: todos.count, sessions: sessions.count)
    }

    /// A deadline without a time is a day; one with a time is that local minute as an instant (the
    /// export's times are UTC, which every calendar reads without a VTIMEZONE).
    static func due(_ deadline: Deadline, clock: LocalClock) -> CalendarTodo.Due {
        guard let minute = deadline.minute else { return .day(deadline.day) }
        let midnight = clock.startOfDay(deadline.day)
        // The minute's instant: midnight's offset first, then once more with the offset in force
        // at the guess, for a day whose clocks change before that minute.
        let local = Int64(deadline.day) * 86_400 + Int64(min(max(minute, 0), 1439)) * 60
        var t = Timestamp(nanoseconds: (local - Int64(clock.offset(at: midnight))) * 1_000_000_000)
        t = Timestamp(nanoseconds: (local - Int64(clock.offset(at: t))) * 1_000_000_000)
        return .instant(t)
    }

    /// RFC 5545: 1 to 4 high, 5 medium, 6 to 9 low.
    static func priority(_ p: Priority) -> Int {
        switch p {
        case .high: 1
        case .medium: 5
        case .low: 9
        }
    }

    /// What Vigil judged, in a line; the person's own words only when asked.
    static func description(_ s: SessionRecord, withNotes: Bool) -> String? {
        var lines: [String] = []
        if let focused = s.focusedSeconds, let distracted = s.distractedSeconds {
            let episodes = s.episodes ?? 0
            lines.append(
                "Focused \(Int((focused / 60).rounded())) min, distracted \(Int((distracted / 60).rounded())) min, "
                    + "\(episodes) episode\(episodes == 1 ? "" : "s") (Vigil).")
        } else if let source = s.source, !source.isJudged {
            lines.append(source == .imported ? "Tracked time, imported (Vigil)." : "Tracked time, added by hand (Vigil).")
        }
        if withNotes {
            if let intent = s.intent { lines.append("Intention: \(intent)" + (s.intentKept.map { " (\($0.rawValue))" } ?? "")) }
            if let note = s.note { lines.append(note) }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
