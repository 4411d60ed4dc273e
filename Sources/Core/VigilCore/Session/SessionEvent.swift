/// Where a focus session is.
public enum SessionState: Hashable, Sendable, CustomStringConvertible {
    case planned
    case focused
    /// The combined score is rising: not yet an episode.
    case drifting
    /// A distraction episode is open; no alarm yet.
    case distracted
    /// A distraction episode with alarm level 1...N fired.
    case alarm(level: Int)
    case paused(PauseKind)
    case ended(SessionOutcome)

    public var description: String {
        switch self {
        case .planned: "planned"
        case .focused: "focused"
        case .drifting: "drifting"
        case .distracted: "distracted"
        case .alarm(let level): "alarm \(level)"
        case .paused(let kind): kind == .pause ? "paused" : "on break"
        case .ended(let outcome): "ended (\(outcome.rawValue))"
        }
    }

    /// A stable machine name: `planned`, `focused`, `drifting`, `distracted`, `alarm`, `pause`, `break`, `ended`.
    public var name: String {
        switch self {
        case .planned: "planned"
        case .focused: "focused"
        case .drifting: "drifting"
        case .distracted: "distracted"
        case .alarm: "alarm"
        case .paused(let kind): kind.rawValue
        case .ended: "ended"
        }
    }

    public var isDistracted: Bool {
        switch self {
        case .distracted, .alarm: true
        default: false
        }
    }
}

public enum PauseKind: String, Sendable {
    /// The person declared a pause.
    case pause
    /// A planned break, as in the Pomodoro technique.
    case breakTime = "break"
}

public enum SessionOutcome: String, Sendable {
    /// The planned time was reached, or the recording ran to its end.
    case completed
    /// The person ended the session before its planned end.
    case abandoned
    /// Vigil stopped without the person ending the session (killed, crashed, power lost).
    case interrupted
}

/// Why `end` was called; the outcome follows from it and the elapsed time.
public enum EndCause: Sendable {
    case planReached
    case user
    case recordingEnded
    case interrupted
}

/// A distraction episode: from when the cause began (dated back) to when the person was back.
public struct Episode: Hashable, Sendable {
    /// 1-based number of the episode within its session.
    public var number: Int
    public var start: Timestamp
    /// When the episode was confirmed (the state machine entered `distracted`).
    public var confirmedAt: Timestamp
    public var end: Timestamp?
    public var cause: Cause
    public var peakScore: Double
    public var reason: String
    /// Highest alarm level fired during the episode (0 for none).
    public var alarmLevel: Int = 0
    /// How the episode closed: `back` (the one return to work), `paused`, `break`, `gap`, `sleep`,
    /// `ended` (the session ended first) or `interrupted` (Vigil stopped).
    public var closedBy: EpisodeCloser? = nil

    public var duration: Double? { end.map { $0 - start } }

    public init(
        number: Int, start: Timestamp, confirmedAt: Timestamp, end: Timestamp? = nil, cause: Cause, peakScore: Double, reason: String,
        alarmLevel: Int = 0, closedBy: EpisodeCloser? = nil
    ) {
        self.number = number
        self.start = start
        self.confirmedAt = confirmedAt
        self.end = end
        self.cause = cause
        self.peakScore = peakScore
        self.reason = reason
        self.alarmLevel = alarmLevel
        self.closedBy = closedBy
    }
}

/// What a session looked like when it ended.
public struct SessionSummary: Hashable, Sendable {
    public var outcome: SessionOutcome
    public var started: Timestamp
    public var ended: Timestamp
    /// Time the detectors were judged: neither paused nor in a gap.
    public var activeSeconds: Double
    /// Active time outside distraction episodes.
    public var focusedSeconds: Double
    /// Time inside distraction episodes (episodes are dated back to their cause).
    public var distractedSeconds: Double
    /// Time paused by the person or on a break (breaks included).
    public var pausedSeconds: Double
    /// The part of `pausedSeconds` spent on breaks (`b`, a Pomodoro break).
    public var breakSeconds: Double = 0
    /// Time with no samples at all: the machine slept or Vigil was not running.
    public var gapSeconds: Double
    public var episodes: Int
    public var alarms: Int
}

/// Something that happened in a session. The engine logs every event and renders it for people.
public struct SessionEvent: Hashable, Sendable {
    public var time: Timestamp
    public var kind: Kind

