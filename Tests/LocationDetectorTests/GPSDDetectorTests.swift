import Foundation
import Synchronization
import Testing
import TestSupport
import VigilCore
@testable import LocationDetector

/// These tests run the real gpsd, fed by gpsfake from NMEA logs recorded by gpsd's own regression
/// suite (Data/, BSD-2-Clause, see Data/SOURCE.txt), and check what the detector emits against the
/// TPV reports that same gpsd produced in the same run. (The logs' .chk files hold what a newer gpsd
/// reports; gpsd 3.22 on Debian 12 makes fewer TPV reports for some sentence mixes, so the live
/// gpsd, not the .chk file, is the reference.)
let logsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data").path

/// gpsfake (which starts its own gpsd) playing one log once, in pipe mode: gpsfake is then itself a
/// client of that gpsd and prints every report gpsd makes, which is what the detector is checked
/// against. `-S` paces the log as a receiver would, which gpsfake's manual recommends against
/// pty races (without it, this gpsd drops reports under load).
final class GPSFake {
    let process = Process()
    let output: String

    init(log: String, port: Int) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).json").path
        FileManager.default.createFile(atPath: output, contents: nil)
        // Foundation starts it in a process group of its own, so stopping the group also stops the
        // gpsd it started.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments = ["-1", "-p", "-S", "-s", "38400", "-P", String(port), "\(logsDir)/\(log)"]
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
        // gpsfake is Python: without this its reports sit in a buffer that is lost when it is stopped.
        env["PYTHONUNBUFFERED"] = "1"
        process.environment = env
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The fixes (TPV reports with mode 2 or 3) gpsd reported so far.
    var reportedFixes: [(lat: Double, lon: Double, mode: Int)] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // gpsd ends its lines with CR LF, which Swift reads as one Character: split on any newline.
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{\"class\":\"TPV\""),
                  let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let mode = o["mode"] as? Int, mode >= 2, let lat = o["lat"] as? Double, let lon = o["lon"] as? Double
            else { return nil }
            return (lat, lon, mode)
        }
    }

    /// Stops gpsfake and its gpsd (the whole process group).
    func stop() {
        guard process.isRunning else { return }
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until gpsd has reported the whole log: its output has not grown for a second and a
    /// half. (gpsfake itself does not exit while another client is connected to its gpsd.)
    func waitUntilDone(timeout: Double) async {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var size = -1
        var quietSince = ContinuousClock.now
        while process.isRunning, ContinuousClock.now < deadline {
            let now = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            if now != size {
                size = now
                quietSince = ContinuousClock.now
            } else if now > 0, ContinuousClock.now - quietSince > .milliseconds(1500) {
                break
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        stop()
    }

    deinit { stop() }
}

@Suite(.serialized) struct GPSDDetectorTests {
    @Test func fixesMatchTheTPVReportsGpsdProducesForTheLog() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: (0.05, 0.1), now: wallClock)
        let collector = Collector(detector.samples())
        defer { collector.stop() }
        let fake = try GPSFake(log: "haicom-305N.log", port: port)
        await fake.waitUntilDone(timeout: 60)
        try await Task.sleep(for: .milliseconds(300))
        let expected = fake.reportedFixes
        let got = collector.fixes
        #expect(expected.count >= 100, "gpsd reported \(expected.count) fixes")
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
    }

    @Test func aLostFixIsAStatusChangeNotAPosition() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: (0.05, 0.1), now: wallClock)
        let collector = Collector(detector.samples())
        defer { collector.stop() }
        // This receiver "loses satellite lock near the end" (the log's own notes).
        let fake = try GPSFake(log: "ch-4711.log", port: port)
        defer { fake.stop() }
        let sawLoss = await collector.wait(timeout: 30) { c in
            let s = c.states
            guard let available = s.firstIndex(of: .available) else { return false }
            return s[available...].contains(.noFix)
        }
        #expect(sawLoss, "states: \(collector.states)")
    }

    @Test func gpsdRestartingMidStreamIsReportedAndRecovered() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: (0.05, 0.2), now: wallClock)
        let collector = Collector(detector.samples())
        defer { collector.stop() }
        let first = try GPSFake(log: "haicom-305N.log", port: port)
        #expect(await collector.wait(timeout: 30) { $0.fixes.count >= 20 })
        first.stop()  // gpsd dies with gpsfake
        #expect(await collector.wait(timeout: 30) { $0.states.contains(.lost) }, "states: \(collector.states)")
        let before = collector.fixes.count
        let second = try GPSFake(log: "haicom-305N.log", port: port)
        defer { second.stop() }
        #expect(await collector.wait(timeout: 30) { $0.fixes.count >= before + 20 }, "no fixes after gpsd came back")
        let states = collector.states
        let lost = try #require(states.firstIndex(of: .lost))
        #expect(states[lost...].contains(.available), "back to available after the restart: \(states)")
    }

    @Test func noGpsdIsReportedWithTheRemedy() async throws {
        let port = freePort()
        let detector = GPSDDetector(port: String(port), retry: (0.05, 0.1), now: wallClock)
        let collector = Collector(detector.samples())
        defer { collector.stop() }
        #expect(await collector.wait(timeout: 10) { !$0.states.isEmpty })
        try await Task.sleep(for: .milliseconds(500))  // several retries
        let status = collector.all.compactMap { if case .status(let s) = $0.payload { s } else { nil } }.first
        #expect(status?.state == .unavailable)
        #expect(status?.detail.contains("cannot reach gpsd at localhost:\(port)") == true)
        #expect(status?.detail.contains("systemctl start gpsd") == true)
        #expect(collector.states.count == 1, "said once, not at every retry")
    }
}
