/// The focus-session state machine: a plain value that takes samples, control actions and clock
/// ticks, each with its instant, and returns the events they caused. It never reads a clock, so a
/// replay on a virtual clock and a live session on the wall clock run the same code, and tests step
/// it line by line.
///
/// ```
/// planned ─start→ focused ⇄ drifting ─(score ≥ distract_enter for distract_confirm)→ distracted
///                    ↑                                                                  │ escalation
///                    └────────────── score < distract_exit ── alarm 1 … alarm N ←───────┘
/// any active state ─pause/break→ paused ─resume→ focused;  any state ─end→ ended
/// ```
///
/// Hysteresis: each threshold has a lower exit value, so a score hovering around a threshold does not
/// flicker. Grace periods live in the scorers (a 60-second thinking pause scores nothing). A silence in
/// the samples longer than `session.gap` is a gap (suspend, sleep) and counts neither as focus nor as
/// distraction.
public struct FocusSession: Sendable {
    public let configuration: VigilConfiguration
    public let task: String?
    /// Planned length in seconds; `nil` runs until `end` (a replay runs to the recording's end).
    public let plannedSeconds: Double?

    public private(set) var state: SessionState = .planned
    public private(set) var startedAt: Timestamp?
    /// The combined distraction score at the last evaluation, in [0, 1].
    public private(set) var score: Double = 0
    /// The assessment that dominates the combined score, if any scores above 0.
    public private(set) var dominant: Assessment?
    /// The open distraction episode.
    public private(set) var episode: Episode?

    private var input: InputScorer
    private var switching: SwitchingScorer
    private var noise: NoiseScorer
    private var location: LocationScorer

    /// The last instant anything (a sample or a tick) was seen: gaps are measured from here.
    private var lastSeen: Timestamp?
    /// Episodes may not be dated back before this (session start, resume, end of a gap, previous episode).
    private var datingFloor: Timestamp?
    private var aboveDistractSince: Timestamp?
    private var firstAlarmAt: Timestamp?
    private var lastAlarmAt: Timestamp?
    private var alarmRepeats = 0
    /// No alarm fires before this (a snooze); cleared with the episode.
    private var snoozedUntil: Timestamp?
    private var snoozesUsed = 0

    private var episodeCount = 0
    private var alarmCount = 0
    private var activeSeconds = 0.0
    private var pausedSeconds = 0.0
    private var gapSeconds = 0.0
    private var episodeSeconds = 0.0

    public init(configuration: VigilConfiguration, task: String? = nil, plannedSeconds: Double? = nil) {
        self.configuration = configuration
        self.task = task
        self.plannedSeconds = plannedSeconds
        input = InputScorer(config: configuration.input)
        switching = SwitchingScorer(config: configuration.switching)
        noise = NoiseScorer(config: configuration.audio)
        location = LocationScorer(config: configuration.location)
    }

    /// The instant the planned time is up, if there is a plan.
    public var plannedEnd: Timestamp? {
        guard let s = startedAt, let p = plannedSeconds else { return nil }
        return s + p
    }

    /// Each scorer's current assessment, for a live view.
    public func assessments(at now: Timestamp) -> [Assessment] {
        [input.assess(at: now), switching.assess(at: now), noise.assess(at: now), location.assess(at: now)].compactMap { $0 }
    }

    /// Distance from the geofence centre at the last good fix, in metres (what the log keeps instead of coordinates).
    public var distanceFromWorkplace: Double? { location.lastDistance }

    // MARK: Inputs

    public mutating func start(at now: Timestamp) -> [SessionEvent] {
        guard case .planned = state else { return [] }
        startedAt = now
        lastSeen = now
        datingFloor = now
        state = .focused
        input.reset(at: now)
        return [
            SessionEvent(time: now, kind: .sessionStarted(task: task, plannedSeconds: plannedSeconds)),
            SessionEvent(time: now, kind: .stateChanged(from: .planned, to: .focused, score: 0, reason: nil)),
        ]
    }

