import VigilCore

/// Every figure of `vigil report`, as one value: the JSON format is this value encoded (keys in
/// snake_case), and the other formats render it. Field meanings: docs/report-fields.md.
/// Durations are minutes rounded to 0.01 unless the name says `_s` (seconds, rounded to 0.1).
public struct Report: Codable, Sendable {
    /// Bumped when a field changes meaning or disappears; new fields do not bump it. 2: the
    /// highlights rank hours and weekdays by how well the person focuses, not by volume.
    public var schema = 2
    /// IANA name of the zone every local time is in.
    public var timeZone: String
    /// First and last local day of the period, `YYYY-MM-DD`, inclusive. Empty history: nil.
    public var from: String?
    public var to: String?
    public var task: String?
    /// `report --tag`: only sessions with this tag or on a task with it.
    public var tag: String? = nil
    public var totals: Totals
    /// 24 entries, hour 0-23 of the local day.
    public var hours: [HourFigure]
    /// 7 entries, ISO weekday 1 (Monday) to 7.
    public var weekdays: [WeekdayFigure]
    /// Focused minutes, `heatmap[weekday - 1][hour]`.
    public var heatmap: [[Double]]
    /// Judged minutes (focused + distracted), `[weekday - 1][hour]`.
    public var heatmapJudgedMinutes: [[Double]]
    /// Focused share of judged time, `[weekday - 1][hour]`; nil where nothing was judged.
    public var heatmapFocusShare: [[Double?]]
    public var highlights: Highlights
    /// The previous period of the same length, for comparison; nil for `--last all`.
    public var previous: PeriodFigures?
    /// Every local day of the period, oldest first.
    public var days: [DayFigure]
    /// ISO weeks touching the period, oldest first.
    public var weeks: [WeekFigure]
    public var procrastinationFree: FreeDays
    public var episodes: EpisodeFigures
    public var streak: StreakFigures
    /// Sessions, focus and episodes by task in the period, most focused time first.
    public var tasks: [TaskFigure]
    public var achievements: [Achievement]
    /// Time in applications by category and on calls; nil when the period has none (the
    /// application in front is not seen on this desktop, or no session ran).
    public var applications: ApplicationFigures? = nil
    /// Where the period's sessions came from, and which of them the figures count; nil when the
    /// report was made without a log.
    public var sources: SourceFigures? = nil
    /// Every device of the log (and the unnamed one, if a session ran on it), with its own figures
    /// in the period, most focused time first; nil for a log of one device. A device's own: time two devices judged at once is in
    /// both their figures, so they can add up to more than the totals, which count it once.
    public var devices: [DeviceFigure]? = nil
    /// The intentions of the period's sessions (`vigil start --intent`) and what became of them;
    /// nil when none had one.
    public var intentions: IntentionFigures? = nil
    /// The period's episodes the person said were no distraction, and the time that moved (docs/
    /// statistics.md, "The person's word"); nil when none was.
    public var relabelled: RelabelledFigures? = nil
    /// The whole day, inside and outside sessions, where the all-day watch ran; nil where it did
    /// not (or the report is of one task, tag or device).
    public var wholeDay: WholeDayFigures? = nil
    /// The config's limits and goals (`goals:`) over the period; empty without any, and for a
    /// report of one task, tag or device.
    public var goals: [GoalFigures] = []
    /// Focus blocks scheduled in the calendars (`calendar.files`) and whether they were started;
    /// nil without any in the period.
    public var scheduledBlocks: BlockFigures? = nil

    public struct IntentionFigures: Codable, Sendable {
        /// Sessions started in the period with an intention.
        public var sessions: Int
        public var done: Int
        public var partly: Int
        /// Answered "no".
        public var notDone: Int
        public var unanswered: Int
        /// done / answered; nil with none answered.
        public var keptShare: Double?
        /// Focus share (focused / judged) of the sessions whose intention was done, and of those
        /// partly or not done: whether focus goes with doing what was meant. Nil without judged time.
        public var focusShareDone: Double?
        public var focusShareNotDone: Double?
    }

