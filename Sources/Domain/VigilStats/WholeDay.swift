import Foundation
import VigilCore

extension Report {
    /// The whole day, inside and outside sessions, where the all-day watch ran (`daemon.watch`,
    /// docs/whole-day-design.md). Sessions take precedence: the watch's time during a session is
    /// not counted again. Minutes as everywhere (0.01).
    public struct WholeDayFigures: Codable, Sendable {
        /// Outside sessions, what the watch saw.
        public var outside: Outside
        /// Time in the period's sessions (their whole length, pauses included).
        public var sessionMinutes: Double
        /// Every application seen in front, in sessions or outside them, most time first (at most 20).
        public var apps: [App]
        /// By local day of the period, oldest first.
        public var days: [Day]
        /// The period's last day as lanes of spans, for the HTML timeline; nil when nothing was
        /// seen that day.
        public var timeline: Timeline?

        public struct Outside: Codable, Sendable, Equatable {
            public var workMinutes: Double = 0
            public var neutralMinutes: Double = 0
            public var distractingMinutes: Double = 0
            /// At the computer with no window in front (the desktop itself).
            public var noWindowMinutes: Double = 0
            public var awayMinutes: Double = 0
            public var lockedMinutes: Double = 0
            public var asleepMinutes: Double = 0
        }

        public struct App: Codable, Sendable {
            public var appClass: String
            public var category: String
            public var sessionMinutes: Double
            public var outsideMinutes: Double
        }

        public struct Day: Codable, Sendable {
            public var date: String
            public var sessionMinutes: Double
            public var outside: Outside
        }

        /// Spans in minutes from the day's local midnight (0.1), one lane each.
        public struct Timeline: Codable, Sendable {
            public var date: String
            public var sessions: [Span]
            public var episodes: [Span]
            /// `label`: the application's class; `kind`: its category.
            public var apps: [Span]
            /// `kind`: away, locked or asleep.
            public var away: [Span]

            public struct Span: Codable, Sendable {
                public var startMinute: Double
                public var endMinute: Double
                public var kind: String
                public var label: String?
            }
        }
    }
}

/// The whole-day figures from the watch's stretches and the period's facts.
public enum WholeDay {
    /// - Parameters: stretches: the watch's, cut to the period; facts: the report's; days: the period.
    public static func figures(stretches: [DayStretch], facts: StatisticsFacts, timeZone: TimeZone, days: ClosedRange<Int>)
        -> Report.WholeDayFigures?
    {
        guard !stretches.isEmpty else { return nil }
        let clock = LocalClock(timeZone: timeZone, days: days)
        let periodStart = clock.startOfDay(days.lowerBound).millisecondsSinceEpoch
        let periodEnd = clock.startOfDay(days.upperBound + 1).millisecondsSinceEpoch
        let sessions = union(facts.sessions.map { Span(max($0.start, periodStart), min($0.end, periodEnd)) }.filter { $0.end > $0.start })
        let dayCount = days.count
        var byDay = [Report.WholeDayFigures.Outside](repeating: .init(), count: dayCount)
        var sessionByDay = [Int64](repeating: 0, count: dayCount)
        var outsideMs = [Int64](repeating: 0, count: 7)
        var byDayMs = [[Int64]](repeating: [Int64](repeating: 0, count: 7), count: dayCount)
        var appOutside: [ApplicationKey: Int64] = [:]
        var appInside: [ApplicationKey: Int64] = [:]

        // The watch's time outside sessions, split at local midnights.
        for stretch in stretches {
            let span = Span(stretch.start.millisecondsSinceEpoch, stretch.end.millisecondsSinceEpoch)
            for piece in subtract(span, sessions) {
                let slot = column(stretch)
                outsideMs[slot] += piece.milliseconds
                if stretch.kind == .app, let c = stretch.appClass, let category = stretch.category {
                    appOutside[ApplicationKey(c, category), default: 0] += piece.milliseconds
                }
                splitByDay(piece, clock: clock, days: days) { day, ms in byDayMs[day][slot] += ms }
            }
        }
        for s in sessions { splitByDay(s, clock: clock, days: days) { day, ms in sessionByDay[day] += ms } }
        for a in facts.activities where !a.isCall {
            let span = Span(max(a.span.start, periodStart), min(a.span.end, periodEnd))
            guard span.end > span.start else { continue }
            appInside[facts.applications[Int(a.application)], default: 0] += span.milliseconds
        }
        for d in 0..<dayCount { byDay[d] = outside(byDayMs[d]) }

        let keys = Set(appOutside.keys).union(appInside.keys)
        let apps = keys.map { k in (k, appInside[k] ?? 0, appOutside[k] ?? 0) }
            .sorted { ($1.1 + $1.2, $0.0.appClass) < ($0.1 + $0.2, $1.0.appClass) }
            .prefix(20)
            .map {
                Report.WholeDayFigures.App(
                    appClass: $0.0.appClass, category: $0.0.category.rawValue, sessionMinutes: Statistics.minutes($0.1),
                    outsideMinutes: Statistics.minutes($0.2))
            }
        return Report.WholeDayFigures(
            outside: outside(outsideMs), sessionMinutes: Statistics.minutes(sessions.reduce(0) { $0 + $1.milliseconds }), apps: Array(apps),
            days: (0..<dayCount).map { d in
                Report.WholeDayFigures.Day(
                    date: civilDate(days.lowerBound + d), sessionMinutes: Statistics.minutes(sessionByDay[d]), outside: byDay[d])
            },
            timeline: timeline(
                day: timelineDay(awake: (0..<dayCount).map { sessionByDay[$0] + byDayMs[$0][0..<6].reduce(0, +) }, days: days),
                stretches: stretches, sessions: sessions, facts: facts, clock: clock))
    }

