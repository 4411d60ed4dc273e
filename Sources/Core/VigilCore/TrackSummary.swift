/// Distances of a sequence of fixes, without keeping a coordinate: what `vigil inspect` reports
/// about a location recording.
public struct TrackSummary: Hashable, Sendable {
    /// Fixes added.
    public private(set) var fixes = 0
    /// Times a fix was followed by the loss of it.
    public private(set) var fixLosses = 0
    /// Distance travelled, metres: only movement beyond the fixes' own error. A receiver on a desk
    /// reports a position that wanders by its error; summing every step of that wandering made a
    /// day at the desk kilometres long. Consecutive fixes within their combined error of the
    /// centre of the fixes before them are one place, at that centre (their mean, where the
    /// jitter averages out); a fix beyond it starts the next place, and the track is the path
    /// from centre to centre (`horizontalAccuracy`; a fix that does not say counts as exact).
    public var distanceTravelled: Double {
        guard let place, let previous = previousPlace else { return closedDistance }
        return closedDistance + Geodesy.distance(latitude: previous.lat, longitude: previous.lon, latitude: place.lat, longitude: place.lon)
    }
    /// Sum of the geodesic distances between consecutive fixes, metres, jitter included: the
    /// path's length as tools that sum every step report it.
    public private(set) var pathLength = 0.0
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
    /// The place the latest fixes are at: their sums, to average, and how many.
    private var sums: (lat: Double, lon: Double, error: Double, count: Double)?
    private var place: (lat: Double, lon: Double, error: Double)? {
        sums.map { ($0.lat / $0.count, $0.lon / $0.count, $0.error / $0.count) }
    }
    /// The centre of the place before, and the path between the places before it.
    private var previousPlace: (lat: Double, lon: Double)?
    private var closedDistance = 0.0
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
            pathLength += Geodesy.distance(latitude: p.lat, longitude: p.lon, latitude: fix.latitude, longitude: fix.longitude)
        }
        let error = fix.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        if let here = place {
            let d = Geodesy.distance(latitude: here.lat, longitude: here.lon, latitude: fix.latitude, longitude: fix.longitude)
            if d > (here.error * here.error + error * error).squareRoot() {
                // Moved on: the place is left, at its centre, and a new one starts at this fix.
                if let previous = previousPlace {
                    closedDistance += Geodesy.distance(latitude: previous.lat, longitude: previous.lon, latitude: here.lat, longitude: here.lon)
                }
                previousPlace = (here.lat, here.lon)
                sums = nil
            }
        }
        let s = sums ?? (0, 0, 0, 0)
        sums = (s.lat + fix.latitude, s.lon + fix.longitude, s.error + error, s.count + 1)
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
        a.fixes == b.fixes && a.fixLosses == b.fixLosses && a.distanceTravelled == b.distanceTravelled && a.pathLength == b.pathLength
            && a.maxDistanceFromFirstFix == b.maxDistanceFromFirstFix && a.maxSpeed == b.maxSpeed
            && a.coarseFixes == b.coarseFixes && a.maxDistanceFromWorkplace == b.maxDistanceFromWorkplace
    }

    public func hash(into h: inout Hasher) {
        h.combine(fixes)
        h.combine(fixLosses)
        h.combine(distanceTravelled)
    }
}