    public init(time: Timestamp, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    public enum Kind: Hashable, Sendable {
        case sessionStarted(task: String?, plannedSeconds: Double?)
        case stateChanged(from: SessionState, to: SessionState, score: Double, reason: StateReason?)
        case episodeStarted(Episode)
        case episodeEnded(Episode)
        /// `repeat` is 0 for the first firing of a level, then 1, 2... for the persistent last level.
        case alarm(level: Int, repeat: Int, episode: Int, cause: Cause, reason: String)
        /// The episode's alarm is over. `recoverySeconds` (from its first alarm) only when the person
        /// came back to work (`closedBy` is `back`): a pause, a break, a gap or the session's end
        /// stops the alarm without a return.
        case alarmCleared(level: Int, episode: Int, closedBy: EpisodeCloser, recoverySeconds: Double?)
        /// The alarms of the episode are quiet until `until`; `left` snoozes remain in the session.
        case alarmSnoozed(level: Int, episode: Int, until: Timestamp, left: Int)
        /// A snooze that was asked for and not given, and why.
        case snoozeRefused(SnoozeRefusal)
        case sensorStatus(SensorStatus)
        /// No samples and no ticks between `from` and the event's time (suspend, sleep, Vigil stopped).
        case gap(from: Timestamp, seconds: Double)
        /// A stretch in one application or on a call has ended (told at its end).
        case activity(ActivitySpan)
        case sessionEnded(SessionSummary)
    }
}

/// A stretch of judged time in one application, or on a call: what the log keeps of the
/// application in front (its class and category, never a title) and of calls. Pauses, gaps and
/// sleep cut it; a stretch runs only while the session judges.
public struct ActivitySpan: Hashable, Sendable {
    public enum Activity: Hashable, Sendable {
        /// `rule`: the name of the `apps` rule that gave the category (nil: none did, the
        /// fallback's): what a rule learned from "this was work" must outrank.
        case app(appClass: String, category: AppCategory, rule: String? = nil)
        case call
    }
    public var activity: Activity
    public var start: Timestamp
    public var end: Timestamp

    public init(_ activity: Activity, start: Timestamp, end: Timestamp) {
        self.activity = activity
        self.start = start
        self.end = end
    }

    public var seconds: Double { max(0, end - start) }
}

/// What became of one alarm on one channel: the log keeps it next to the alarm itself.
public struct AlarmDelivery: Hashable, Sendable {
    public enum Action: String, Sendable {
        /// The alarm was shown, rung or played.
        case fired
        /// The person was back and the channel said so (the notification replaced, a banner).
        case cleared
    }
    public var time: Timestamp
    public var episode: Int
    public var level: Int
    public var repeatCount: Int
    public var channel: AlarmChannel
    public var action: Action
    /// False when the channel was unavailable; `detail` says why.
    public var delivered: Bool
    public var detail: String

    public init(
        time: Timestamp, episode: Int, level: Int, repeatCount: Int, channel: AlarmChannel, action: Action, delivered: Bool, detail: String = ""
    ) {
        self.time = time
        self.episode = episode
        self.level = level
        self.repeatCount = repeatCount
        self.channel = channel
        self.action = action
        self.delivered = delivered
        self.detail = detail
    }
}

/// What ended a distraction episode: the person back at work, or something that ended it without
/// a return (a pause, a break, a gap in the samples, the machine's sleep, the session's end, Vigil
/// stopped). The raw values are what the log, the timeline and sync keep; the timeline says them
/// in words (`SessionViews`).
public enum EpisodeCloser: String, Sendable, Hashable, CaseIterable {
    case back, paused
    case onBreak = "break"
    case gap, sleep, ended, interrupted
}

/// Why a snooze was refused; the timeline and the log say it in words (`SessionViews`).
public enum SnoozeRefusal: Sendable, Hashable {
    /// No alarm is ringing.
    case noAlarm
    /// The alarm is quiet already, for this many more seconds: pressing again spends nothing.
    case alreadySnoozed(seconds: Double)
    /// Every snooze of the session (`alarms.snoozes`, this many) is spent.
    case noneLeft(allowed: Int)
}

/// Why the state changed: the session's own reasons as values, said in words by the timeline and
/// the log (`SessionViews`), or the words of the signal that moved the score (each signal module
/// says its own: "no input for 4 min", "212 m from the office").
public enum StateReason: Sendable, Hashable {
    /// The computer is going to sleep (an episode ends there).
    case goingToSleep
    /// The computer woke up after sleeping this many seconds.
    case wokeUp(afterSeconds: Double)
    /// Samples came again after none for this many seconds.
    case samplesResumed(afterSeconds: Double)
    /// The person paused, or took a planned break.
    case paused(PauseKind)
    /// Back from a pause or a break.
    case back(from: PauseKind)
    /// The signal that moved the score, in its own words.
    case signal(String)
}
