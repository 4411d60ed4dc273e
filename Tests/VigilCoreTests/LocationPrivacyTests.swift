import Testing

@testable import VigilCore

/// Exact positions do not leave the location detector by default: a fix leaves as its distance
/// from the workplace and a coarse cell, and the engine judges it the same as the exact fix.
@Suite struct LocationPrivacyTests {
    static let library = VigilConfiguration.Workplace(name: "the library", latitude: 52.2053, longitude: 0.1218, radius: 120)

    @Test func aFixLeavesAsItsDistanceAndACoarseCell() {
        var config = VigilConfiguration.Location()
        config.workplace = Self.library
        var privacy = LocationPrivacy(config: config)
        let exact = LocationFix(latitude: 52.20712, longitude: 0.12345, horizontalAccuracy: 6, speed: 1.2, mode: .threeD)
        let out = privacy.protect(exact)
        // The cell 52.20–52.21 × 0.12–0.13, by its centre.
        #expect(out.latitude == 52.205)
        #expect(out.longitude == 0.125)
        #expect(out.cellSize == 0.01)
        #expect(!out.isExact)
        #expect(out.distanceFromWorkplace == Geodesy.distance(latitude: 52.2053, longitude: 0.1218, latitude: 52.20712, longitude: 0.12345))
        #expect(out.horizontalAccuracy == 6 && out.speed == 1.2 && out.mode == .threeD)

        // South and west of the origin, and the poles' edge.
        #expect(privacy.protect(LocationFix(latitude: -33.8568, longitude: 151.2153, mode: .twoD)).latitude == -33.855)
        #expect(privacy.protect(LocationFix(latitude: -33.8568, longitude: -151.2153, mode: .twoD)).longitude == -151.215)
        #expect(privacy.protect(LocationFix(latitude: 90, longitude: 180, mode: .twoD)).latitude == 90)

        // A fix that cannot be judged leaves without a distance (and without its position).
        let vague = privacy.protect(LocationFix(latitude: 52.20712, longitude: 0.12345, horizontalAccuracy: 400, mode: .threeD))
        #expect(vague.distanceFromWorkplace == nil && vague.latitude == 52.205)
    }

    @Test func theOptInKeepsExactCoordinates() {
        var config = VigilConfiguration.Location()
        config.exactCoordinates = true
        var privacy = LocationPrivacy(config: config)
        let exact = LocationFix(latitude: 52.20712, longitude: 0.12345, horizontalAccuracy: 6, mode: .threeD)
        #expect(privacy.protect(exact) == exact)
    }

    /// A walk out of the fence and back, with jitter, a vague fix and a lost fix: the scorer reaches
    /// the same assessment at every step whether it sees the exact fixes or what the detector hands
    /// over, both with a configured workplace and with "where the session started".
    @Test(arguments: [true, false]) func theScorerJudgesCoarseFixesAsItJudgesExactOnes(configuredWorkplace: Bool) {
        var config = VigilConfiguration.Location()
        if configuredWorkplace { config.workplace = Self.library }
        var rng = SplitMix64(seed: 7)
        var exactFixes: [(Timestamp, LocationFix)] = []
        let t0 = Timestamp(seconds: 1_800_000_000)
        for step in 0..<240 {
            // Still for 2 minutes, 1.5 m/s north for 5, still for 1, back south.
            let s = Double(step) * 5
            let north = s < 120 ? 0 : s < 420 ? (s - 120) * 1.5 : s < 480 ? 450 : max(0, 450 - (s - 480) * 1.5)
            let jitter = (Double(rng.next() % 1000) / 1000 - 0.5) * 8
            var fix = LocationFix(latitude: 52.2053 + (north + jitter) / 111_200, longitude: 0.1218, horizontalAccuracy: 5, mode: .threeD)
            if step == 90 { fix.horizontalAccuracy = 300 }
            if step == 91 { fix.mode = .noFix }
            exactFixes.append((t0 + Double(step) * 5, fix))
        }
        var privacy = LocationPrivacy(config: config)
        let coarseFixes = exactFixes.map { ($0.0, privacy.protect($0.1)) }
        var a = LocationScorer(config: config)
        var b = LocationScorer(config: config)
        var outside = 0
        for (exact, coarse) in zip(exactFixes, coarseFixes) {
            #expect(coarse.1.latitude != exact.1.latitude)
            a.observe(exact.1, at: exact.0)
            b.observe(coarse.1, at: coarse.0)
            let judged = a.assess(at: exact.0)
            #expect(judged == b.assess(at: coarse.0), "at \(exact.0)")
            if judged != nil { outside += 1 }
        }
        #expect(outside > 30, "the walk leaves the fence for minutes")
    }

    @Test func aCoarseFixWithoutADistanceIsNotMeasured() {
        var scorer = LocationScorer(config: VigilConfiguration.Location())
        let t0 = Timestamp(seconds: 1_800_000_000)
        scorer.observe(LocationFix(latitude: 52.205, longitude: 0.125, mode: .threeD, distanceFromWorkplace: 0, cellSize: 0.01), at: t0)
        // 5 km away by its cell, but no distance: it says nothing.
        scorer.observe(LocationFix(latitude: 52.255, longitude: 0.125, mode: .threeD, cellSize: 0.01), at: t0 + 10)
        #expect(scorer.lastDistance == 0)
        scorer.observe(LocationFix(latitude: 52.205, longitude: 0.125, mode: .threeD, distanceFromWorkplace: 500, cellSize: 0.01), at: t0 + 20)
        #expect(scorer.lastDistance == 500 && scorer.outsideSince == t0 + 20)
    }
}