    /// Feeds one sample. Samples must come in time order; a late one is judged at the current time.
    public mutating func receive(_ sample: Sample) -> [SessionEvent] {
        var events: [SessionEvent] = []
        if case .planned = state { events += start(at: sample.time) }
        if case .ended = state { return events }
        let now = max(sample.time, lastSeen ?? sample.time)
        if finishIfPlanReached(before: now, into: &events) { return events }
        account(until: now, into: &events)

        switch sample.payload {
        case .input(let a):
            if state.isActive {
                input.observe(a, at: now)
                switching.observe(a, at: now)
            }
        case .audio(let level):
            if state.isActive { noise.observe(level, at: now) }
        case .location(let fix):
            // The fence centre is taken from the first good fix even before focus starts.
            location.observe(fix, at: now)
        case .status(let status):
            events.append(SessionEvent(time: now, kind: .sensorStatus(status)))
            applyStatus(status, at: now)
        case .control(let action):
            events += control(action, at: now)
            return events
        }
        evaluate(at: now, into: &events)
        return events
    }

    /// Re-evaluates at `now` without a new sample: idle time grows, episodes escalate, the plan ends.
    public mutating func tick(at now: Timestamp) -> [SessionEvent] {
        var events: [SessionEvent] = []
        guard startedAt != nil, !isEnded, let seen = lastSeen, now > seen else { return events }
        if finishIfPlanReached(before: now, into: &events) { return events }
        account(until: now, into: &events)
        evaluate(at: now, into: &events)
        return events
    }

    /// A control action from the person: pause, break, resume or end.
    public mutating func control(_ action: ControlAction, at now: Timestamp) -> [SessionEvent] {
        var events: [SessionEvent] = []
        if case .planned = state { events += start(at: now) }
        guard !isEnded else { return events }
        if finishIfPlanReached(before: now, into: &events) { return events }
        account(until: now, into: &events)
        switch action {
        case .pause, .breakTime:
            let kind: PauseKind = action == .pause ? .pause : .breakTime
            if state.isActive {
                closeEpisode(at: now, by: "paused", into: &events)
                transition(to: .paused(kind), at: now, reason: kind == .pause ? "paused by you" : "planned break", into: &events)
            } else if case .paused(let current) = state, current != kind {
                transition(to: .paused(kind), at: now, reason: nil, into: &events)
            }
        case .resume:
            if case .paused = state {
                restartJudging(at: now)
                transition(to: .focused, at: now, reason: "back from \(state == .paused(.pause) ? "pause" : "break")", into: &events)
            }
        case .end:
            events += end(.user, at: now)
        case .snooze:
            let allowed = configuration.alarms.snoozes
            if let e = episode, e.alarmLevel > 0, snoozesUsed < allowed {
                snoozesUsed += 1
                let until = now + configuration.alarms.snooze
                snoozedUntil = until
                events.append(SessionEvent(time: now, kind: .alarmSnoozed(level: e.alarmLevel, episode: e.number, until: until, left: allowed - snoozesUsed)))
            } else {
                let why = episode.map { $0.alarmLevel > 0 } != true ? "no alarm to snooze"
                    : "no snoozes left (\(allowed) per session, alarms.snoozes): back to work, or end the session"
                events.append(SessionEvent(time: now, kind: .snoozeRefused(reason: why)))
            }
        }
        return events
    }

    public var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Ends the session at `now`. The outcome follows from `cause` and the planned time.
    public mutating func end(_ cause: EndCause, at now: Timestamp) -> [SessionEvent] {
        var events: [SessionEvent] = []
        guard let started = startedAt, !isEnded else { return events }
        let at = max(now, lastSeen ?? now)
        account(until: at, into: &events)
        closeEpisode(at: at, by: "ended", into: &events)
        let outcome: SessionOutcome
        switch cause {
        case .planReached, .recordingEnded: outcome = .completed
        case .interrupted: outcome = .interrupted
        case .user:
            if let p = plannedSeconds, at - started < p { outcome = .abandoned } else { outcome = .completed }
        }
        transition(to: .ended(outcome), at: at, reason: nil, into: &events)
        let summary = SessionSummary(
            outcome: outcome, started: started, ended: at, activeSeconds: activeSeconds,
            focusedSeconds: max(0, activeSeconds - episodeSeconds), distractedSeconds: episodeSeconds,
            pausedSeconds: pausedSeconds, gapSeconds: gapSeconds, episodes: episodeCount, alarms: alarmCount)
        events.append(SessionEvent(time: at, kind: .sessionEnded(summary)))
        return events
    }

