/// What leaves the location detector. By default a fix leaves as its distance from the session's
/// workplace, measured here on the exact position, and the coarse cell it lies in (0.01° square,
/// about 1.1 km north–south): enough to judge "has the person left?" and to see roughly where a
/// recording was made, never where exactly the person was. With `location.exact_coordinates: true`
/// (the person's opt-in, for analysing their own tracks) fixes leave as they came.
///
/// The engine judges a coarse fix by its distance alone, so a session and the replay of its
/// recording reach the same judgements either way.
public struct LocationPrivacy: Sendable {
    /// The side of a coarse cell, in degrees.
    public static let cellSize = 0.01

    public let keepsExactCoordinates: Bool
    private var fence: WorkplaceFence

    public init(config: VigilConfiguration.Location) {
        keepsExactCoordinates = config.exactCoordinates
        fence = WorkplaceFence(config: config)
    }

    /// The fix as it may leave the detector.
    public mutating func protect(_ fix: LocationFix) -> LocationFix {
        guard !keepsExactCoordinates, fix.isExact else { return fix }
        var coarse = fix
        coarse.distanceFromWorkplace = fence.distance(of: fix)
        coarse.latitude = Self.cellCentre(fix.latitude, limit: 90)
        coarse.longitude = Self.cellCentre(fix.longitude, limit: 180)
        coarse.cellSize = Self.cellSize
        return coarse
    }

    /// The centre of the cell holding `degrees`, rounded to the grid's own decimals (so it prints
    /// as 48.855, not 48.855000000000004) and kept inside ±limit.
    static func cellCentre(_ degrees: Double, limit: Double) -> Double {
        guard degrees.isFinite else { return degrees }
        let index = (degrees / cellSize).rounded(.down)
        let centre = ((index + 0.5) * cellSize * 1000).rounded() / 1000
        return min(max(centre, -limit), limit)
    }
}
