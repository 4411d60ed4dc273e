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

    public init(configuration: VigilConfiguration, signals: SignalCatalog, task: String? = nil, plannedSeconds: Double? = nil) {
        self.configuration = configuration
        self.signals = signals
        self.task = task
        self.plannedSeconds = plannedSeconds
    }

    public struct Result: Sendable {
        public var samples: Int
        public var skippedLines: Int
        public var sessionStart: Timestamp?
        /// Sessions replayed: one, or with `splitAfterSilence` one per stretch of samples.
        public var sessions: Int = 1
    }

    /// Replays `recordings`, handing every event to `emit` in order. The task and planned length
    /// come from this replayer, or else from the first recording.
    ///
    /// - Parameter splitAfterSilence: a silence in the merged samples longer than this (seconds)
    ///   ends the session and the next sample starts a new one (`vigil replay --split`); nil: one
    ///   session, whatever the silences.
    public func run(_ recordings: MergedRecordings, splitAfterSilence: Double? = nil, emit: (SessionEvent) throws -> Void) throws -> Result {
        /// A session with this replayer's task and length, else those of the recording it opens with.
        func stepper(opening source: (any SampleSource)? = recordings.sources.first) -> SessionStepper {
            SessionStepper(
                session: FocusSession(
                    configuration: configuration, task: task ?? source?.task, plannedSeconds: plannedSeconds ?? source?.plannedSeconds,
                    signals: signals))
        }
        if let limit = splitAfterSilence {
            let stretch = Stretch(recordings, endingAfter: limit)
            var result = Result(samples: 0, skippedLines: 0, sessionStart: nil, sessions: 0)
            repeat {
                stretch.startNext()
                // Each session is of its own recording: its task and planned length, and its start
                // (the recording's time 0, when that is not across the silence before).
                let opening = try stretch.openingSource().map { recordings.sources[$0] }
                var session = stepper(opening: opening)
                let start = opening.map(\.start).flatMap { start in stretch.openingTime.flatMap { $0 - start <= limit ? start : nil } }
                let (count, started) = try Self.step(&session, through: stretch, start: result.sessions == 0 ? recordings.start : start, emit: emit)
                // A session that ended at its planned length leaves the rest of its stretch unjudged.
                while try stretch.next() != nil {}
                if count > 0 { result.sessions += 1 }
                result.samples += count
                result.sessionStart = result.sessionStart ?? started
            } while stretch.hasMore
            result.skippedLines = recordings.skippedLines
            return result
        }
        var session = stepper()
        // The usual replay, of one Vigil recording, reads it directly: the loop is compiled for
        // the reader's own type.
        let (count, start) =
            if let reader = recordings.onlyRecording {
                try Self.step(&session, through: reader, start: recordings.start, emit: emit)
            } else {
                try Self.step(&session, through: recordings, start: recordings.start, emit: emit)
            }
        return Result(samples: count, skippedLines: recordings.skippedLines, sessionStart: start)
    }

    /// `run`, handing each event over at its time within its session divided by `pace` (`vigil
    /// replay --pace 60`: an hour a minute), on a `ScaledClock` started at each session's start.
    /// Blocks the calling thread between events.
    public func run(
        _ recordings: MergedRecordings, splitAfterSilence: Double? = nil, pace: Double, emit: (SessionEvent) throws -> Void
    ) throws -> Result {
        var clock: ScaledClock?
        var sessionStart = Timestamp(nanoseconds: 0)
        return try run(recordings, splitAfterSilence: splitAfterSilence) { e in
            if case .sessionStarted = e.kind { (clock, sessionStart) = (ScaledClock(pace: pace), e.time) }
            clock?.wait(until: ScaledClock.Instant(offset: .seconds(e.time - sessionStart)))
            try emit(e)
        }
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

/// The samples of `source` up to a silence longer than `limit`: the sample after it is held for
/// the next stretch, which `next()` starts once this one has ended (returned nil).
private final class Stretch: SampleStream {
    let source: MergedRecordings
    let limit: Double
    private var held: Sample?
    /// The recording `held` came from.
    private var heldSource = 0
    private var last: Timestamp?
    private var ended = false

    init(_ source: MergedRecordings, endingAfter limit: Double) {
        self.source = source
        self.limit = limit
    }

    /// Whether another stretch follows the one that ended.
    var hasMore: Bool { held != nil }

    /// Starts the next stretch (after this one ended): the held sample opens it.
    func startNext() { ended = false }

    /// When the stretch's next sample is, once `openingSource` read it.
    var openingTime: Timestamp? { held?.time }

    /// Which recording the stretch's next sample comes from (read ahead and held); nil at the end.
    func openingSource() throws(RecordingError) -> Int? {
        if held == nil, !ended, let sample = try source.next() {
            held = sample
            heldSource = source.lastSource
        }
        return held == nil ? nil : heldSource
    }

    func next() throws(RecordingError) -> Sample? {
        if ended { return nil }
        let taken: Sample?
        if let held {
            taken = held
            self.held = nil
        } else {
            taken = try source.next()
        }
        guard let sample = taken else {
            ended = true
            return nil
        }
        if let last, sample.time - last > limit {
            held = sample
            heldSource = source.lastSource
            self.last = nil
            ended = true
            return nil
        }
        last = sample.time
        return sample
    }
}
extension RecordingReader: SampleStream {}