    /// Minutes in applications of `category` on each day of `days`: in sessions (their stretches in
    /// applications) and outside them (the watch's), a session's time counted once. For a goal
    /// on a category.
    public static func minutesByDay(
        of category: AppCategory, stretches: [DayStretch], facts: StatisticsFacts, timeZone: TimeZone, days: ClosedRange<Int>
    ) -> [Double] {
        let clock = LocalClock(timeZone: timeZone, days: days)
        let periodStart = clock.startOfDay(days.lowerBound).millisecondsSinceEpoch
        let periodEnd = clock.startOfDay(days.upperBound + 1).millisecondsSinceEpoch
        let sessions = union(facts.sessions.map { Span(max($0.start, periodStart), min($0.end, periodEnd)) }.filter { $0.end > $0.start })
        var ms = [Int64](repeating: 0, count: days.count)
        for stretch in stretches where stretch.kind == .app && stretch.category == category {
            for piece in subtract(Span(stretch.start.millisecondsSinceEpoch, stretch.end.millisecondsSinceEpoch), sessions) {
                splitByDay(piece, clock: clock, days: days) { d, v in ms[d] += v }
            }
        }
        for a in facts.activities where !a.isCall && facts.applications[Int(a.application)].category == category {
            let span = Span(max(a.span.start, periodStart), min(a.span.end, periodEnd))
            if span.end > span.start { splitByDay(span, clock: clock, days: days) { d, v in ms[d] += v } }
        }
        return ms.map { Double($0) / 60_000 }
    }

    /// The column a stretch's time goes to: work, neutral, distracting, no window, away, locked, asleep.
    private static func column(_ s: DayStretch) -> Int {
        switch s.kind {
        case .app:
            switch s.category {
            case .work?: 0
            case .neutral?: 1
            case .distracting?: 2
            case nil: 3
            }
        case .away: 4
        case .locked: 5
        case .asleep: 6
        }
    }

    private static func outside(_ ms: [Int64]) -> Report.WholeDayFigures.Outside {
        let m = ms.map(Statistics.minutes)
        return .init(
            workMinutes: m[0], neutralMinutes: m[1], distractingMinutes: m[2], noWindowMinutes: m[3], awayMinutes: m[4], lockedMinutes: m[5],
            asleepMinutes: m[6])
    }

