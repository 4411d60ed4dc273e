import Foundation
import VigilCore

/// The wall clock, for what steps no samples (the planner, the reports, the daemon's rounds): the
/// time now to the whole millisecond, the log's unit, so an instant written to the log reads back
/// equal.
public enum WallClock {
    public static func now() -> Timestamp { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }
}

/// A wall clock that cannot jump: the wall time at `start` plus monotonic elapsed time since. What
/// live sessions and `vigil record` stamp samples with, so an NTP step or a manual change of the
/// system clock cannot put a sample before an earlier one.
public struct MonotonicWallClock: Sendable {
    public let start: Timestamp
    private let anchor: ContinuousClock.Instant

    /// Starts now, with the current wall time rounded to the millisecond (what a recording's header
    /// can hold, so a recording and the session it records share their time 0 exactly).
    public init(wallNow: Double) {
        start = Timestamp(nanoseconds: Int64((wallNow * 1000).rounded()) * 1_000_000)
        anchor = ContinuousClock.now
    }

    public func now() -> Timestamp {
        let (s, atto) = (ContinuousClock.now - anchor).components
        return Timestamp(nanoseconds: start.nanoseconds + s * 1_000_000_000 + atto / 1_000_000_000)
    }
}
