import Foundation
import VigilCore
import VigilPlanner

/// A row received from the sync server that this log did not take, and why.
public struct RejectedRow: Sendable, Equatable {
    /// The table it came for (`sessions` also for a session refused because of one of its events).
    public var table: String
    /// The device that made it (its origin), as the row names it.
    public var device: String
    /// Its id on that device, and for a habit's day or note the day or week.
    public var id: Int64?
    public var sub: String?
    public var reason: String
    public init(table: String, device: String, id: Int64?, sub: String? = nil, reason: String) {
        self.table = table
        self.device = device
        self.id = id
        self.sub = sub
        self.reason = reason
    }
}

/// The one check of what the sync server sends (docs/sync.md, "What a device takes"): the server
/// is shared, so a row there may have been written by a buggy or newer Vigil, a group member or
/// anyone with access to the database, and it is input like a file being imported. A row is taken
/// only when every value is one this log could have made itself: present where the log needs it,
/// a finite number in the range local input has (`SampleLimits`, `SupportedDates`, the planner's
/// `PlannerLimits`), a clock that cannot overflow. Words this Vigil does not know (an outcome, a
/// priority, a habit day's status from a newer version) are kept: the readers show them as
/// unknown.
public enum IncomingRows {
    /// The largest hybrid logical clock stamp taken: the last supported millisecond's (the clock is
    /// milliseconds × 1000 plus a counter). 7.3 × 10^15, so adding to it never overflows.
    public static let clock: ClosedRange<Int64> = 0...(SupportedDates.lastMillisecond * 1000 + 999)
    /// Scores (an episode's peak, a state change's): finite, as large as a reading can be.
    static let score = SampleLimits.readingValue

    /// A group member's published day (`vigil_group.days`): minutes in a day, sessions and streak
    /// days as counts.
    public static let groupMinutes: ClosedRange<Double> = 0...1440
    public static let groupCount: ClosedRange<Int64> = 0...Int64(SampleLimits.count.upperBound - 1)

    /// Why `row` (of `table`, as `SyncTable.sentColumns` orders it) cannot be taken; nil when it can.
    /// A tombstone (an edited row's `deleted` = 1) needs only its identity and clock.
    public static func problem(_ row: [SyncValue], of table: SyncTable) -> String? {
        let columns = table.sentColumns
        guard row.count == columns.count else { return "it has \(row.count) values, not the \(columns.count) of \(table.name)" }
        let tombstone = table.kind == .edited || table.kind == .habitPart ? row[columns.count - 1] == .integer(1) : false
        for (value, column) in zip(row, columns) {
            if tombstone, !table.keyColumns.contains(column.name), !SyncTable.clockColumns.contains(column) { continue }
            if let why = problem(value, column, required: isRequired(column.name, in: table)) { return why }
        }
        switch table.name {
        case "sessions":
            if case .integer(let start) = row[6], case .integer(let end) = row[8], end < start { return "it ends before it starts" }
            let columns = table.columns.map(\.name)
            if let at = columns.firstIndex(of: "intent_kept"), case .text(let answer) = row[at], IntentAnswer(rawValue: answer) == nil {
                return "intent_kept '\(answer.prefix(40))' is not done, partly or no"
            }
            if let at = columns.firstIndex(of: SyncTable.labelsColumn), case .text(let labels) = row[at],
                case .failure(let problem) = SessionLabels.parse(labels)
            {
                return problem.description
            }
        case "episodes":
            // number, started, confirmed, ended: a span read as a range must not be reversed.
            if case .integer(let start) = row[4], case .integer(let confirmed) = row[5], confirmed < start {
                return "the episode is confirmed before it starts"
            }
            if case .integer(let start) = row[4], case .integer(let end) = row[6], end < start { return "the episode ends before it starts" }
        case "alarms":
            if case .integer(let at) = row[4], case .integer(let cleared) = row[9], cleared < at { return "the alarm is cleared before it rang" }
        case "gaps":
            if case .integer(let from) = row[3], case .integer(let to) = row[4], to < from { return "the gap ends before it starts" }
        case "habit_days":
            guard case .text(let sub) = row[2], let day = Int(sub), SupportedDates.days.contains(day) else {
                return "the day '\(String(describing: row[2]).prefix(40))' is not a day \(SupportedDates.range)"
            }
        case "habit_notes":
            guard case .text(let week) = row[2], isISOWeek(week) else { return "the week is not an ISO week like 2026-W47" }
        default: break
        }
        return nil
    }

