#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One second-order IIR section, transposed direct form II.
public struct Biquad: Sendable, Equatable {
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    var z1 = 0.0, z2 = 0.0

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    @inline(__always) public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    public mutating func reset() {
        z1 = 0
        z2 = 0
    }
}

/// The K-weighting of ITU-R BS.1770: a high shelf (the head's acoustic effect) followed by a high
/// pass (the RLB curve), for any sample rate.
///
/// BS.1770 tabulates the coefficients for 48 kHz only. These come from the analogue prototypes
/// whose bilinear transform reproduces that table (the parameters libebur128 derives), so other
/// rates get the same response; a test checks the 48 kHz values against the table.
public enum KWeighting {
    public static func filters(sampleRate: Double) -> (shelf: Biquad, highPass: Biquad) {
        var f0 = 1681.974450955533
        let gain = 3.999843853973347
        var q = 0.7071752369554196
        var k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10.0, gain / 20.0)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1.0 + k / q + k * k
        let shelf = Biquad(
            b0: (vh + vb * k / q + k * k) / a0,
            b1: 2.0 * (k * k - vh) / a0,
            b2: (vh - vb * k / q + k * k) / a0,
            a1: 2.0 * (k * k - 1.0) / a0,
            a2: (1.0 - k / q + k * k) / a0)
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / sampleRate)
        a0 = 1.0 + k / q + k * k
        let highPass = Biquad(b0: 1, b1: -2, b2: 1, a1: 2.0 * (k * k - 1.0) / a0, a2: (1.0 - k / q + k * k) / a0)
        return (shelf, highPass)
    }
}
