import Foundation
import Synchronization
import TestSupport
import Testing
import VigilCore

@testable import LocationDetector
@testable import SensorFiles

/// These tests run the real gpsd, fed by gpsfake from NMEA logs recorded by gpsd's own regression
/// suite (Data/, BSD-2-Clause, see Data/SOURCE.txt), and check what the detector emits against the
/// TPV reports that same gpsd produced in the same run. (The logs' .chk files hold what a newer gpsd
/// reports; gpsd 3.22 on Debian 12 makes fewer TPV reports for some sentence mixes, so the live
/// gpsd, not the .chk file, is the reference.)
let logsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data").path

@Suite(.serialized) struct GPSDDetectorTests {
    @Test func fixesMatchTheTPVReportsGpsdProducesForTheLog() async throws {
        let port = freePort()
        // Two clients of the same gpsd: one with the person's opt-in to exact coordinates, checked
        // value for value; one as by default, which must hand over only what LocationPrivacy makes
        // of those same fixes.
        var exactConfig = VigilConfiguration.Location()
        exactConfig.exactCoordinates = true
        exactConfig.workplace = .init(name: "office", latitude: -27.2105, longitude: 153.0521, radius: 100)
        exactConfig.maxAccuracy = 100_000  // every fix judged, whatever its error estimate
        var defaultConfig = exactConfig
        defaultConfig.exactCoordinates = false
        let detector = GPSDDetector(port: String(port), location: exactConfig, retry: .init(first: 0.05, longest: 0.1))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        let privateCollector = Collector(
            GPSDDetector(port: String(port), location: defaultConfig, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { privateCollector.stop() }
        let fake = try GPSFake(log: logsDir + "/haicom-305N.log", port: port)
        await fake.waitUntilDone(timeout: 60)
        try await Task.sleep(for: .milliseconds(300))
        let expected = fake.reportedFixes
        let got = collector.fixes
        #expect(
            expected.count >= 100,
            "gpsd reported \(expected.count) fixes; gpsfake ended with \(fake.process.exitStatus.map(String.init) ?? "?") and said: \(fake.log.suffix(3000))"
        )
        #expect(got.count >= expected.count / 2, "received \(got.count) of the \(expected.count) fixes gpsd reported")
        // What the detector saw is one unbroken run of what gpsd reported, value for value.
        let first = try #require(got.first)
        let start = try #require(expected.firstIndex { $0.lat == first.latitude && $0.lon == first.longitude })
        for (i, fix) in got.enumerated() {
            guard start + i < expected.count else {
                Issue.record("more fixes than gpsd reported")
                break
            }
            let want = expected[start + i]
            #expect(fix.latitude == want.lat && fix.longitude == want.lon, "fix \(i)")
            #expect(fix.mode.rawValue == want.mode)
        }
        #expect(collector.states.contains(.available))

        var privacy = LocationPrivacy(config: defaultConfig)
        let protected = Set(
            expected.map { privacy.protect(LocationFix(latitude: $0.lat, longitude: $0.lon, mode: $0.mode == 3 ? .threeD : .twoD)) }
                .map { [$0.latitude, $0.longitude, $0.distanceFromWorkplace ?? -1] })
        let handedOver = privateCollector.fixes
        #expect(handedOver.count >= expected.count / 2, "received \(handedOver.count) of the \(expected.count) fixes gpsd reported")
        #expect(handedOver.allSatisfy { $0.cellSize == 0.01 && $0.distanceFromWorkplace != nil })
        #expect(handedOver.allSatisfy { protected.contains([$0.latitude, $0.longitude, $0.distanceFromWorkplace ?? -1]) })
        #expect(
            !handedOver.contains { f in expected.contains { $0.lat == f.latitude || $0.lon == f.longitude } }, "an exact coordinate left the detector"
        )

        // The same gpsd output read back as a `gpspipe -w` log gives the same fixes: the replay
        // path and the live path agree.
        let logged = try GPSDLog.read(path: fake.output).samples.compactMap { if case .location(let f) = $0.payload { f } else { nil } }
        #expect(logged.map(\.latitude) == expected.map(\.lat))
        #expect(logged.map(\.longitude) == expected.map(\.lon))
        #expect(logged.map(\.mode.rawValue) == expected.map(\.mode))
        #expect(Array(logged[start..<min(logged.count, start + got.count)]) == got)
    }

    @Test func aLostFixIsAStatusChangeNotAPosition() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: .init(first: 0.05, longest: 0.1))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        // This receiver "loses satellite lock near the end" (the log's own notes).
        let fake = try GPSFake(log: logsDir + "/ch-4711.log", port: port)
        defer { fake.stop() }
        // Generous: the whole suite starts at once, and gpsfake (Python) pacing its log through
        // gpsd can be starved for tens of seconds on two busy cores; only a broken detector waits
        // it out.
        let sawLoss = await collector.wait(timeout: 150) { c in
            let s = c.states
            guard let available = s.firstIndex(of: .available) else { return false }
            return s[available...].contains(.noFix)
        }
        #expect(
            sawLoss,
            "states: \(collector.states); gpsd reported \(fake.reportedFixes.count) fixes; gpsfake said: \(fake.log.suffix(2000))")
    }

    @Test func gpsdRestartingMidStreamIsReportedAndRecovered() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: .init(first: 0.05, longest: 0.2))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        // Played over and over (the log lasts about 8 s): on a loaded machine the detector may
        // connect late, and fixes must keep coming until it has 20.
        let first = try GPSFake(log: logsDir + "/haicom-305N.log", port: port, once: false)
        #expect(await collector.wait(timeout: 60) { $0.fixes.count >= 20 }, "gpsfake said: \(first.log)")
        first.stop()  // gpsd dies with gpsfake
        #expect(await collector.wait(timeout: 30) { $0.states.contains(.lost) }, "states: \(collector.states)")
        let before = collector.fixes.count
        let second = try GPSFake(log: logsDir + "/haicom-305N.log", port: port, once: false)
        defer { second.stop() }
        #expect(await collector.wait(timeout: 60) { $0.fixes.count >= before + 20 }, "no fixes after gpsd came back")
        let states = collector.states
        let lost = try #require(states.firstIndex(of: .lost))
        #expect(states[lost...].contains(.available), "back to available after the restart: \(states)")
    }

    @Test func noGpsdIsReportedWithTheRemedy() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: .init(first: 0.05, longest: 0.1))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        #expect(await collector.wait(timeout: 10) { !$0.states.isEmpty })
        try await Task.sleep(for: .milliseconds(500))  // several retries
        let status = collector.all.compactMap { if case .status(let s) = $0.payload { s } else { nil } }.first
        #expect(status?.state == .unavailable)
        #expect(status?.detail.contains("cannot reach gpsd at localhost:\(port)") == true)
        #expect(status?.detail.contains("systemctl start gpsd") == true)
        #expect(collector.states.count == 1, "said once, not at every retry")
    }

    /// The reason is taken at the failing libgps call: gps_open's own code (NL_NOCONNECT, -6),
    /// not what the cleanup after it leaves in errno.
    @Test func aConnectionThatFailsSaysWhyInLibgpsWords() {
        #expect(throws: GPSDError(call: "gps_open", code: -6)) { try GPSConnection(host: "localhost", port: String(freePort())) }
        #expect(GPSDError(call: "gps_open", code: -6).description == "gps_open: can't connect to host/port pair")
        // An ordinary errno (gps_stream's write) in the C library's words, not gps_errstr's "unknown error".
        #expect(GPSDError(call: "gps_stream", code: EPIPE).reason == "Broken pipe")
    }
}
