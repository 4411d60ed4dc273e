import DequeModule

// The four built-in signals, each defined as any plug-in signal is: a scorer conforming to
// `SignalScorer`, a detail type for its reason, and a `SignalDefinition` that
// `SignalCatalog.builtIn` registers.

extension SignalDefinition {
    /// Keyboards, mice and touchpads: presence (cause `away`) and app switching (`switching`).
    public static let input = SignalDefinition(sensor: .input, causes: [.away, .switching]) { c in
        var scorers: [any SignalScorer] = []
        if c.input.enabled { scorers.append(InputScorer(config: c.input)) }
        if c.switching.enabled { scorers.append(SwitchingScorer(config: c.switching)) }
        return scorers
    }
    /// The microphone's level: a loud room (`noise`).
    public static let audio = SignalDefinition(sensor: .audio, causes: [.noise]) { c in
        c.audio.enabled ? [NoiseScorer(config: c.audio)] : []
    }
    /// Position fixes: outside the workplace (`location`).
    public static let location = SignalDefinition(sensor: .location, causes: [.location]) { c in
        c.location.enabled ? [LocationScorer(config: c.location)] : []
    }
}

/// Idle time: "no input for 4 min".
public struct IdleDetail: ScoreDetail {
    public var seconds: Double
    public var reason: String { "no input for \(humanMinutes(seconds))" }
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
    public var reason: String { "noise \(Int(level.rounded())) \(loudness ? "LUFS" : "dBFS") for \(humanMinutes(seconds))" }
}

/// Distance from the workplace: "212 m from the office".
public struct DistanceDetail: ScoreDetail {
    public var metres: Double
    public var place: String?
    public var reason: String { "\(Int(metres.rounded())) m \(place.map { "from \($0)" } ?? "from where the session started")" }
}

/// Linear ramp: 0 at or below `low`, 1 at or above `high`.
@inlinable func ramp(_ x: Double, _ low: Double, _ high: Double) -> Double {
    if x <= low { return 0 }
    if x >= high { return 1 }
    return (x - low) / (high - low)
}

// MARK: - Input: idle and away

/// Scores time without input, with a noise filter on the way back.
///
/// While present, any activity resets the idle clock. Once the idle time passes the grace period the
/// person counts as away *since their last input*, and from then on a single key or a nudge of the
/// mouse does not bring them back: it takes `resumeEvents` activity events within `resumeWithin`,
/// as break timers do.
public struct InputScorer: SignalScorer {
    public var sensor: SensorKind { .input }
    public var cause: Cause { .away }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Input
    /// The last input that counted. `nil` until the first input sample: no input detector, no score.
    public private(set) var lastInput: Timestamp?
    /// Set once idle passes the grace period: the instant of the last input before it.
    public private(set) var awaySince: Timestamp?
    private var returning = Deque<(time: Timestamp, events: Int)>()
    private var returningEvents = 0
    private var enabled = true

    public init(config: VigilConfiguration.Input) { self.config = config }

    /// Activity events in a window: what the noise filter counts.
    @inlinable static func events(in a: InputActivity, minTravel: Double) -> Int {
        a.keyPresses + a.clicks + a.scrollTicks + a.switches.total + (a.pointerTravel >= minTravel ? 1 : 0)
    }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        if case .input(let a) = payload { observe(a, at: t) }
    }

    public mutating func observe(_ a: InputActivity, at t: Timestamp) {
        guard config.enabled else { return }
        enabled = true
        let events = Self.events(in: a, minTravel: config.minPointerTravel)
        // The window's end minus its idle time is when its last event happened.
        let lastEvent = t - max(a.idle, 0)
        guard let last = lastInput else {
            // First sample: the idle it reports tells when the last input was.
            lastInput = t - max(a.idle, 0)
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
                if returningEvents >= config.resumeEvents {
                    awaySince = nil
                    lastInput = lastEvent
                    returning.removeAll()
                    returningEvents = 0
                }
            }
        }
        advance(to: t)
    }

    /// Moves the away decision forward to `now`.
    public mutating func advance(to now: Timestamp) {
        guard enabled, awaySince == nil, let last = lastInput, now - last >= config.idleGrace else { return }
        awaySince = last
    }

    /// The sensor came back (the idle clock starts again) or went away (no evidence any more).
    public mutating func sensorChanged(to state: SensorState, at t: Timestamp) {
        if state == .available { restart(at: t) } else { disable() }
    }

    /// Forget the past: after a pause, a break or a gap the idle clock starts again at `now`.
    public mutating func restart(at now: Timestamp) {
        if lastInput != nil { lastInput = now }
        awaySince = nil
        returning.removeAll()
        returningEvents = 0
    }

    /// The input detector is gone: no input is not evidence of absence any more.
    public mutating func disable() {
        enabled = false
        lastInput = nil
        awaySince = nil
        returning.removeAll()
        returningEvents = 0
    }

    /// No input detector, or no input seen yet: no evidence of absence until a sample comes.
    public var isQuiet: Bool { !config.enabled || !enabled || lastInput == nil }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, enabled, let last = lastInput else { return 0 }
        return ramp(now - (awaySince ?? last), config.idleGrace, config.idleFull)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, enabled, let last = lastInput else { return nil }
        let since = awaySince ?? last
        return Assessment(cause: .away, score: score(at: now), detail: IdleDetail(seconds: now - since), since: since)
    }
}

// MARK: - App switching

/// Scores the number of app switches in a sliding window.
public struct SwitchingScorer: SignalScorer {
    public var sensor: SensorKind { .input }
    public var cause: Cause { .switching }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Switching
    private var recent = Deque<(time: Timestamp, count: Int)>()
    private var total = 0

    public init(config: VigilConfiguration.Switching) { self.config = config }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        if case .input(let a) = payload { observe(a, at: t) }
    }

    public mutating func observe(_ a: InputActivity, at t: Timestamp) {
        guard config.enabled else { return }
        let n = a.switches.total
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
public struct NoiseScorer: SignalScorer {
    public var sensor: SensorKind { .audio }
    public var cause: Cause { .noise }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Audio
    private var loudSince: Timestamp?
    private var lastLoud: Timestamp?
    private var levelSum = 0.0
    private var levelCount = 0
    private var loudnessKnown = true

    public init(config: VigilConfiguration.Audio) { self.config = config }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        if case .audio(let level) = payload { observe(level, at: t) }
    }

    public mutating func observe(_ level: AudioLevel, at t: Timestamp) {
        guard config.enabled else { return }
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
    public mutating func sensorChanged(to state: SensorState, at t: Timestamp) {
        if state != .available { forget() }
    }

    private mutating func forget() {
        loudSince = nil
        lastLoud = nil
    }

    /// Not loud: quiet dips have nothing to end, and nothing scores, until a loud sample.
    public var isQuiet: Bool { !config.enabled || loudSince == nil }

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

    /// After a pause or a gap, time outside must be earned again from fresh fixes.
    public mutating func restart(at now: Timestamp) { outsideSince = nil }

    /// Inside the fence (or not yet outside long enough to count): only a fix can change that.
    public var isQuiet: Bool { !config.enabled || outsideSince == nil }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, let since = outsideSince, lastDistance != nil else { return 0 }
        return ramp(now - since, config.grace, config.full)
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let since = outsideSince, let d = lastDistance else { return nil }
        return Assessment(cause: .location, score: score(at: now), detail: DistanceDetail(metres: d, place: placeName), since: since)
    }
}
