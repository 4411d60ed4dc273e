import VigilCore

/// An instant `v` milliseconds after the epoch: the planner's rules only compare instants, so the
/// tests give small ones.
func ms(_ v: Int64) -> Timestamp { Timestamp(milliseconds: v) }