    // MARK: Internals

    /// Ends the session at its planned end if `now` is past it.
    private mutating func finishIfPlanReached(before now: Timestamp, into events: inout [SessionEvent]) -> Bool {
        guard let end = plannedEnd, now >= end else { return false }
        if let seen = lastSeen, end > seen {
            account(until: end, into: &events)
            evaluate(at: end, into: &events)
        }
        events += self.end(.planReached, at: end)
        return true
    }

    /// Books the time since the last instant seen, or records a gap if nothing was seen for too long.
    private mutating func account(until now: Timestamp, into events: inout [SessionEvent]) {
        guard let seen = lastSeen, now > seen else { return }
        let elapsed = now - seen
        lastSeen = now
        if elapsed > configuration.session.gap {
            gapSeconds += elapsed
            // The episode ended when the samples stopped; told before the gap so times stay in order.
            if state.isActive { closeEpisode(at: seen, by: "gap", into: &events) }
            events.append(SessionEvent(time: now, kind: .gap(from: seen, seconds: elapsed)))
            if state.isActive {
                restartJudging(at: now)
                if state != .focused {
                    transition(to: .focused, at: now, reason: "samples resumed after \(humanDuration(elapsed))", into: &events)
                }
            }
            return
        }
        if state.isActive { activeSeconds += elapsed } else if case .paused = state { pausedSeconds += elapsed }
    }

    private mutating func applyStatus(_ status: SensorStatus, at now: Timestamp) {
        switch (status.sensor, status.state) {
        case (.input, .available): input.reset(at: now)
        case (.input, _): input.disable()
        case (.audio, .available): break
        case (.audio, _): noise.reset()
        // A lost fix holds the last judgement: indoors is not "leaving".
        case (.location, _): break
        }
    }

    /// After a pause or a gap, nothing before `now` counts.
    private mutating func restartJudging(at now: Timestamp) {
        input.reset(at: now)
        switching.reset()
        noise.reset()
        location.reset()
        datingFloor = now
        aboveDistractSince = nil
        score = 0
        dominant = nil
    }

    private mutating func combine(at now: Timestamp) {
        input.advance(to: now)
        switching.advance(to: now)
        noise.advance(to: now)
        var keep = 1.0
        var best: Assessment?
        var bestWeighted = 0.0
        func add(_ a: Assessment?, _ weight: Double) {
            guard let a, a.score > 0 else { return }
            let w = a.score * weight
            keep *= 1 - w
            // Ties go to the cause listed first in `Cause`, so the outcome never depends on order.
            if w > bestWeighted { bestWeighted = w; best = a }
        }
        add(input.assess(at: now), configuration.input.weight)
        add(switching.assess(at: now), configuration.switching.weight)
        add(noise.assess(at: now), configuration.audio.weight)
        add(location.assess(at: now), configuration.location.weight)
        // Probabilistic OR: two moderate signals together weigh more than either alone, never above 1.
        // Rounded to 1e-12 so that a single score of exactly a threshold (0.2) is not read as
        // 0.19999999999999996 after the 1 - (1 - x) round trip.
        score = min(1, max(0, ((1 - keep) * 1e12).rounded() / 1e12))
        dominant = best
    }

