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

    public static func parse(_ data: Data, file: String) throws(ImportProblem) -> TimewarriorExport {
        var out = TimewarriorExport(intervals: [])
        var seen = Set<String>()
        for r in try jsonRecords(data, file: file) {
            guard let start = try r.time("start") else { throw r.problem("start", "missing") }
            guard let end = try r.time("end") else {
                out.open += 1
                continue
            }
            guard end >= start else { throw r.problem("end", "before the start") }
            let tags = try r.strings("tags").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            let key = "\(start.millisecondsSinceEpoch)/\(end.millisecondsSinceEpoch) " + tags.sorted().joined(separator: "\t")
            // The same interval twice is one interval.
            guard seen.insert(key).inserted else { continue }
            out.intervals.append(Interval(key: key, start: start, end: end, tags: tags))
        }
        return out
    }
}
