import Foundation
import VigilCore

/// Builds the report's figures from the sessions' facts. Definitions: docs/statistics.md.
///
/// Focused and distracted time is cut into local hours (`LocalClock`), so a session that crosses
/// midnight or a DST change lands in the right hours of the right days. Figures about the period
/// (hours, weekdays, days, episodes, totals) count only what lies inside it; streaks and
/// achievements are lifetime things and count all history up to the period's end.
public enum Statistics {
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// - Parameters:
    ///   - facts: every session that started before the period's end (all history, not only the
    ///     period), already filtered by task if the report is for one task.
    ///   - from: first local day of the period (days since 1970-01-01); nil for all history.
    ///   - to: last local day of the period, inclusive.
    public static func report(_ facts: StatisticsFacts, timeZone: TimeZone, from: Int?, to: Int, task: String? = nil) -> Report {
        let sessions = facts.sessions
        let earliest = sessions.first?.start ?? Int64(to) * 86_400_000
        let clock = LocalClock(
            timeZone: timeZone, from: Timestamp(milliseconds: min(earliest, Int64(from ?? to) * 86_400_000)),
            to: Timestamp(milliseconds: (Int64(to) + 1) * 86_400_000))
        let historyFirst = sessions.first.map { clock.slot(ms: $0.start).day } ?? (from ?? to)
        let periodFirst = from ?? min(historyFirst, to)
        let base = min(historyFirst, periodFirst)
        let dayCount = max(0, to - base + 1)
        let periodStart = clock.startOfDay(periodFirst).millisecondsSinceEpoch
        let periodEnd = clock.startOfDay(to + 1).millisecondsSinceEpoch
        let inPeriod = { (t: Int64) in t >= periodStart && t < periodEnd }

        // Per local day and hour: milliseconds focused and distracted, episodes started.
        var focused = [Int64](repeating: 0, count: dayCount * 24)
        var distracted = [Int64](repeating: 0, count: dayCount * 24)
        var episodeStarts = [Int](repeating: 0, count: dayCount * 24)
        var sessionStarts = [Int](repeating: 0, count: dayCount)
        var alarmsByDay = [Int](repeating: 0, count: dayCount)
        @inline(__always) func index(_ slot: HourSlot) -> Int? {
            let d = slot.day - base
            return d >= 0 && d < dayCount ? d * 24 + slot.hour : nil
        }

        var totals = Report.Totals(
            sessions: 0, completed: 0, abandoned: 0, interrupted: 0, open: 0, completionRate: nil,
            activeMinutes: 0, focusedMinutes: 0, distractedMinutes: 0, alarms: 0, alarmsPerFocusedHour: nil,
            recovery: Report.Durations(count: 0))
        var episodesInPeriod: [(span: Span, cause: Cause, task: Int32, hour: Int)] = []
        var recoveries: [Double] = []
        var earned = Earned(clock: clock)
        var cumulativeFocus: Int64 = 0
        var focusedSpans: [Span] = []
        var episodeSpans: [Span] = []
        var firstAlarms: [AlarmFacts] = []

        for s in sessions where s.start < periodEnd {
            if inPeriod(s.start) {
                totals.sessions += 1
                switch s.outcome {
                case .completed: totals.completed += 1
                case .abandoned: totals.abandoned += 1
                case .interrupted: totals.interrupted += 1
                case .open: totals.open += 1
                }
                if let i = index(clock.slot(ms: s.start)) { sessionStarts[i / 24] += 1 }
            }
            if s.outcome == .completed, s.end < periodEnd { earned.note(.firstCompleted, at: s.end) }
            if !s.active.isEmpty { earned.note(.firstSession, at: facts.active[Int(s.active.lowerBound)].start) }

            // Focused: the judged spans outside the episodes.
            let episodes = facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)]
            episodeSpans.removeAll(keepingCapacity: true)
            for e in episodes { episodeSpans.append(e.span) }
            focusedSpans.removeAll(keepingCapacity: true)
            subtract(episodeSpans, from: facts.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)], into: &focusedSpans)
            for whole in focusedSpans where whole.start < periodEnd {
                let span = Span(whole.start, min(whole.end, periodEnd))
                clock.split(span) { slot, ms in if let i = index(slot) { focused[i] += ms } }
                // Unbroken focus: the instant a span reached 25 and 90 minutes.
                let length = span.milliseconds
                if length >= 25 * 60_000 { earned.note(.deepFocus25, at: span.start + 25 * 60_000) }
                if length >= 90 * 60_000 { earned.note(.deepFocus90, at: span.start + 90 * 60_000) }
                if cumulativeFocus < 10 * 3_600_000, cumulativeFocus + length >= 10 * 3_600_000 {
                    earned.note(.focused10h, at: span.start + 10 * 3_600_000 - cumulativeFocus)
                }
                if cumulativeFocus < 100 * 3_600_000, cumulativeFocus + length >= 100 * 3_600_000 {
                    earned.note(.focused100h, at: span.start + 100 * 3_600_000 - cumulativeFocus)
                }
                cumulativeFocus += length
            }

            // Alarms; recovery runs from an episode's first alarm to the person being back.
            firstAlarms.removeAll(keepingCapacity: true)
            for a in facts.alarms[Int(s.alarms.lowerBound)..<Int(s.alarms.upperBound)] where a.at < periodEnd {
                if let i = index(clock.slot(ms: a.at)) { alarmsByDay[i / 24] += 1 }
                if inPeriod(a.at) { totals.alarms += 1 }
                if !firstAlarms.contains(where: { $0.episode == a.episode }) { firstAlarms.append(a) }
            }
            for a in firstAlarms {
                guard let cleared = a.cleared, cleared < periodEnd else { continue }
                if inPeriod(a.at) { recoveries.append(Double(cleared - a.at) / 1000) }
                if cleared - a.at <= 60_000 { earned.note(.quickRecovery, at: cleared) }
            }

            for e in episodes where e.span.start < periodEnd {
                let span = Span(e.span.start, min(e.span.end, periodEnd))
                clock.split(span) { slot, ms in if let i = index(slot) { distracted[i] += ms } }
                let slot = clock.slot(ms: e.span.start)
                if let i = index(slot) { episodeStarts[i] += 1 }
                if inPeriod(e.span.start) { episodesInPeriod.append((e.span, e.cause, s.task, slot.hour)) }
            }
        }

        // Days: procrastination-free or not, streaks over all history, the period's figures.
        var tracker = StreakTracker()
        var periodRun = StreakTracker()
        var days: [Report.DayFigure] = []
        var calendar: [Report.StreakFigures.CalendarDay] = []
        var hourFocus = [Int64](repeating: 0, count: 24)
        var hourDistracted = [Int64](repeating: 0, count: 24)
        var hourActive = [Bool](repeating: false, count: 24)
        var hourEpisodes = [Int](repeating: 0, count: 24)
        var dayFocus = [Int64](repeating: 0, count: 7)
        var dayDistracted = [Int64](repeating: 0, count: 7)
        var dayActive = [Bool](repeating: false, count: 7)
        var dayEpisodes = [Int](repeating: 0, count: 7)
        var heat = [[Int64]](repeating: [Int64](repeating: 0, count: 24), count: 7)
        var weeks: [String: (order: Int, f: Int64, d: Int64, s: Int, e: Int)] = [:]
        var freeDays = 0
        var sessionDays = 0
        for d in 0..<dayCount {
            let day = base + d
            var f: Int64 = 0
            var x: Int64 = 0
            var eps = 0
            for h in 0..<24 {
                f += focused[d * 24 + h]
                x += distracted[d * 24 + h]
                eps += episodeStarts[d * 24 + h]
            }
            let active = f + x > 0
            let free = active && eps == 0
            if active {
                let length = tracker.record(day: day, completed: free)
                switch length {
                case 1: earned.note(.freeDay, day: day)
                case 7: earned.note(.freeWeek, day: day)
                case 21: earned.note(.habit21, day: day)
                case 90: earned.note(.lifestyle90, day: day)
                default: break
                }
            }
            guard day >= periodFirst else { continue }
            let weekday = HourSlot(day: day, hour: 0).weekday
            if active {
                sessionDays += 1
                if free { freeDays += 1 }
                periodRun.record(day: day, completed: free)
                calendar.append(.init(date: dateString(day), free: free, streak: tracker.current))
            }
            days.append(
                Report.DayFigure(
                    date: dateString(day), weekday: weekday, sessions: sessionStarts[d], focusedMinutes: minutes(f),
                    distractedMinutes: minutes(x), episodes: eps, alarms: alarmsByDay[d], procrastinationFree: active ? free : nil))
            for h in 0..<24 {
                let i = d * 24 + h
                hourFocus[h] += focused[i]
                hourDistracted[h] += distracted[i]
                hourEpisodes[h] += episodeStarts[i]
                if focused[i] + distracted[i] > 0 {
                    hourActive[h] = true
                    dayActive[weekday - 1] = true
                }
                heat[weekday - 1][h] += focused[i]
            }
            dayFocus[weekday - 1] += f
            dayDistracted[weekday - 1] += x
            dayEpisodes[weekday - 1] += eps
            let w = isoWeek(day)
            var entry = weeks[w] ?? (weeks.count, 0, 0, 0, 0)
            entry.f += f
            entry.d += x
            entry.s += sessionStarts[d]
            entry.e += eps
            weeks[w] = entry
        }

        let focusedMs = hourFocus.reduce(0, +)
        let distractedMs = hourDistracted.reduce(0, +)
        totals.focusedMinutes = minutes(focusedMs)
        totals.distractedMinutes = minutes(distractedMs)
        totals.activeMinutes = minutes(focusedMs + distractedMs)
        totals.completionRate = totals.sessions > 0 ? ratio(Double(totals.completed) / Double(totals.sessions)) : nil
        totals.alarmsPerFocusedHour = focusedMs > 0 ? ratio(Double(totals.alarms) / (Double(focusedMs) / 3_600_000)) : nil
        totals.recovery = durations(recoveries)

        let highlights = Report.Highlights(
            mostProductiveHour: best(hourFocus, among: hourActive, highest: true),
            leastProductiveHour: best(hourFocus, among: hourActive, highest: false),
            mostProductiveWeekday: best(dayFocus, among: dayActive, highest: true).map { $0 + 1 },
            leastProductiveWeekday: best(dayFocus, among: dayActive, highest: false).map { $0 + 1 },
            mostProcrastinatedHour: best(hourEpisodes.map(Int64.init), among: hourEpisodes.map { $0 > 0 }, highest: true))

        // Groups need no median: one pass each, no sorting.
        func group(_ key: String, _ list: [(span: Span, cause: Cause, task: Int32, hour: Int)]) -> Report.EpisodeFigures.Group {
            var total: Int64 = 0
            var longest: Int64 = 0
            for e in list {
                total += e.span.milliseconds
                longest = max(longest, e.span.milliseconds)
            }
            let n = list.count
            return .init(
                key: key, count: n, minutes: minutes(total), meanS: n > 0 ? tenths(Double(total) / 1000 / Double(n)) : nil,
                longestS: n > 0 ? tenths(Double(longest) / 1000) : nil)
        }
        let all = group("", episodesInPeriod)
        // The built-in causes are always listed (a stable shape for JSON and CSV readers); a plug-in
        // signal's cause is listed after them once it has an episode.
        var byCause: [Cause: [(span: Span, cause: Cause, task: Int32, hour: Int)]] = Dictionary(uniqueKeysWithValues: Cause.builtIn.map { ($0, []) })
        var byHour = [[(span: Span, cause: Cause, task: Int32, hour: Int)]](repeating: [], count: 24)
        var byTask: [String: [(span: Span, cause: Cause, task: Int32, hour: Int)]] = [:]
        for e in episodesInPeriod {
            byCause[e.cause, default: []].append(e)
            byHour[e.hour].append(e)
            byTask[e.task >= 0 ? facts.tasks[Int(e.task)] : "", default: []].append(e)
        }
        let episodes = Report.EpisodeFigures(
            count: all.count, meanS: all.meanS, longestS: all.longestS,
            byCause: byCause.keys.sorted().map { group($0.rawValue, byCause[$0]!) },
            byTask: byTask.keys.sorted().map { group($0, byTask[$0]!) },
            byHour: (0..<24).map { h in group(String(h), byHour[h]) })

        let streak = Report.StreakFigures(
            current: tracker.current, best: tracker.best, score: tracker.score, bestScore: tracker.bestScore,
            badge: tracker.badge.rawValue, multiplier: StreakModel.multiplier(forLength: tracker.current),
            daysToHabit: max(0, StreakModel.habitDays - tracker.current), daysToLifestyle: max(0, StreakModel.lifestyleDays - tracker.current),
            messages: tracker.messages, calendar: calendar)

        return Report(
            timeZone: timeZone.identifier,
            from: dayCount > 0 ? dateString(periodFirst) : nil, to: dayCount > 0 ? dateString(to) : nil, task: task,
            totals: totals,
            hours: (0..<24).map {
                .init(hour: $0, focusedMinutes: minutes(hourFocus[$0]), distractedMinutes: minutes(hourDistracted[$0]), episodes: hourEpisodes[$0])
            },
            weekdays: (0..<7).map {
                .init(
                    weekday: $0 + 1, name: weekdayNames[$0], focusedMinutes: minutes(dayFocus[$0]), distractedMinutes: minutes(dayDistracted[$0]),
                    episodes: dayEpisodes[$0])
            },
            heatmap: heat.map { $0.map(minutes) },
            highlights: highlights,
            days: days,
            weeks: weeks.sorted { $0.value.order < $1.value.order }.map {
                .init(
                    week: $0.key, focusedMinutes: minutes($0.value.f), distractedMinutes: minutes($0.value.d), sessions: $0.value.s,
                    episodes: $0.value.e)
            },
            procrastinationFree: .init(
                daysWithSessions: sessionDays, freeDays: freeDays, share: sessionDays > 0 ? ratio(Double(freeDays) / Double(sessionDays)) : nil,
                longestStreak: periodRun.best, longestStreakFrom: periodRun.bestSpan.map { dateString($0.from) },
                longestStreakTo: periodRun.bestSpan.map { dateString($0.to) }, currentStreak: tracker.current),
            episodes: episodes,
            streak: streak,
            achievements: earned.list())
    }

    /// The index of the highest (or lowest) value among the flagged ones; ties go to the first.
    static func best(_ values: [Int64], among flags: [Bool], highest: Bool) -> Int? {
        var pick: Int?
        for i in values.indices where flags[i] {
            guard let p = pick else {
                pick = i
                continue
            }
            if highest ? values[i] > values[p] : values[i] < values[p] { pick = i }
        }
        return pick
    }

    static func durations(_ seconds: [Double]) -> Report.Durations {
        guard !seconds.isEmpty else { return Report.Durations(count: 0) }
        let sorted = seconds.sorted()
        let n = sorted.count
        let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        return Report.Durations(count: n, meanS: tenths(sorted.reduce(0, +) / Double(n)), medianS: tenths(median), longestS: tenths(sorted[n - 1]))
    }

    static func minutes(_ ms: Int64) -> Double { (Double(ms) / 600).rounded() / 100 }
    static func tenths(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    static func ratio(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }

    public static func dateString(_ day: Int) -> String { civilDate(day) }

    /// ISO 8601 week of a day: the week (Monday to Sunday) belongs to the year of its Thursday.
    public static func isoWeek(_ day: Int) -> String {
        let weekday = HourSlot(day: day, hour: 0).weekday
        let thursday = day - weekday + 4
        let year = HourSlot(day: thursday, hour: 0).date.year
        let week = (thursday - Int(CivilTime.daysFromCivil(year: year, month: 1, day: 1))) / 7 + 1
        return "\(pad(year, 4))-W\(pad(week))"
    }

    /// Parses `YYYY-MM-DD` into a day number.
    public static func day(from text: String) -> Int? { civilDay(text) }
}

