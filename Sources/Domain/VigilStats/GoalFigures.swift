import VigilCore

extension Report {
    /// A limit or goal over the period (`goals:` in the config): each day, weekday or week met or
    /// missed, and the run of met ones (docs/whole-day-design.md, "Limits and goals").
    public struct GoalFigures: Codable, Sendable {
        public var name: String
        /// `focus`, `category distracting`, `task thesis`, `tag deep`.
        public var what: String
        /// `at_least` or `at_most`.
        public var direction: String
        public var targetMinutes: Double
        public var per: String
        public var thresholdMinutes: [Double]
        /// Oldest first: every day (weekday, ISO week) of the period.
        public var periods: [Period]
        /// Closed periods wholly in the report's period, met and missed.
        public var met: Int
        public var missed: Int
        /// Met periods in a row up to the last closed one, and the longest such run.
        public var currentRun: Int
        public var longestRun: Int

        public struct Period: Codable, Sendable {
            /// `YYYY-MM-DD`, or `YYYY-Www` for a week.
            public var period: String
            public var minutes: Double
            /// Nil while the period is still running (today, this week), or when it lies partly
            /// outside the report's period.
            public var met: Bool?
        }
    }
}

/// Goals met or missed, from minutes by local day.
public enum GoalProgress {
    /// - Parameters:
    ///   - minutesByDay: the goal's measure on each day of `days`, in order.
    ///   - openDay: today, still running (not judged yet); nil when the period is over.
    public static func figures(_ goal: Goal, minutesByDay: [Double], days: ClosedRange<Int>, openDay: Int?) -> Report.GoalFigures {
        var periods: [Report.GoalFigures.Period] = []
        switch goal.per {
        case .day, .weekday:
            for (i, day) in days.enumerated() where goal.counts(weekday: isoWeekday(ofDay: day)) {
                let minutes = i < minutesByDay.count ? minutesByDay[i] : 0
                let open = openDay.map { day >= $0 } ?? false
                periods.append(.init(period: civilDate(day), minutes: round(minutes), met: open ? nil : goal.met(minutes * 60)))
            }
        case .week:
            // ISO weeks: Monday (weekday 1) starts one.
            var day = days.lowerBound - (isoWeekday(ofDay: days.lowerBound) - 1)
            while day <= days.upperBound {
                let week = day...(day + 6)
                var minutes = 0.0
                for d in week where days.contains(d) && d - days.lowerBound < minutesByDay.count { minutes += minutesByDay[d - days.lowerBound] }
                let whole = days.contains(week.lowerBound) && days.contains(week.upperBound)
                let open = openDay.map { week.upperBound >= $0 } ?? false
                periods.append(.init(period: Statistics.isoWeek(day), minutes: round(minutes), met: open || !whole ? nil : goal.met(minutes * 60)))
                day += 7
            }
        }
        let judged = periods.compactMap(\.met)
        var run = 0
        var longest = 0
        for m in judged {
            run = m ? run + 1 : 0
            longest = max(longest, run)
        }
        return Report.GoalFigures(
            name: goal.name, what: goal.measure.description, direction: goal.direction.rawValue, targetMinutes: round(goal.target / 60),
            per: goal.per.rawValue, thresholdMinutes: goal.thresholds.map { round($0 / 60) }, periods: periods,
            met: judged.filter { $0 }.count, missed: judged.filter { !$0 }.count, currentRun: run, longestRun: longest)
    }

    private static func round(_ minutes: Double) -> Double { (minutes * 100).rounded() / 100 }
}
