import Foundation
import VigilCore
import VigilPlanner

/// Timewarrior's `timew export` (a JSON array of intervals) as sessions Vigil did not judge.
///
/// - `start`, `end` → the session's start and end;
/// - `tags` → the session's tags, normalized as `vigil session tag` normalizes them (trimmed, lower
///   case, each once; a comma separates two tags); the tags as Timewarrior wrote them are also kept
///   with the import's record;
/// - the session's task: none, unless a tag is a task's title (`TaskByTag`);
/// - an open interval (no `end`: it is still being tracked) is skipped: imported later, once it
///   is stopped, it comes in with its real end;
/// - `annotation` and `id` (a number Timewarrior renumbers) are not imported.
///
/// Each interval is remembered by its start, end and tags (as Timewarrior wrote them), so
/// importing the same export again (or a later one that includes it) adds nothing.
public struct TimewarriorExport: Sendable {
    public struct Interval: Sendable, Hashable {
        /// What identifies it across exports: start, end and tags.
        public var key: String
        public var start: Timestamp
        public var end: Timestamp
        /// As Timewarrior wrote them (trimmed), in its order.
        public var tags: [String]
        /// The session's tags: `tags` as sessions keep theirs.
        public var sessionTags: [String] { TaskItem.normalizedTags(tags) }
    }
    public var intervals: [Interval]
    /// Intervals still being tracked, not imported.
    public var open = 0
    /// Intervals without time (the same start and end), not imported.
    public var empty = 0

    /// Each closed interval must be a session `vigil session add` would add (`SessionSpanRules`: it
    /// ends after it starts, within a day, by `now`); one that is not stops the import, named.
    public static func parse(_ data: Data, file: String, now: Timestamp) throws(ImportProblem) -> TimewarriorExport {
        var out = TimewarriorExport(intervals: [])
        var seen = Set<String>()
        for r in try jsonRecords(data, file: file) {
            guard let start = try r.time("start") else { throw r.problem("start", "missing") }
            guard let end = try r.time("end") else {
                out.open += 1
                continue
            }
            // No time at all (started and stopped within a second): nothing to add, counted.
            if end == start {
                out.empty += 1
                continue
            }
            if let broken = SessionSpanRules.check(start: start, end: end, now: now) {
                let id = (r.fields["id"] as? Int).map { "@\($0)" } ?? "@ID"
                let fix =
                    switch broken {
                    case .endsBeforeStart: "correct it in Timewarrior (`timew modify end \(id) TIME`) and export again"
                    case .longerThanADay:
                        "cut it into days in Timewarrior (`timew modify end \(id) TIME`, then `timew track` the rest) and export again"
                    case .notOver: "correct it in Timewarrior (`timew modify end \(id) TIME`) and export again"
                    }
                throw r.problem("end", "'\(r.fields["end"] as? String ?? "")': \(broken.reason); \(fix)")
            }
            let tags = try r.strings("tags").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            let key = "\(start.millisecondsSinceEpoch)/\(end.millisecondsSinceEpoch) " + tags.sorted().joined(separator: "\t")
            // The same interval twice is one interval.
            guard seen.insert(key).inserted else { continue }
            out.intervals.append(Interval(key: key, start: start, end: end, tags: tags))
        }
        return out
    }
}