    public struct RelabelledFigures: Codable, Sendable {
        /// By label, in `EpisodeLabel`'s order, those with episodes only.
        public var labels: [LabelFigure]
        /// Minutes that moved out of distracted time: to focused, or out of the judged time.
        public var minutes: Double
        /// By ISO week, oldest first (weeks with either only): the false alarms the person marked
        /// (an alarm rang in an episode they labelled no distraction), and the rules they taught
        /// Vigil that week: do the false alarms fall once rules are learned?
        public var falseAlarms: [FalseAlarmWeek] = []

        public struct FalseAlarmWeek: Codable, Sendable {
            public var week: String
            public var falseAlarms: Int
            public var rulesLearned: Int
        }

        public struct LabelFigure: Codable, Sendable {
            public var label: String
            /// What its time now counts as: `focused`, or `neither` (a break, a meeting).
            public var countedAs: String
            public var episodes: Int
            public var minutes: Double
        }
    }

    /// Sessions by where they came from (`live`, `simulated`, `replay`, `rehearsal`, `imported`, `added`).
    public struct SourceFigures: Codable, Sendable {
        /// The judged sources the figures count, the person's own first.
        public var counted: [String]
        /// The sources of tracked time (imported, added) whose time is in `Totals.trackedMinutes`.
        public var tracked: [String] = []
        /// Sessions that started in the period, by source, counted or not; sources without any left out.
        public var sessions: [SourceCount]

        public struct SourceCount: Codable, Sendable {
            public var source: String
            public var sessions: Int
            /// In the judged figures.
            public var counted: Bool
            /// In the tracked time.
            public var tracked: Bool = false
        }

        /// `selected`: the sources `--source` chose. Imported and added sessions are never counted
        /// in the judged figures, nothing judged them: selected, they are tracked time.
        public init(counted selected: Set<SessionSource>, sessions: [SessionSource: Int]) {
            let counted = selected.filter(\.isJudged)
            let tracked = selected.subtracting(counted)
            self.counted = counted.sorted().map(\.rawValue)
            self.tracked = tracked.sorted().map(\.rawValue)
            self.sessions = sessions.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map {
                SourceCount(source: $0.key.rawValue, sessions: $0.value, counted: counted.contains($0.key), tracked: tracked.contains($0.key))
            }
        }
    }

    public struct Totals: Codable, Sendable {
        public var sessions: Int
        public var completed: Int
        public var abandoned: Int
        public var interrupted: Int
        /// Sessions whose end was never logged.
        public var open: Int
        /// completed / sessions; nil without sessions.
        public var completionRate: Double?
        public var activeMinutes: Double
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        /// focused / active; nil without judged time.
        public var focusShare: Double?
        /// Alarm firings, repeats of the persistent level included.
        public var alarms: Int
        public var alarmsPerFocusedHour: Double?
        /// From an episode's first alarm to the person being back.
        public var recovery: Durations
        /// Does acting help? From an episode's first action (issue 36: a window hidden, the media
        /// paused…) to the person being back, for the episodes an action was taken in…
        public var recoveryAfterAction = Durations(count: 0)
        /// …and from the first alarm to the return for those with alarms alone.
        public var recoveryAfterAlarmAlone = Durations(count: 0)
        /// Judged time when two or more sessions were judged at once (on two devices, or a replay
        /// logged during a live session), each instant once: the figures above count it once. Nil
        /// for a log of one device with no such time in the period.
        public var overlapMinutes: Double? = nil
        /// Tracked time: sessions nobody judged (imported, added; `SessionSource.isJudged`) that
        /// started in the period, and their time inside it, each instant once. Beside the judged
        /// figures, never in them: none of it is focused or distracted.
        public var trackedSessions: Int = 0
        public var trackedMinutes: Double = 0
    }

    public struct Durations: Codable, Sendable {
        public var count: Int
        public var meanS: Double?
        public var medianS: Double?
        public var longestS: Double?
    }

    public struct HourFigure: Codable, Sendable {
        public var hour: Int
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        /// Episodes that started in this hour.
        public var episodes: Int
        public var rates: Rates
    }

    public struct WeekdayFigure: Codable, Sendable {
        public var weekday: Int
        public var name: String
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        public var episodes: Int
        public var rates: Rates
    }

