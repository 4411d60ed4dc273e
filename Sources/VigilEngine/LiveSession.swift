import Foundation
import VigilCore
import VigilStore

/// What is known about each live sensor before a session starts.
public struct SensorAvailability: Sendable {
    public var sensor: SensorKind
    public var detector: (any Detector)?
    /// Why there is no detector, and what to do about it.
    public var status: SensorStatus
}

/// The detectors this build can run. The libinput, PulseAudio and gpsd detectors plug in here; a
/// sensor without a detector is reported with the reason, and the session runs with the others.
public enum DetectorCatalog {
    public static func availability(configuration: VigilConfiguration) -> [SensorAvailability] {
        SensorKind.allCases.map { sensor in
            let library = ["input": "libinput", "audio": "PulseAudio", "location": "gpsd"][sensor.rawValue]!
            let enabled: Bool
            switch sensor {
            case .input: enabled = configuration.input.enabled
            case .audio: enabled = configuration.audio.enabled
            case .location: enabled = configuration.location.enabled
            }
            let detail = enabled
                ? "this build of Vigil has no live \(library) detector yet; the session runs without it (recordings can be replayed with `vigil replay`)"
                : "disabled in the config (\(sensor.rawValue).enabled: false)"
            return SensorAvailability(sensor: sensor, detector: nil, status: SensorStatus(sensor: sensor, state: .unavailable, detail: detail))
        }
    }
}

/// What can reach a running session from outside: the person's actions, or the end of Vigil.
public enum LiveCommand: Sendable {
    case control(ControlAction)
    /// Ends the session for a reason other than the person's choice (`.interrupted` on SIGTERM).
    case end(EndCause)
}

/// A focus session on a real clock: detectors feed samples, a ticker re-evaluates every
/// `session.tick`, commands (signals, keys) pause or end it. Every batch of events is handed to
/// `onEvents` (which writes it to the log) before the next is produced, so what was reported is durable.
///
/// Generic over the clock: `vigil start` uses `ContinuousClock` (monotonic), tests a `ManualClock`.
/// Wall time is the start's wall time plus elapsed clock time, so a change of the system clock
/// (NTP, by hand) cannot make an episode negative or huge.
public actor LiveSession<C: Clock> where C.Duration == Duration {
    private var session: FocusSession
    private let clock: C
    private let clockStart: C.Instant
    private let wallStart: Timestamp
    private let onEvents: @Sendable ([SessionEvent]) -> Void

    public init(configuration: VigilConfiguration, task: String?, plannedSeconds: Double?, wallStart: Timestamp, clock: C,
                onEvents: @escaping @Sendable ([SessionEvent]) -> Void) {
        session = FocusSession(configuration: configuration, task: task, plannedSeconds: plannedSeconds)
        self.clock = clock
        clockStart = clock.now
        self.wallStart = wallStart
        self.onEvents = onEvents
    }

    /// The wall-clock instant now, derived from the monotonic clock.
    public func now() -> Timestamp {
        let elapsed = clockStart.duration(to: clock.now)
        let (s, atto) = elapsed.components
        return Timestamp(nanoseconds: wallStart.nanoseconds + s * 1_000_000_000 + atto / 1_000_000_000)
    }

    public var isEnded: Bool { session.isEnded }

    public func begin(statuses: [SensorStatus]) {
        let t = now()
        var events = session.start(at: t)
        for s in statuses { events += session.receive(Sample(time: t, payload: .status(s))) }
        deliver(events)
    }

    public func receive(_ payload: SamplePayload) { deliver(session.receive(Sample(time: now(), payload: payload))) }
    public func tick() { deliver(session.tick(at: now())) }
    public func control(_ action: ControlAction) { deliver(session.control(action, at: now())) }
    public func end(_ cause: EndCause) { deliver(session.end(cause, at: now())) }

    private func deliver(_ events: [SessionEvent]) {
        if !events.isEmpty { onEvents(events) }
    }

    public func handle(_ command: LiveCommand) {
        switch command {
        case .control(let action): control(action)
        case .end(let cause): end(cause)
        }
    }

    /// Runs until the plan is reached or a command ends it.
    public func run(detectors: [any Detector], commands: AsyncStream<LiveCommand>) async {
        let tick = session.configuration.session.tick
        await withTaskGroup(of: Void.self) { group in
            for d in detectors {
                group.addTask {
                    for await sample in d.samples() { await self.receive(sample.payload) }
                }
            }
            group.addTask {
                for await command in commands {
                    await self.handle(command)
                    if await self.isEnded { return }
                }
            }
            group.addTask {
                // Tick on a grid from the start, so ticks do not drift; after a stall (the process
                // was stopped) skip to now rather than firing the missed ticks in a burst.
                var next = self.clockStart
                while !Task.isCancelled {
                    next = next.advanced(by: .seconds(tick))
                    if next < self.clock.now { next = self.clock.now }
                    do { try await self.clock.sleep(until: next, tolerance: nil) } catch { return }
                    await self.tick()
                    if await self.isEnded { return }
                }
            }
            // Whichever ends the session first ends the others.
            while await group.next() != nil {
                if self.isEnded { group.cancelAll() }
            }
        }
    }
}

/// Writes a live session's events to the log as they come: one durable transaction per batch.
public final class SessionLogWriter: @unchecked Sendable {
    private let store: EventStore
    private let lock = NSLock()
    private var sessionId: Int64?
    /// The first write error, reported once; the session keeps running without the log.
    public private(set) var failure: StoreError?

    public init(store: EventStore) { self.store = store }

    public func write(_ events: [SessionEvent]) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return }
        do {
            var batch = events[...]
            if sessionId == nil, let first = batch.first, case .sessionStarted(let task, let planned) = first.kind {
                sessionId = try store.beginSession(task: task, source: "live", recording: nil, startedAt: first.time, plannedSeconds: planned)
                batch = batch.dropFirst()
            }
            if let id = sessionId { try store.append(Array(batch), session: id) }
        } catch {
            failure = error
        }
    }

    public var session: Int64? {
        lock.lock()
        defer { lock.unlock() }
        return sessionId
    }
}