    private mutating func evaluate(at now: Timestamp, into events: inout [SessionEvent]) {
        guard state.isActive else { return }
        combine(at: now)
        let s = configuration.scoring
        switch state {
        case .focused, .drifting:
            if score >= s.distractEnter {
                let since = aboveDistractSince ?? now
                aboveDistractSince = since
                if now - since >= s.distractConfirm {
                    openEpisode(at: now, into: &events)
                    return
                }
            } else {
                aboveDistractSince = nil
            }
            if state == .focused, score >= s.driftEnter {
                transition(to: .drifting, at: now, reason: dominant?.reason, into: &events)
            } else if state == .drifting, score < s.driftExit {
                transition(to: .focused, at: now, reason: nil, into: &events)
            }
        case .distracted, .alarm:
            if var e = episode {
                e.peakScore = max(e.peakScore, score)
                if let d = dominant { e.reason = d.reason }
                episode = e
            }
            if score < s.distractExit {
                closeEpisode(at: now, by: "back", into: &events)
                transition(to: score < s.driftExit ? .focused : .drifting, at: now, reason: dominant?.reason, into: &events)
            } else {
                escalate(at: now, into: &events)
            }
        default:
            break
        }
    }

    private mutating func openEpisode(at now: Timestamp, into events: inout [SessionEvent]) {
        guard let d = dominant else { return }
        episodeCount += 1
        aboveDistractSince = nil
        let start = min(now, max(d.since, datingFloor ?? d.since))
        let e = Episode(number: episodeCount, start: start, confirmedAt: now, cause: d.cause, peakScore: score, reason: d.reason)
        episode = e
        firstAlarmAt = nil
        lastAlarmAt = nil
        alarmRepeats = 0
        transition(to: .distracted, at: now, reason: d.reason, into: &events)
        events.append(SessionEvent(time: now, kind: .episodeStarted(e)))
        escalate(at: now, into: &events)
    }

    private mutating func escalate(at now: Timestamp, into events: inout [SessionEvent]) {
        guard var e = episode else { return }
        // Snoozed: the episode goes on (and is counted), its alarms wait; when the snooze is over,
        // the levels that fell due fire, and the persistent level repeats again.
        if let until = snoozedUntil {
            guard now >= until else { return }
            snoozedUntil = nil
        }
        let ladder = configuration.alarms.escalation
        let distractedFor = now - e.confirmedAt
        while e.alarmLevel < ladder.count, distractedFor >= ladder[e.alarmLevel] {
            e.alarmLevel += 1
            alarmCount += 1
            firstAlarmAt = firstAlarmAt ?? now
            lastAlarmAt = now
            episode = e
            transition(to: .alarm(level: e.alarmLevel), at: now, reason: e.reason, into: &events)
            events.append(SessionEvent(time: now, kind: .alarm(level: e.alarmLevel, repeat: 0, episode: e.number, cause: e.cause, reason: e.reason)))
        }
        // The last level persists: it repeats until the person is back.
        if e.alarmLevel == ladder.count, let last = lastAlarmAt, now - last >= configuration.alarms.repeatEvery {
            alarmRepeats += 1
            alarmCount += 1
            lastAlarmAt = now
            events.append(SessionEvent(time: now, kind: .alarm(level: e.alarmLevel, repeat: alarmRepeats, episode: e.number, cause: e.cause, reason: e.reason)))
        }
        episode = e
    }

    private mutating func closeEpisode(at now: Timestamp, by closer: String, into events: inout [SessionEvent]) {
        guard var e = episode else { return }
        let end = max(now, e.start)
        e.end = end
        e.closedBy = closer
        episodeSeconds += end - e.start
        if let first = firstAlarmAt {
            events.append(SessionEvent(time: end, kind: .alarmCleared(level: e.alarmLevel, episode: e.number, recoverySeconds: max(0, end - first))))
        }
        events.append(SessionEvent(time: end, kind: .episodeEnded(e)))
        episode = nil
        firstAlarmAt = nil
        lastAlarmAt = nil
        snoozedUntil = nil
        datingFloor = end
    }

    private mutating func transition(to next: SessionState, at now: Timestamp, reason: String?, into events: inout [SessionEvent]) {
        guard next != state else { return }
        events.append(SessionEvent(time: now, kind: .stateChanged(from: state, to: next, score: score, reason: reason)))
        state = next
    }
}
