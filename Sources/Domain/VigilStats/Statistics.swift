import Foundation
import VigilCore

/// Builds the report's figures from the sessions' facts. Definitions: docs/statistics.md.
///
/// Time is the person's: sessions that ran at the same time (on several devices, or a replay
/// logged during a live session) count it once (`CountedTime`); their episodes and alarms stay
/// each session's events.
///
/// Focused and distracted time is cut into local hours (`LocalClock`), so a session that crosses
/// midnight or a DST change lands in the right hours of the right days. Figures about the period
/// (hours, weekdays, days, episodes, totals) count only what lies inside it; streaks and
/// achievements are lifetime things and count all history up to the period's end.
public enum Statistics {
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The judged time an hour of the day or a weekday needs over a period before the highlights
    /// name it best or worst: below it, one lucky or unlucky session would decide.
    public static let minimumJudgedMinutes = 60

    /// - Parameters:
    ///   - facts: every session that started before the period's end (all history, not only the
    ///     period), already filtered by task if the report is for one task.
    ///   - from: first local day of the period (days since 1970-01-01); nil for all history.
    ///   - to: last local day of the period, inclusive.
    ///   - openDay: the local day still running (today), if the period reaches it. A day is judged
    ///     procrastination-free or not when it is over: until then it counts for no streak, no
    ///     free-day figure and no day achievement, and `streak.today` says how it stands so far.
    ///   - learnedDays: the local days the person taught Vigil a rule (`LearnedRule`), to set the
    ///     false alarms they marked beside them.
    public static func report(
        _ facts: StatisticsFacts, timeZone: TimeZone, from: Int?, to: Int, task: String? = nil, openDay: Int? = nil, learnedDays: [Int] = []
    ) -> Report {
        let sessions = facts.sessions
        // History begins with the first session, judged or tracked (`--last all`).
        let first = [sessions.first?.start, facts.tracked.lazy.map(\.start).min()].compactMap { $0 }.min()
        let earliest = first ?? Int64(to) * 86_400_000
        let clock = LocalClock(
            timeZone: timeZone, from: Timestamp(milliseconds: min(earliest, Int64(from ?? to) * 86_400_000)),
            to: Timestamp(milliseconds: (Int64(to) + 1) * 86_400_000))
        let historyFirst = first.map { clock.slot(ms: $0).day } ?? (from ?? to)
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
        var completedStarts = [Int](repeating: 0, count: dayCount)
        // By task index + 1 (0: sessions without a task).
        var taskSums = [FigureSums](repeating: FigureSums(), count: facts.tasks.count + 1)
        // By device index + 1 (0: the unnamed device), each device's own time; none for one device.
        var deviceSums = [FigureSums](repeating: FigureSums(), count: facts.holdsSeveralDevices ? facts.devices.count + 1 : 0)
        // Every device that holds a session is listed, even with no time in the period.
        if !deviceSums.isEmpty { for session in facts.sessions { deviceSums[Int(session.device) + 1].listed = true } }
        var alarmsByDay = [Int](repeating: 0, count: dayCount)
        // Days with judged time of a session that was not abandoned: a day counts for the streak
        // through such a session (or through an episode of any session: abandoning does not undo it).
        var keptDay = [Bool](repeating: false, count: dayCount)
        @inline(__always) func index(_ slot: HourSlot) -> Int? {
            let d = slot.day - base
            return d >= 0 && d < dayCount ? d * 24 + slot.hour : nil
        }

        var totals = Report.Totals(
            sessions: 0, completed: 0, abandoned: 0, interrupted: 0, open: 0, completionRate: nil,
            activeMinutes: 0, focusedMinutes: 0, distractedMinutes: 0, focusShare: nil, alarms: 0, alarmsPerFocusedHour: nil,
            recovery: Report.Durations(count: 0))
        // The period's episodes, summed as they are met: in all, by cause (the built-in ones
        // first, in their order), by local hour of their start and by task index + 1.
        var allEpisodes = EpisodeSums()
        var builtInCauseEpisodes = [EpisodeSums](repeating: EpisodeSums(), count: Cause.builtIn.count)
        var otherCauseEpisodes: [Cause: EpisodeSums] = [:]
        var hourEpisodes = [EpisodeSums](repeating: EpisodeSums(), count: 24)
        var taskEpisodes = [EpisodeSums](repeating: EpisodeSums(), count: facts.tasks.count + 1)
        // By application (an index of `facts.applications`): milliseconds in front inside the
        // period, stretches reaching into it, episodes it caused; and the calls.
        var appMs = [Int64](repeating: 0, count: facts.applications.count)
        var appStretches = [Int](repeating: 0, count: facts.applications.count)
        var appEpisodes = [Int](repeating: 0, count: facts.applications.count)
        var callMs: Int64 = 0
        var calls = 0
        let appCause = Cause.builtIn.firstIndex(of: .app)
        // Milliseconds from an episode's first alarm to the person being back.
        var recoveries: [Int64] = []
        var recoveriesAfterAction: [Int64] = []
        // Actions are rare in a log: looked for only where there are any.
        let anyActed = facts.alarms.contains { $0.acted }
        var recoveriesAfterAlarm: [Int64] = []
        var earned = Earned(clock: clock)
        var personsWord = PersonsWordSums()
        var focusedSpans: [Span] = []
        var episodeSpans: [Span] = []
        var firstAlarms: [AlarmFacts] = []
        // Sessions at the same time (on two devices, or a replay logged during a live session)
        // count their time once: `CountedTime` finds the groups of such sessions (none, and
        // nothing allocated, when no two overlap) and gives the spans each of them counts.
        var sessionsBeforeEnd = sessions.count
        while sessionsBeforeEnd > 0, sessions[sessionsBeforeEnd - 1].start >= periodEnd { sessionsBeforeEnd -= 1 }
        var counted = CountedTime(facts, sessions: sessionsBeforeEnd)
        var nextGroup = 0
        var overlapMs: Int64 = 0
        @inline(__always) func insidePeriod(_ span: Span) -> Int64 { max(0, min(span.end, periodEnd) - max(span.start, periodStart)) }

        for (position, s) in sessions.enumerated() where s.start < periodEnd {
            if inPeriod(s.start) {
                totals.sessions += 1
                switch s.outcome {
                case .completed: totals.completed += 1
                case .abandoned: totals.abandoned += 1
                case .interrupted: totals.interrupted += 1
                case .open: totals.open += 1
                }
                taskSums[Int(s.task) + 1].sessions += 1
                taskSums[Int(s.task) + 1].listed = true
            }
            if let i = index(clock.slot(ms: s.start)) {
                sessionStarts[i / 24] += 1
                if s.outcome == .completed { completedStarts[i / 24] += 1 }
            }
            if s.outcome == .completed, s.end < periodEnd { earned.note(.firstCompleted, at: s.end) }
            // A session abandoned before its plan earns nothing.
            let kept = s.outcome != .abandoned
            if kept, !s.active.isEmpty { earned.note(.firstSession, at: facts.active[Int(s.active.lowerBound)].start) }

            // Its own time: distracted in its episodes, focused in the judged spans outside them.
            let episodes = facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)]
            episodeSpans.removeAll(keepingCapacity: true)
            for e in episodes { episodeSpans.append(e.span) }
            focusedSpans.removeAll(keepingCapacity: true)
            subtract(episodeSpans, from: facts.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)], into: &focusedSpans)
            if !deviceSums.isEmpty {
                let d = Int(s.device) + 1
                deviceSums[d].listed = true
                if inPeriod(s.start) { deviceSums[d].sessions += 1 }
                for span in focusedSpans { deviceSums[d].focused += insidePeriod(span) }
                for span in episodeSpans { deviceSums[d].distracted += insidePeriod(span) }
            }
            // The time it counts: its own, unless it ran at the same time as another session. Then
            // the group's unbroken and lifetime focus is the person's, noted once, in time order.
            let shared = nextGroup < counted.groups.count && counted.groups[nextGroup].lowerBound <= position
            if shared {
                let group = counted.groups[nextGroup]
                if position == group.lowerBound {
                    counted.resolve(facts, group)
                    for whole in counted.personFocused where whole.start < periodEnd {
                        earned.noteFocus(Span(whole.start, min(whole.end, periodEnd)))
                    }
                    for span in counted.overlap { overlapMs += insidePeriod(span) }
                }
                let k = position - group.lowerBound
                focusedSpans.removeAll(keepingCapacity: true)
                focusedSpans += counted.focused[counted.focusedRanges[k]]
                episodeSpans.removeAll(keepingCapacity: true)
                episodeSpans += counted.distracted[counted.distractedRanges[k]]
                if position == group.upperBound - 1 { nextGroup += 1 }
            }
            for whole in focusedSpans where whole.start < periodEnd {
                let span = Span(whole.start, min(whole.end, periodEnd))
                clock.split(span) { slot, ms in
                    if let i = index(slot) {
                        focused[i] += ms
                        if kept { keptDay[i / 24] = true }
                    }
                }
                let inside = min(span.end, periodEnd) - max(span.start, periodStart)
                if inside > 0 {
                    taskSums[Int(s.task) + 1].focused += inside
                    taskSums[Int(s.task) + 1].listed = true
                }
                if !shared { earned.noteFocus(span) }
            }

            if inPeriod(s.start) {
                if s.intent != .none {
                    var (f, x): (Int64, Int64) = (0, 0)
                    for span in focusedSpans { f += insidePeriod(span) }
                    for span in episodeSpans { x += insidePeriod(span) }
                    personsWord.add(s.intent, focused: f, distracted: x)
                }
                for e in facts.relabelled[Int(s.relabelled.lowerBound)..<Int(s.relabelled.upperBound)] where inPeriod(e.span.start) {
                    // A false alarm: the alarm rang on what the person says was no distraction.
                    let rang = facts.alarms[Int(s.alarms.lowerBound)..<Int(s.alarms.upperBound)].contains { $0.episode == e.number }
                    personsWord.add(relabelled: e, rangOn: rang ? clock.slot(ms: e.span.start).day : nil)
                }
            }

            // Alarms; recovery runs from an episode's first alarm to the person being back.
            firstAlarms.removeAll(keepingCapacity: true)
            for a in facts.alarms[Int(s.alarms.lowerBound)..<Int(s.alarms.upperBound)] where a.at < periodEnd {
                if let i = index(clock.slot(ms: a.at)) { alarmsByDay[i / 24] += 1 }
                if inPeriod(a.at) { totals.alarms += 1 }
                if !firstAlarms.contains(where: { $0.episode == a.episode }) { firstAlarms.append(a) }
            }
            for a in firstAlarms {
                guard let back = a.back, back < periodEnd else { continue }
                if inPeriod(a.at) {
                    recoveries.append(back - a.at)
                    // The episode's first action, if one was taken before the return.
                    let alarms = facts.alarms[Int(s.alarms.lowerBound)..<Int(s.alarms.upperBound)]
                    if anyActed, let action = alarms.first(where: { $0.episode == a.episode && $0.acted && $0.at <= back }) {
                        recoveriesAfterAction.append(back - action.at)
                    } else {
                        recoveriesAfterAlarm.append(back - a.at)
                    }
                }
                if back - a.at <= 60_000 { earned.note(.quickRecovery, at: back) }
            }

            for whole in episodeSpans where whole.start < periodEnd {
                let span = Span(whole.start, min(whole.end, periodEnd))
                clock.split(span) { slot, ms in if let i = index(slot) { distracted[i] += ms } }
                let inside = span.end - max(span.start, periodStart)
                if inside > 0 {
                    taskSums[Int(s.task) + 1].distracted += inside
                    taskSums[Int(s.task) + 1].listed = true
                }
            }

            // Time in applications and on calls: the session's own stretches, as the log has them.
            let activities = facts.activities[Int(s.activities.lowerBound)..<Int(s.activities.upperBound)]
            for a in activities {
                let inside = insidePeriod(a.span)
                guard inside > 0 else { continue }
                if a.isCall {
                    callMs += inside
                    calls += 1
                } else {
                    appMs[Int(a.application)] += inside
                    appStretches[Int(a.application)] += 1
                }
            }

            // Episodes are events of their session, however their time was counted.
            for e in episodes where e.span.start < periodEnd {
                let slot = clock.slot(ms: e.span.start)
                if let i = index(slot) { episodeStarts[i] += 1 }
                if inPeriod(e.span.start) {
                    let length = e.span.milliseconds
                    allEpisodes.add(length)
                    if let c = Cause.builtIn.firstIndex(of: e.cause) {
                        builtInCauseEpisodes[c].add(length)
                        // A distracting application's episode is the one in front when it began.
                        if c == appCause, let app = application(at: e.span.start, in: activities) { appEpisodes[app] += 1 }
                    } else {
                        otherCauseEpisodes[e.cause, default: EpisodeSums()].add(length)
                    }
                    hourEpisodes[slot.hour].add(length)
                    taskEpisodes[Int(s.task) + 1].add(length)
                    taskSums[Int(s.task) + 1].episodes += 1
                    taskSums[Int(s.task) + 1].listed = true
                    if !deviceSums.isEmpty { deviceSums[Int(s.device) + 1].episodes += 1 }
                }
            }
        }

        // Days: procrastination-free or not, streaks over all history, the period's days and weeks.
        var tracker = StreakTracker()
        var periodRun = StreakTracker()
        var days: [Report.DayFigure] = []
        var calendar: [Report.StreakFigures.CalendarDay] = []
        // ISO weeks in order: the days come in order, so a week's days are consecutive.
        var weeks: [(week: String, sums: WeekSums)] = []
        var freeDays = 0
        var sessionDays = 0
        // How the day still running stands so far (`openDay`).
        var today: Bool?
        func appendWeek(_ day: Int, _ d: Int, _ eps: Int) {
            if weeks.isEmpty || HourSlot(day: day, hour: 0).weekday == 1 { weeks.append((isoWeek(day), WeekSums())) }
            let w = weeks.count - 1
            weeks[w].sums.sessions += sessionStarts[d]
            weeks[w].sums.episodes += eps
            for h in 0..<24 {
                weeks[w].sums.focused[h] += focused[d * 24 + h]
                weeks[w].sums.judged[h] += focused[d * 24 + h] + distracted[d * 24 + h]
            }
        }
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
            let active = f + x > 0 && (keptDay[d] || eps > 0)
            let free = active && eps == 0
            // The day still running is judged when it is over; until then it is only "so far".
            if let open = openDay, day >= open {
                if day == open, day >= periodFirst, active { today = free }
                days.append(
                    Report.DayFigure(
                        date: dateString(day), weekday: HourSlot(day: day, hour: 0).weekday, sessions: sessionStarts[d],
                        focusedMinutes: minutes(f), distractedMinutes: minutes(x), episodes: eps, alarms: alarmsByDay[d],
                        procrastinationFree: nil))
                appendWeek(day, d, eps)
                continue
            }
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
            if active {
                sessionDays += 1
                if free { freeDays += 1 }
                periodRun.record(day: day, completed: free)
                calendar.append(.init(date: dateString(day), free: free, streak: tracker.current))
            }
            days.append(
                Report.DayFigure(
                    date: dateString(day), weekday: HourSlot(day: day, hour: 0).weekday, sessions: sessionStarts[d], focusedMinutes: minutes(f),
                    distractedMinutes: minutes(x), episodes: eps, alarms: alarmsByDay[d], procrastinationFree: active ? free : nil))
            appendWeek(day, d, eps)
        }

        // Hours, weekdays and the headline figures of the period, and of the one before it.
        let grid = DayHourGrid(
            base: base, focused: focused, distracted: distracted, episodeStarts: episodeStarts, sessionStarts: sessionStarts,
            completedStarts: completedStarts, alarms: alarmsByDay, keptDay: keptDay, openDay: openDay)
        let sums = grid.sums(periodFirst...to)
        let focusedMs = sums.focused
        let distractedMs = sums.distracted
        totals.focusedMinutes = minutes(focusedMs)
        totals.distractedMinutes = minutes(distractedMs)
        totals.activeMinutes = minutes(focusedMs + distractedMs)
        totals.focusShare = share(focusedMs, of: focusedMs + distractedMs)
        totals.completionRate = totals.sessions > 0 ? ratio(Double(totals.completed) / Double(totals.sessions)) : nil
        totals.alarmsPerFocusedHour = focusedMs > 0 ? ratio(Double(totals.alarms) / (Double(focusedMs) / 3_600_000)) : nil
        totals.recovery = durations(milliseconds: &recoveries)
        totals.recoveryAfterAction = durations(milliseconds: &recoveriesAfterAction)
        totals.recoveryAfterAlarmAlone = durations(milliseconds: &recoveriesAfterAlarm)
        // Said whenever it can matter: always with several devices, and for one device when two of
        // its sessions shared time in the period.
        if overlapMs > 0 || !deviceSums.isEmpty { totals.overlapMinutes = minutes(overlapMs) }
        // Tracked time, beside the judged figures: each instant once, as the person's time is.
        totals.trackedSessions = facts.tracked.reduce(0) { $0 + (inPeriod($1.start) ? 1 : 0) }
        totals.trackedMinutes = minutes(union(facts.tracked).reduce(0) { $0 + insidePeriod($1) })
        let highlights = sums.highlights
        var previous: Report.PeriodFigures?
        if from != nil {
            let length = to - periodFirst + 1
            previous = grid.sums((periodFirst - length)...(periodFirst - 1)).headline(from: periodFirst - length, to: periodFirst - 1)
        }

        // Groups need no median: summed as the episodes were met, no sorting.
        func group(_ key: String, _ sums: EpisodeSums) -> Report.EpisodeFigures.Group {
            let n = sums.count
            return .init(
                key: key, count: n, minutes: minutes(sums.total), meanS: n > 0 ? tenths(Double(sums.total) / 1000 / Double(n)) : nil,
                longestS: n > 0 ? tenths(Double(sums.longest) / 1000) : nil)
        }
        let all = group("", allEpisodes)
        // The built-in causes are always listed (a stable shape for JSON and CSV readers); a plug-in
        // signal's cause is listed after them once it has an episode.
        var byCause = otherCauseEpisodes
        for (c, cause) in Cause.builtIn.enumerated() { byCause[cause, default: EpisodeSums()].merge(builtInCauseEpisodes[c]) }
        // By task name: a session without a task counts as the task "".
        var byTask: [String: EpisodeSums] = [:]
        for (i, sums) in taskEpisodes.enumerated() where sums.count > 0 {
            byTask[i > 0 ? facts.tasks[i - 1] : "", default: EpisodeSums()].merge(sums)
        }
        let episodes = Report.EpisodeFigures(
            count: all.count, meanS: all.meanS, longestS: all.longestS,
            byCause: byCause.keys.sorted().map { group($0.rawValue, byCause[$0]!) },
            byTask: byTask.keys.sorted().map { group($0, byTask[$0]!) },
            byHour: (0..<24).map { h in group(String(h), hourEpisodes[h]) })

        let streak = Report.StreakFigures(
            current: tracker.current, best: tracker.best, score: tracker.score, bestScore: tracker.bestScore,
            badge: tracker.badge.rawValue, multiplier: StreakModel.multiplier(forLength: tracker.current),
            daysToHabit: max(0, StreakModel.habitDays - tracker.current), daysToLifestyle: max(0, StreakModel.lifestyleDays - tracker.current),
            messages: tracker.messages, calendar: calendar, todaySoFarFree: today)

        let hours: [Report.HourFigure] = (0..<24).map { h in
            .init(
                hour: h, focusedMinutes: minutes(sums.hourFocused[h]), distractedMinutes: minutes(sums.hourDistracted[h]),
                episodes: sums.hourEpisodes[h], rates: rates(sums.hourFocused[h], sums.hourDistracted[h], sums.hourEpisodes[h]))
        }
        let weekdays: [Report.WeekdayFigure] = (0..<7).map { w in
            .init(
                weekday: w + 1, name: weekdayNames[w], focusedMinutes: minutes(sums.weekdayFocused[w]),
                distractedMinutes: minutes(sums.weekdayDistracted[w]), episodes: sums.weekdayEpisodes[w],
                rates: rates(sums.weekdayFocused[w], sums.weekdayDistracted[w], sums.weekdayEpisodes[w]))
        }
        let heatmap: [[Double]] = (0..<7).map { w in (0..<24).map { h in minutes(sums.heatFocused[w * 24 + h]) } }
        let heatmapJudged: [[Double]] = (0..<7).map { w in (0..<24).map { h in minutes(sums.heatJudged[w * 24 + h]) } }
        let heatmapShare: [[Double?]] = (0..<7).map { w in (0..<24).map { h in share(sums.heatFocused[w * 24 + h], of: sums.heatJudged[w * 24 + h]) }
        }
        let weekFigures: [Report.WeekFigure] = weeks.map { week, w in
            let f = w.focused.reduce(0, +)
            let judged = w.judged.reduce(0, +)
            return Report.WeekFigure(
                week: week, focusedMinutes: minutes(f), distractedMinutes: minutes(judged - f), sessions: w.sessions, episodes: w.episodes,
                focusShare: share(f, of: judged), mostProductiveHour: rankByShare(w.focused, w.judged, lowest: false),
                leastProductiveHour: rankByShare(w.focused, w.judged, lowest: true), hourJudgedMinutes: w.judged.map(minutes),
                hourFocusShare: (0..<24).map { share(w.focused[$0], of: w.judged[$0]) })
        }
        let tasks: [Report.TaskFigure] = taskSums.indices.filter { taskSums[$0].listed }.map { i in
            let t = taskSums[i]
            return Report.TaskFigure(
                task: i > 0 ? facts.tasks[i - 1] : "", sessions: t.sessions, focusedMinutes: minutes(t.focused),
                distractedMinutes: minutes(t.distracted), focusShare: share(t.focused, of: t.focused + t.distracted), episodes: t.episodes)
        }.sorted { ($1.focusedMinutes, $0.task) < ($0.focusedMinutes, $1.task) }
        let devices: [Report.DeviceFigure]? =
            deviceSums.isEmpty
            ? nil
            : deviceSums.indices.filter { deviceSums[$0].listed }.map { i in
                let d = deviceSums[i]
                return Report.DeviceFigure(
                    device: i > 0 ? facts.devices[i - 1] : "", sessions: d.sessions, focusedMinutes: minutes(d.focused),
                    distractedMinutes: minutes(d.distracted), episodes: d.episodes)
            }.sorted { ($1.focusedMinutes, $0.device) < ($0.focusedMinutes, $1.device) }

        let applications = Report.ApplicationFigures(
            apps: facts.applications.indices.filter { appStretches[$0] > 0 }.map {
                (facts.applications[$0], appMs[$0], appStretches[$0], appEpisodes[$0])
            }, calls: calls, callMilliseconds: callMs)

        return Report(
            timeZone: timeZone.identifier,
            from: dayCount > 0 ? dateString(periodFirst) : nil, to: dayCount > 0 ? dateString(to) : nil, task: task,
            totals: totals,
            hours: hours,
            weekdays: weekdays,
            heatmap: heatmap,
            heatmapJudgedMinutes: heatmapJudged,
            heatmapFocusShare: heatmapShare,
            highlights: highlights,
            previous: previous,
            days: days,
            weeks: weekFigures,
            procrastinationFree: .init(
                daysWithSessions: sessionDays, freeDays: freeDays, share: sessionDays > 0 ? ratio(Double(freeDays) / Double(sessionDays)) : nil,
                longestStreak: periodRun.best, longestStreakFrom: periodRun.bestSpan.map { dateString($0.from) },
                longestStreakTo: periodRun.bestSpan.map { dateString($0.to) }, currentStreak: tracker.current),
            episodes: episodes,
            streak: streak,
            tasks: tasks,
            achievements: earned.list(periodFirst: periodFirst),
            applications: applications,
            devices: devices,
            intentions: personsWord.intentions,
            relabelled: personsWord.relabelled(learnedDays: learnedDays.filter { $0 >= periodFirst && $0 <= to }))
    }

    /// The application in front at `t`: the one whose stretch holds it ([start, end)), among a
    /// session's stretches in order of start; nil when none does (a call alone, or nothing read).
    static func application(at t: Int64, in activities: ArraySlice<ActivityFacts>) -> Int? {
        for a in activities {
            if a.span.start > t { break }
            if !a.isCall, t < a.span.end { return Int(a.application) }
        }
        return nil
    }

    static var minimumJudgedMs: Int64 { Int64(minimumJudgedMinutes) * 60_000 }

    /// The index with the highest (or lowest) focus share among those with enough judged time;
    /// ties go to more judged time, then to the first. The lowest is named only when its share is
    /// below the highest's: with one candidate, or with all of them alike, the best hour would
    /// also be named the worst.
    static func rankByShare(_ focused: [Int64], _ judged: [Int64], lowest: Bool) -> Int? {
        func focusShare(_ i: Int) -> Double { Double(focused[i]) / Double(judged[i]) }
        func choose(lowest: Bool) -> Int? {
            var pick: Int?
            for i in judged.indices where judged[i] >= minimumJudgedMs {
                guard let p = pick else {
                    pick = i
                    continue
                }
                let (a, b) = (focusShare(i), focusShare(p))
                if (lowest ? a < b : a > b) || (a == b && judged[i] > judged[p]) { pick = i }
            }
            return pick
        }
        guard let best = choose(lowest: false) else { return nil }
        guard lowest else { return best }
        // The worst must be worse than the best: among hours that all focus alike none is the
        // worst, or the best hour could be named the worst too.
        guard let worst = choose(lowest: true), focusShare(worst) < focusShare(best) else { return nil }
        return worst
    }

    /// The hour with the most episodes started per judged hour, among those with enough judged
    /// time and at least one episode; ties go to more distracted time per judged hour, then the first.
    static func mostProcrastinated(_ episodes: [Int], _ distracted: [Int64], _ judged: [Int64]) -> Int? {
        var pick: Int?
        for i in judged.indices where judged[i] >= minimumJudgedMs && episodes[i] > 0 {
            guard let p = pick else {
                pick = i
                continue
            }
            let (a, b) = (Double(episodes[i]) / Double(judged[i]), Double(episodes[p]) / Double(judged[p]))
            if a > b || (a == b && Double(distracted[i]) / Double(judged[i]) > Double(distracted[p]) / Double(judged[p])) { pick = i }
        }
        return pick
    }

    static func rates(_ focused: Int64, _ distracted: Int64, _ episodes: Int) -> Report.Rates {
        let judged = focused + distracted
        let hours = Double(judged) / 3_600_000
        return Report.Rates(
            judgedMinutes: minutes(judged), focusShare: share(focused, of: judged),
            distractedPerJudgedHour: judged > 0 ? (Double(distracted) / 60_000 / hours * 100).rounded() / 100 : nil,
            episodesPerJudgedHour: judged > 0 ? ratio(Double(episodes) / hours) : nil, enoughData: judged >= minimumJudgedMs)
    }

    static func share(_ part: Int64, of whole: Int64) -> Double? { whole > 0 ? ratio(Double(part) / Double(whole)) : nil }

    static func durations(_ seconds: [Double]) -> Report.Durations {
        guard !seconds.isEmpty else { return Report.Durations(count: 0) }
        let sorted = seconds.sorted()
        let n = sorted.count
        let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        return Report.Durations(count: n, meanS: tenths(sorted.reduce(0, +) / Double(n)), medianS: tenths(median), longestS: tenths(sorted[n - 1]))
    }

    /// `durations(_:)` of whole milliseconds (sorted in place): integers sort faster than the
    /// seconds they stand for, in the same order, and the seconds are summed in that order, so
    /// the figures are the same to the last bit.
    static func durations(milliseconds ms: inout [Int64]) -> Report.Durations {
        guard !ms.isEmpty else { return Report.Durations(count: 0) }
        ms.sort()
        let n = ms.count
        func seconds(_ i: Int) -> Double { Double(ms[i]) / 1000 }
        var sum = 0.0
        for i in 0..<n { sum += seconds(i) }
        let median = n % 2 == 1 ? seconds(n / 2) : (seconds(n / 2 - 1) + seconds(n / 2)) / 2
        return Report.Durations(count: n, meanS: tenths(sum / Double(n)), medianS: tenths(median), longestS: tenths(seconds(n - 1)))
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
