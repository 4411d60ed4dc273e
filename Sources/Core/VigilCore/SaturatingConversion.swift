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