    /// How well the person focuses in an hour of the day or on a weekday, whatever how much they
    /// work then: the figures the highlights rank.
    public struct Rates: Codable, Sendable {
        /// Focused + distracted.
        public var judgedMinutes: Double
        /// focused / judged; nil without judged time.
        public var focusShare: Double?
        /// Distracted minutes per judged hour.
        public var distractedPerJudgedHour: Double?
        /// Episodes started per judged hour.
        public var episodesPerJudgedHour: Double?
        /// At least `Statistics.minimumJudgedMinutes` judged: enough to be named best or worst.
        public var enoughData: Bool
    }

    /// Hours and weekdays ranked by rates, among those with enough judged time (docs/statistics.md).
    public struct Highlights: Codable, Sendable {
        /// The highest focus share; ties go to the one with more judged time, then the earlier.
        public var mostProductiveHour: Int?
        /// The lowest focus share; nil unless two hours have enough data.
        public var leastProductiveHour: Int?
        public var mostProductiveWeekday: Int?
        public var leastProductiveWeekday: Int?
        /// The most episodes started per judged hour (how often the person drifts off then); ties
        /// go to more distracted minutes per judged hour.
        public var mostProcrastinatedHour: Int?
        /// The judged time an hour or weekday needs over the period to be named.
        public var minimumJudgedMinutes: Int
        public var hoursWithEnoughData: Int
        public var weekdaysWithEnoughData: Int
    }

    /// The headline figures of a period, for the comparison with the previous one.
    public struct PeriodFigures: Codable, Sendable {
        public var from: String
        public var to: String
        public var sessions: Int
        public var completed: Int
        public var completionRate: Double?
        public var activeMinutes: Double
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        public var focusShare: Double?
        public var episodes: Int
        public var alarms: Int
        public var procrastinationFreeShare: Double?
        public var mostProductiveHour: Int?
        public var leastProductiveHour: Int?
        public var mostProcrastinatedHour: Int?
    }

    public struct TaskFigure: Codable, Sendable {
        /// As given to `vigil start --task`; "" for sessions without a task.
        public var task: String
        /// Sessions started in the period.
        public var sessions: Int
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        public var focusShare: Double?
        /// Episodes started in the period.
        public var episodes: Int
    }

    public struct DeviceFigure: Codable, Sendable {
        /// As the device is named (`vigil device --name`); "" for a log's sessions from before it
        /// had a name.
        public var device: String
        /// Sessions started in the period.
        public var sessions: Int
        /// Its own sessions' time, not counted once with other devices'.
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        /// Episodes started in the period.
        public var episodes: Int
    }

    public struct DayFigure: Codable, Sendable {
        public var date: String
        public var weekday: Int
        /// Sessions started on this day.
        public var sessions: Int
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        /// Episodes started on this day.
        public var episodes: Int
        public var alarms: Int
        /// Judged time and no episode started: nil on a day without judged time.
        public var procrastinationFree: Bool?
    }

    public struct WeekFigure: Codable, Sendable {
        /// ISO 8601 week, `2026-W09`.
        public var week: String
        public var focusedMinutes: Double
        public var distractedMinutes: Double
        public var sessions: Int
        public var episodes: Int
        public var focusShare: Double?
        /// The week's own best and worst hours, by the highlights' rule.
        public var mostProductiveHour: Int?
        public var leastProductiveHour: Int?
        /// 24 entries: judged minutes and focus share (nil: nothing judged) in each hour of the week.
        public var hourJudgedMinutes: [Double]
        public var hourFocusShare: [Double?]
    }

    public struct FreeDays: Codable, Sendable {
        /// Days with judged time.
        public var daysWithSessions: Int
        public var freeDays: Int
        public var share: Double?
        /// Longest run of procrastination-free session days within the period (days without a
        /// session neither extend nor break it).
        public var longestStreak: Int
        public var longestStreakFrom: String?
        public var longestStreakTo: String?
        /// The run ending at the last session day up to the period's end (all history counts).
        public var currentStreak: Int
    }

