import DequeModule

// The built-in signals, each defined as any plug-in signal is: a scorer conforming to
// `SignalScorer`, a detail type for its reason, and a `SignalDefinition` that
// `SignalCatalog.builtIn` registers.

extension SignalDefinition {
    /// Keyboards, mice and touchpads: presence (cause `away`, also fed by the desktop and calls)
    /// and app switching (`switching`, also fed by the application in front).
    public static let input = SignalDefinition(sensor: .input, causes: [.away, .switching]) { c in
        var scorers: [any SignalScorer] = []
        if c.input.enabled || c.desktop.enabled { scorers.append(PresenceScorer(config: c.input, desktop: c.desktop, media: c.media)) }
        if c.switching.enabled { scorers.append(SwitchingScorer(config: c.switching, countsFocus: c.apps.enabled && c.apps.countSwitches)) }
        return scorers
    }
    /// The desktop's idle time, lock and sleep: read by the presence scorer (`input`) and, for
    /// sleep, by the session itself.
    public static let desktop = SignalDefinition(sensor: .desktop, causes: []) { _ in [] }
    /// The application in front: time in distracting applications (`app`).
    public static let app = SignalDefinition(sensor: .app, causes: [.app]) { c in
        c.apps.enabled ? [AppScorer(config: c.apps)] : []
    }
    /// The microphone's level: a loud room (`noise`).
    public static let audio = SignalDefinition(sensor: .audio, causes: [.noise]) { c in
        c.audio.enabled ? [NoiseScorer(config: c.audio, media: c.media)] : []
    }
    /// Calls and playback: read by the presence and noise scorers.
    public static let media = SignalDefinition(sensor: .media, causes: []) { _ in [] }
    /// Position fixes: outside the workplace (`location`).
    public static let location = SignalDefinition(sensor: .location, causes: [.location]) { c in
        c.location.enabled ? [LocationScorer(config: c.location)] : []
    }
}

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

/// App switches in the scorer's window: "14 app switches in 2 min".
public struct SwitchDetail: ScoreDetail {
    public var count: Int
    public var window: Double
    public var reason: String { "\(count) app switches in \(humanMinutes(window))" }
}

/// A loud stretch: "noise -21 LUFS for 3 min". `loudness` is true for LUFS, false for RMS dBFS.
public struct NoiseDetail: ScoreDetail {
    public var level: Double
    public var loudness: Bool
    public var seconds: Double
    public var reason: String { "noise \(Int(saturating: level.rounded())) \(loudness ? "LUFS" : "dBFS") for \(reasonDuration(seconds))" }
}

/// Distance from the workplace: "212 m from the office".
public struct DistanceDetail: ScoreDetail {
    public var metres: Double
    public var place: String?
    public var reason: String { "\(Int(saturating: metres.rounded())) m \(place.map { "from \($0)" } ?? "from where the session started")" }
}

/// Linear ramp: 0 at or below `low`, 1 at or above `high`.
@inlinable func ramp(_ x: Double, _ low: Double, _ high: Double) -> Double {
    if x <= low { return 0 }
    if x >= high { return 1 }
    return (x - low) / (high - low)
}

// MARK: - Presence: idle, lock and calls

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
    public var sensors: [SensorKind] { [.input, .desktop, .media] }
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

    public init(
        config: VigilConfiguration.Input, desktop: VigilConfiguration.Desktop = .init(), media: VigilConfiguration.Media = .init()
    ) {
        self.config = config
        self.desktop = desktop
        self.media = media
    }

    private var enabled: Bool { inputAlive || desktopAlive }
    /// Present and busy whatever the idle time says.
    private var busy: Bool { onCall || (playing && media.playbackIsPresence) }

    /// Activity events in a window: what the noise filter counts.
    @inlinable static func events(in a: InputActivity, minTravel: Double) -> Int {
        a.keyPresses + a.clicks + a.scrollTicks + a.switches.total + (a.pointerTravel >= minTravel ? 1 : 0)
    }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        switch payload {
        case .input(let a): observe(a, at: t)
        case .desktop(let e): observe(e, at: t)
        case .media(let m): observe(m, at: t)
        default: break
        }
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

// MARK: - App switching

