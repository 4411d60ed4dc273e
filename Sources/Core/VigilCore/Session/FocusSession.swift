/// The focus-session state machine: a plain value that takes samples, control actions and clock
/// ticks, each with its instant, and returns the events they caused. It never reads a clock, so a
/// replay on a virtual clock and a live session on the wall clock run the same code, and tests step
/// it line by line (or start it in any state with the internal initializer).
///
/// ```
///            start                 score ≥ drift_enter              score ≥ distract_enter
///  planned ─────────→ focused ─────────────────────→ drifting ───── for distract_confirm ─────→ distracted
///                       ↑  ↑ ←──── score < drift_exit ───┘ ↑                                    │   │
///                       │  │                              └──── score < distract_exit ─────────┤   │ escalation
///                       │  └─────── score < distract_exit and < drift_exit, or a gap ───────────┘   ↓
///                       │                                                          alarm 1 → … → alarm N (repeats)
///                       │                                                          (back or a gap as from distracted)
///  focused, drifting, distracted, alarm ─pause/break→ paused ─resume→ focused;   any state ─end→ ended
/// ```
///
/// Each state carries only its own data (`Phase`): an episode exists only while distracted, and its
/// escalation and snoozes are a machine of their own (`EpisodeMachine`). Every event method is one
/// exhaustive switch over the phase. Scoring is pluggable: the session combines whatever scorers its
/// `SignalCatalog` makes from the configuration.
///
/// Hysteresis: each threshold has a lower exit value, so a score hovering around a threshold does not
/// flicker. Grace periods live in the scorers (a 60-second thinking pause scores nothing). A silence in
/// the samples longer than `session.gap` is a gap (suspend, sleep) and counts neither as focus nor as
/// distraction.
public struct FocusSession: Sendable {
    /// As the session began; a rule the person teaches during it is added (`learn`).
    public private(set) var configuration: VigilConfiguration
    public let task: String?
    /// Planned length in seconds; `nil` runs until `end` (a replay runs to the recording's end).
    public let plannedSeconds: Double?

    /// Where the session is, with the data of that state.
    var phase: Phase = .planned
    public internal(set) var startedAt: Timestamp?
    /// The combined distraction score at the last evaluation, in [0, 1].
    public internal(set) var score: Double = 0
    /// The assessment that dominates the combined score, if any scores above 0.
    public var dominant: Assessment? { dominantScorer.flatMap { scorers.assess($0, at: evaluatedAt) } }
    /// Which scorer dominated at the last evaluation, and when that was: the assessment itself is
    /// made only when a reason or a cause is needed, not at every sample.
    var dominantScorer: Int?
    private var evaluatedAt = Timestamp(nanoseconds: 0)

    var scorers: ScorerSet

    /// The last instant anything (a sample or a tick) was seen: gaps are measured from here.
    var lastSeen: Timestamp?
    /// Episodes may not be dated back before this (session start, resume, end of a gap, previous episode).
    var datingFloor: Timestamp?
    private var snoozesUsed = 0
    var ledger = Ledger()
    /// Asleep from "the computer is going to sleep" to the wake-up.
    var power = Power.awake
    /// The application in front and calls, as stretches of judged time.
    var activities = ActivityLedger()
    /// The instant of the last input if it left the scorers judged at it (a tick or a sample that
    /// evaluated, or had nothing to evaluate); nil after any other: see `steadiness()`.
    private var settledAt: Timestamp?

    public init(configuration: VigilConfiguration, task: String? = nil, plannedSeconds: Double? = nil, signals: SignalCatalog = .builtIn) {
        self.configuration = configuration
        self.task = task
        self.plannedSeconds = plannedSeconds
        scorers = ScorerSet(signals.makeScorers(configuration))
    }

