extension FocusSession {
    /// Where the session is, each state with only its own data.
    enum Phase: Hashable, Sendable {
        case planned
        /// Judged and not distracted: focused, or drifting.
        case watching(Watch)
        /// A distraction episode is open, with its alarms. Indirect: the other states are copied
        /// for every sample, and a copy of this one's strings in place cost a tenth of the replay.
        indirect case distracted(EpisodeMachine)
        case paused(PauseKind)
        case ended(SessionOutcome)

        /// Whether the scorers are judging: focused, drifting, distracted or in an alarm.
        var isJudging: Bool {
            switch self {
            case .watching, .distracted: true
            case .planned, .paused, .ended: false
            }
        }

        /// The state people see (and the log keeps).
        var state: SessionState {
            switch self {
            case .planned: .planned
            case .watching(let w): w.drifting ? .drifting : .focused
            case .distracted(let m): m.record.alarmLevel == 0 ? .distracted : .alarm(level: m.record.alarmLevel)
            case .paused(let kind): .paused(kind)
            case .ended(let outcome): .ended(outcome)
            }
        }
    }

    /// Focused or drifting, and since when the score has stayed at or above `distract_enter`.
    struct Watch: Hashable, Sendable {
        var drifting = false
        var highSince: Timestamp?
    }

    /// What the session counts as it goes, for its summary. Times are whole nanoseconds, the
    /// instants' own unit: their sums are exact, so the summary is the same however many ticks
    /// split the time (a replay skips the steady ones, a live session ticks every second).
    struct Ledger: Sendable {
        var episodes = 0
        var alarms = 0
        var active: Int64 = 0
        var paused: Int64 = 0
        /// The part of `paused` on breaks.
        var onBreak: Int64 = 0
        var gaps: Int64 = 0
        var distracted: Int64 = 0

        /// `total` plus the time from `start` to `end` (none if `end` is earlier), saturating.
        static func add(_ total: Int64, from start: Timestamp, to end: Timestamp) -> Int64 {
            guard end > start else { return total }
            let (span, o1) = end.nanoseconds.subtractingReportingOverflow(start.nanoseconds)
            let (sum, o2) = total.addingReportingOverflow(span)
            return o1 || o2 ? .max : sum
        }
        static func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e9 }
    }
}

extension FocusSession {
    /// What ticks can change after the last input, for `SessionStepper` to skip the ones that
    /// cannot: a replay then gives the same events at the same instants without evaluating every
    /// second of months of recordings.
    public struct Steadiness: Sendable {
        /// The instant before which a tick changes nothing but the time booked (no score moves
        /// but a rising one, no alarm or confirmation falls due, the plan does not end); `nil`
        /// when no tick before the next input can.
        public var until: Timestamp?
        /// While focused or drifting with a rising score (an idle spell or a stretch in a
        /// distracting application on its ramp): the threshold whose crossing is the next thing a
        /// tick before `until` can change. Before the combined score reaches it
        /// (`scoreIfJudged(at:)`), ticks change nothing but the time booked.
        public var riseThreshold: Double?
        /// Whether the score may rise before `until`. The next input then tells the score of the
        /// tick before it (a pause's "paused at 0.42"), so that tick is judged.
        public var scoreMayRise: Bool
    }
}
