import Foundation
import Testing
import VigilCore

@testable import SensorFiles

/// The gpsd JSON reader (what `vigil replay` and `vigil inspect` read a `gpspipe -w` log with),
/// checked against gpsd's own regression output and a summary of it computed independently.
@Suite struct GPSDLogTests {
    struct Derived {
        var reports: Int, noFix: Int, twoD: Int, threeD: Int
        var firstTime: String
        var maxDisplacement: Double, pathLength: Double
    }

    /// DERIVED_tpv_summary.csv, computed from the .chk files by a separate script (Data/SOURCE.txt).
    static func derived(_ log: String) throws -> Derived {
        let csv = try String(contentsOfFile: logsDir + "/DERIVED_tpv_summary.csv", encoding: .utf8)
        let row = try #require(csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }.first { $0.first == log })
        return Derived(
            reports: Int(row[1])!, noFix: Int(row[2])!, twoD: Int(row[3])!, threeD: Int(row[4])!, firstTime: row[6],
            maxDisplacement: Double(row[9])!, pathLength: Double(row[10])!)
    }

    @Test(arguments: ["ch-4711.log", "haicom-305N.log"])
    func theSummaryAgreesWithTheIndependentOne(log: String) throws {
        let want = try Self.derived(log)
        let got = try GPSDLog.read(path: "\(logsDir)/\(log).chk")
        #expect(got.reports == want.reports)
        #expect(got.track.fixes == want.twoD + want.threeD)
        // The CSV is to 0.1 m and, judging by its figures, spherical; Vigil's distances are on the
        // ellipsoid, which differ by up to 0.5 %.
        #expect(abs(got.track.maxDistanceFromFirstFix - want.maxDisplacement) <= max(0.15, want.maxDisplacement * 0.005))
        #expect(abs(got.track.pathLength - want.pathLength) <= max(0.15, want.pathLength * 0.005))
        // Beyond the fixes' error: never more than the path, and for these moving receivers most of it.
        #expect(got.track.distanceTravelled <= got.track.pathLength + 1e-6)
        #expect(got.start == parseRFC3339(want.firstTime))
        // The .chk interleaves the NMEA sentences gpsd echoed: skipped, not errors.
        #expect(got.skippedLines > 0)
    }

    @Test func fixesCarryTheirReportsTimeAndLossIsAStatus() throws {
        let text = """
            {"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}
            {"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0"}]}
            {"class":"WATCH","enable":true,"json":true}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":1}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-02T09:00:01.000Z","lat":52.2053,"lon":0.1218,"epx":4.0,"epy":6.5,"speed":0.2}
            {"class":"SKY","device":"/dev/ttyUSB0","satellites":[]}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":2,"time":"2026-03-02T09:00:02.000Z","lat":52.2054,"lon":0.1218,"eph":12.0}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2026-03-02T09:00:03.000Z"}
            {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-02T09:00:05.000Z","lat":52.2053,"lon":0.1218}

            """
        let log = try GPSDLog.parse(Data(text.utf8), name: "log.json")
        let t0 = parseRFC3339("2026-03-02T09:00:01Z")!
        #expect(log.start == t0)
        #expect(log.samples.map(\.time) == [t0, t0, t0 + 1, t0 + 2, t0 + 4, t0 + 4])
        guard log.samples.count == 6 else { return }
        #expect(
            log.samples[1].payload == .location(LocationFix(latitude: 52.2053, longitude: 0.1218, horizontalAccuracy: 6.5, speed: 0.2, mode: .threeD))
        )
        #expect(log.samples[2].payload == .location(LocationFix(latitude: 52.2054, longitude: 0.1218, horizontalAccuracy: 12, mode: .twoD)))
        let states = log.samples.compactMap { if case .status(let s) = $0.payload { s.state } else { nil } }
        #expect(states == [.available, .noFix, .available])
        #expect(log.track.fixLosses == 1)
        // 0.0001° of latitude at 52° N is 11.13 m on the ellipsoid (Vincenty), there and back.
        #expect(abs(log.track.pathLength - 2 * 11.13) < 0.05)
        // Beyond the errors: 11.13 m is within the 6.5 m and 12 m fixes' combined error (13.6 m);
        // the third fix, which does not say, is back at the first, 0 m from the anchor.
        #expect(log.track.distanceTravelled == 0)
        #expect(abs(log.track.maxDistanceFromFirstFix - 11.13) < 0.03)
    }

    @Test(arguments: [
        ("{\"class\":\"TPV\",\"mode\":3,\"time\":\"2026-03-02T09:00:01Z\",\"lat\":1,\"lon\":2}\nhello\n", 2, "not a gpsd JSON report"),
        ("{\"mode\":3}\n", 1, "has no"),
        ("{\"class\":\"TPV\",\"mode\":3,\"time\":\"yesterday\",\"lat\":1,\"lon\":2}\n", 1, "not an ISO 8601 time"),
        ("{\"class\":\"TPV\",\"mode\":3,\"lat\":1,\"lon\":2}\n", 0, "no TPV report has a \"time\""),
        ("{\"class\":\"TPV\",\"mode\":3,\"time\":\"2026-03-02T09:00:01Z\",\"lat\":100,\"lon\":2}\n", 1, "out of range"),
        ("$GPGGA,1,2,3\n", 0, "no gpsd JSON reports"),
    ])
    func badLogsNameTheLine(text: String, line: Int, message: String) {
        do {
            _ = try GPSDLog.parse(Data(text.utf8), name: "bad.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.file == "bad.json")
        }
    }
}