    /// Starts the machine in any state, for tests: one line in, one event out, without stepping
    /// through hundreds of samples to get there. `lastSeen` defaults to `startedAt`.
    init(
        configuration: VigilConfiguration, task: String? = nil, plannedSeconds: Double? = nil, signals: SignalCatalog = .builtIn,
        phase: Phase, startedAt: Timestamp, lastSeen: Timestamp? = nil
    ) {
        self.init(configuration: configuration, task: task, plannedSeconds: plannedSeconds, signals: signals)
        self.phase = phase
        self.startedAt = startedAt
        self.lastSeen = lastSeen ?? startedAt
        datingFloor = startedAt
        if case .distracted(let m) = phase {
            ledger.episodes = m.record.number
            datingFloor = m.record.start
        }
    }

    public var state: SessionState { phase.state }

    /// The open distraction episode.
    public var episode: Episode? {
        if case .distracted(let m) = phase { return m.episode }
        return nil
    }

    /// Whether an episode is open (without making its words, as `episode` does).
    public var hasOpenEpisode: Bool {
        if case .distracted = phase { return true }
        return false
    }

    /// Whether the session has ended. Kept by `enter`, the one place the state changes: the
    /// stepper asks for every sample and tick, and matching the phase there copied the session.
    public private(set) var isEnded = false

    /// The instant the planned time is up, if there is a plan: later by the time the person paused
    /// or took a break (`session.pause_extends_plan`), booked up to the last instant seen.
    public var plannedEnd: Timestamp? {
        guard let s = startedAt, let p = plannedSeconds else { return nil }
        return s + p + (configuration.session.pauseExtendsPlan ? Ledger.seconds(ledger.paused) : 0)
    }

    /// See `Steadiness`. Asked between inputs only, so that a recording with a sample every second
    /// pays nothing for it; until a tick or sample has judged the scorers, the next tick is due.
    public func steadiness() -> Steadiness {
        guard let now = settledAt else { return Steadiness(until: lastSeen, riseThreshold: nil, scoreMayRise: true) }
        var due = plannedEnd
        func earliest(_ d: Timestamp?) {
            guard let d else { return }
            due = min(due ?? d, d)
        }
        var rise: Double?
        var rising = false
        switch phase {
        case .planned, .ended:
            due = nil
        case .paused:
            // A pause that extends the plan moves its end on as time passes.
            if configuration.session.pauseExtendsPlan { due = nil }
        case .watching(let w):
            guard power == .awake else { break }
            let outlook = scorers.outlook(after: now)
            rising = outlook.rising
            earliest(outlook.until)
            if let high = w.highSince { earliest(dueInstant(high, after: configuration.scoring.distractConfirm)) }
            if outlook.rising {
                // Rising, only reaching a threshold changes the state (falling ones cannot be crossed).
                let s = configuration.scoring
                if !w.drifting { rise = s.driftEnter }
                if w.highSince == nil { rise = min(rise ?? s.distractEnter, s.distractEnter) }
            }
        case .distracted(let m):
            guard power == .awake else { break }
            let outlook = scorers.outlook(after: now)
            rising = outlook.rising
            if outlook.rising, let until = outlook.until {
                // The episode keeps its highest score and its last reason: the tick before the
                // outlook ends is judged too.
                earliest(until - configuration.session.tick)
            } else {
                earliest(outlook.until)
            }
            earliest(m.nextAlarm(ladder: configuration.alarms.escalation, every: configuration.alarms.repeatEvery))
        }
        return Steadiness(until: due, riseThreshold: rise, scoreMayRise: rising)
    }

    /// The combined score an evaluation at `t` would give, without evaluating: valid while the
    /// scorers' outlooks hold (before `Steadiness.until`, with no input in between), where it never
    /// falls as `t` grows.
    public func scoreIfJudged(at t: Timestamp) -> Double {
        var keep = 1.0
        for i in scorers.indices {
            let s = scorers.score(i, at: t)
            guard s > 0 else { continue }
            keep *= 1 - s * scorers.weights[i]
        }
        return Self.combinedScore(keep: keep)
    }

