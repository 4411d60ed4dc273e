import DequeModule

// Presence: idle time, the screen lock and calls (cause `away`), and the same reading of them for
// whoever waits for the person to come back.

/// Idle time: "no input for 4 min", or "watching/listening, no input for 6 min" while sound plays.
/// Once away, a touch of the mouse is not enough to be back (`input.resume_events`): then the
/// reason says both, "away for 7 min, last input 3 min ago", so it agrees with the idle time the
/// sensors show beside it.
public struct IdleDetail: ScoreDetail {
    public var seconds: Double
    public var playing = false
    /// Seconds since input that did not count as being back, when there was some.
    public var sinceLastInput: Double? = nil
    public var reason: String {
        let watching = playing ? "watching/listening, " : ""
        guard let touch = sinceLastInput else { return watching + "no input for \(reasonDuration(seconds))" }
        return watching + "away for \(reasonDuration(seconds)), last input \(reasonDuration(touch)) ago"
    }
}

/// Scores the person's absence from every source of presence at once: libinput's input windows,
/// the desktop's idle time and screen lock, and calls on the sound server.
///
/// The rule when sources disagree: activity seen by any source is presence (a keyboard libinput
/// does not follow, input the desktop did not see), so the last input is the latest any source
/// reports; a locked screen is absence whatever the idle times say, from the instant of the lock,
/// without a grace period; a call is presence whatever the idle times say.
///
/// While present, any activity resets the idle clock. Once the idle time passes the grace period the
/// person counts as away *since their last input*, and from then on a single key or a nudge of the
/// mouse does not bring them back: it takes `resumeEvents` activity events within `resumeWithin`,
/// as break timers do. Unlocking the screen (typing a password) brings them back at once.
public struct PresenceScorer: SignalScorer {
    public var sensor: SensorKind { .input }
    public var sensors: [SensorKind] { [.input, .desktop, .media, .calendar] }
    public var cause: Cause { .away }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Input
    public let desktop: VigilConfiguration.Desktop
    public let media: VigilConfiguration.Media
    /// The last input that counted. `nil` until the first sample: no presence source, no score.
    public private(set) var lastInput: Timestamp?
    /// Set once idle passes the grace period: the instant of the last input before it.
    public private(set) var awaySince: Timestamp?
    /// When the screen was locked, while it is.
    public private(set) var lockedSince: Timestamp?
    private var returning = Deque<(time: Timestamp, events: Int)>()
    private var returningEvents = 0
    /// Whether libinput and the desktop can tell; the scorer judges while either can. libinput is
    /// assumed until it says otherwise (as before the desktop was a source); the desktop from its
    /// first sample or status.
    private var inputAlive = true
    private var desktopAlive = false
    private var onCall = false
    private var playing = false
    /// A meeting in the person's calendar runs.
    private var inMeeting = false

    public init(
        config: VigilConfiguration.Input, desktop: VigilConfiguration.Desktop = .init(), media: VigilConfiguration.Media = .init()
    ) {
        self.config = config
        self.desktop = desktop
        self.media = media
    }

    private var enabled: Bool { inputAlive || desktopAlive }
    /// Present and busy whatever the idle time says.
    private var busy: Bool { onCall || inMeeting || (playing && media.playbackIsPresence) }

