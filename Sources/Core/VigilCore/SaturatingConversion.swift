extension FixedWidthInteger {
    /// `value` rounded toward zero, or the nearest of `min` and `max` when it lies beyond them;
    /// NaN is 0 (Rust's `as` casts do the same).
    ///
    /// `Int(_: Double)` stops the program ("Double value cannot be converted to Int") on an
    /// infinity, a NaN or anything beyond `Int.max`: use this for a Double that comes from outside
    /// (a file, a sensor, the config) or is computed from one, wherever no check before it already
    /// bounds the value. Round first if the value should be rounded: `Int(saturating: x.rounded())`.
    @inlinable public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = .min
        } else if value >= Double(Self.max) {
            // `Double(Self.max)` rounds up for 64-bit types (to 2^63 for Int), so `>=` also catches
            // the one value `Self(value)` would still trap on.
            self = .max
        } else {
            self.init(value)
        }
    }
}

// The same for the two types it is used on for every sample and every line of a timeline: the
// generic `init(_:)` above goes through `FixedWidthInteger`'s unspecialised conversion, several
// times slower than the concrete one these reach.
extension Int64 {
    @inlinable public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else if value >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else {
            self = Int64(value)
        }
    }
}

extension Int {
    @inlinable public init(saturating value: Double) { self = Int(clamping: Int64(saturating: value)) }
}