    // MARK: Inputs

    public mutating func start(at now: Timestamp) -> [SessionEvent] {
        scorers.makeUnique()
        settledAt = nil
        switch phase {
        case .planned:
            startedAt = now
            lastSeen = now
            datingFloor = now
            scorers.restart(at: now)
            var events = [SessionEvent(time: now, kind: .sessionStarted(task: task, plannedSeconds: plannedSeconds))]
            enter(.watching(Watch()), at: now, reason: nil, into: &events)
            return events
        case .watching, .distracted, .paused, .ended:
            return []
        }
    }

    /// Feeds one sample. Samples must come in time order; a late one is judged at the current time.
    public mutating func receive(_ sample: Sample) -> [SessionEvent] {
        var events: [SessionEvent] = []
        receive(sample, into: &events)
        return events
    }

    /// `receive(_:)`, appending the events to `events`: a replay steps millions of samples, and
    /// most cause none.
    public mutating func receive(_ sample: Sample, into events: inout [SessionEvent]) {
        scorers.makeUnique()
        settledAt = nil
        switch phase {
        case .ended: return
        case .planned: events += start(at: sample.time)
        case .watching, .distracted, .paused: break
        }
        let now = max(sample.time, lastSeen ?? sample.time)
        if finishIfPlanReached(before: now, into: &events) { return }
        account(until: now, into: &events)

        switch sample.payload {
        case .desktop(.sleeping):
            fallAsleep(at: now, into: &events)
            return
        case .desktop(.woke):
            wake(at: now, into: &events)
            return
        case .input, .audio, .location, .desktop, .app, .media, .reading:
            // Between "going to sleep" and the wake-up, samples describe nobody.
            guard power == .awake else { return }
            // An application recorded before the person taught a rule is judged as it would be now.
            if case .app(let f) = sample.payload, let relearned = configuration.apps.relearned(f) {
                observe(.app(relearned), at: now, into: &events)
            } else {
                observe(sample.payload, at: now, into: &events)
            }
        case .status(let status):
            events.append(SessionEvent(time: now, kind: .sensorStatus(status)))
            scorers.sensorChanged(status, at: now)
        case .control(let action):
            events += control(action, at: now)
            return
        }
        guard power == .awake else { return }
        evaluate(at: now, into: &events)
        settledAt = now
    }

    /// A reading, for the scorers and (an application, a call) the stretches of time.
    private mutating func observe(_ payload: SamplePayload, at now: Timestamp, into events: inout [SessionEvent]) {
        scorers.observe(payload, at: now, judging: phase.isJudging)
        switch payload {
        case .app, .media: activities.note(payload, at: now, judging: phase.isJudging, into: &events)
        default: break
        }
    }

    /// Re-evaluates at `now` without a new sample: idle time grows, episodes escalate, the plan ends.
    public mutating func tick(at now: Timestamp) -> [SessionEvent] {
        var events: [SessionEvent] = []
        tick(at: now, into: &events)
        return events
    }

    /// `tick(at:)`, appending the events to `events`. A tick no later than the last sample (the
    /// usual one in a replay, whose samples come every second or more often) does nothing.
    public mutating func tick(at now: Timestamp, into events: inout [SessionEvent]) {
        guard let seen = lastSeen, now > seen else { return }
        scorers.makeUnique()
        settledAt = nil
        switch phase {
        case .planned, .ended:
            return
        case .watching, .distracted, .paused:
            if finishIfPlanReached(before: now, into: &events) { return }
            account(until: now, into: &events)
            if power == .awake { evaluate(at: now, into: &events) }
            settledAt = now
        }
    }

