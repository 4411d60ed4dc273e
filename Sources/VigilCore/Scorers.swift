import DequeModule

/// Why the person is judged distracted. Also the key statistics group episodes by.
public enum Cause: String, Sendable, CaseIterable, Comparable {
    /// No input: away from the keyboard or idle.
    case away
    /// Too many app switches: scattered attention.
    case switching
    /// A loud room: noise or a conversation.
    case noise
    /// Outside the workplace geofence.
    case location

    public static func < (a: Cause, b: Cause) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One detector's judgement at an instant.
public struct Assessment: Hashable, Sendable {
    /// The facts behind a score. The human sentence is formatted from them only when an event needs
    /// it: formatting a string for every sample would cost more than the rest of the replay loop.
    public enum Detail: Hashable, Sendable {
        case idle(seconds: Double)
        case switches(count: Int, window: Double)
        /// `loudness` is true for LUFS, false for RMS dBFS.
        case noise(level: Double, loudness: Bool, seconds: Double)
        case distance(metres: Double, place: String?)
    }

    public var cause: Cause
    /// Distraction score in [0, 1].
    public var score: Double
    public var detail: Detail
    /// When the condition behind the score began (the last input, the first loud sample, the first
    /// fix outside). Episodes are dated back to this instant, not to when a threshold fired.
    public var since: Timestamp

    public init(cause: Cause, score: Double, detail: Detail, since: Timestamp) {
        self.cause = cause
        self.score = score
        self.detail = detail
        self.since = since
    }

    /// A human-readable reason: "no input for 4 min", "14 app switches in 2 min",
    /// "noise -21 LUFS for 3 min", "212 m from your workplace".
    public var reason: String {
        switch detail {
        case .idle(let s): "no input for \(humanMinutes(s))"
        case .switches(let n, let w): "\(n) app switches in \(humanMinutes(w))"
        case .noise(let level, let loudness, let s): "noise \(Int(level.rounded())) \(loudness ? "LUFS" : "dBFS") for \(humanMinutes(s))"
        case .distance(let m, let place): "\(Int(m.rounded())) m \(place.map { "from \($0)" } ?? "from where the session started")"
        }
    }
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
public struct InputScorer: Sendable {
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

    /// Forget the past: after a pause, a break or a gap the idle clock starts again at `now`.
    public mutating func reset(at now: Timestamp) {
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

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, enabled, let last = lastInput else { return nil }
        let since = awaySince ?? last
        let idle = now - since
        return Assessment(cause: .away, score: ramp(idle, config.idleGrace, config.idleFull), detail: .idle(seconds: idle), since: since)
    }
}

// MARK: - App switching

/// Scores the number of app switches in a sliding window.
public struct SwitchingScorer: Sendable {
    public let config: VigilConfiguration.Switching
    private var recent = Deque<(time: Timestamp, count: Int)>()
    private var total = 0

    public init(config: VigilConfiguration.Switching) { self.config = config }

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

    public mutating func reset() {
        recent.removeAll()
        total = 0
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let first = recent.first else { return nil }
        return Assessment(
            cause: .switching, score: ramp(Double(total), Double(config.calm), Double(config.storm)),
            detail: .switches(count: total, window: config.window), since: first.time)
    }
}

// MARK: - Noise

/// Scores how long the room has been loud, tolerating short quiet dips (pauses between sentences).
public struct NoiseScorer: Sendable {
    public let config: VigilConfiguration.Audio
    private var loudSince: Timestamp?
    private var lastLoud: Timestamp?
    private var levelSum = 0.0
    private var levelCount = 0
    private var loudnessKnown = true

    public init(config: VigilConfiguration.Audio) { self.config = config }

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
        if let last = lastLoud, now - last > config.quietDip { reset() }
    }

    public mutating func reset() {
        loudSince = nil
        lastLoud = nil
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let since = loudSince, levelCount > 0 else { return nil }
        let duration = now - since
        let mean = levelSum / Double(levelCount)
        return Assessment(
            cause: .noise, score: ramp(duration, config.grace, config.full),
            detail: .noise(level: mean, loudness: loudnessKnown, seconds: duration), since: since)
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
public struct LocationScorer: Sendable {
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
    public mutating func reset() { outsideSince = nil }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let since = outsideSince, let d = lastDistance else { return nil }
        return Assessment(
            cause: .location, score: ramp(now - since, config.grace, config.full),
            detail: .distance(metres: d, place: placeName), since: since)
    }
}
