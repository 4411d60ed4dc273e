/// The log's rows as everything above the store reads them: a session, a distraction episode,
/// time in an application. Plain values: the store fetches them, services pass them on, the
/// command line renders them.

/// A logged session as `vigil log` and `vigil session` list, show and correct it.
public struct SessionRecord: Sendable, Hashable {
    public var id: Int64
    public var task: String?
    public var taskId: Int64?
    public var source: SessionSource?
    public var started: Timestamp
    /// Nil while the session runs (or until crash recovery closes it).
    public var ended: Timestamp?
    /// The length it was planned for, if any.
    public var plannedSeconds: Double?
    public var outcome: String?
    /// Judged time; nil for a session nothing judged (`added`, `imported`: `SessionSource.isJudged`).
    public var focusedSeconds: Double?
    public var distractedSeconds: Double?
    public var episodes: Int?
    /// Normalized (trimmed, lower case), each once, in the order given.
    public var tags: [String]
    public var note: String?
    /// The device it was recorded on, for a session synced from another device.
    public var device: String?
    /// What the person meant to do (`vigil start --intent`), in their words, and whether they did.
    public var intent: String?
    public var intentKept: IntentAnswer?

    public init(
        id: Int64, task: String?, taskId: Int64?, source: SessionSource?, started: Timestamp, ended: Timestamp?, plannedSeconds: Double?,
        outcome: String?, focusedSeconds: Double?, distractedSeconds: Double?, episodes: Int?, tags: [String], note: String?,
        device: String?
    ) {
        self.id = id
        self.task = task
        self.taskId = taskId
        self.source = source
        self.started = started
        self.ended = ended
        self.plannedSeconds = plannedSeconds
        self.outcome = outcome
        self.focusedSeconds = focusedSeconds
        self.distractedSeconds = distractedSeconds
        self.episodes = episodes
        self.tags = tags
        self.note = note
        self.device = device
    }
}

/// A distraction episode as the log keeps it.
public struct EpisodeRecord: Hashable, Sendable {
    public var id: Int64
    public var sessionId: Int64
    public var number: Int
    /// From the cause's start (dated back).
    public var startedAt: Timestamp
    /// When it was confirmed (the session entered `distracted`); its alarms count from here.
    public var confirmedAt: Timestamp
    /// When the person was back; nil while open.
    public var endedAt: Timestamp?
    public var cause: String
    public var peakScore: Double
    public var reason: String
    public var alarmLevel: Int
    public var closedBy: String?
    /// The person's word on what the stretch was; nil: as judged.
    public var label: EpisodeLabel?

    public init(
        id: Int64, sessionId: Int64, number: Int, startedAt: Timestamp, confirmedAt: Timestamp, endedAt: Timestamp?, cause: String,
        peakScore: Double, reason: String, alarmLevel: Int, closedBy: String?
    ) {
        self.id = id
        self.sessionId = sessionId
        self.number = number
        self.startedAt = startedAt
        self.confirmedAt = confirmedAt
        self.endedAt = endedAt
        self.cause = cause
        self.peakScore = peakScore
        self.reason = reason
        self.alarmLevel = alarmLevel
        self.closedBy = closedBy
    }
}

/// The person's answer to "did you do it?" at the end of a session with an intention.
public enum IntentAnswer: String, CaseIterable, Sendable {
    case done, partly, no
}

/// The person's word on a distraction episode: what the stretch really was. A label never
/// changes what was measured; it moves the stretch's time in the statistics (docs/statistics.md,
/// "The person's word"): a break or a meeting is neither focused nor distracted, as a pause is;
/// work away from the computer and work in an application Vigil took for a distraction are
/// focused; a distraction stays one.
public enum EpisodeLabel: String, CaseIterable, Sendable {
    case breakTime = "break"
    case meeting
    case offlineWork = "offline_work"
    case distracted
    case work

    /// How the statistics count the stretch.
    public enum Counted: Sendable { case focused, distracted, neither }
    public var counted: Counted {
        switch self {
        case .breakTime, .meeting: .neither
        case .offlineWork, .work: .focused
        case .distracted: .distracted
        }
    }

    /// As the person reads it.
    public var words: String {
        switch self {
        case .breakTime: "a break"
        case .meeting: "a meeting or a call"
        case .offlineWork: "work away from the computer"
        case .distracted: "a distraction"
        case .work: "work"
        }
    }
}

/// Time in one application (with the category it had when it was in front) or on calls.
public struct ActivityTotal: Hashable, Sendable {
    public var isCall: Bool
    public var appClass: String?
    public var category: AppCategory?
    public var seconds: Double
    /// How many stretches of time it was in front (or calls).
    public var stretches: Int

    public init(isCall: Bool, appClass: String?, category: AppCategory?, seconds: Double, stretches: Int) {
        self.isCall = isCall
        self.appClass = appClass
        self.category = category
        self.seconds = seconds
        self.stretches = stretches
    }
}