    /// A control action from the person: pause, break, resume, end or snooze; or the session's
    /// clock running again after a stall (`stallEnded`), which only books the gap.
    /// A rule the person taught during the session ("this was work"): from now on applications
    /// are judged as it says, `current` (the application in front, as its detector gave it) at once.
    public mutating func learn(_ rule: LearnedRule, current: AppFocus?, at now: Timestamp, into events: inout [SessionEvent]) {
        configuration.apps.learned.removeAll { $0.appClass == rule.appClass && $0.insteadOf == rule.insteadOf }
        configuration.apps.learned.append(rule)
        if let current { receive(Sample(time: now, payload: .app(current)), into: &events) }
    }

    public mutating func control(_ action: ControlAction, at now: Timestamp) -> [SessionEvent] {
        scorers.makeUnique()
        settledAt = nil
        var events: [SessionEvent] = []
        switch phase {
        case .ended: return events
        case .planned: events += start(at: now)
        case .watching, .distracted, .paused: break
        }
        if finishIfPlanReached(before: now, into: &events) { return events }
        account(until: now, into: &events)
        // Someone pressing keys in the live view is awake, whether or not the wake-up was told.
        // (A clock that ran again is no one pressing keys: after a suspend, logind's wake-up
        // ends the sleep.)
        if action != .stallEnded, action != .alive { wake(at: now, into: &events) }
        switch action {
        case .pause, .breakTime:
            let kind: PauseKind = action == .pause ? .pause : .breakTime
            let reason = StateReason.paused(kind)
            switch phase {
            case .watching:
                enter(.paused(kind), at: now, reason: reason, into: &events)
            case .distracted(let m):
                // Stepping away on purpose ends the episode, and it is no return to work: its
                // alarm stops without a recovery time (and earns nothing).
                closeEpisode(m, at: now, by: kind == .pause ? .paused : .onBreak, into: &events)
                enter(.paused(kind), at: now, reason: reason, into: &events)
            case .paused(let current):
                if current != kind { enter(.paused(kind), at: now, reason: nil, into: &events) }
            case .planned, .ended:
                break
            }
        case .resume:
            switch phase {
            case .paused(let kind):
                restartJudging(at: now)
                enter(.watching(Watch()), at: now, reason: .back(from: kind), into: &events)
            case .planned, .watching, .distracted, .ended:
                break
            }
        case .end:
            events += end(.user, at: now)
        case .stallEnded:
            // The gap is booked above, by `account`, as for a sample after the silence.
            break
        case .alive:
            // The time since the last instant seen is booked above, as a tick books it.
            break
        case .snooze:
            let allowed = configuration.alarms.snoozes
            switch phase {
            case .distracted(let m) where m.snoozedUntil.map { now < $0 } == true:
                // Already quiet: pressing snooze again spends nothing and says until when.
                events.append(SessionEvent(time: now, kind: .snoozeRefused(.alreadySnoozed(seconds: (m.snoozedUntil ?? now) - now))))
            case .distracted(var m) where m.record.alarmLevel > 0 && snoozesUsed < allowed:
                snoozesUsed += 1
                let until = now + configuration.alarms.snooze
                m.snoozedUntil = until
                phase = .distracted(m)
                events.append(
                    SessionEvent(
                        time: now,
                        kind: .alarmSnoozed(
                            level: m.episode.alarmLevel, episode: m.episode.number, until: until, left: allowed - snoozesUsed)))
            case .distracted(let m) where m.record.alarmLevel > 0:
                events.append(SessionEvent(time: now, kind: .snoozeRefused(.noneLeft(allowed: allowed))))
            case .planned, .watching, .distracted, .paused, .ended:
                events.append(SessionEvent(time: now, kind: .snoozeRefused(.noAlarm)))
            }
        }
        return events
    }

