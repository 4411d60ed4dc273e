import VigilCore

/// A half-open span of time [start, end) in Unix milliseconds: the statistics' columnar form.
///
/// Everywhere else a time is a `Timestamp`; the statistics' columns (`Span`, `SessionFacts`,
/// `EpisodeFacts`, `AlarmFacts`) keep plain Unix milliseconds, the store's unit, because they are the
/// report's hot path: five years of events are millions of spans, read from the store's rows as
/// they are and summed with integer arithmetic, which keeps the sums exact and spares a conversion
/// per row.
public struct Span: Hashable, Sendable {
    public var start: Int64
    public var end: Int64
    public init(_ start: Int64, _ end: Int64) {
        self.start = start
        self.end = end
    }
    public var milliseconds: Int64 { max(0, end - start) }
}

/// What the statistics need to know about the log, derived from the logged events; nothing here
/// is a figure yet.
///
/// Flat arrays, each session naming its ranges in them: a heavy user's years of history are
/// hundreds of thousands of sessions, and one array per session and kind cost more in allocation
/// and page faults than the statistics themselves. Its times are the statistics' columnar form,
/// Unix milliseconds as the store keeps them (see `Span`), not `Timestamp`s.
public struct StatisticsFacts: Sendable {
    /// In order of start (then id).
    public private(set) var sessions: [SessionFacts] = []
    /// Task names; sessions refer to them by index.
    public private(set) var tasks: [String] = []
    /// Names of the devices the sessions ran on (after sync, one log holds several); sessions refer
    /// to them by index, -1 for a session whose device has no name here (a log that never synced,
    /// or facts built without devices: the whole log is then one unnamed device).
    public private(set) var devices: [String] = []
    /// When the detectors were judged: each session minus its pauses, breaks and gaps.
    public private(set) var active: [Span] = []
    public private(set) var episodes: [EpisodeFacts] = []
    /// Episodes the person said were not distractions (`EpisodeLabel`: a break, a meeting, work
    /// away from the computer or in the application): not in `episodes`, their time moved as the
    /// label says (a break's or a meeting's is out of `active`), kept to say how much moved.
    public private(set) var relabelled: [EpisodeFacts] = []
    public private(set) var alarms: [AlarmFacts] = []
    /// Tracked time: the selected sessions nobody judged (imported, added: `SessionSource.isJudged`),
    /// each its start and end, in no particular order. Never part of `sessions`: they are not
    /// focused or distracted time, only time the person (or another tool) says was spent.
    public var tracked: [Span] = []
    /// The applications the activities name: a class with the category it had in front.
    public private(set) var applications: [ApplicationKey] = []
    /// Stretches in one application or on a call. Only those a report needs are read: the ones
    /// reaching into its period (a session's others are absent).
    public private(set) var activities: [ActivityFacts] = []
    private var taskIndex: [String: Int32] = [:]
    private var deviceIndex: [String: Int32] = [:]
    private var applicationIndex: [ApplicationKey: Int32] = [:]

    public init() {}

    /// Adds a session with its judged spans (ascending, disjoint), episodes, alarms and activities
    /// (each in time order; an activity's `app` is nil for a call). Sessions must be added in order
    /// of start. `start` and `end`: Unix ms. `device`: the name of the device it ran on; nil for
    /// the unnamed one (see `devices`).
    public mutating func append(
        id: Int64, task: String?, device: String? = nil, start: Int64, end: Int64, outcome: SessionFacts.Outcome,
        active spans: [Span], episodes eps: [EpisodeFacts], alarms alarmList: [AlarmFacts],
        activities stretches: [(span: Span, app: ApplicationKey?)] = [], relabelled moved: [EpisodeFacts] = [],
        intent: SessionFacts.Intent = .none
    ) {
        var session = SessionFacts(id: id, task: internTask(task), device: internDevice(device), start: start, end: end, outcome: outcome)
        session.intent = intent
        session.active = range(active.count, spans.count)
        active += spans
        session.episodes = range(episodes.count, eps.count)
        episodes += eps
        session.relabelled = range(relabelled.count, moved.count)
        relabelled += moved
        session.alarms = range(alarms.count, alarmList.count)
        alarms += alarmList
        session.activities = range(activities.count, stretches.count)
        for a in stretches {
            var application: Int32 = -1
            if let app = a.app { application = internApplication(app) }
            activities.append(ActivityFacts(span: a.span, application: application))
        }
        sessions.append(session)
    }