    /// Overlapping spans as one, in order.
    static func union(_ spans: [Span]) -> [Span] {
        var out: [Span] = []
        for s in spans.sorted(by: { $0.start < $1.start }) {
            if let last = out.last, s.start <= last.end {
                out[out.count - 1].end = max(last.end, s.end)
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// `span` less the (ordered, disjoint) `holes`.
    static func subtract(_ span: Span, _ holes: [Span]) -> [Span] {
        var out: [Span] = []
        var cursor = span.start
        // The first hole that may reach into the span.
        var lo = 0
        var hi = holes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if holes[mid].end <= span.start { lo = mid + 1 } else { hi = mid }
        }
        for hole in holes[lo...] {
            if hole.start >= span.end { break }
            if hole.start > cursor { out.append(Span(cursor, hole.start)) }
            cursor = max(cursor, hole.end)
        }
        if cursor < span.end { out.append(Span(cursor, span.end)) }
        return out
    }

    /// A span's milliseconds on each local day of the period (index from the period's first day).
    private static func splitByDay(_ span: Span, clock: LocalClock, days: ClosedRange<Int>, _ body: (Int, Int64) -> Void) {
        var start = span.start
        while start < span.end {
            let day = clock.slot(ms: start).day
            let next = min(span.end, clock.startOfDay(day + 1).millisecondsSinceEpoch)
            if days.contains(day) { body(day - days.lowerBound, next - start) }
            guard next > start else { break }
            start = next
        }
    }

    /// The day the timeline draws: the period's last with an hour or more seen (sessions, or the
    /// watch's time awake), else its last with anything, else its last. A day off without the
    /// computer, or one a late evening just reaches into, is not worth drawing.
    private static func timelineDay(awake: [Int64], days: ClosedRange<Int>) -> Int {
        if let i = awake.lastIndex(where: { $0 >= 3_600_000 }) ?? awake.lastIndex(where: { $0 > 0 }) { return days.lowerBound + i }
        return days.upperBound
    }

    private static func timeline(day: Int, stretches: [DayStretch], sessions: [Span], facts: StatisticsFacts, clock: LocalClock)
        -> Report.WholeDayFigures.Timeline?
    {
        let midnight = clock.startOfDay(day).millisecondsSinceEpoch
        let end = clock.startOfDay(day + 1).millisecondsSinceEpoch
        typealias Lane = Report.WholeDayFigures.Timeline.Span
        // Clock time, not time elapsed since midnight: on the day clocks change, 15:00 is still
        // 15:00 (the repeated hour shares its place, the skipped one is empty).
        let midnightLocal = midnight / 1000 + Int64(clock.offset(at: Timestamp(milliseconds: midnight)))
        func minute(_ ms: Int64) -> Double {
            let local = ms / 1000 + Int64(clock.offset(at: Timestamp(milliseconds: ms)))
            return min(1440, max(0, (Double(local - midnightLocal) / 6).rounded() / 10))
        }
        func lane(_ span: Span, kind: String, label: String? = nil) -> Lane? {
            let s = max(span.start, midnight)
            let e = min(span.end, end)
            guard e > s else { return nil }
            return Lane(startMinute: minute(s), endMinute: max(minute(s), minute(e)), kind: kind, label: label)
        }
        let sessionLane = sessions.compactMap { lane($0, kind: "session") }
        let episodes = facts.episodes.compactMap { lane($0.span, kind: $0.cause.rawValue) }
        var apps: [Lane] = []
        var away: [Lane] = []
        for s in stretches {
            let span = Span(s.start.millisecondsSinceEpoch, s.end.millisecondsSinceEpoch)
            for piece in subtract(span, sessions) {
                if s.kind == .app {
                    if let l = lane(piece, kind: s.category?.rawValue ?? "none", label: s.appClass) { apps.append(l) }
                } else if let l = lane(piece, kind: s.kind.rawValue) {
                    away.append(l)
                }
            }
        }
        for a in facts.activities where !a.isCall {
            let key = facts.applications[Int(a.application)]
            if let l = lane(a.span, kind: key.category.rawValue, label: key.appClass) { apps.append(l) }
        }
        apps.sort { $0.startMinute < $1.startMinute }
        guard !(sessionLane.isEmpty && apps.isEmpty && away.isEmpty) else { return nil }
        return .init(date: civilDate(day), sessions: sessionLane, episodes: episodes, apps: apps, away: away)
    }
}