    /// Ends the session at `now`. The outcome follows from `cause` and the planned time.
    public mutating func end(_ cause: EndCause, at now: Timestamp) -> [SessionEvent] {
        scorers.makeUnique()
        settledAt = nil
        var events: [SessionEvent] = []
        switch phase {
        case .planned, .ended:
            return events
        case .watching, .distracted, .paused:
            guard let started = startedAt else { return events }
            let at = max(now, lastSeen ?? now)
            account(until: at, into: &events)
            if case .asleep(let asleep) = power {
                power = .awake
                recordGap(from: asleep, to: at, into: &events)
            }
            if case .distracted(let m) = phase { closeEpisode(m, at: at, by: .ended, into: &events) }
            activities.close(at: at, into: &events)
            let outcome: SessionOutcome
            switch cause {
            case .planReached, .recordingEnded: outcome = .completed
            case .interrupted: outcome = .interrupted
            case .user: outcome = plannedEnd.map { at < $0 } == true ? .abandoned : .completed
            }
            enter(.ended(outcome), at: at, reason: nil, into: &events)
            let summary = SessionSummary(
                outcome: outcome, started: started, ended: at, activeSeconds: Ledger.seconds(ledger.active),
                focusedSeconds: Ledger.seconds(max(0, ledger.active - ledger.distracted)), distractedSeconds: Ledger.seconds(ledger.distracted),
                pausedSeconds: Ledger.seconds(ledger.paused), breakSeconds: Ledger.seconds(ledger.onBreak), gapSeconds: Ledger.seconds(ledger.gaps),
                episodes: ledger.episodes, alarms: ledger.alarms)
            events.append(SessionEvent(time: at, kind: .sessionEnded(summary)))
            return events
        }
    }

    // MARK: Internals

    /// The combined score, and which scorer explains it: the most specific cause among those
    /// scoring (see `Specificity`), then the higher weighted score, then the scorer registered first
    /// (so the outcome never depends on timing).
    private mutating func combine(at now: Timestamp) {
        var keep = 1.0
        var best: Int?
        var bestWeighted = 0.0
        var scoring = 0
        for i in scorers.indices {
            let s = scorers.judge(i, at: now)
            guard s > 0 else { continue }
            let w = s * scorers.weights[i]
            keep *= 1 - w
            scoring += 1
            if w > bestWeighted {
                bestWeighted = w
                best = i
            }
        }
        // Usually one scorer or none scores, and it explains itself; only when several do are
        // their causes' specificities asked for (the scores are kept by the set as it judged them).
        if scoring > 1 {
            var bestSpecificity = Int.min
            bestWeighted = 0
            for i in scorers.indices where scorers.lastScores[i] > 0 {
                let specificity = scorers.specificity(i, at: now)
                let w = scorers.lastScores[i] * scorers.weights[i]
                if specificity > bestSpecificity || (specificity == bestSpecificity && w > bestWeighted) {
                    bestSpecificity = specificity
                    bestWeighted = w
                    best = i
                }
            }
        }
        score = Self.combinedScore(keep: keep)
        dominantScorer = best
        evaluatedAt = now
    }

    /// Probabilistic OR of the weighted scores, given the product of their complements: two
    /// moderate signals together weigh more than either alone, never above 1. Rounded to 1e-12 so
    /// that a single score of exactly a threshold (0.2) is not read as 0.19999999999999996 after
    /// the 1 - (1 - x) round trip.
    @inline(__always) private static func combinedScore(keep: Double) -> Double {
        min(1, max(0, ((1 - keep) * 1e12).rounded() / 1e12))
    }

    mutating func evaluate(at now: Timestamp, into events: inout [SessionEvent]) {
        let s = configuration.scoring
        switch phase {
        case .planned, .paused, .ended:
            return
        case .watching(var w):
            combine(at: now)
            if score >= s.distractEnter {
                let since = w.highSince ?? now
                w.highSince = since
                phase = .watching(w)
                if now - since >= s.distractConfirm || dominant?.decisive == true {
                    openEpisode(at: now, into: &events)
                    return
                }
            } else {
                w.highSince = nil
                phase = .watching(w)
            }
            if !w.drifting, score >= s.driftEnter {
                w.drifting = true
                enter(.watching(w), at: now, reason: dominant.map { .signal($0.reason) }, into: &events)
            } else if w.drifting, score < s.driftExit {
                w.drifting = false
                enter(.watching(w), at: now, reason: nil, into: &events)
            }
        case .distracted(var m):
            combine(at: now)
            m.record.peakScore = max(m.record.peakScore, score)
            if let d = dominant { m.detail = d.detail }
            phase = .distracted(m)
            if score < s.distractExit {
                closeEpisode(m, at: now, by: .back, into: &events)
                enter(.watching(Watch(drifting: score >= s.driftExit)), at: now, reason: dominant.map { .signal($0.reason) }, into: &events)
            } else {
                escalate(at: now, into: &events)
            }
        }
    }