    /// For a builder that fills the flat arrays itself (the store): the same layout, no copies.
    /// Without `devices`, every session is on the one unnamed device (`SessionFacts.device` -1).
    /// Without `activities`, no session has any (the report then has no applications).
    public init(
        sessions: [SessionFacts], tasks: [String], devices: [String] = [], active: [Span], episodes: [EpisodeFacts], alarms: [AlarmFacts],
        tracked: [Span] = [], applications: [ApplicationKey] = [], activities: [ActivityFacts] = [], relabelled: [EpisodeFacts] = []
    ) {
        self.relabelled = relabelled
        self.sessions = sessions
        self.tasks = tasks
        self.devices = devices
        self.active = active
        self.episodes = episodes
        self.alarms = alarms
        self.tracked = tracked
        self.applications = applications
        self.activities = activities
    }

    public mutating func internTask(_ task: String?) -> Int32 {
        guard let task else { return -1 }
        if let i = taskIndex[task] { return i }
        let i = Int32(tasks.count)
        tasks.append(task)
        taskIndex[task] = i
        return i
    }

    public mutating func internDevice(_ device: String?) -> Int32 {
        guard let device else { return -1 }
        if let i = deviceIndex[device] { return i }
        let i = Int32(devices.count)
        devices.append(device)
        deviceIndex[device] = i
        return i
    }

    public mutating func internApplication(_ application: ApplicationKey) -> Int32 {
        if let i = applicationIndex[application] { return i }
        let i = Int32(applications.count)
        applications.append(application)
        applicationIndex[application] = i
        return i
    }

    public func task(of session: SessionFacts) -> String? { session.task >= 0 ? tasks[Int(session.task)] : nil }

    public func device(of session: SessionFacts) -> String? { session.device >= 0 ? devices[Int(session.device)] : nil }

    /// Whether the sessions come from two or more devices (the unnamed one counting as one): then
    /// the report breaks its figures down by device. Devices without sessions (a log that knows
    /// another device, but none of its sessions here) do not count.
    public var holdsSeveralDevices: Bool {
        guard let first = sessions.first?.device else { return false }
        return sessions.contains { $0.device != first }
    }

    private func range(_ start: Int, _ count: Int) -> Range<Int32> { Int32(start)..<Int32(start + count) }
}

/// A session in the statistics' columns; its times are Unix ms (see `Span`).
public struct SessionFacts: Sendable {
    public enum Outcome: UInt8, Sendable {
        /// Its end was never logged (killed); it ends at its last event.
        case open, completed, abandoned, interrupted

        public init(_ text: String?) {
            switch text {
            case "completed": self = .completed
            case "abandoned": self = .abandoned
            case "interrupted": self = .interrupted
            default: self = .open
            }
        }
    }

    public var id: Int64
    /// Index into `StatisticsFacts.tasks`, -1 for none.
    public var task: Int32
    /// Index into `StatisticsFacts.devices`, -1 for the unnamed device. (Here it fills what would
    /// be padding after `task`: the session's size is the same.)
    public var device: Int32
    /// When it started, Unix ms.
    public var start: Int64
    /// When it ended, Unix ms; for a session that never logged its end, its last event.
    public var end: Int64
    public var outcome: Outcome
    /// Whether it had an intention (`vigil start --intent`) and what the person answered. (After
    /// `outcome`, in what would be padding.)
    public var intent: Intent = .none
    public var active: Range<Int32> = 0..<0
    public var episodes: Range<Int32> = 0..<0
    public var relabelled: Range<Int32> = 0..<0
    public var alarms: Range<Int32> = 0..<0
    /// Its stretches in applications and on calls, in order of start (only those read: see
    /// `StatisticsFacts.activities`).
    public var activities: Range<Int32> = 0..<0

    public enum Intent: UInt8, Sendable {
        case none, unanswered, done, partly, no
    }

    public init(id: Int64, task: Int32, device: Int32 = -1, start: Int64, end: Int64, outcome: Outcome) {
        self.id = id
        self.task = task
        self.device = device
        self.start = start
        self.end = end
        self.outcome = outcome
    }
}