    /// Why a session received with its events cannot be taken: the first problem of the session's
    /// row, or of one of its events (an event the log could not hold would leave the session
    /// without it), or an episode number it has twice.
    public static func problem(session: [SyncValue], events: [(SyncTable, [SyncValue])]) -> String? {
        if let why = problem(session, of: .sessions) { return why }
        var numbers = Set<Int64>()
        for (table, row) in events {
            if let why = problem(row, of: table) { return "its \(table.name) row \(row.count > 1 ? "#\(describe(row[1]))" : ""): \(why)" }
            if table == .episodes, case .integer(let number) = row[3], !numbers.insert(number).inserted {
                return "it has episode number \(number) twice"
            }
        }
        return nil
    }

    /// The columns the log requires (NOT NULL there, and no default the sync would fill in).
    private static func isRequired(_ name: String, in table: SyncTable) -> Bool {
        if table.keyColumns.contains(name) || ["session_id", "hlc", "hlc_device", "deleted"].contains(name) { return true }
        let required: [String: Set<String>] = [
            "sessions": ["source", "started_ms", "last_event_ms"],
            "episodes": ["number", "started_ms", "confirmed_ms", "cause", "peak_score", "alarm_level"],
            "alarms": ["episode_number", "at_ms", "level", "repeat", "cause"],
            "state_changes": ["at_ms", "from_state", "to_state", "score"],
            "gaps": ["from_ms", "to_ms"],
            "tasks": ["title", "priority", "term", "tags", "created_ms"],
            "habits": ["name", "schedule", "priority", "flagged", "created_day"],
            "habit_days": ["status", "source"],
            "habit_notes": ["text"],
        ]
        return required[table.name]?.contains(name) ?? false
    }

    /// Why one value cannot be the column's.
    private static func problem(_ value: SyncValue, _ column: SyncTable.Column, required: Bool) -> String? {
        let name = column.name
        switch (value, column.type) {
        case (.null, _):
            return required ? "\(name) is missing" : nil
        case (.text(let text), .uuid):
            return UUID(uuidString: text) == nil ? "\(name) is not a device id" : nil
        case (.text(let text), .text):
            return text.utf8.contains(0) ? "\(name) holds a NUL character" : nil
        case (.integer(let v), .integer):
            let range = integerRange(name)
            return range.contains(v) ? nil : "\(name) \(v) is out of range (\(range.lowerBound) to \(range.upperBound))"
        case (.real(let v), .real):
            guard v.isFinite else { return "\(name) is not a finite number (\(v))" }
            let range = name == "peak_score" || name == "score" ? score : 0...SampleLimits.span.upperBound.nextDown
            return range.contains(v) ? nil : "\(name) \(v) is out of range (\(range.lowerBound) to \(range.upperBound))"
        default:
            return "\(name) is not a \(column.type.serverType)"
        }
    }

    /// The range of an integer column, by what it holds.
    private static func integerRange(_ name: String) -> ClosedRange<Int64> {
        let count = 0...Int64(SampleLimits.count.upperBound - 1)
        switch name {
        case "hlc", "edited_hlc": return clock
        case "origin_id", "session_id", "task_origin_id": return 1...Int64.max
        case "deleted", "flagged": return 0...1
        case "due_minute": return 0...1439
        case "estimate_min", "auto_minutes": return Int64(PlannerLimits.minutes.lowerBound)...Int64(PlannerLimits.minutes.upperBound)
        case "due_day", "created_day": return Int64(SupportedDates.days.lowerBound)...Int64(SupportedDates.days.upperBound)
        default:
            return name.hasSuffix("_ms") ? SupportedDates.firstMillisecond...SupportedDates.lastMillisecond : count
        }
    }

    /// A value as a message shows it.
    static func describe(_ value: SyncValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): String(v.prefix(40))
        }
    }
}
