import Foundation
import TestSupport
import Testing
import VigilCore

@testable import MicrophoneDetector

/// The independent measurements: ffmpeg's ebur128 filter for integrated loudness and sox's `stats`
/// for RMS, of the file itself (at its own rate, both channels as they are), not of what the server
/// delivered.
func ffmpegIntegratedLoudness(_ wav: String) throws -> Double {
    let out = runTool("/usr/bin/ffmpeg", ["-nostats", "-hide_banner", "-i", wav, "-af", "ebur128", "-f", "null", "-"]).output
    // The summary's line "    I:         -23.0 LUFS".
    guard let line = out.split(separator: "\n").last(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("I:") }),
        let value = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { throw TestFailure("no integrated loudness in ffmpeg's output:\n\(out)") }
    return value
}

func soxRMS(_ wav: String) throws -> Double {
    let out = runTool("/usr/bin/sox", [wav, "-n", "stats"]).output
    guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("RMS lev dB") }),
        let value = line.split(separator: " ").last.flatMap({ Double($0) })
    else { throw TestFailure("no RMS level in sox's output:\n\(out)") }
    return value
}

/// Generates a test signal with sox: 48 kHz mono 16-bit, `seconds` long.
func synthesize(_ name: String, seconds: Int, _ effects: [String]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-\(name)-\(UUID().uuidString.prefix(6)).wav").path
    let (status, out) = runTool("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", path, "synth", String(seconds)] + effects)
    guard status == 0 else { throw TestFailure("sox failed: \(out)") }
    return path
}

/// A detector pointed at a server that does not exist, after several retries: it said once that the
/// server is unavailable, with the address and the remedy. Returns what it emitted.
func soleStatusWithoutServer(_ make: (String) -> any Detector) async throws -> Collector {
    let missing = "unix:" + FileManager.default.temporaryDirectory.appendingPathComponent("no-such-pulse-\(UUID().uuidString)").path
    let collector = Collector(make(missing).readings())
    defer { collector.stop() }
    #expect(await collector.wait(timeout: 20) { !$0.states.isEmpty })
    // Several retries: each is a failed connect, tens of milliseconds apart.
    try await Task.sleep(for: .milliseconds(500))
    let status = try #require(collector.statuses.first)
    #expect(status.state == .unavailable)
    #expect(status.detail.contains(missing) && status.detail.contains("pactl info"), "\(status.detail)")
    #expect(collector.statuses.count == 1, "said once, not at every retry: \(collector.statuses)")
    return collector
}

func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    return s[s.count / 2]
}

@Suite(.serialized) struct PulseMicrophoneDetectorTests {
    /// Steady signals, so that the detector's short-term loudness over the steady part equals the
    /// file's integrated loudness, and its per-second RMS equals the file's RMS.
    @Test(arguments: [
        ("tone", ["sine", "1000", "vol", "0.1"]),  // 1 kHz at -20 dBFS peak
        ("noise", ["pinknoise", "sinc", "-3500", "vol", "0.4"]),  // band-limited pink noise, loud
        ("quiet", ["sine", "440", "vol", "0.01"]),  // 440 Hz at -40 dBFS peak
    ])
    func levelsAgreeWithAnIndependentMeasurementOfTheFile(name: String, effects: [String]) async throws {
        let server = try PulseServer()
        try server.start()
        let wav = try synthesize(name, seconds: 7, effects)
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let expectedLUFS = try ffmpegIntegratedLoudness(wav)
        let expectedRMS = try soxRMS(wav)

        let detector = PulseMicrophoneDetector(server: server.address, window: 0.5, retry: .init(first: 0.1, longest: 0.2))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        #expect(await collector.wait(timeout: 10) { $0.states.contains(.available) }, "\(collector.statuses)")
        server.play(wav)
        try await Task.sleep(for: .milliseconds(700))

        let levels = collector.levels
        // The steady part: windows within 2 dB of the loudest. Onset and decay windows, which mix
        // in the silence around the file, fall below that.
        let topShort = try #require(levels.compactMap(\.shortTermLUFS).max())
        let shortTerm = try #require(median(levels.compactMap(\.shortTermLUFS).filter { $0 > topShort - 2 }))
        let topRMS = try #require(levels.map(\.rms).max())
        let rms = try #require(median(levels.map(\.rms).filter { $0 > topRMS - 2 }))
        #expect(abs(shortTerm - expectedLUFS) <= 0.5, "detector \(shortTerm) LUFS, ffmpeg \(expectedLUFS) LUFS")
        #expect(abs(rms - expectedRMS) <= 0.5, "detector \(rms) dBFS, sox \(expectedRMS) dBFS")
    }

    @Test func aServerThatDiesIsReportedAndItsSuccessorPickedUp() async throws {
        let server = try PulseServer()
        try server.start()
        let detector = PulseMicrophoneDetector(server: server.address, window: 0.5, retry: .init(first: 0.1, longest: 0.3))
        let collector = Collector(detector.readings())
        defer { collector.stop() }
        #expect(await collector.wait(timeout: 10) { $0.levels.count >= 2 }, "levels flow: \(collector.statuses)")
        let tone = try synthesize("tone", seconds: 30, ["sine", "1000", "vol", "0.5"])
        defer { try? FileManager.default.removeItem(atPath: tone) }
        let player = try server.startPlaying(tone)  // mid-stream: the server dies while playing
        #expect(await collector.wait(timeout: 10) { $0.levels.contains { $0.rms > -20 } }, "the tone is heard")
        server.kill()
        player.wait()
        #expect(await collector.wait(timeout: 10) { $0.states.last == .lost }, "\(collector.statuses)")
        let lost = try #require(collector.statuses.last)
        #expect(lost.detail.contains("reconnecting"))

        let before = collector.levels.count
        try server.start()
        #expect(
            await collector.wait(timeout: 15) { $0.states.last == .available && $0.levels.count >= before + 2 },
            "recovered: \(collector.statuses)")
        #expect(collector.states == [.available, .lost, .available], "each change said once: \(collector.statuses)")
    }

    @Test func noServerIsReportedOnceWithTheRemedy() async throws {
        let collector = try await soleStatusWithoutServer {
            PulseMicrophoneDetector(server: $0, retry: .init(first: 0.05, longest: 0.1))
        }
        #expect(collector.levels.isEmpty)
    }
}