/// Scores the number of app switches in a sliding window.
///
/// Where the application in front is known (`app` samples), each change of it is a switch, and
/// libinput's Alt+Tab, Super, workspace and swipe gestures no longer count: they are the same
/// switches seen twice. Ctrl+Tab (tabs inside one application) still counts.
public struct SwitchingScorer: SignalScorer {
    public var sensor: SensorKind { .input }
    public var sensors: [SensorKind] { countsFocus ? [.input, .app] : [.input] }
    public var cause: Cause { .switching }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Switching
    /// `apps.count_switches` with the app signal on.
    public let countsFocus: Bool
    private var recent = Deque<(time: Timestamp, count: Int)>()
    private var total = 0
    /// The application in front, once an app sample said.
    private var focused: String?

    public init(config: VigilConfiguration.Switching, countsFocus: Bool = false) {
        self.config = config
        self.countsFocus = countsFocus
    }

    public mutating func specificity(at now: Timestamp) -> Int { Specificity.switching }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        switch payload {
        case .input(let a): observe(a, at: t)
        case .app(let f): observe(f, at: t)
        default: break
        }
    }

    public mutating func observe(_ a: InputActivity, at t: Timestamp) {
        guard config.enabled else { return }
        note(focused == nil ? a.switches.total : a.switches.ctrlTab, at: t)
    }

    public mutating func observe(_ f: AppFocus, at t: Timestamp) {
        guard config.enabled, countsFocus else { return }
        // No window in front (the desktop, a lock screen) is not an application to switch to.
        guard !f.appClass.isEmpty else { return }
        let previous = focused
        focused = f.appClass
        note(previous != nil && previous != f.appClass ? 1 : 0, at: t)
    }

    private mutating func note(_ n: Int, at t: Timestamp) {
        if n > 0 {
            recent.append((t, n))
            total += n
        }
        advance(to: t)
    }

    public mutating func advance(to now: Timestamp) {
        while let first = recent.first, now - first.time > config.window {
            total -= first.count
            recent.removeFirst()
        }
    }

    public mutating func restart(at now: Timestamp) {
        recent.removeAll()
        total = 0
    }

    /// No switch in the window: nothing to forget, nothing to score.
    public var isQuiet: Bool { !config.enabled || recent.isEmpty }

    /// The count holds until the oldest switch leaves the window.
    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        guard config.enabled, let first = recent.first else { return .steady(until: nil) }
        return .steady(until: dueInstant(first.time, after: config.window))
    }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, !recent.isEmpty else { return 0 }
        return ramp(Double(total), Double(config.calm), Double(config.storm))
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let first = recent.first else { return nil }
        return Assessment(cause: .switching, score: score(at: now), detail: SwitchDetail(count: total, window: config.window), since: first.time)
    }
}

// MARK: - Noise

/// Scores how long the room has been loud, tolerating short quiet dips (pauses between sentences).
///
/// During a call (another program recording from a microphone) the room is the person's own
/// meeting: nothing scores until it ends.
public struct NoiseScorer: SignalScorer {
    public var sensor: SensorKind { .audio }
    public var sensors: [SensorKind] { [.audio, .media] }
    public var cause: Cause { .noise }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Audio
    public let media: VigilConfiguration.Media
    private var onCall = false
    private var loudSince: Timestamp?
    private var lastLoud: Timestamp?
    private var levelSum = 0.0
    private var levelCount = 0
    private var loudnessKnown = true

    public init(config: VigilConfiguration.Audio, media: VigilConfiguration.Media = .init()) {
        self.config = config
        self.media = media
    }

