// Noise: a loud room (cause `noise`).

/// A loud stretch: "noise -21 LUFS for 3 min". `loudness` is true for LUFS, false for RMS dBFS.
public struct NoiseDetail: ScoreDetail {
    public var level: Double
    public var loudness: Bool
    public var seconds: Double
    public var reason: String { "noise \(Int(saturating: level.rounded())) \(loudness ? "LUFS" : "dBFS") for \(reasonDuration(seconds))" }
}

/// Scores how long the room has been loud, tolerating short quiet dips (pauses between sentences).
///
/// During a call (another program recording from a microphone) the room is the person's own
/// meeting: nothing scores until it ends.
public struct NoiseScorer: SignalScorer {
    public var sensor: SensorKind { .audio }
    public var sensors: [SensorKind] { [.audio, .media, .calendar] }
    public var cause: Cause { .noise }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Audio
    public let media: VigilConfiguration.Media
    private var onCall = false
    private var inMeeting = false
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
            if onCall || inMeeting { forget() }
        case .reading(let r) where r.sensor == .calendar:
            // A meeting's talk is no noisy room.
            inMeeting = (r.value ?? 0) >= 1
            if inMeeting { forget() }
        default: break
        }
    }

    public mutating func observe(_ level: AudioLevel, at t: Timestamp) {
        guard config.enabled, !onCall, !inMeeting else { return }
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
        if status.sensor == .calendar { inMeeting = false }
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
