import DequeModule
import Foundation
import Synchronization
import VigilCore
import VigilRecording

/// A clock that runs `pace` times faster than real time: a live session on it lives through a
/// recorded hour in a minute. Its instants are offsets from when it was made.
///
/// With a `RecordingPacer` it waits for the recording: it never passes the recording's next sample
/// that the session has not taken yet, and goes on from there at its pace. On a machine too slow
/// (or too busy) for the pace, the rehearsal plays slower instead of leaving its samples behind.
/// Without that, at --pace 1200 on a loaded machine the feed fell minutes behind the session's
/// clock, every sample was judged late, and the plan ran out before the recording's last absence
/// had become an episode.
public struct ScaledClock: Clock {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    public let pace: Double
    private let base: ContinuousClock.Instant
    private let pacer: RecordingPacer?

    public init(pace: Double, pacer: RecordingPacer? = nil) {
        self.pace = pace
        self.pacer = pacer
        base = .now
    }

    /// The instant, and whether the recording holds the clock there.
    private func reading() -> (offset: Duration, held: Bool) {
        let paced = (ContinuousClock.now - base) * pace
        return pacer?.hold(paced) ?? (paced, false)
    }

    public var now: Instant { Instant(offset: reading().offset) }
    public var minimumResolution: Duration { .milliseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while true {
            let (now, held) = reading()
            let remaining = (deadline.offset - now) / pace
            guard remaining > .zero else { return }
            // Held, the clock moves only when the session takes its sample: look again in a
            // millisecond rather than spin on a deadline a hair past the hold.
            try await Task.sleep(for: held ? max(remaining, .milliseconds(1)) : remaining)
        }
    }
}

extension ScaledClock {
    /// Blocks the calling thread until `deadline` (a synchronous replay's pacing; a live session
    /// on this clock sleeps with `sleep(until:)`).
    public func wait(until deadline: Instant) {
        let remaining = (deadline.offset - now.offset) / pace
        guard remaining > .zero else { return }
        let (seconds, attoseconds) = remaining.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// The instants of a recording's samples that the session has not taken yet, oldest first: the
/// rehearsal's clock is held at the oldest. The feed schedules each sample before it hands over
/// the one before, so the clock is never free while a sample is on its way.
public final class RecordingPacer: Sendable {
    private struct State {
        /// Offsets on the clock, in order; until the feed has scheduled its first, the start.
        var pending: Deque<Duration> = [.zero]
        var scheduledAny = false
        /// Paced time the clock spent held: it goes on from the hold, not from where real time is.
        var lag: Duration = .zero
        /// The paced real time of the last reading.
        var lastPaced: Duration = .zero
    }

    /// How much of its lag the clock makes up per second of paced time, once nothing holds it:
    /// each hand-over of a sample waits on the scheduler, and on a busy machine those waits, never
    /// made up, played a rehearsal at --pace 60 at a third of its pace. At most a second per
    /// reading, so that making up never jumps far enough to look like a stall (`session.gap`).
    static let catchUp = 1.0
    static let largestCatchUpStep = Duration.seconds(1)
    private let state = Mutex(State())

    public init() {}

    /// The clock's reading for `paced` real time.
    func hold(_ reading: Duration) -> (offset: Duration, held: Bool) {
        state.withLock { s in
            // Readings come from several threads (the feed's sleep, the session's stamps, its
            // ticks), each taken before the lock: one that waited for it is older than the last
            // seen, and read as it is, it put the clock back by the pace times the wait (at 10^7,
            // seconds for a microsecond), so a sample was stamped before its place. The clock
            // never goes back: an older reading is the latest seen.
            let paced = max(reading, s.lastPaced)
            if s.lag > .zero, paced > s.lastPaced {
                s.lag -= min(s.lag, (paced - s.lastPaced) * Self.catchUp, Self.largestCatchUpStep)
            }
            s.lastPaced = paced
            let t = paced - s.lag
            guard let horizon = s.pending.first, t >= horizon else { return (t, false) }
            s.lag = paced - horizon
            return (horizon, true)
        }
    }

    /// The feed's next sample is due at `offset` on the clock.
    func schedule(_ offset: Duration) {
        state.withLock { s in
            if !s.scheduledAny {
                s.scheduledAny = true
                s.pending = []
            }
            s.pending.append(offset)
        }
    }

    /// The session has judged the oldest sample scheduled.
    func taken() { state.withLock { _ = $0.pending.popFirst() } }

    /// The feed is over (the recording ended, or the session did): nothing holds the clock.
    func finish() {
        state.withLock { s in
            s.scheduledAny = true
            s.pending = []
        }
    }
}

/// A recording played as if its sensors were live: each sample is handed over when the session's
/// clock reaches its place in the recording (shifted to the session's start). With `vigil start
/// --replay FILE`, a recorded scenario goes through everything a live session does (the live
/// view, keys, alarms, status, the log) on a machine without the sensors, such as this one with no
/// input devices: the detectors' own code reads the recordings (`RecordingFiles`).
public struct RecordingFeed: Detector {
    /// Nominal: a recording may hold every sensor's samples.
    public let sensor = SensorKind.input
    private let recording: UncheckedBox<MergedRecordings>
    private let clock: ScaledClock
    private let start: ScaledClock.Instant
    private let pacer: RecordingPacer?

    /// - Parameter pacer: the one `clock` was made with, if any: the feed schedules its samples on it.
    public init(_ recording: MergedRecordings, clock: ScaledClock, start: ScaledClock.Instant, pacer: RecordingPacer? = nil) {
        self.recording = UncheckedBox(recording)
        self.clock = clock
        self.start = start
        self.pacer = pacer
    }

    /// The recording's readings, each handed over when its time comes on the rehearsal's clock
    /// (the session stamps it then, at that instant).
    public func readings() -> AsyncStream<SamplePayload> {
        let (stream, continuation) = AsyncStream<SamplePayload>.makeStream()
        let recording = self.recording
        let clock = self.clock
        let start = self.start
        let pacer = self.pacer
        let task = Task {
            var origin: Timestamp?
            func due(_ sample: Sample) -> ScaledClock.Instant {
                let first = origin ?? min(recording.value.start ?? sample.time, sample.time)
                origin = first
                // In whole nanoseconds, as the times are: through seconds in a Double, 906.3 s came
                // out a nanosecond short, and the episode that ended there 1 ms early in the log.
                return start.advanced(by: .nanoseconds(sample.time.nanoseconds - first.nanoseconds))
            }
            var next = try? recording.value.next()
            if let sample = next { pacer?.schedule(due(sample).offset) }
            while !Task.isCancelled, let sample = next {
                try? await clock.sleep(until: due(sample), tolerance: nil)
                if Task.isCancelled { break }
                next = try? recording.value.next()
                // Scheduled before this one is handed over: the clock is never free in between.
                // After the last, time stands at the recording's end until the session ends with
                // it there, as a replay does.
                pacer?.schedule(due(next ?? sample).offset)
                continuation.yield(sample.payload)
            }
            continuation.finish()
        }
        continuation.onTermination = { termination in
            task.cancel()
            // The session ended first: nothing holds the clock any more.
            if case .cancelled = termination { pacer?.finish() }
        }
        return stream
    }

    public func taken(_ reading: SamplePayload) { pacer?.taken() }
}

/// A value that is only ever used from one task at a time.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
