import Benchmark
import Foundation
import VigilAudio

/// Loudness analyser throughput (issue 3): a WAV file read through `WAVReader` in 65,536-frame
/// chunks and fed to `LoudnessMeter`, to the gated integrated loudness at the end: what analysing a
/// recorded microphone file costs. `scripts/bench-loudness.sh` makes the one-hour file (48 kHz,
/// stereo, 16-bit) and times `ffmpeg -af ebur128` on the same file for comparison.
///
/// The file is `$VIGIL_LOUDNESS_WAV`, or `vigil-loudness-1h-48k-stereo.wav` in the temporary
/// directory. When it does not exist the benchmarks are not registered and a note says so, so the
/// other benchmarks still run. Run only these with `--filter loudness` (only the analyser with
/// `--filter 'loudness analyser'`).
enum LoudnessBenchmarks {
    static let defaultFileName = "vigil-loudness-1h-48k-stereo.wav"
    static let chunkFrames = 65_536

    static var path: String {
        if let p = ProcessInfo.processInfo.environment["VIGIL_LOUDNESS_WAV"], !p.isEmpty { return p }
        return FileManager.default.temporaryDirectory.appendingPathComponent(defaultFileName).path
    }

    struct Analysis {
        var integrated: Double?
        var maxMomentary: Double
        var maxShortTerm: Double
        var samplePeak: Float
        var frames: Int
    }

    /// The measured work: open, read every chunk, meter it, compute the gated integrated loudness.
    static func analyse(_ path: String) throws -> Analysis {
        let reader = try WAVReader(path: path)
        var meter = LoudnessMeter(sampleRate: Double(reader.sampleRate), channels: reader.channels)
        var buffer: [Float] = []
        while true {
            reader.read(maxFrames: chunkFrames, into: &buffer)
            if buffer.isEmpty { break }
            meter.process(buffer)
        }
        return Analysis(
            integrated: meter.integrated, maxMomentary: meter.maxMomentary,
            maxShortTerm: meter.maxShortTerm, samplePeak: meter.samplePeak,
            frames: meter.framesProcessed)
    }

    /// The reader alone (decoding to interleaved Float), to split the analyser's time.
    static func readOnly(_ path: String) throws -> Int {
        let reader = try WAVReader(path: path)
        var buffer: [Float] = []
        var samples = 0
        var sum: Float = 0
        while true {
            reader.read(maxFrames: chunkFrames, into: &buffer)
            if buffer.isEmpty { break }
            samples += buffer.count
            sum += buffer[buffer.count / 2]  // keep the decoded samples observable
        }
        precondition(sum.isFinite)
        return samples
    }

    final class Once {
        var done = false
    }

    static func register() {
        let path = self.path
        guard FileManager.default.fileExists(atPath: path) else {
            print("loudness: skipped: no WAV file at \(path) (scripts/bench-loudness.sh makes it; VIGIL_LOUDNESS_WAV=FILE uses another)")
            return
        }
        let reader: WAVReader
        do {
            reader = try WAVReader(path: path)
        } catch {
            print("loudness: skipped: \(error)")
            return
        }
        let (rate, channels, frames, duration) = (reader.sampleRate, reader.channels, reader.frameCount, reader.duration)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print(
            "loudness file: \(path), \(rate) Hz, \(channels) ch, \(reader.encoding), \(frames) frames = "
                + "\(String(format: "%.1f", duration)) s of audio, \(bytes / 1_000_000) MB")
        let label = "\(String(format: "%.0f", duration)) s, \(rate) Hz, \(channels) ch"

        let printed = Once()
        benchmark("loudness analyser: WAVReader + LoudnessMeter to integrated, \(label)") { state in
            state.start()
            let a = try analyse(path)
            try state.end()
            precondition(a.integrated != nil, "no gating block above -70 LUFS in \(path)")
            precondition(frames == 0 || a.frames == frames, "read \(a.frames) frames of \(frames)")
            if !printed.done {
                printed.done = true
                // One line the script parses; printed after the first (possibly warm-up) iteration,
                // outside its timed section.
                print(
                    "loudness result: integrated \(String(format: "%.4f", a.integrated!)) LUFS, "
                        + "max momentary \(String(format: "%.2f", a.maxMomentary)) LUFS, "
                        + "max short-term \(String(format: "%.2f", a.maxShortTerm)) LUFS, "
                        + "sample peak \(String(format: "%.6f", a.samplePeak)), \(a.frames) frames")
            }
        }

        benchmark("loudness WAVReader only: decode to Float, \(label)") { state in
            state.start()
            let n = try readOnly(path)
            try state.end()
            precondition(frames == 0 || n == frames * channels)
        }
    }
}
