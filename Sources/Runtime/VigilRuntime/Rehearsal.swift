import Foundation
import VigilCore
import VigilRecording

/// A clock that runs `pace` times faster than real time: a live session on it lives through a
/// recorded hour in a minute. Its instants are offsets from when it was made.
public struct ScaledClock: Clock {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    public let pace: Double
    private let base: ContinuousClock.Instant

    public init(pace: Double) {
        self.pace = pace
        base = .now
    }

    public var now: Instant { Instant(offset: (ContinuousClock.now - base) * pace) }
    public var minimumResolution: Duration { .milliseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let remaining = (deadline.offset - now.offset) / pace
        if remaining > .zero { try await Task.sleep(for: remaining) }
    }
}

/// A recording played as if its sensors were live: each sample is handed over when the session's
/// clock reaches its place in the recording (shifted to the session's start). With `vigil start
/// --replay FILE`, a recorded scenario goes through everything a live session does (the live
/// view, keys, alarms, status, the log) on a machine without the sensors, such as this one with no
/// input devices: the detectors' own code reads the recordings (`RecordingFiles`).
public struct RecordingFeed<C: Clock>: Detector where C.Duration == Duration {
    /// Nominal: a recording may hold every sensor's samples.
    public let sensor = SensorKind.input
    private let recording: UncheckedBox<MergedRecordings>
    private let clock: C
    private let start: C.Instant

    public init(_ recording: MergedRecordings, clock: C, start: C.Instant) {
        self.recording = UncheckedBox(recording)
        self.clock = clock
        self.start = start
    }

    public func samples() -> AsyncStream<Sample> {
        let (stream, continuation) = AsyncStream<Sample>.makeStream()
        let recording = self.recording
        let clock = self.clock
        let start = self.start
        let task = Task {
            var origin: Timestamp?
            while !Task.isCancelled, let sample = try? recording.value.next() {
                let first = origin ?? min(recording.value.start ?? sample.time, sample.time)
                origin = first
                try? await clock.sleep(until: start.advanced(by: .seconds(sample.time - first)), tolerance: nil)
                if Task.isCancelled { break }
                continuation.yield(sample)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A value that is only ever used from one task at a time.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
