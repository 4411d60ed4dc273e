import Foundation
import VigilCore

extension Report {
    /// Focus blocks the person scheduled in a calendar (an event "focus: thesis") and whether a
    /// session for that task or tag started in time: the procrastination of the start, which no
    /// session alone shows.
    public struct BlockFigures: Codable, Sendable {
        /// Blocks that began in the period (up to now).
        public var scheduled: Int
        public var started: Int
        public var missed: Int
        /// How late the started ones started, median minutes (0 for a start before the block's).
        public var medianLateMinutes: Double?
        public var blocks: [Block]

        public struct Block: Codable, Sendable {
            public var date: String
            /// Local `HH:MM`.
            public var time: String
            public var subject: String
            public var minutes: Double
            /// Minutes after the block's start its session began (0 if earlier); nil: none began.
            public var lateMinutes: Double?
        }
    }
}

/// Scheduled focus blocks against the sessions that started for them.
public enum ScheduledBlocks {
    public struct Block: Sendable {
        public var subject: String
        public var start: Timestamp
        public var end: Timestamp
        public init(subject: String, start: Timestamp, end: Timestamp) {
            self.subject = subject
            self.start = start
            self.end = end
        }
    }

    public struct SessionStart: Sendable {
        public var task: String?
        public var tags: [String]
        public var start: Timestamp
        public init(task: String?, tags: [String], start: Timestamp) {
            self.task = task
            self.tags = tags
            self.start = start
        }
    }

    /// A session counts for a block when it is for its task or tag (any case) and begins from a
    /// quarter of an hour before the block to its end; each session counts for one block.
    public static let early = 15 * 60.0

    /// Nil without blocks that began by `now`.
    public static func figures(blocks: [Block], sessions: [SessionStart], now: Timestamp, timeZone: TimeZone) -> Report.BlockFigures? {
        let due = blocks.filter { $0.start <= now }.sorted { $0.start < $1.start }
        guard !due.isEmpty else { return nil }
        var used = Set<Int>()
        var out: [Report.BlockFigures.Block] = []
        let clock = LocalClock(timeZone: timeZone, from: due[0].start, to: due[due.count - 1].end)
        let format = LocalTimeFormat(zone: timeZone)
        for block in due {
            let subject = block.subject.lowercased()
            let match = sessions.indices.filter { i in
                let s = sessions[i]
                return !used.contains(i) && s.start >= block.start - early && s.start < block.end
                    && (s.task?.lowercased() == subject || s.tags.contains { $0.lowercased() == subject })
            }.min { sessions[$0].start < sessions[$1].start }
            if let match { used.insert(match) }
            out.append(
                .init(
                    date: civilDate(clock.slot(at: block.start).day),
                    time: format.clock(block.start),
                    subject: block.subject, minutes: ((block.end - block.start) / 60 * 100).rounded() / 100,
                    lateMinutes: match.map { (max(0, sessions[$0].start - block.start) / 60 * 100).rounded() / 100 }))
        }
        let late = out.compactMap(\.lateMinutes).sorted()
        let median: Double? = late.isEmpty ? nil : late.count % 2 == 1 ? late[late.count / 2] : (late[late.count / 2 - 1] + late[late.count / 2]) / 2
        return Report.BlockFigures(
            scheduled: out.count, started: late.count, missed: out.count - late.count, medianLateMinutes: median, blocks: out)
    }
}
