/// The ranges the numbers of a sample lie in, wherever the sample comes from: a recording, a
/// sensor's own file, a live detector.
///
/// Each is wide enough for anything a person or a sensor really produces, and narrow enough that
/// what is done with it later (an instant in 64-bit nanoseconds, counts summed over a day, a level
/// shown as a whole number) can never overflow or stop the program: a damaged or crafted `1e19`
/// is an error naming its line, not a trap in the scorer or the live screen. The recording reader
/// refuses a value outside them (docs/recording-format.md lists them); a live reading is brought
/// into them (`clamped(_:)`), so whatever a session judged, its recording reads back.
public enum SampleLimits {
    /// Seconds of idle time, and of `t` after a recording's start: up to (not including) 100 years.
    /// An instant is 64-bit nanoseconds, about 292 years either side of 1970, so an instant minus
    /// such a span stays one.
    public static let span: Range<Double> = 0..<3.15e9
    /// The longest input window, in seconds (it must also be longer than 0): a day.
    public static let longestWindow = 86_400.0
    /// A count in one sample (key presses, clicks, switches, calls, streams): a whole number below a
    /// billion, so that any sum of them over a recording stays far from `Int.max`.
    public static let count: Range<Int> = 0..<1_000_000_000
    /// Pointer travel in one input window, in libinput's normalised units (1/1000 inch): 10^12 is
    /// 25 000 km, farther than any pointer moves.
    public static let travel: ClosedRange<Double> = 0...1e12
    /// Levels in dBFS (RMS, peak) and LUFS (loudness). Digital silence reads -120 (the meter's
    /// floor) and full scale 0; a float stream can go above full scale, but 20 dB over it (ten
    /// times full scale) is no sound a microphone gives.
    public static let level: ClosedRange<Double> = -200...20
    public static let latitude: ClosedRange<Double> = -90...90
    public static let longitude: ClosedRange<Double> = -180...180
    /// Metres, for distances and accuracy estimates: half the equator (WGS 84). No two places on the
    /// Earth are farther apart along its surface.
    public static let distance: ClosedRange<Double> = 0...20_037_509
    /// Speed over ground, m/s: faster than anything a GPS receiver rides on near the Earth (a
    /// satellite in low orbit does 7 800 m/s).
    public static let speed: ClosedRange<Double> = 0...20_000
    /// A plug-in signal's reading: every whole number up to 10^15 is exact in a Double and is
    /// written without an exponent.
    public static let readingValue: ClosedRange<Double> = -1e15...1e15

    /// `payload` with each number brought into its range: for a live reading, where a sensor's
    /// glitch (an idle counter of 2^64 ms, a receiver's NaN) must neither stop the session later nor
    /// write a recording Vigil cannot read back. An optional number that is NaN becomes unknown; a
    /// required one the low end of its range; an unknown error estimate the largest there is.
    public static func clamped(_ payload: SamplePayload) -> SamplePayload {
        switch payload {
        case .input(var a):
            a.window = a.window > 0 ? Swift.min(a.window, longestWindow) : longestWindow
            a.keyPresses = clamp(a.keyPresses)
            a.clicks = clamp(a.clicks)
            a.scrollTicks = clamp(a.scrollTicks)
            a.switches.altTab = clamp(a.switches.altTab)
            a.switches.superKey = clamp(a.switches.superKey)
            a.switches.ctrlTab = clamp(a.switches.ctrlTab)
            a.switches.workspace = clamp(a.switches.workspace)
            a.switches.swipes = clamp(a.switches.swipes)
            a.pointerTravel = clamp(a.pointerTravel, travel)
            a.idle = clampSpan(a.idle)
            return .input(a)
        case .audio(var l):
            l.rms = clamp(l.rms, level)
            l.peak = clamp(l.peak, level)
            l.shortTermLUFS = l.shortTermLUFS.flatMap { clampOptional($0, level) }
            l.momentaryLUFS = l.momentaryLUFS.flatMap { clampOptional($0, level) }
            return .audio(l)
        case .location(var f):
            f.latitude = clamp(f.latitude, latitude)
            f.longitude = clamp(f.longitude, longitude)
            f.horizontalAccuracy = f.horizontalAccuracy.map { $0.isNaN ? distance.upperBound : clamp($0, distance) }
            f.speed = f.speed.flatMap { clampOptional($0, speed) }
            f.distanceFromWorkplace = f.distanceFromWorkplace.flatMap { clampOptional($0, distance) }
            return .location(f)
        case .desktop(.idle(let seconds)):
            return .desktop(.idle(clampSpan(seconds)))
        case .media(var m):
            m.calls = clamp(m.calls)
            m.playing = clamp(m.playing)
            return .media(m)
        case .reading(var r):
            r.value = r.value.flatMap { clampOptional($0, readingValue) }
            return .reading(r)
        case .desktop, .app, .status, .control:
            return payload
        }
    }

    @inline(__always) static func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double {
        v.isNaN ? r.lowerBound : Swift.min(Swift.max(v, r.lowerBound), r.upperBound)
    }
    @inline(__always) static func clampOptional(_ v: Double, _ r: ClosedRange<Double>) -> Double? { v.isNaN ? nil : clamp(v, r) }
    @inline(__always) static func clampSpan(_ v: Double) -> Double { clamp(v, span.lowerBound...span.upperBound.nextDown) }
    @inline(__always) static func clamp(_ n: Int) -> Int { Swift.min(Swift.max(n, count.lowerBound), count.upperBound - 1) }
}
