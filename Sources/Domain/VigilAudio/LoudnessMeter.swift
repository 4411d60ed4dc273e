#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ITU-R BS.1770 / EBU R 128 loudness of a stream of audio frames, in constant memory per window.
///
/// Audio goes in as interleaved frames and never comes out: the meter keeps only running sums.
/// Reports momentary (400 ms) and short-term (3 s) loudness, integrated loudness with the absolute
/// (-70 LUFS) and relative (-10 LU) gates, RMS and sample peak.
///
/// The signal is cut into 100 ms sub-blocks; the K-weighted mean square of each is kept in a ring of
/// the last 30 (3 s). Momentary loudness is the mean of the last 4, short-term of the last 30, and
/// integrated loudness gates the 400 ms blocks that start every 100 ms (75 % overlap), as BS.1770-4
/// specifies. Integrated loudness keeps one number per 100 ms (2.9 MB for a day).
public struct LoudnessMeter: Sendable {
    public let sampleRate: Double
    public let channels: Int

    private var shelf: [Biquad]
    private var highPass: [Biquad]
    /// Frames per 100 ms sub-block (rounded: exact for 8, 16, 22.05, 44.1, 48, 96 kHz...).
    private let subBlockFrames: Int
    private var framesInSubBlock = 0
    private var subBlockSum = 0.0

    /// Channel-summed K-weighted mean squares of recent sub-blocks.
    private var ring: [Double]
    private var ringCount = 0
    private var ringNext = 0
    /// Mean squares of every 400 ms gating block so far.
    private var blocks: [Double] = []

    /// RMS and peak since the last `takeLevels()`.
    private var windowSquares = 0.0
    private var windowSamples = 0
    private var windowPeak: Float = 0
    public private(set) var framesProcessed = 0
    /// Highest sample magnitude of the whole stream.
    public private(set) var samplePeak: Float = 0
    /// Highest momentary and short-term loudness seen (LUFS), over complete windows only.
    public private(set) var maxMomentary = -Double.infinity
    public private(set) var maxShortTerm = -Double.infinity

    public init(sampleRate: Double, channels: Int) {
        precondition(sampleRate > 0 && channels > 0)
        self.sampleRate = sampleRate
        self.channels = channels
        let k = KWeighting.filters(sampleRate: sampleRate)
        shelf = Array(repeating: k.shelf, count: channels)
        highPass = Array(repeating: k.highPass, count: channels)
        subBlockFrames = max(1, Int((sampleRate / 10).rounded()))
        ring = Array(repeating: 0, count: 30)
    }

