import VigilCore

/// The tests' fixed epoch, 2026-03-02T09:00:00Z: an instant whose day, hour and zone offsets the
/// tests know (a Monday, winter time in Europe).
public let testEpoch = Timestamp(nanoseconds: 1_772_442_000_000_000_000)

/// An instant `s` seconds after `testEpoch`.
public func at(_ s: Double) -> Timestamp { testEpoch + s }