    public struct EpisodeFigures: Codable, Sendable {
        public var count: Int
        public var meanS: Double?
        public var longestS: Double?
        public var byCause: [Group]
        public var byTask: [Group]
        /// 24 entries: episodes that started in each local hour.
        public var byHour: [Group]

        public struct Group: Codable, Sendable {
            public var key: String
            public var count: Int
            public var minutes: Double
            public var meanS: Double?
            public var longestS: Double?
        }
    }

    public struct StreakFigures: Codable, Sendable {
        /// Procrastination-free session days in a row, over all history to the period's end.
        public var current: Int
        public var best: Int
        public var score: Int
        public var bestScore: Int
        public var badge: String
        public var multiplier: Int
        public var daysToHabit: Int
        public var daysToLifestyle: Int
        public var messages: [String]
        /// Every session day of the period: `free`, `procrastinated`; days without sessions absent.
        public var calendar: [CalendarDay]
        /// The day still running, so far: true procrastination-free, false with an episode; nil
        /// when it has no judged session or the report was not asked about it. It is judged, and
        /// counted in the streak, when it is over.
        public var todaySoFarFree: Bool? = nil

        public struct CalendarDay: Codable, Sendable {
            public var date: String
            public var free: Bool
            /// The streak length after this day.
            public var streak: Int
        }
    }

    /// Time in front of applications, by the category each had, and on calls, in the period; and
    /// each application's own figures.
    public struct ApplicationFigures: Codable, Sendable {
        public var workMinutes: Double
        public var neutralMinutes: Double
        public var distractingMinutes: Double
        /// Distracting applications, most minutes first, at most five.
        public var mostDistracting: [AppMinutes]
        public var calls: Int
        public var callMinutes: Double
        /// Every application seen in front in the period (a class with the category it had), most
        /// time in front first.
        public var apps: [AppFigure]

        public struct AppMinutes: Codable, Sendable {
            public var appClass: String
            public var minutes: Double
        }

        public struct AppFigure: Codable, Sendable {
            public var appClass: String
            /// `work`, `neutral` or `distracting`: the category it had while in front.
            public var category: String
            /// Time in front inside the period.
            public var minutes: Double
            /// Stretches in front reaching into the period (a pause or a gap ends a stretch).
            public var stretches: Int
            /// Episodes caused by a distracting application (cause `app`) that started in the
            /// period while this one was in front.
            public var episodes: Int
        }

        /// From each application's sums over the period, in milliseconds, and the calls'. Nil when
        /// there is nothing: no application seen and no call.
        public init?(
            apps totals: [(application: ApplicationKey, milliseconds: Int64, stretches: Int, episodes: Int)], calls: Int, callMilliseconds: Int64
        ) {
            guard !totals.isEmpty || calls > 0 else { return nil }
            let ranked = totals.sorted {
                ($1.milliseconds, $0.application.appClass, $0.application.category.order)
                    < ($0.milliseconds, $1.application.appClass, $1.application.category.order)
            }
            func sum(_ c: AppCategory) -> Int64 { ranked.filter { $0.application.category == c }.reduce(0) { $0 + $1.milliseconds } }
            workMinutes = Statistics.minutes(sum(.work))
            neutralMinutes = Statistics.minutes(sum(.neutral))
            distractingMinutes = Statistics.minutes(sum(.distracting))
            mostDistracting = ranked.filter { $0.application.category == .distracting }.prefix(5).map {
                AppMinutes(appClass: $0.application.appClass, minutes: Statistics.minutes($0.milliseconds))
            }
            self.calls = calls
            callMinutes = Statistics.minutes(callMilliseconds)
            apps = ranked.map {
                AppFigure(
                    appClass: $0.application.appClass, category: $0.application.category.rawValue, minutes: Statistics.minutes($0.milliseconds),
                    stretches: $0.stretches, episodes: $0.episodes)
            }
        }
    }

    public struct Achievement: Codable, Sendable {
        public var id: String
        public var title: String
        /// Local date it was earned.
        public var earned: String
        /// Earned within the report's period (the list is all history up to its end).
        public var inPeriod: Bool
    }
}

extension AppCategory {
    /// Work first: the order reports list an application's categories in.
    var order: Int { AppCategory.allCases.firstIndex(of: self) ?? 0 }
}
