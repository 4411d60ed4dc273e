import Foundation
import VigilCore

/// The wall clock, for what steps no samples (the planner, the reports, the daemon's rounds) and
/// for a session's start: the time now to the whole millisecond, the log's and a recording
/// header's unit, so an instant written reads back equal. From there a session (`LiveSession`) and
/// `vigil record` (`Recorder`) count on a monotonic clock, so a change of the system clock cannot
/// put a sample before an earlier one.
public enum WallClock {
    public static func now() -> Timestamp { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }
}
