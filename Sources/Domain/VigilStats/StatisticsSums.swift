import Foundation
import VigilCore

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
    /// Focused milliseconds noted so far (`noteFocus`).
    var focusedSoFar: Int64 = 0

    /// A span of unbroken focus, given in time order: the instants it reached 25 and 90 minutes,
    /// and the instants the lifetime's focus reached 10 and 100 hours.
    mutating func noteFocus(_ span: Span) {
        let length = span.milliseconds
        if length >= 25 * 60_000 { note(.deepFocus25, at: span.start + 25 * 60_000) }
        if length >= 90 * 60_000 { note(.deepFocus90, at: span.start + 90 * 60_000) }
        if focusedSoFar < 10 * 3_600_000, focusedSoFar + length >= 10 * 3_600_000 {
            note(.focused10h, at: span.start + 10 * 3_600_000 - focusedSoFar)
        }
        if focusedSoFar < 100 * 3_600_000, focusedSoFar + length >= 100 * 3_600_000 {
            note(.focused100h, at: span.start + 100 * 3_600_000 - focusedSoFar)
        }
        focusedSoFar += length
    }

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
    func list(periodFirst: Int) -> [Report.Achievement] {
        Kind.allCases.compactMap { k in days[k.rawValue].map { (k, $0) } }
            .sorted { ($0.1, $0.0.rawValue) < ($1.1, $1.0.rawValue) }
            .map { Report.Achievement(id: $0.0.id, title: $0.0.title, earned: Statistics.dateString($0.1), inPeriod: $0.1 >= periodFirst) }
    }
}

/// A task's or a device's figures while the sessions are read.
struct FigureSums {
    var sessions = 0
    var focused: Int64 = 0
    var distracted: Int64 = 0
    var episodes = 0
    /// Whether it has a line in the report. A task: a session started, time judged or an episode
    /// started in the period. A device: always when named, the unnamed one when a session ran on it.
    var listed = false
}

/// A group of the period's episodes (a cause, an hour, a task) while the sessions are read.
struct EpisodeSums {
    var count = 0
    /// Milliseconds in all, and the longest.
    var total: Int64 = 0
    var longest: Int64 = 0

    mutating func add(_ milliseconds: Int64) {
        count += 1
        total += milliseconds
        longest = max(longest, milliseconds)
    }

    mutating func merge(_ other: EpisodeSums) {
        count += other.count
        total += other.total
        longest = max(longest, other.longest)
    }
}

/// An ISO week's figures while the days are read: focused and judged milliseconds by hour.
struct WeekSums {
    var sessions = 0
    var episodes = 0
    var focused = [Int64](repeating: 0, count: 24)
    var judged = [Int64](repeating: 0, count: 24)
}

/// Every figure of the log by local day and hour, from the first day of history to the period's
/// end: any run of days (the period, the one before it) sums from it without reading the log again.
struct DayHourGrid {
    let base: Int
    let focused: [Int64]
    let distracted: [Int64]
    let episodeStarts: [Int]
    let sessionStarts: [Int]
    let completedStarts: [Int]
    let alarms: [Int]
    /// Days with judged time of a session not abandoned, and the day still running (see `report`).
    let keptDay: [Bool]
    let openDay: Int?

    /// Sums over `days` (local day numbers); days outside the grid hold nothing.
    func sums(_ days: ClosedRange<Int>) -> PeriodSums {
        var s = PeriodSums()
        let first = max(days.lowerBound, base)
        let last = min(days.upperBound, base + sessionStarts.count - 1)
        guard first <= last else { return s }
        for day in first...last {
            let d = day - base
            let weekday = HourSlot(day: day, hour: 0).weekday - 1
            var judgedToday: Int64 = 0
            var episodesToday = 0
            for h in 0..<24 {
                let i = d * 24 + h
                let (f, x, e) = (focused[i], distracted[i], episodeStarts[i])
                s.hourFocused[h] += f
                s.hourDistracted[h] += x
                s.hourEpisodes[h] += e
                s.weekdayEpisodes[weekday] += e
                s.heatFocused[weekday * 24 + h] += f
                s.heatJudged[weekday * 24 + h] += f + x
                judgedToday += f + x
                episodesToday += e
            }
            s.sessions += sessionStarts[d]
            s.completed += completedStarts[d]
            s.alarms += alarms[d]
            s.episodes += episodesToday
            // A judged day, as the streaks count it (`Statistics.report`).
            if judgedToday > 0, keptDay[d] || episodesToday > 0, openDay.map({ day < $0 }) ?? true {
                s.activeDays += 1
                if episodesToday == 0 { s.freeDays += 1 }
            }
        }
        for w in 0..<7 {
            for h in 0..<24 {
                s.weekdayFocused[w] += s.heatFocused[w * 24 + h]
                s.weekdayDistracted[w] += s.heatJudged[w * 24 + h] - s.heatFocused[w * 24 + h]
            }
        }
        return s
    }
}

/// A run of days, summed by hour of day, weekday and weekday × hour.
struct PeriodSums {
    var hourFocused = [Int64](repeating: 0, count: 24)
    var hourDistracted = [Int64](repeating: 0, count: 24)
    var hourEpisodes = [Int](repeating: 0, count: 24)
    var weekdayFocused = [Int64](repeating: 0, count: 7)
    var weekdayDistracted = [Int64](repeating: 0, count: 7)
    var weekdayEpisodes = [Int](repeating: 0, count: 7)
    var heatFocused = [Int64](repeating: 0, count: 7 * 24)
    var heatJudged = [Int64](repeating: 0, count: 7 * 24)
    var sessions = 0
    var completed = 0
    var episodes = 0
    var alarms = 0
    var activeDays = 0
    var freeDays = 0

