import Foundation
import VigilAudio
import VigilCore

/// What an audio file measures, levels only (for `vigil inspect`).
public struct AudioFileSummary: Hashable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// Seconds of audio read.
    public var duration: Double
    /// Seconds the file's header announces; more than `duration` when the file was cut short.
    public var declaredDuration: Double
    /// Gated integrated loudness (BS.1770-4), LUFS; nil when nothing passes the -70 LUFS gate.
    public var integrated: Double?
    /// Highest momentary (400 ms) and short-term (3 s) loudness, LUFS.
    public var maxMomentary: Double?
    public var maxShortTerm: Double?
    /// Sample peak, dBFS.
    public var samplePeak: Double?
}

/// A WAV file read into microphone level samples by the same code that measures the live
/// microphone (`WindowedLevels`): one `.audio` sample per window, stamped at the window's end, with
/// RMS, peak, momentary and short-term loudness. The audio is measured and dropped, as live.
///
/// Timeline: a Broadcast Wave file's `bext` origination date and time (the recorder's local time)
/// is its start; any other WAV file is taken to start at its modification time minus the duration
/// of the audio it holds (whatever its header claims), which holds when the file was written as the
/// recording ended (what `arecord`, `parecord` and `sox` do). Pass `start` to say otherwise.
public struct AudioFileRecording: Sendable {
    public var samples: [Sample]
    public var summary: AudioFileSummary
    public var start: Timestamp

    public static func read(path: String, window: Double = 1, start: Timestamp? = nil) throws(WAVError) -> AudioFileRecording {
        let reader = try WAVReader(path: path)
        let origin = start ?? Self.startOf(reader)
        var levels = WindowedLevels(sampleRate: Double(reader.sampleRate), channels: reader.channels, window: window)
        var samples: [Sample] = [Sample(time: origin, payload: .status(SensorStatus(sensor: .audio, state: .available, detail: "levels of \(path)")))]
        // What the file holds, not what its header claims (a few bytes may claim a day), and at
        // most a day's worth: the config keeps audio.window at 0.1 s or more.
        samples.reserveCapacity(Int(saturating: min(reader.playableDuration, 86_400) / max(window, 0.1)) + 2)
        let rate = Double(reader.sampleRate)
        var buffer: [Float] = []
        while true {
            reader.read(maxFrames: 1 << 16, into: &buffer)
            if buffer.isEmpty { break }
            buffer.withUnsafeBufferPointer { chunk in
                levels.process(chunk) { l in
                    // A float file can hold anything, 1e38 or infinity: its levels are kept within
                    // what a recording holds (`SampleLimits.level`), as a live microphone's are.
                    let level = AudioLevel(rms: l.rms, peak: l.peak, shortTermLUFS: l.shortTerm, momentaryLUFS: l.momentary)
                    samples.append(Sample(time: origin + Double(l.endFrame) / rate, payload: SampleLimits.clamped(.audio(level))))
                }
            }
        }
        let meter = levels.meter
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        let summary = AudioFileSummary(
            sampleRate: reader.sampleRate, channels: reader.channels, duration: Double(meter.framesProcessed) / rate,
            declaredDuration: reader.duration, integrated: meter.integrated.flatMap(finite), maxMomentary: finite(meter.maxMomentary),
            maxShortTerm: finite(meter.maxShortTerm),
            samplePeak: meter.samplePeak > 0 ? finite(20 * log10(Double(meter.samplePeak))) : nil)
        return AudioFileRecording(samples: samples, summary: summary, start: origin)
    }

    static func startOf(_ reader: WAVReader) -> Timestamp {
        if let text = reader.originationDateTime {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = .current
            for format in ["yyyy-MM-dd HH:mm:ss", "yyyy:MM:dd HH:mm:ss", "yyyy-MM-dd HH-mm-ss", "yyyy-MM-dd HH.mm.ss"] {
                f.dateFormat = format
                if let d = f.date(from: text), let t = Timestamp(checkedSeconds: d.timeIntervalSince1970) { return t }
            }
        }
        // A date out of range (in the bext chunk or the file's time) is as good as none: the epoch.
        let mtime = (try? FileManager.default.attributesOfItem(atPath: reader.path)[.modificationDate] as? Date) ?? nil
        // The audio there is, not what a header overstating its length claims: that placed a short
        // file hours too early.
        return Timestamp(checkedSeconds: (mtime?.timeIntervalSince1970 ?? 0) - reader.playableDuration) ?? Timestamp(nanoseconds: 0)
    }
}