    public mutating func specificity(at now: Timestamp) -> Int { Specificity.noise }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        switch payload {
        case .audio(let level): observe(level, at: t)
        case .media(let m):
            onCall = media.enabled && media.callsArePresence && m.onCall
            if onCall { forget() }
        default: break
        }
    }

    public mutating func observe(_ level: AudioLevel, at t: Timestamp) {
        guard config.enabled, !onCall else { return }
        advance(to: t)
        let value = level.level
        guard value >= config.loud else { return }
        if loudSince == nil {
            loudSince = t
            levelSum = 0
            levelCount = 0
        }
        lastLoud = t
        levelSum += value
        levelCount += 1
        loudnessKnown = level.shortTermLUFS != nil
    }

    public mutating func advance(to now: Timestamp) {
        if let last = lastLoud, now - last > config.quietDip { forget() }
    }

    public mutating func restart(at now: Timestamp) { forget() }

    /// A microphone that stopped working says nothing about the room any more.
    public mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp) {
        guard status.state != .available else { return }
        if status.sensor == .audio { forget() }
        if status.sensor == .media { onCall = false }
    }

    private mutating func forget() {
        loudSince = nil
        lastLoud = nil
    }

    /// Not loud: quiet dips have nothing to end, and nothing scores, until a loud sample.
    public var isQuiet: Bool { !config.enabled || loudSince == nil }

    /// The ramp of the loud stretch, until a quiet dip longer than `quiet_dip` forgets it.
    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        guard config.enabled, let since = loudSince, let last = lastLoud else { return .steady(until: nil) }
        let dip = ScoreOutlook.steady(until: dueInstant(last, after: config.quietDip))
        guard levelCount > 0 else { return dip }
        return dip.combined(with: .ramp(since: since, now: now, low: config.grace, high: config.full))
    }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, let since = loudSince, levelCount > 0 else { return 0 }
        return ramp(now - since, config.grace, config.full)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let since = loudSince, levelCount > 0 else { return nil }
        let mean = levelSum / Double(levelCount)
        return Assessment(
            cause: .noise, score: score(at: now), detail: NoiseDetail(level: mean, loudness: loudnessKnown, seconds: now - since), since: since)
    }
}

// MARK: - Location

/// The workplace a session is judged against and how far a fix is from it: the configured
/// workplace, or the first usable fix of the session. Shared by the location detector (which
/// measures on exact positions before dropping them) and the scorer (which measures fixes from the
/// person's own files, whose coordinates are exact).
public struct WorkplaceFence: Sendable {
    public let config: VigilConfiguration.Location
    /// The fence centre: the configured workplace, or the first usable fix of the session.
    public private(set) var centre: Geodesy.LocalPlane?
    public let radius: Double

    public init(config: VigilConfiguration.Location) {
        self.config = config
        radius = config.workplace?.radius ?? config.radius
        if let w = config.workplace { centre = Geodesy.LocalPlane(latitude: w.latitude, longitude: w.longitude) }
    }

    /// Whether a fix may be judged: a 2D/3D fix whose error estimate is within `max_accuracy`.
    public func isUsable(_ fix: LocationFix) -> Bool {
        fix.mode >= .twoD && fix.latitude.isFinite && fix.longitude.isFinite && (fix.horizontalAccuracy ?? 0) <= config.maxAccuracy
    }

    /// Metres from the centre to an exact fix, or `nil` when the fix is not usable. The first
    /// usable fix becomes the centre when no workplace is configured (distance 0).
    public mutating func distance(of fix: LocationFix) -> Double? {
        guard isUsable(fix) else { return nil }
        guard let c = centre else {
            centre = Geodesy.LocalPlane(latitude: fix.latitude, longitude: fix.longitude)
            return 0
        }
        // The tangent plane answers "inside or outside?" for almost every fix. Near the fence, and
        // whenever the fix is outside (its distance is then reported), the geodesic decides.
        let accuracy = fix.horizontalAccuracy ?? 0
        let d = c.distance(latitude: fix.latitude, longitude: fix.longitude)
        let margin = 1 + d * 1e-3
        if d - accuracy > radius - margin || abs(d - radius) < margin || d > 2_000 {
            return Geodesy.distance(latitude: c.latitude, longitude: c.longitude, latitude: fix.latitude, longitude: fix.longitude)
        }
        return d
    }
}

/// Scores time spent outside the workplace geofence.
///
/// Fixes without a 2D/3D fix, or with an error estimate worse than `maxAccuracy`, are ignored, and a
/// fix counts as outside only when even its error circle is outside the fence: GPS jitter and the
/// drop-outs of an indoor receiver hold the last judgement instead of counting as leaving. A fix
/// from the detector brings its distance (its coordinates are only a coarse cell); a fix with
/// exact coordinates is measured here.
public struct LocationScorer: SignalScorer {
    public var sensor: SensorKind { .location }
    public var cause: Cause { .location }
    public var weight: Double { config.weight }
    /// The fence centre is taken from the first good fix even while the session is paused, and a
    /// lost fix holds the last judgement (indoors is not "leaving").
    public var observesWhilePaused: Bool { true }
    public let config: VigilConfiguration.Location
    public private(set) var fence: WorkplaceFence
    public var radius: Double { fence.radius }
    /// The workplace's name, for reasons; `nil` for "where the session started".
    public let placeName: String?
    public private(set) var outsideSince: Timestamp?
    /// Distance from the centre at the last good fix, in metres.
    public private(set) var lastDistance: Double?