    var focused: Int64 { hourFocused.reduce(0, +) }
    var distracted: Int64 { hourDistracted.reduce(0, +) }

    var highlights: Report.Highlights {
        let hourJudged = (0..<24).map { hourFocused[$0] + hourDistracted[$0] }
        let weekdayJudged = (0..<7).map { weekdayFocused[$0] + weekdayDistracted[$0] }
        return Report.Highlights(
            mostProductiveHour: Statistics.rankByShare(hourFocused, hourJudged, lowest: false),
            leastProductiveHour: Statistics.rankByShare(hourFocused, hourJudged, lowest: true),
            mostProductiveWeekday: Statistics.rankByShare(weekdayFocused, weekdayJudged, lowest: false).map { $0 + 1 },
            leastProductiveWeekday: Statistics.rankByShare(weekdayFocused, weekdayJudged, lowest: true).map { $0 + 1 },
            mostProcrastinatedHour: Statistics.mostProcrastinated(hourEpisodes, hourDistracted, hourJudged),
            minimumJudgedMinutes: Statistics.minimumJudgedMinutes,
            hoursWithEnoughData: hourJudged.filter { $0 >= Statistics.minimumJudgedMs }.count,
            weekdaysWithEnoughData: weekdayJudged.filter { $0 >= Statistics.minimumJudgedMs }.count)
    }

    func headline(from: Int, to: Int) -> Report.PeriodFigures {
        let h = highlights
        return Report.PeriodFigures(
            from: Statistics.dateString(from), to: Statistics.dateString(to), sessions: sessions, completed: completed,
            completionRate: sessions > 0 ? Statistics.ratio(Double(completed) / Double(sessions)) : nil,
            activeMinutes: Statistics.minutes(focused + distracted), focusedMinutes: Statistics.minutes(focused),
            distractedMinutes: Statistics.minutes(distracted), focusShare: Statistics.share(focused, of: focused + distracted), episodes: episodes,
            alarms: alarms, procrastinationFreeShare: activeDays > 0 ? Statistics.ratio(Double(freeDays) / Double(activeDays)) : nil,
            mostProductiveHour: h.mostProductiveHour, leastProductiveHour: h.leastProductiveHour, mostProcrastinatedHour: h.mostProcrastinatedHour)
    }
}

/// The person's word while the sessions are read: intentions and what became of them, with the
/// judged time of each kind of answer, and the episodes relabelled, by label.
struct PersonsWordSums {
    /// By `SessionFacts.Intent`'s raw value.
    var intents = [Int](repeating: 0, count: 5)
    var focusedDone: Int64 = 0
    var judgedDone: Int64 = 0
    var focusedNotDone: Int64 = 0
    var judgedNotDone: Int64 = 0
    /// By `EpisodeLabel.allCases` position.
    var labels = [EpisodeSums](repeating: EpisodeSums(), count: EpisodeLabel.allCases.count)
    /// False alarms (an alarm rang on what the person says was no distraction) by ISO week.
    var falseAlarms: [String: Int] = [:]

    /// A session started in the period, with the time it counts inside the period.
    mutating func add(_ intent: SessionFacts.Intent, focused: Int64, distracted: Int64) {
        guard intent != .none else { return }
        intents[Int(intent.rawValue)] += 1
        switch intent {
        case .done: (focusedDone, judgedDone) = (focusedDone + focused, judgedDone + focused + distracted)
        case .partly, .no: (focusedNotDone, judgedNotDone) = (focusedNotDone + focused, judgedNotDone + focused + distracted)
        case .none, .unanswered: break
        }
    }

    /// `rangOn`: the local day it started, when an alarm rang in it.
    mutating func add(relabelled e: EpisodeFacts, rangOn day: Int?) {
        guard let label = e.label, let i = EpisodeLabel.allCases.firstIndex(of: label) else { return }
        labels[i].add(e.span.milliseconds)
        if let day { falseAlarms[Statistics.isoWeek(day), default: 0] += 1 }
    }

    var intentions: Report.IntentionFigures? {
        let (unanswered, done, partly, no) = (intents[1], intents[2], intents[3], intents[4])
        let sessions = unanswered + done + partly + no
        guard sessions > 0 else { return nil }
        let answered = done + partly + no
        return Report.IntentionFigures(
            sessions: sessions, done: done, partly: partly, notDone: no, unanswered: unanswered,
            keptShare: answered > 0 ? Statistics.share(Int64(done), of: Int64(answered)) : nil,
            focusShareDone: Statistics.share(focusedDone, of: judgedDone), focusShareNotDone: Statistics.share(focusedNotDone, of: judgedNotDone))
    }

    /// `learnedDays`: the period's days a rule was learned on.
    func relabelled(learnedDays: [Int]) -> Report.RelabelledFigures? {
        let figures = zip(EpisodeLabel.allCases, labels).filter { $0.1.count > 0 }.map { label, sums in
            Report.RelabelledFigures.LabelFigure(
                label: label.rawValue, countedAs: label.counted == .focused ? "focused" : "neither", episodes: sums.count,
                minutes: Statistics.minutes(sums.total))
        }
        guard !figures.isEmpty else { return nil }
        var learned: [String: Int] = [:]
        for day in learnedDays { learned[Statistics.isoWeek(day), default: 0] += 1 }
        let weeks = Set(falseAlarms.keys).union(learned.keys).sorted().map {
            Report.RelabelledFigures.FalseAlarmWeek(week: $0, falseAlarms: falseAlarms[$0] ?? 0, rulesLearned: learned[$0] ?? 0)
        }
        return Report.RelabelledFigures(labels: figures, minutes: Statistics.minutes(labels.reduce(0) { $0 + $1.total }), falseAlarms: weeks)
    }
}
