import Benchmark
import Foundation
import SessionRuntime
import VigilCore
import VigilRecording

/// A realistic day-long mix, as the live detectors would record it: microphone levels once a
/// second, an input window every 5 s (typing with pauses), a GPS fix every 2 s. Deterministic
/// (VigilCore's SplitMix64 with a fixed seed), so every run measures the same bytes.
let sampleCount = 2_000_000
let recordingPath = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-benchmark-\(sampleCount).jsonl").path

func makeRecording() throws {
    if FileManager.default.fileExists(atPath: recordingPath) { return }
    var rng = SplitMix64(seed: 42)
    let start = parseRFC3339("2026-03-02T09:00:00Z")!
    let writer = try RecordingWriter(path: recordingPath, header: RecordingHeader(start: start, source: "vigil-benchmarks"))
    var written = 0
    var second = 0
    var lastInput = 0.0
    func round(_ v: Double, _ places: Double) -> Double { (v * places).rounded() / places }
    while written < sampleCount {
        second += 1
        let t = start + Double(second)
        let lufs = round(-50 + Double.random(in: 0..<6, using: &rng), 10)
        try writer.append(Sample(time: t, payload: .audio(AudioLevel(rms: lufs - 1.5, peak: lufs + 11, shortTermLUFS: lufs))))
        written += 1
        if second % 5 == 0, written < sampleCount {
            let typing = Double.random(in: 0..<1, using: &rng) < 0.85
            let keys = typing ? Int.random(in: 1...20, using: &rng) : 0
            if keys > 0 { lastInput = Double(second) - round(Double.random(in: 0.05..<1.5, using: &rng), 100) }
            try writer.append(
                Sample(
                    time: t,
                    payload: .input(
                        InputActivity(
                            window: 5, keyPresses: keys, pointerTravel: typing ? round(Double.random(in: 0..<600, using: &rng), 10) : 0,
                            clicks: Int.random(in: 0...2, using: &rng), idle: round(Double(second) - lastInput, 100)))))
            written += 1
        }
        if second % 2 == 0, written < sampleCount {
            try writer.append(
                Sample(
                    time: t,
                    payload: .location(
                        LocationFix(
                            latitude: round(52.2053 + Double.random(in: -1e-4..<1e-4, using: &rng), 1e7),
                            longitude: round(0.1218 + Double.random(in: -1e-4..<1e-4, using: &rng), 1e7),
                            horizontalAccuracy: round(Double.random(in: 8..<30, using: &rng), 10), speed: 0.1, mode: .threeD))))
            written += 1
        }
    }
    try writer.close()
}

/// The recording is made when a replay benchmark first runs, outside its timed section, so that
/// `--filter loudness` does not write 151 MB first.
enum ReplayRecording {
    static let ready: Bool = {
        do { try makeRecording() } catch { fatalError("cannot write \(recordingPath): \(error)") }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: recordingPath)[.size] as? Int) ?? 0
        print("recording: \(recordingPath), \(sampleCount) samples, \(bytes / 1_000_000) MB")
        return true
    }()
}

benchmark("replay \(sampleCount) samples: JSON Lines parse + focus-session state machine") { state in
    precondition(ReplayRecording.ready)
    state.start()
    let merged = try MergedRecordings([RecordingReader(path: recordingPath)])
    var events = 0
    let result = try Replayer(configuration: .default, signals: .builtIn).run(merged) { _ in events += 1 }
    try state.end()
    precondition(result.samples == sampleCount)
}

benchmark("read \(sampleCount) samples: JSON Lines parse only") { state in
    precondition(ReplayRecording.ready)
    state.start()
    let reader = try RecordingReader(path: recordingPath)
    var n = 0
    while try reader.next() != nil { n += 1 }
    try state.end()
    precondition(n == sampleCount)
}

// Loudness analyser against ffmpeg (issue 3): Loudness.swift; skipped with a note without its WAV.
LoudnessBenchmarks.register()

Benchmark.main()
