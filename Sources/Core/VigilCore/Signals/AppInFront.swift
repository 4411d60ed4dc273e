// The application in front: time in distracting applications (cause `app`).

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