private func pad(_ v: Int, _ width: Int = 2) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// Achievements: the first local day each condition held.
struct Earned {
    enum Kind: Int, CaseIterable {
        case firstSession, firstCompleted, deepFocus25, deepFocus90, freeDay, quickRecovery, focused10h, freeWeek, habit21, focused100h, lifestyle90

        var id: String {
            switch self {
            case .firstSession: "first_session"
            case .firstCompleted: "first_completed"
            case .deepFocus25: "deep_focus_25"
            case .deepFocus90: "deep_focus_90"
            case .freeDay: "free_day"
            case .quickRecovery: "quick_recovery"
            case .focused10h: "focused_10h"
            case .freeWeek: "free_week"
            case .habit21: "habit_21"
            case .focused100h: "focused_100h"
            case .lifestyle90: "lifestyle_90"
            }
        }

        var title: String {
            switch self {
            case .firstSession: "First focus session"
            case .firstCompleted: "First session completed as planned"
            case .deepFocus25: "First 25 minutes of unbroken focus"
            case .deepFocus90: "First 90-minute deep focus"
            case .freeDay: "First procrastination-free day"
            case .quickRecovery: "Back at work within a minute of an alarm"
            case .focused10h: "10 focused hours"
            case .freeWeek: "A week without procrastination"
            case .habit21: "21 procrastination-free days: a habit"
            case .focused100h: "100 focused hours"
            case .lifestyle90: "90 procrastination-free days: a lifestyle change"
            }
        }
    }

    let clock: LocalClock
    var days = [Int?](repeating: nil, count: Kind.allCases.count)

    mutating func note(_ kind: Kind, at ms: Int64) {
        // Only an earlier instant can change anything; most calls are later ones.
        if let d = days[kind.rawValue], Int64(d) * 86_400_000 + 14 * 3_600_000 <= ms { return }
        note(kind, day: clock.slot(ms: ms).day)
    }

    mutating func note(_ kind: Kind, day: Int) {
        if let d = days[kind.rawValue], d <= day { return }
        days[kind.rawValue] = day
    }

    /// Earned achievements, oldest first (ties in the order of `Kind`).
    func list() -> [Report.Achievement] {
        Kind.allCases.compactMap { k in days[k.rawValue].map { (k, $0) } }
            .sorted { ($0.1, $0.0.rawValue) < ($1.1, $1.0.rawValue) }
            .map { Report.Achievement(id: $0.0.id, title: $0.0.title, earned: Statistics.dateString($0.1)) }
    }
}
