// Location: outside the workplace geofence (cause `location`).

/// Distance from the workplace: "212 m from the office".
public struct DistanceDetail: ScoreDetail {
    public var metres: Double
    public var place: String?
    public var reason: String { "\(Int(saturating: metres.rounded())) m \(place.map { "from \($0)" } ?? "from where the session started")" }
}

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
