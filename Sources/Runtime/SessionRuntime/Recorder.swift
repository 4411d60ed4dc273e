import VigilCore
import VigilRecording

extension TaskGroup<Void> {
    /// One task per detector, handing each of its readings to `take` until `take` says to stop or
    /// the stream ends; `ended` runs for a stream that ended by itself. The one detector loop of a
    /// live session and of `vigil record`.
    mutating func drain(
        _ detectors: [any Detector], take: @escaping @Sendable (any Detector, SamplePayload) async -> Bool,
        ended: @escaping @Sendable () async -> Void = {}
    ) {
        for d in detectors {
            addTask {
                for await reading in d.readings() {
                    guard await take(d, reading) else { return }
                }
                await ended()
            }
        }
    }
}

/// When a recording gets a sign of life (`ControlAction.alive`): a silence longer than half of
/// `session.gap`, looked at every `period` (a tick). Half a period early rather than late: a
/// look that comes a hair before the period is up must not put two periods (at least a gap, when
/// the gap is under two ticks) between the lines.
public enum SignOfLife {
    public static func isDue(silence: Double, period: Double, gap: Double) -> Bool {
        silence + period / 2 >= max(period, gap / 2)
    }
}

/// `vigil record`: the live sensors' samples written to a recording, without a session. Samples
/// are stamped as they are written, on one monotonic clock, so the file is in time order whichever
/// detector comes first; after half a `session.gap` with nothing written, a sign of life
/// (`ControlAction.alive`) is, as a live session writes one, so that sensors that report only
/// changes replay without a gap.
public struct Recorder<C: Clock>: Sendable where C.Duration == Duration {
    private let sensors: [SensorAvailability]
    private let file: SampleRecorder
    private let clock: C
    private let clockStart: C.Instant
    /// The recording's time 0 (its header's start).
    public let wallStart: Timestamp
    private let gap: Double

    /// - Parameter clockStart: the instant on `clock` that is `wallStart` (taken with it, before
    ///   the sensors were probed: stamps count from there).
    public init(
        sensors: [SensorAvailability], file: SampleRecorder, configuration: VigilConfiguration, wallStart: Timestamp, clock: C,
        clockStart: C.Instant
    ) {
        self.sensors = sensors
        self.file = file
        self.clock = clock
        self.clockStart = clockStart
        self.wallStart = wallStart
        gap = configuration.session.gap
    }

    /// The wall-clock instant now, on the monotonic clock.
    public func now() -> Timestamp {
        let (s, atto) = clockStart.duration(to: clock.now).components
        return Timestamp(nanoseconds: wallStart.nanoseconds &+ s &* 1_000_000_000 &+ atto / 1_000_000_000)
    }

    /// Records until `limit` seconds have passed (nil: no limit) or `stop` yields: the disabled
    /// sensors' statuses first, then every sample. `onStatus` hears each status a detector
    /// reports; `onProgress` the seconds recorded, about every second.
    public func run(
        limit: Double?, stop: AsyncStream<Void>, onStatus: @escaping @Sendable (SensorStatus) -> Void,
        onProgress: (@Sendable (Double) -> Void)? = nil
    ) async {
        for s in sensors {
            if let status = s.status { file.append(Sample(time: wallStart, payload: .status(status))) }
        }
        let (file, now, gap, wallStart, clock, clockStart) = (file, now, gap, wallStart, clock, clockStart)
        await withTaskGroup(of: Void.self) { group in
            group.drain(sensors.compactMap(\.detector)) { _, reading in
                file.append(reading, stampedBy: now)
                if case .status(let st) = reading { onStatus(st) }
                return true
            }
            group.addTask {
                for await _ in stop { return }
            }
            group.addTask {
                let deadline = limit.map { clockStart.advanced(by: .seconds($0)) }
                var next = clockStart
                while !Task.isCancelled {
                    if let deadline, clock.now >= deadline { return }
                    file.appendSignOfLife(since: wallStart, stampedBy: now) { SignOfLife.isDue(silence: $0, period: 1, gap: gap) }
                    onProgress?(now() - wallStart)
                    // On the second from the start; after a stall (suspend, SIGSTOP) from now, not
                    // once for every second missed.
                    next = max(next.advanced(by: .seconds(1)), clock.now)
                    if let deadline { next = min(next, deadline) }
                    do { try await clock.sleep(until: next, tolerance: nil) } catch { return }
                }
            }
            // The time limit or `stop` ends the recording; the detectors stop with it.
            _ = await group.next()
            group.cancelAll()
        }
    }
}
