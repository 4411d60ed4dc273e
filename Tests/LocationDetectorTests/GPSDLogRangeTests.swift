import Foundation
import Testing
import VigilCore

@testable import SensorFiles

/// Huge finite numbers in a gpsd log (issue 17): each number a fix is made of lies in the range
/// Vigil's own recordings allow, or the report is refused with its line, the key and the range.
@Suite struct GPSDLogRangeTests {
    static func tpv(_ fields: String) -> String {
        #"{"class":"TPV","time":"2026-03-02T09:00:01Z","lat":1,"lon":2,\#(fields)}"# + "\n"
    }

    @Test(arguments: [
        (#""mode":3,"eph":1e19"#, "TPV \"eph\" must be from 0 to 20037509 m (half the Earth's circumference), got 1e+19"),
        (#""mode":3,"eph":-1"#, "TPV \"eph\" must be from 0 to 20037509 m"),
        (#""mode":3,"epx":3,"epy":1e300"#, "TPV \"epy\" must be from 0 to 20037509 m"),
        (#""mode":2,"speed":1e19"#, "TPV \"speed\" must be from 0 to 20000 m/s, got 1e+19"),
        (#""mode":2,"speed":-4"#, "TPV \"speed\" must be from 0 to 20000 m/s"),
        // NSNumber's intValue made 1e23 a fix (mode 200376420520689663) and 1e19 none.
        (#""mode":1e23"#, "TPV \"mode\" must be from 0 to 3 (gpsd's fix modes), got 1e+23"),
        (#""mode":-1e19"#, "TPV \"mode\" must be from 0 to 3"),
        (#""mode":2.5"#, "TPV \"mode\" must be 0, 1, 2 or 3, got 2.5"),
    ])
    func aNumberOutOfRangeNamesTheLine(fields: String, message: String) {
        let text = #"{"class":"VERSION","release":"3.22"}"# + "\n" + Self.tpv(fields)
        do {
            _ = try GPSDLog.parse(Data(text.utf8), name: "log.json")
            Issue.record("\(fields) was accepted")
        } catch {
            #expect(error.description.hasPrefix("log.json:2: "), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func numbersAtTheEdgesAreRead() throws {
        let log = try GPSDLog.parse(Data(Self.tpv(#""mode":3,"eph":20037509,"speed":20000"#).utf8), name: "log.json")
        let fixes = log.samples.compactMap { s -> LocationFix? in if case .location(let f) = s.payload { f } else { nil } }
        #expect(fixes.map(\.horizontalAccuracy) == [20_037_509])
        #expect(fixes.map(\.speed) == [20_000])
        // A report without a fix may say nothing else.
        #expect(try GPSDLog.parse(Data(Self.tpv(#""mode":0"#).utf8), name: "log.json").track.fixes == 0)
    }
}
