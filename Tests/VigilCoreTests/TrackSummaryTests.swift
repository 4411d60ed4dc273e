import Foundation
import Testing
import VigilCore

/// Distance travelled without GPS jitter (issue 20: `vigil inspect` said 9.7 km "travelled" for a
/// receiver on a desk, its position wandering by its error and every step of that summed).
@Suite struct TrackSummaryTests {
    /// Metres per degree of latitude near 52° N (Vincenty on WGS 84: 0.0001° is 11.13 m).
    let metresPerDegree = 111_300.0

    func fix(_ northMetres: Double, _ eastMetres: Double, error: Double?) -> LocationFix {
        LocationFix(
            latitude: 52.2 + northMetres / metresPerDegree, longitude: 0.12 + eastMetres / (metresPerDegree * 0.6128),
            horizontalAccuracy: error, mode: .threeD)
    }

    @Test func aReceiverOnADeskTravelsNowhere() {
        var rng = SplitMix64(seed: 7)
        var track = TrackSummary()
        // Eight hours at one fix a second, each within its 8 m error of the desk.
        for _ in 0..<28_800 {
            let r = Double(rng.next() % 1000) / 1000 * 7.5
            let angle = Double(rng.next() % 6283) / 1000
            track.add(fix(r * cos(angle), r * sin(angle), error: 8))
        }
        #expect(track.pathLength > 50_000, "the jitter, summed: \(track.pathLength)")
        #expect(track.distanceTravelled == 0, "\(track.distanceTravelled)")
    }

    @Test func aWalkIsMeasuredCloseToItsLength() {
        var rng = SplitMix64(seed: 11)
        var track = TrackSummary()
        // 1 km north at 1.4 m/s, each fix up to 4 m off in each direction, with a 5 m error.
        var north = 0.0
        while north <= 1000 {
            let dn = Double(rng.next() % 8000) / 1000 - 4
            let de = Double(rng.next() % 8000) / 1000 - 4
            track.add(fix(north + dn, de, error: 5))
            north += 1.4
        }
        // From place to place the jitter mostly averages out: a little over the kilometre (the
        // centres still wander across the way), where every step summed is three times it.
        let travelled = track.distanceTravelled
        #expect(travelled > 1000 - 2 * 7.1 && travelled < 1250, "\(travelled)")
        #expect(track.pathLength > 2.5 * travelled, "\(track.pathLength)")
    }

    @Test func fixesWithoutAnErrorCountEveryStep() {
        var track = TrackSummary()
        for north in [0.0, 10, 20, 10] { track.add(fix(north, 0, error: nil)) }
        #expect(abs(track.distanceTravelled - 30) < 0.1)
        #expect(abs(track.pathLength - 30) < 0.1)
    }
}