/// A distraction episode in the statistics' columns; its span is Unix ms (see `Span`).
public struct EpisodeFacts: Sendable {
    /// From the cause's start (dated back) to when the person was back; an episode never closed
    /// ends with its session.
    public var span: Span
    public var number: Int32
    /// The person's word on it; nil as judged. (After `number`, in what would be padding.)
    public var label: EpisodeLabel?
    public var cause: Cause
    public init(number: Int, span: Span, cause: Cause, label: EpisodeLabel? = nil) {
        self.number = Int32(truncatingIfNeeded: number)
        self.span = span
        self.cause = cause
        self.label = label
    }
}

/// An application as the report tells them apart: its class (X11's WM_CLASS, a Wayland app_id)
/// and the category it had while in front. The same class under two categories (a browser on a
/// video site, and elsewhere) is two applications.
public struct ApplicationKey: Hashable, Sendable {
    public var appClass: String
    public var category: AppCategory
    public init(_ appClass: String, _ category: AppCategory) {
        self.appClass = appClass
        self.category = category
    }
}

/// A stretch of judged time in one application, or on a call, in the statistics' columns; its
/// span is Unix ms (see `Span`). A stretch ends when the application changes or judging stops.
public struct ActivityFacts: Sendable {
    public var span: Span
    /// Index into `StatisticsFacts.applications`; -1 for a call.
    public var application: Int32
    public init(span: Span, application: Int32) {
        self.span = span
        self.application = application
    }
    public var isCall: Bool { application < 0 }
}

/// An alarm in the statistics' columns; its times are Unix ms (see `Span`).
public struct AlarmFacts: Sendable {
    /// When it fired, Unix ms.
    public var at: Int64
    /// When the person was back at work (the episode closed by a return), Unix ms; `Int64.min` if
    /// never: an episode that a pause, a break, a gap or the session's end closed has no return.
    public var backAt: Int64
    public var episode: Int32
    /// 0 for a level's first firing, 1, 2 ... for the persistent level's repeats.
    public var repeatCount: Int32
    /// An action (issue 36: hiding the window, pausing the media…) did something at this alarm.
    public var acted: Bool
    public var back: Int64? { backAt == .min ? nil : backAt }
    public init(episode: Int, at: Int64, repeatCount: Int, back: Int64?, acted: Bool = false) {
        self.episode = Int32(truncatingIfNeeded: episode)
        self.at = at
        self.repeatCount = Int32(truncatingIfNeeded: repeatCount)
        self.backAt = back ?? .min
        self.acted = acted
    }
}

/// `base` minus `holes`: both ascending and disjoint within themselves. Touching results are
/// joined. Appends to `out`.
public func subtract<B: Collection<Span>>(_ holes: [Span], from base: B, into out: inout [Span]) {
    let first = out.count
    var h = 0
    for b in base {
        var cursor = b.start
        while h < holes.count, holes[h].end <= cursor { h += 1 }
        var k = h
        while k < holes.count, holes[k].start < b.end {
            if holes[k].start > cursor { append(Span(cursor, holes[k].start), to: &out, from: first) }
            cursor = max(cursor, holes[k].end)
            k += 1
        }
        if cursor < b.end { append(Span(cursor, b.end), to: &out, from: first) }
    }
}

public func subtract(_ holes: [Span], from base: [Span]) -> [Span] {
    var out: [Span] = []
    subtract(holes, from: base, into: &out)
    return out
}

private func append(_ s: Span, to out: inout [Span], from first: Int) {
    if out.count > first, out[out.count - 1].end == s.start {
        out[out.count - 1].end = s.end
    } else {
        out.append(s)
    }
}

/// Sorted, disjoint spans covering the same time as `spans` (which may overlap, in any order).
public func union(_ spans: [Span]) -> [Span] {
    var out: [Span] = []
    union(spans[...], into: &out)
    return out
}

/// `union(_:)` into `out` (emptied first, its storage kept): for a caller that joins many small
/// lists, without an array per list. Spans already in order are not copied to be sorted.
public func union(_ spans: ArraySlice<Span>, into out: inout [Span]) {
    out.removeAll(keepingCapacity: true)
    func add(_ s: Span) {
        guard s.end > s.start else { return }
        if let last = out.last, s.start <= last.end {
            out[out.count - 1].end = max(last.end, s.end)
        } else {
            out.append(s)
        }
    }
    var sorted = true
    var previous = Int64.min
    for s in spans {
        if s.start < previous { sorted = false }
        previous = s.start
    }
    if sorted {
        for s in spans { add(s) }
    } else {
        for s in spans.sorted(by: { $0.start < $1.start }) { add(s) }
    }
}