    private mutating func openEpisode(at now: Timestamp, into events: inout [SessionEvent]) {
        guard let d = dominant else { return }
        ledger.episodes += 1
        let start = min(now, max(d.since, datingFloor ?? d.since))
        let e = Episode(number: ledger.episodes, start: start, confirmedAt: now, cause: d.cause, peakScore: score, reason: d.reason)
        enter(.distracted(EpisodeMachine(episode: e)), at: now, reason: .signal(d.reason), into: &events)
        events.append(SessionEvent(time: now, kind: .episodeStarted(e)))
        escalate(at: now, into: &events)
    }

    /// Fires the alarms that fell due: each level as its time comes, then the last level again.
    private mutating func escalate(at now: Timestamp, into events: inout [SessionEvent]) {
        guard case .distracted(var m) = phase else { return }
        let quiet = m.isSnoozed(at: now)
        phase = .distracted(m)
        guard !quiet else { return }
        while let level = m.raise(at: now, ladder: configuration.alarms.escalation) {
            ledger.alarms += 1
            enter(.distracted(m), at: now, reason: .signal(m.episode.reason), into: &events)
            events.append(
                SessionEvent(
                    time: now, kind: .alarm(level: level, repeat: 0, episode: m.episode.number, cause: m.episode.cause, reason: m.episode.reason)))
        }
        if let n = m.repeatLast(at: now, levels: configuration.alarms.escalation.count, every: configuration.alarms.repeatEvery) {
            ledger.alarms += 1
            phase = .distracted(m)
            events.append(
                SessionEvent(
                    time: now,
                    kind: .alarm(level: m.episode.alarmLevel, repeat: n, episode: m.episode.number, cause: m.episode.cause, reason: m.episode.reason))
            )
        }
    }

    /// Tells the end of the episode `m`. The caller moves to the next phase.
    mutating func closeEpisode(_ m: EpisodeMachine, at now: Timestamp, by closer: EpisodeCloser, into events: inout [SessionEvent]) {
        var e = m.episode
        let end = max(now, e.start)
        e.end = end
        e.closedBy = closer
        ledger.distracted = Ledger.add(ledger.distracted, from: e.start, to: end)
        if let first = m.firstAlarmAt {
            let recovery = closer == .back ? max(0, end - first) : nil
            events.append(
                SessionEvent(time: end, kind: .alarmCleared(level: e.alarmLevel, episode: e.number, closedBy: closer, recoverySeconds: recovery)))
        }
        events.append(SessionEvent(time: end, kind: .episodeEnded(e)))
        datingFloor = end
    }

    /// The one way the phase changes state: a `stateChanged` event whenever the state people see changes.
    mutating func enter(_ next: Phase, at now: Timestamp, reason: StateReason?, into events: inout [SessionEvent]) {
        let from = phase.state
        // Stretches in applications and on calls run while the session judges (and not asleep).
        if phase.isJudging, !next.isJudging { activities.close(at: now, into: &events) }
        if !phase.isJudging, next.isJudging, power == .awake { activities.open(at: now) }
        phase = next
        let to = next.state
        if case .ended = to { isEnded = true }
        if from != to { events.append(SessionEvent(time: now, kind: .stateChanged(from: from, to: to, score: score, reason: reason))) }
    }
}