    /// Feeds interleaved frames (`channels` samples each, full scale ±1).
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        let c = channels
        let frames = samples.count / c
        guard frames > 0, let p = samples.baseAddress else { return }
        var i = 0
        var squares = 0.0
        var peak = windowPeak
        var kSum = subBlockSum
        var inBlock = framesInSubBlock
        // Take the filter state out of `self` for the loop (no copy: the arrays are moved), so the
        // loop can call mutating methods on `self` while it holds the filters.
        var shelfState = shelf
        var highPassState = highPass
        shelf = []
        highPass = []
        defer {
            shelf = shelfState
            highPass = highPassState
        }
        if c == 2 {
            // Stereo: the four filters in locals (registers) for the whole call, not loaded and
            // stored through the arrays every sample; the loop runs to the end of the sub-block
            // without testing it every frame. Same operations in the same order: same results.
            var s0 = shelfState[0]
            var s1 = shelfState[1]
            var h0 = highPassState[0]
            var h1 = highPassState[1]
            var left = frames
            while left > 0 {
                let n = min(left, subBlockFrames - inBlock)
                for _ in 0..<n {
                    let x0 = p[i]
                    let x1 = p[i + 1]
                    let m0 = abs(x0)
                    if m0 > peak { peak = m0 }
                    let d0 = Double(x0)
                    squares += d0 * d0
                    let y0 = h0.process(s0.process(d0))
                    kSum += y0 * y0
                    let m1 = abs(x1)
                    if m1 > peak { peak = m1 }
                    let d1 = Double(x1)
                    squares += d1 * d1
                    let y1 = h1.process(s1.process(d1))
                    kSum += y1 * y1
                    i += 2
                }
                left -= n
                inBlock += n
                if inBlock == subBlockFrames {
                    closeSubBlock(kSum / Double(subBlockFrames))
                    kSum = 0
                    inBlock = 0
                }
            }
            shelfState[0] = s0
            shelfState[1] = s1
            highPassState[0] = h0
            highPassState[1] = h1
        } else {
            shelfState.withUnsafeMutableBufferPointer { shelf in
                highPassState.withUnsafeMutableBufferPointer { highPass in
                    for _ in 0..<frames {
                        for ch in 0..<c {
                            let x = p[i + ch]
                            let m = abs(x)
                            if m > peak { peak = m }
                            let d = Double(x)
                            squares += d * d
                            let y = highPass[ch].process(shelf[ch].process(d))
                            kSum += y * y
                        }
                        i += c
                        inBlock += 1
                        if inBlock == subBlockFrames {
                            closeSubBlock(kSum / Double(subBlockFrames))
                            kSum = 0
                            inBlock = 0
                        }
                    }
                }
            }
        }
        subBlockSum = kSum
        framesInSubBlock = inBlock
        windowSquares += squares
        windowSamples += frames * c
        windowPeak = peak
        if peak > samplePeak { samplePeak = peak }
        framesProcessed += frames
    }

    public mutating func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    private mutating func closeSubBlock(_ meanSquare: Double) {
        ring[ringNext] = meanSquare
        ringNext = (ringNext + 1) % ring.count
        ringCount = min(ringCount + 1, ring.count)
        // Every sub-block from the fourth on closes a 400 ms gating block (75 % overlap).
        if let m = mean(last: 4) {
            blocks.append(m)
            maxMomentary = max(maxMomentary, loudness(m))
        }
        if let s = mean(last: 30) { maxShortTerm = max(maxShortTerm, loudness(s)) }
    }

    /// Mean of the last `n` sub-blocks, or nil until there are that many.
    private func mean(last n: Int) -> Double? {
        guard ringCount >= n else { return nil }
        var sum = 0.0
        var j = ringNext
        for _ in 0..<n {
            j = (j - 1 + ring.count) % ring.count
            sum += ring[j]
        }
        return sum / Double(n)
    }

    /// BS.1770: L = -0.691 + 10 log10(sum over channels of G·z), with G = 1 for the front channels.
    @inline(__always) func loudness(_ meanSquare: Double) -> Double {
        meanSquare > 0 ? -0.691 + 10 * log10(meanSquare) : -Double.infinity
    }

    /// Momentary loudness (last 400 ms), LUFS; nil until 400 ms have been seen.
    public var momentary: Double? { mean(last: 4).map(loudness) }

    /// Short-term loudness (last 3 s), LUFS; nil until 3 s have been seen.
    public var shortTerm: Double? { mean(last: 30).map(loudness) }

    /// Integrated loudness over everything so far, gated; nil if no block passes the absolute gate.
    public var integrated: Double? {
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        var sum = 0.0
        var n = 0
        for b in blocks where b > absoluteGate {
            sum += b
            n += 1
        }
        guard n > 0 else { return nil }
        let relativeGate = sum / Double(n) * pow(10, -10.0 / 10)
        sum = 0
        n = 0
        for b in blocks where b > absoluteGate && b > relativeGate {
            sum += b
            n += 1
        }
        return n > 0 ? loudness(sum / Double(n)) : nil
    }

    /// RMS (dBFS, a full-scale sine reads -3 dB) and sample peak (dBFS) since the last call, then
    /// starts a new window. `nil` when no sample came in.
    public mutating func takeLevels() -> (rms: Double, peak: Double)? {
        guard windowSamples > 0 else { return nil }
        let ms = windowSquares / Double(windowSamples)
        let rms = ms > 0 ? 10 * log10(ms) : -Double.infinity
        let peak = windowPeak > 0 ? 20 * log10(Double(windowPeak)) : -Double.infinity
        windowSquares = 0
        windowSamples = 0
        windowPeak = 0
        return (rms, peak)
    }
}