    /// Activity events in a window: what the noise filter counts.
    @inlinable static func events(in a: InputActivity, minTravel: Double) -> Int {
        a.keyPresses + a.clicks + a.scrollTicks + a.switches.total + (a.pointerTravel >= minTravel ? 1 : 0)
    }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        switch payload {
        case .input(let a): observe(a, at: t)
        case .desktop(let e): observe(e, at: t)
        case .media(let m): observe(m, at: t)
        case .reading(let r) where r.sensor == .calendar: observeMeeting((r.value ?? 0) >= 1, at: t)
        default: break
        }
    }

    /// A meeting began or ended: present and busy while it runs, as on a call.
    public mutating func observeMeeting(_ running: Bool, at t: Timestamp) {
        let wasBusy = busy
        inMeeting = running
        // The end of a meeting starts the idle clock: the person was in it until then.
        if wasBusy && !busy && lastInput != nil { back(at: t) }
    }

    public mutating func observe(_ a: InputActivity, at t: Timestamp) {
        guard config.enabled else { return }
        inputAlive = true
        // The window's end minus its idle time is when its last event happened.
        noteActivity(lastEvent: t - max(a.idle, 0), events: Self.events(in: a, minTravel: config.minPointerTravel), at: t)
    }

    public mutating func observe(_ e: DesktopEvent, at t: Timestamp) {
        guard desktop.enabled else { return }
        desktopAlive = true
        switch e {
        case .idle(let seconds):
            let lastEvent = t - max(seconds, 0)
            // The desktop reports a time, not events: input since the last input it has seen is one
            // event (a quarter of a second tells fresh input from rounding). While away, the last
            // seen is the latest touch, not the last input before leaving: one touch, reported
            // again by every idle sample after it, is one event, not enough to be back.
            var seen = lastInput
            if let touch = returning.last?.time, let last = seen, touch > last { seen = touch }
            noteActivity(lastEvent: lastEvent, events: Self.isFresh(lastEvent, after: seen) ? 1 : 0, at: t)
        case .locked:
            guard desktop.lockIsAway, lockedSince == nil else { return }
            lockedSince = t
            lastInput = lastInput ?? t
        case .unlocked:
            guard lockedSince != nil else { return }
            // Unlocking takes a password: the person is back, now.
            lockedSince = nil
            back(at: t)
        case .sleeping, .woke:
            break
        }
    }

    public mutating func observe(_ m: MediaActivity, at t: Timestamp) {
        guard media.enabled else { return }
        let wasBusy = busy
        onCall = media.callsArePresence && m.onCall
        playing = m.isPlaying
        // The end of a call starts the idle clock: the person was there until then.
        if wasBusy && !busy && lastInput != nil { back(at: t) }
    }

    /// Whether the last input the desktop reports is new since `seen`, the latest activity seen
    /// before: by default a quarter of a second tells fresh input from the rounding of idle times.
    @inlinable public static func isFresh(_ lastEvent: Timestamp, after seen: Timestamp?, tolerance: Double = 0.25) -> Bool {
        seen.map { lastEvent - $0 > tolerance } ?? false
    }

    private mutating func noteActivity(lastEvent: Timestamp, events: Int, at t: Timestamp) {
        guard let last = lastInput else {
            // First sample: the idle it reports tells when the last input was.
            lastInput = lastEvent
            advance(to: t)
            return
        }
        if events > 0 {
            if awaySince == nil {
                if lastEvent > last { lastInput = lastEvent }
            } else {
                returning.append((lastEvent, events))
                returningEvents += events
                while let first = returning.first, lastEvent - first.time > config.resumeWithin {
                    returningEvents -= first.events
                    returning.removeFirst()
                }
                if returningEvents >= config.resumeEvents { back(at: lastEvent) }
            }
        }
        advance(to: t)
    }

    private mutating func back(at t: Timestamp) {
        awaySince = nil
        lastInput = max(t, lastInput ?? t)
        returning.removeAll()
        returningEvents = 0
    }

    /// Moves the away decision forward to `now`.
    public mutating func advance(to now: Timestamp) {
        if busy, lastInput != nil {
            // On a call the idle clock does not run.
            lastInput = now
            return
        }
        guard enabled, awaySince == nil, let last = lastInput, now - last >= config.idleGrace else { return }
        awaySince = last
    }

    /// `advance`, `score` and `isQuiet` in one: this runs at every evaluation of every session.
    public mutating func judge(at now: Timestamp) -> (score: Double, quiet: Bool) {
        if busy, lastInput != nil {
            // On a call the idle clock does not run.
            lastInput = now
            return (lockedSince == nil ? 0 : 1, lockedSince == nil)
        }
        if lockedSince != nil { return (1, false) }
        guard inputAlive || desktopAlive, let last = lastInput else { return (0, true) }
        if awaySince == nil, now - last >= config.idleGrace { awaySince = last }
        return (ramp(now - (awaySince ?? last), config.idleGrace, config.idleFull), false)
    }

    /// A source came back (the idle clock starts again) or went away (its silence is no evidence
    /// any more; with no source left, nothing is judged).
    public mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp) {
        let available = status.state == .available
        switch status.sensor {
        case .input: inputAlive = available
        case .desktop:
            desktopAlive = available
            if !available { lockedSince = nil }
        case .media:
            if !available { (onCall, playing) = (false, false) }
            return
        case .calendar:
            if !available { inMeeting = false }
            return
        default: return
        }
        if available { restart(at: t) } else if !enabled { disable() }
    }

    /// Forget the past: after a pause, a break or a gap the idle clock starts again at `now`.
    public mutating func restart(at now: Timestamp) {
        if lastInput != nil { lastInput = now }
        if lockedSince != nil { lockedSince = now }
        awaySince = nil
        returning.removeAll()
        returningEvents = 0
    }

    /// No source left: no input is not evidence of absence any more.
    public mutating func disable() {
        lastInput = nil
        awaySince = nil
        lockedSince = nil
        returning.removeAll()
        returningEvents = 0
    }

    /// No source, or no sample seen yet, or on a call: nothing scores until a sample comes.
    public var isQuiet: Bool { lockedSince == nil && (!enabled || lastInput == nil || busy) }

    public mutating func specificity(at now: Timestamp) -> Int { lockedSince == nil ? Specificity.idle : Specificity.locked }

    /// Locked: 1 for ever. On a call the idle clock is held at every judgement, so no promise.
    /// Otherwise nothing until the grace period is over (when the person counts as away), then
    /// the ramp to `idle_full`.
    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        if busy, lastInput != nil { return .steady(until: now) }
        if lockedSince != nil { return .steady(until: nil) }
        guard enabled, let last = lastInput else { return .steady(until: nil) }
        guard let since = awaySince else {
            return .steady(until: now - last < config.idleGrace ? dueInstant(last, after: config.idleGrace) : now)
        }
        return .ramp(since: since, now: now, low: config.idleGrace, high: config.idleFull)
    }

    public func score(at now: Timestamp) -> Double {
        if lockedSince != nil { return 1 }
        guard enabled, !busy, let last = lastInput else { return 0 }
        return ramp(now - (awaySince ?? last), config.idleGrace, config.idleFull)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        if let locked = lockedSince {
            return Assessment(cause: .away, score: 1, detail: LockDetail(seconds: now - locked), since: locked, decisive: true)
        }
        guard enabled, let last = lastInput else { return nil }
        let since = awaySince ?? last
        let touch = awaySince != nil ? returning.last.map { now - $0.time } : nil
        return Assessment(
            cause: .away, score: score(at: now), detail: IdleDetail(seconds: now - since, playing: playing && !busy, sinceLastInput: touch),
            since: since)
    }
}