    public init(config: VigilConfiguration.Location) {
        self.config = config
        fence = WorkplaceFence(config: config)
        placeName = config.workplace?.name
    }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        if case .location(let fix) = payload { observe(fix, at: t) }
    }

    public mutating func observe(_ fix: LocationFix, at t: Timestamp) {
        guard config.enabled else { return }
        let measured: Double?
        if fix.isExact {
            measured = fence.distance(of: fix)
        } else {
            // Coarse coordinates cannot be measured: only the detector's distance counts.
            measured = fence.isUsable(fix) ? fix.distanceFromWorkplace.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } : nil
        }
        guard let d = measured else { return }
        let accuracy = fix.horizontalAccuracy ?? 0
        lastDistance = d
        if d - accuracy > radius {
            if outsideSince == nil { outsideSince = t }
        } else if d <= radius {
            outsideSince = nil
        }
    }

    public mutating func specificity(at now: Timestamp) -> Int { Specificity.location }

    /// After a pause or a gap, time outside must be earned again from fresh fixes.
    public mutating func restart(at now: Timestamp) { outsideSince = nil }

    /// Inside the fence (or not yet outside long enough to count): only a fix can change that.
    public var isQuiet: Bool { !config.enabled || outsideSince == nil }

    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        guard config.enabled, let since = outsideSince, lastDistance != nil else { return .steady(until: nil) }
        return .ramp(since: since, now: now, low: config.grace, high: config.full)
    }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, let since = outsideSince, lastDistance != nil else { return 0 }
        return ramp(now - since, config.grace, config.full)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let since = outsideSince, let d = lastDistance else { return nil }
        return Assessment(cause: .location, score: score(at: now), detail: DistanceDetail(metres: d, place: placeName), since: since)
    }
}

// MARK: - The application in front

/// Time in distracting applications: "9 min in Firefox — youtube (distracting)".
public struct AppDetail: ScoreDetail {
    public var appClass: String
    public var rule: String?
    public var seconds: Double
    public var reason: String {
        "\(reasonDuration(seconds)) in \(appClass)\(rule.map { " — \($0)" } ?? "") (distracting)"
    }
}

/// Scores time spent in applications the person classed as distracting (`apps:` rules). Moving
/// between two distracting applications is one stretch; any other application in front ends it.
public struct AppScorer: SignalScorer {
    public var sensor: SensorKind { .app }
    public var cause: Cause { .app }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Apps
    /// The distracting application in front, and since when distracting ones have been.
    public private(set) var current: AppFocus?
    public private(set) var distractingSince: Timestamp?

    public init(config: VigilConfiguration.Apps) { self.config = config }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        if case .app(let f) = payload { observe(f, at: t) }
    }

    public mutating func observe(_ f: AppFocus, at t: Timestamp) {
        guard config.enabled else { return }
        if f.category == .distracting {
            current = f
            if distractingSince == nil { distractingSince = t }
        } else {
            current = nil
            distractingSince = nil
        }
    }

    /// Still in the distracting application: the stretch starts again from `now`.
    public mutating func restart(at now: Timestamp) {
        if distractingSince != nil { distractingSince = now }
    }

    public mutating func sensorChanged(to state: SensorState, at t: Timestamp) {
        if state != .available {
            current = nil
            distractingSince = nil
        }
    }

    public var isQuiet: Bool { distractingSince == nil }

    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        guard let since = distractingSince else { return .steady(until: nil) }
        return .ramp(since: since, now: now, low: config.grace, high: config.full)
    }

    public mutating func specificity(at now: Timestamp) -> Int { Specificity.app }

    public func score(at now: Timestamp) -> Double {
        guard let since = distractingSince else { return 0 }
        return ramp(now - since, config.grace, config.full)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard let since = distractingSince, let f = current else { return nil }
        return Assessment(
            cause: .app, score: score(at: now), detail: AppDetail(appClass: f.appClass, rule: f.rule, seconds: now - since), since: since)
    }
}
