import Foundation
import VigilCore
import VigilPlanner

/// Taskwarrior's `task export` (a JSON array of tasks, or one task a line) as Vigil tasks.
///
/// - `description` → the title; `entry` → when it was added; `due` → the deadline, in local time
///   (midnight, and 23:59, which is Taskwarrior's `eod`, mean the day without a time);
/// - `priority` H, M, L → high, medium, low; none → medium (what `vigil task add` gives);
/// - `tags` → tags, and `project` → one more tag, its name lowercased (`Thesis.Ch3` → `thesis.ch3`):
///   Vigil's tags are what a project is in Taskwarrior (`task list --tag`, `habit add --auto`);
/// - `annotations` → the note, one `YYYY-MM-DD: text` per annotation (its local day), separated by `; `;
/// - status `pending` and `waiting` → open; `completed` → done at its `end`; `deleted` → skipped;
///   `recurring` (the template Taskwarrior makes its instances from) → skipped, its instances
///   (pending or completed tasks of their own) are imported.
///
/// Every task is remembered by its `uuid`, so importing the same export again adds nothing.
public struct TaskwarriorExport: Sendable {
    public struct Entry: Sendable {
        public var uuid: String
        /// With id 0: the store gives it its own.
        public var task: TaskItem
    }
    public var tasks: [Entry]
    /// Deleted tasks, not imported.
    public var deleted = 0
    /// Recurrence templates, not imported (their instances are).
    public var recurring = 0

    /// - Parameters: file: its name for messages; zone: the local time zone deadlines and note
    ///   dates are read in; now: the time added, for a task without `entry`.
    public static func parse(_ data: Data, file: String, zone: TimeZone, now: Timestamp) throws(ImportProblem) -> TaskwarriorExport {
        var out = TaskwarriorExport(tasks: [])
        var seen = Set<String>()
        for r in try jsonRecords(data, file: file) {
            let status = try r.requiredString("status")
            switch status {
            case "deleted":
                out.deleted += 1
                continue
            case "recurring":
                out.recurring += 1
                continue
            case "pending", "waiting", "completed":
                break
            default:
                throw r.problem("status", "'\(status)' is not a Taskwarrior status (pending, waiting, completed, deleted, recurring)")
            }
            let uuid = try r.requiredString("uuid")
            guard !uuid.isEmpty else { throw r.problem("uuid", "empty") }
            guard seen.insert(uuid).inserted else { throw r.problem("uuid", "'\(uuid)' is in the file twice") }
            let title = try r.requiredString("description").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty else { throw r.problem("description", "blank: a task needs a title") }
            let priority: Priority
            switch try r.string("priority") {
            case nil, "": priority = .medium
            case "H": priority = .high
            case "M": priority = .medium
            case "L": priority = .low
            case let other?: throw r.problem("priority", "'\(other)' is not H, M or L")
            }
            var tags: [String] = []
            let project = try r.string("project")
            for tag in try r.strings("tags") + [project].compactMap({ $0 }) {
                // A comma separates the stored tags: within a tag it becomes a dot.
                if let t = TaskItem.normalizedTag(tag.replacingOccurrences(of: ",", with: ".")), !tags.contains(t) { tags.append(t) }
            }
            let created = try r.time("entry") ?? now
            var done: Timestamp?
            if status == "completed" {
                let end = try r.time("end")
                let modified = try r.time("modified")
                guard let when = end ?? modified else { throw r.problem("end", "missing: a completed task says when it was done") }
                done = when
            }
            let due = try r.time("due").map { deadline($0, zone: zone) }
            out.tasks.append(
                Entry(
                    uuid: uuid,
                    task: TaskItem(
                        id: 0, title: title, note: try note(r, zone: zone), due: due, priority: priority, tags: tags, created: created, done: done)))
        }
        return out
    }

    /// A Taskwarrior due time as a local deadline: local midnight (`due:2026-12-01`) and the day's
    /// last minute (`due:eod`) are the day itself; any other time is kept to the minute.
    static func deadline(_ t: Timestamp, zone: TimeZone) -> Deadline {
        let (day, second) = localDayAndSecond(t, zone: zone)
        if second == 0 || second >= 86_340 { return Deadline(day: day) }
        return Deadline(day: day, minute: second / 60)
    }

    private static func note(_ r: JSONRecord, zone: TimeZone) throws(ImportProblem) -> String? {
        guard let value = r.fields["annotations"], !(value is NSNull) else { return nil }
        guard let list = value as? [Any] else { throw r.problem("annotations", "expected a list of annotations") }
        var parts: [String] = []
        for item in list {
            guard let a = item as? [String: Any], let text = a["description"] as? String else {
                throw r.problem("annotations", "expected annotations with a description")
            }
            if let reason = TextRules.problem(text) { throw r.problem("annotations", reason) }
            let entry = JSONRecord(fields: a, file: r.file, number: r.number)
            let when = try entry.time("entry").map { civilDate(localDayAndSecond($0, zone: zone).day) + ": " } ?? ""
            parts.append(when + text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
