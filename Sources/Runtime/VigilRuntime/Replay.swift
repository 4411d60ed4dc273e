import VigilCore
import VigilRecording

/// Runs the state machine over recordings on a virtual clock, as fast as the machine allows.
///
/// Between samples the clock ticks every `session.tick` seconds, as a live session's would, so idle
/// time and escalation fire at the same instants as they would live. Across a silence longer than
/// `session.gap` it does not tick: that silence is a gap (the machine slept), not idle time. The
/// stepping is `SessionStepper`'s, shared with live sessions.
public struct Replayer {
    public var configuration: VigilConfiguration
    public var task: String?
    public var plannedSeconds: Double?
    /// The signals the session judges: the built-in ones, plus any registered plug-in signal.
    public var signals: SignalCatalog

    public init(configuration: VigilConfiguration, task: String? = nil, plannedSeconds: Double? = nil, signals: SignalCatalog = .builtIn) {
        self.configuration = configuration
        self.signals = signals
        self.task = task
        self.plannedSeconds = plannedSeconds
    }

    public struct Result: Sendable {
        public var samples: Int
        public var skippedLines: Int
        public var sessionStart: Timestamp?
    }

    /// Replays `recordings`, handing every event to `emit` in order. The task and planned length
    /// come from this replayer, or else from the first recording.
    public func run(_ recordings: MergedRecordings, emit: (SessionEvent) throws -> Void) throws -> Result {
        var stepper = SessionStepper(
            session: FocusSession(
                configuration: configuration, task: task ?? recordings.task, plannedSeconds: plannedSeconds ?? recordings.plannedSeconds,
                signals: signals))
        var count = 0
        var last: Timestamp?
        var start: Timestamp?
        var events: [SessionEvent] = []
        events.reserveCapacity(16)

        while let sample = try recordings.next() {
            count += 1
            if start == nil {
                // The session starts at the earliest recording's start, so idle before the first
                // input sample is measured from there.
                let s = min(recordings.start ?? sample.time, sample.time)
                start = s
                events += stepper.start(at: s)
            }
            stepper.receive(sample, into: &events)
            for e in events { try emit(e) }
            events.removeAll(keepingCapacity: true)
            last = sample.time
            if stepper.isEnded { break }
        }
        if !stepper.isEnded, let end = last {
            stepper.end(.recordingEnded, at: end, into: &events)
            for e in events { try emit(e) }
        }
        return Result(samples: count, skippedLines: recordings.skippedLines, sessionStart: start)
    }
}
