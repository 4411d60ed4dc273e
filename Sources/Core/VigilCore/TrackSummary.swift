/// Distances of a sequence of fixes, without keeping a coordinate: what `vigil inspect` reports
/// about a location recording.
public struct TrackSummary: Hashable, Sendable {
    /// Fixes added.
    public private(set) var fixes = 0
    /// Times a fix was followed by the loss of it.
    public private(set) var fixLosses = 0
    /// Sum of the geodesic distances between consecutive fixes, metres.
    public private(set) var distanceTravelled = 0.0
    /// The largest geodesic distance of any fix from the first, metres.
    public private(set) var maxDistanceFromFirstFix = 0.0
    /// Highest reported speed, m/s.
    public private(set) var maxSpeed: Double?
    /// Fixes that came as a coarse cell (the detector's default): they are counted, and their
    /// distance from the workplace kept, but no track is measured between cells.
    public private(set) var coarseFixes = 0
    /// The largest distance from the workplace a coarse fix carried, metres.
    public private(set) var maxDistanceFromWorkplace: Double?

    private var first: (lat: Double, lon: Double)?
    private var previous: (lat: Double, lon: Double)?
    private var hasFix = false

    public init() {}

    public mutating func add(_ fix: LocationFix) {
        fixes += 1
        hasFix = true
        if let s = fix.speed, s.isFinite { maxSpeed = max(maxSpeed ?? s, s) }
        guard fix.isExact else {
            coarseFixes += 1
            if let d = fix.distanceFromWorkplace, d.isFinite { maxDistanceFromWorkplace = max(maxDistanceFromWorkplace ?? d, d) }
            return
        }
        if let p = previous {
            distanceTravelled += Geodesy.distance(latitude: p.lat, longitude: p.lon, latitude: fix.latitude, longitude: fix.longitude)
        }
        if let f = first {
            maxDistanceFromFirstFix = max(
                maxDistanceFromFirstFix,
                Geodesy.distance(latitude: f.lat, longitude: f.lon, latitude: fix.latitude, longitude: fix.longitude))
        } else {
            first = (fix.latitude, fix.longitude)
        }
        previous = (fix.latitude, fix.longitude)
    }

    /// The receiver lost its fix (counted once per fix that was there).
    public mutating func loseFix() {
        if hasFix { fixLosses += 1 }
        hasFix = false
    }

    public static func == (a: TrackSummary, b: TrackSummary) -> Bool {
        a.fixes == b.fixes && a.fixLosses == b.fixLosses && a.distanceTravelled == b.distanceTravelled
            && a.maxDistanceFromFirstFix == b.maxDistanceFromFirstFix && a.maxSpeed == b.maxSpeed
            && a.coarseFixes == b.coarseFixes && a.maxDistanceFromWorkplace == b.maxDistanceFromWorkplace
    }

    public func hash(into h: inout Hasher) {
        h.combine(fixes)
        h.combine(fixLosses)
        h.combine(distanceTravelled)
    }
}
