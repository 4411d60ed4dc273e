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
        // The usual replay, of one Vigil recording, reads it directly: the loop is compiled for
        // the reader's own type.
        let (count, start) =
            if let reader = recordings.onlyRecording {
                try Self.step(&stepper, through: reader, start: recordings.start, emit: emit)
            } else {
                try Self.step(&stepper, through: recordings, start: recordings.start, emit: emit)
            }
        return Result(samples: count, skippedLines: recordings.skippedLines, sessionStart: start)
    }

    /// Steps `stepper` through every sample of `source`; returns how many, and when the session started.
    private static func step<Source: SampleStream>(
        _ stepper: inout SessionStepper, through source: Source, start recordingsStart: Timestamp?, emit: (SessionEvent) throws -> Void
    ) throws -> (Int, Timestamp?) {
        var count = 0
        var last: Timestamp?
        var start: Timestamp?
        var events: [SessionEvent] = []
        events.reserveCapacity(16)

        while let sample = try source.next() {
            count += 1
            if start == nil {
                // The session starts at the earliest recording's start, so idle before the first
                // input sample is measured from there.
                let s = min(recordingsStart ?? sample.time, sample.time)
                start = s
                events += stepper.start(at: s)
            }
            stepper.receive(sample, into: &events)
            if !events.isEmpty {
                for e in events { try emit(e) }
                events.removeAll(keepingCapacity: true)
            }
            last = sample.time
            if stepper.isEnded { break }
        }
        if !stepper.isEnded, let end = last {
            stepper.end(.recordingEnded, at: end, into: &events)
            for e in events { try emit(e) }
        }
        return (count, start)
    }
}

/// What `Replayer` reads samples from: the merge, or the one recording it would only pass through.
private protocol SampleStream: AnyObject {
    func next() throws(RecordingError) -> Sample?
}

extension MergedRecordings: SampleStream {}
extension RecordingReader: SampleStream {}
