import VigilCore
import VigilRecording

/// Runs the state machine over recordings on a virtual clock, as fast as the machine allows.
///
/// Between samples the clock ticks every `session.tick` seconds, as a live session's would, so idle
/// time and escalation fire at the same instants as they would live. Across a silence longer than
/// `session.gap` it does not tick: that silence is a gap (the machine slept), not idle time.
public struct Replayer {
    public var configuration: VigilConfiguration
    public var task: String?
    public var plannedSeconds: Double?

    public init(configuration: VigilConfiguration, task: String? = nil, plannedSeconds: Double? = nil) {
        self.configuration = configuration
        self.task = task
        self.plannedSeconds = plannedSeconds
    }

    public struct Result: Sendable {
        public var samples: Int
        public var skippedLines: Int
        public var sessionStart: Timestamp?
    }

    /// Replays `recordings`, handing every event to `emit` in order.
    public func run(_ recordings: MergedRecordings, emit: (SessionEvent) throws -> Void) throws -> Result {
        let header = recordings.readers.first?.header
        var session = FocusSession(configuration: configuration, task: task ?? header?.task, plannedSeconds: plannedSeconds)
        let tick = configuration.session.tick
        let gap = configuration.session.gap
        var count = 0
        var last: Timestamp?
        var nextTick: Timestamp?
        var start: Timestamp?

        while let sample = try recordings.next() {
            count += 1
            if start == nil {
                // The session starts at the earliest recording's start, so idle before the first
                // input sample is measured from there.
                let s = min(recordings.start ?? sample.time, sample.time)
                start = s
                for e in session.start(at: s) { try emit(e) }
                last = s
                nextTick = s + tick
            }
            if let l = last, var nt = nextTick, sample.time - l <= gap {
                while nt < sample.time {
                    for e in session.tick(at: nt) { try emit(e) }
                    nt = nt + tick
                }
                nextTick = nt
            } else if let nt = nextTick, nt <= sample.time {
                // Skip the ticks of a gap, keeping them on the grid.
                let steps = ((sample.time - nt) / tick).rounded(.down) + 1
                nextTick = nt + steps * tick
            }
            for e in session.receive(sample) { try emit(e) }
            last = sample.time
            if session.isEnded { break }
        }
        if !session.isEnded, let end = last {
            for e in session.end(.recordingEnded, at: end) { try emit(e) }
        }
        let skipped = recordings.readers.reduce(0) { $0 + $1.skippedLines }
        return Result(samples: count, skippedLines: skipped, sessionStart: start)
    }
}