/// The presence rule, one sample at a time, for whoever waits for the person rather than scoring
/// their absence (the session after a Pomodoro break): the same sources and the same reading of
/// them as `PresenceScorer`. A sample shows the person is here when it has activity from any
/// source: an input window with activity events (keys, clicks, scroll, switches, a pointer moved
/// further than `input.min_pointer_travel`), input the desktop saw after the latest activity seen
/// before, the screen unlocked (a password was typed), or a call starting (`media.calls_are_presence`).
public struct PresenceWatch: Sendable {
    public let input: VigilConfiguration.Input
    public let desktop: VigilConfiguration.Desktop
    public let media: VigilConfiguration.Media
    /// The latest activity any source reported.
    private var lastActivity: Timestamp?
    private var onCall = false

    public init(_ configuration: VigilConfiguration) {
        input = configuration.input
        desktop = configuration.desktop
        media = configuration.media
    }

    /// Takes the next sample; true when it shows the person here, now.
    public mutating func observe(_ sample: Sample) -> Bool {
        let t = sample.time
        switch sample.payload {
        case .input(let a):
            guard input.enabled, PresenceScorer.events(in: a, minTravel: input.minPointerTravel) > 0 else { return false }
            note(t - max(a.idle, 0))
            return true
        case .desktop(.idle(let seconds)):
            guard desktop.enabled else { return false }
            let last = t - max(seconds, 0)
            defer { note(last) }
            // One sample ends the wait, so a reading stamped late on a busy machine must not look
            // like input: a return moves the last input by minutes, never by two seconds.
            return PresenceScorer.isFresh(last, after: lastActivity, tolerance: 2)
        case .desktop(.unlocked):
            guard desktop.enabled else { return false }
            note(t)
            return true
        case .media(let m):
            guard media.enabled, media.callsArePresence else { return false }
            defer { onCall = m.onCall }
            return m.onCall && !onCall
        case .desktop, .audio, .location, .app, .reading, .status, .control:
            return false
        }
    }

    private mutating func note(_ t: Timestamp) { lastActivity = max(t, lastActivity ?? t) }
}

/// A locked screen: "screen locked for 3 min".
public struct LockDetail: ScoreDetail {
    public var seconds: Double
    public var reason: String { "screen locked for \(reasonDuration(seconds))" }
}
