/// Levels of an audio stream at the end of each fixed-length window: what the microphone detector
/// emits live and what a WAV recording becomes on replay, computed by the same code.
public struct WindowedLevels: Sendable {
    /// Digital silence has no finite level (and JSON has no infinity): anything quieter reads this.
    public static let floor = -120.0

    public struct Levels: Hashable, Sendable {
        /// RMS over the window, dBFS (a full-scale sine reads -3 dB).
        public var rms: Double
        /// Sample peak over the window, dBFS.
        public var peak: Double
        /// Short-term (3 s) loudness, LUFS; nil in the first 3 s.
        public var shortTerm: Double?
        /// Momentary (400 ms) loudness, LUFS; nil in the first 400 ms.
        public var momentary: Double?
        /// Frames since the start of the stream at the end of this window.
        public var endFrame: Int
    }

    public private(set) var meter: LoudnessMeter
    public let framesPerWindow: Int
    private var framesInWindow = 0

    /// - Parameter window: seconds per reported window, at least one frame.
    public init(sampleRate: Double, channels: Int, window: Double) {
        meter = LoudnessMeter(sampleRate: sampleRate, channels: channels)
        framesPerWindow = max(1, Int((window * sampleRate).rounded()))
    }

    /// Feeds interleaved frames; calls `report` at the end of every complete window.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, report: (Levels) -> Void) {
        let channels = meter.channels
        var offset = 0
        let total = samples.count - samples.count % channels
        while offset < total {
            let frames = min((total - offset) / channels, framesPerWindow - framesInWindow)
            meter.process(UnsafeBufferPointer(rebasing: samples[offset..<offset + frames * channels]))
            framesInWindow += frames
            offset += frames * channels
            if framesInWindow == framesPerWindow {
                framesInWindow = 0
                let (rms, peak) = meter.takeLevels() ?? (-.infinity, -.infinity)
                report(
                    Levels(
                        rms: Self.clamp(rms), peak: Self.clamp(peak), shortTerm: meter.shortTerm.map(Self.clamp),
                        momentary: meter.momentary.map(Self.clamp), endFrame: meter.framesProcessed))
            }
        }
    }

    @inline(__always) static func clamp(_ level: Double) -> Double { Swift.max(level, floor) }
}
