import Foundation
import InputDetector
import Synchronization
import LocationDetector
import MicrophoneDetector
import VigilCore
import VigilStore

/// What is known about each live sensor before a session starts.
public struct SensorAvailability: Sendable {
    public var sensor: SensorKind
    /// The detector, or nil when the sensor is disabled in the config.
    public var detector: (any Detector)?
    /// Which library and where it looks (`libinput, seat "seat0"`).
    public var source: String
    /// Why there is no detector; a detector reports its own status when it runs.
    public var status: SensorStatus?
}

/// The live detectors, built from the config: libinput for input, PulseAudio for the microphone,
/// gpsd for location. A disabled sensor is reported with the reason, and the session runs with
/// the others; an enabled one that cannot work says why in its first status sample.
public enum DetectorCatalog {
    public static func availability(configuration: VigilConfiguration, now: @escaping @Sendable () -> Timestamp) -> [SensorAvailability] {
        [input(configuration.input, now: now), audio(configuration.audio, now: now), location(configuration.location, now: now)]
    }

    private static func input(_ c: VigilConfiguration.Input, now: @escaping @Sendable () -> Timestamp) -> SensorAvailability {
        var source = "libinput"
        if let seat = c.seat { source += ", seat \"\(seat)\"" }
        if !c.devices.isEmpty { source += ", " + c.devices.joined(separator: ", ") }
        guard c.enabled else { return disabled(.input, source, key: "input.enabled") }
        return SensorAvailability(sensor: .input, detector: LibinputDetector(seat: c.seat, devicePaths: c.devices, window: c.window, now: now), source: source)
    }

    private static func audio(_ c: VigilConfiguration.Audio, now: @escaping @Sendable () -> Timestamp) -> SensorAvailability {
        let source = "PulseAudio, " + (c.source.map { "source \"\($0)\"" } ?? "default source") + (c.server.map { " on \($0)" } ?? "")
        guard c.enabled else { return disabled(.audio, source, key: "audio.enabled") }
        return SensorAvailability(sensor: .audio, detector: PulseMicrophoneDetector(server: c.server, source: c.source, window: c.window, now: now),
                                  source: source)
    }

    private static func location(_ c: VigilConfiguration.Location, now: @escaping @Sendable () -> Timestamp) -> SensorAvailability {
        let source = "gpsd at \(c.gpsdHost):\(c.gpsdPort)"
        guard c.enabled else { return disabled(.location, source, key: "location.enabled") }
        return SensorAvailability(sensor: .location, detector: GPSDDetector(host: c.gpsdHost, port: c.gpsdPort, location: c, now: now), source: source)
    }

    private static func disabled(_ sensor: SensorKind, _ source: String, key: String) -> SensorAvailability {
        SensorAvailability(sensor: sensor, detector: nil, source: source,
                           status: SensorStatus(sensor: sensor, state: .unavailable, detail: "disabled in the config (\(key): false)"))
    }

    /// Each sensor's state as its detector first reports it, waiting at most `timeout` seconds per
    /// detector (they are asked at the same time). For `vigil sensors`.
    public static func probe(_ sensors: [SensorAvailability], timeout: Double = 5) async -> [SensorStatus] {
        await withTaskGroup(of: (Int, SensorStatus).self) { group in
            for (i, s) in sensors.enumerated() {
                group.addTask {
                    if let status = s.status { return (i, status) }
                    guard let detector = s.detector else { return (i, SensorStatus(sensor: s.sensor, state: .unavailable)) }
                    // The first status is the answer, unless it is a passing one (gpsd connected but
                    // no fix yet): then the latest within the timeout.
                    let latest = Mutex<SensorStatus?>(nil)
                    let first = Task { () -> Void in
                        for await sample in detector.samples() {
                            guard case .status(let st) = sample.payload else { continue }
                            latest.withLock { $0 = st }
                            if st.state != .noFix && st.state != .lost { return }
                        }
                    }
                    let timer = Task {
                        try? await Task.sleep(for: .seconds(timeout))
                        first.cancel()
                    }
                    await first.value
                    timer.cancel()
                    let status = latest.withLock { $0 }
                    return (i, status ?? SensorStatus(sensor: s.sensor, state: .unavailable,
                                                      detail: "no answer from \(s.source) within \(Int(timeout)) s"))
                }
            }
            var out = [SensorStatus?](repeating: nil, count: sensors.count)
            for await (i, status) in group { out[i] = status }
            return out.map { $0! }
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
///
/// Samples are stamped when the session takes them, on that clock, and stepped through
/// `SessionStepper` like a replay's. `onSample` sees each sample and control exactly as the state
/// machine judged it, and an `end` control at the instant a planned session ran out, so what it
/// writes (`vigil start --record`) replays to the same timeline.
public actor LiveSession<C: Clock> where C.Duration == Duration {
    private var stepper: SessionStepper
    private let clock: C
    private let clockStart: C.Instant
    private let wallStart: Timestamp
    private let onEvents: @Sendable ([SessionEvent]) -> Void
    private let onSample: (@Sendable (Sample) -> Void)?
    /// After each tick: the instant, the combined score and the reason behind it (the live view).
    private let onTick: (@Sendable (Timestamp, Double, String?) -> Void)?

    public init(configuration: VigilConfiguration, task: String?, plannedSeconds: Double?, wallStart: Timestamp, clock: C,
                onSample: (@Sendable (Sample) -> Void)? = nil,
                onTick: (@Sendable (Timestamp, Double, String?) -> Void)? = nil,
                onEvents: @escaping @Sendable ([SessionEvent]) -> Void) {
        self.onTick = onTick
        stepper = SessionStepper(session: FocusSession(configuration: configuration, task: task, plannedSeconds: plannedSeconds))
        self.clock = clock
        clockStart = clock.now
        self.wallStart = wallStart
        self.onSample = onSample
        self.onEvents = onEvents
    }

    /// The wall-clock instant now, derived from the monotonic clock.
    public func now() -> Timestamp {
        let elapsed = clockStart.duration(to: clock.now)
        let (s, atto) = elapsed.components
        return Timestamp(nanoseconds: wallStart.nanoseconds + s * 1_000_000_000 + atto / 1_000_000_000)
    }

    public var isEnded: Bool { stepper.isEnded }

    /// Starts the session at its wall start and reports the sensors known before any detector ran
    /// (those disabled in the config).
    public func begin(statuses: [SensorStatus]) {
        var events = stepper.start(at: wallStart)
        for s in statuses { feed(Sample(time: wallStart, payload: .status(s)), into: &events) }
        deliver(events)
    }

    public func receive(_ payload: SamplePayload) {
        var events: [SessionEvent] = []
        feed(Sample(time: now(), payload: payload), into: &events)
        deliver(events)
    }

    public func tick() {
        guard !stepper.isEnded else { return }
        var events: [SessionEvent] = []
        stepper.ticks(through: now(), into: &events)
        if stepper.isEnded, let end = stepper.session.plannedEnd {
            // The plan ran out on this tick: say so in the recording, so its replay ends here too.
            // (Every sample recorded so far is earlier: one at or after the planned end would have
            // ended the session itself, and then this tick does nothing.)
            onSample?(Sample(time: end, payload: .control(.end)))
        }
        deliver(events)
        if !stepper.isEnded { onTick?(now(), stepper.session.score, stepper.session.dominant?.reason) }
    }

    public func control(_ action: ControlAction) { receive(.control(action)) }

    public func end(_ cause: EndCause) {
        var events: [SessionEvent] = []
        stepper.end(cause, at: now(), into: &events)
        deliver(events)
    }

    private func feed(_ sample: Sample, into events: inout [SessionEvent]) {
        guard !stepper.isEnded else { return }
        stepper.receive(sample, into: &events)
        onSample?(sample)
        onReading?(sample)
    }

    /// Every sample taken, with its instant (the live view's readings).
    private var onReading: (@Sendable (Sample) -> Void)?
    public func observeReadings(_ body: @escaping @Sendable (Sample) -> Void) { onReading = body }

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
    /// - Parameter endWithDetectors: end the session (as the recording's end) when the detectors'
    ///   streams are over: a rehearsal of a recording ends with it.
    public func run(detectors: [any Detector], commands: AsyncStream<LiveCommand>, endWithDetectors: Bool = false) async {
        let tick = stepper.session.configuration.session.tick
        await withTaskGroup(of: Void.self) { group in
            for d in detectors {
                group.addTask {
                    for await sample in d.samples() {
                        await self.receive(sample.payload)
                        if await self.isEnded { return }
                    }
                    if endWithDetectors { await self.end(.recordingEnded) }
                }
            }
            group.addTask {
                for await command in commands {
                    await self.handle(command)
                    if await self.isEnded { return }
                }
            }
            group.addTask {
                // Wake on the grid from the start, so ticks do not drift; after a stall (the process
                // was stopped) wake now rather than for each missed tick (the stepper skips them).
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

/// What the log writer has to say about the log during a session.
public enum LogWriterNews: Sendable {
    /// A write failed (disk full, read-only, I/O error): the events are kept in memory.
    case failing(StoreError, waiting: Int)
    /// The log can be written again: the events that waited are in it.
    case recovered(written: Int)
}

/// Writes a live session's events to the log as they come: one durable transaction per batch.
///
/// When the log cannot be written (the disk is full, the data directory became read-only, an I/O
/// error), the session must go on with its alarms and lose nothing that can be saved: the events
/// wait in memory, in order, and every later write (at the latest the heartbeat every few seconds)
/// tries again, oldest first. A failed write is one rolled-back transaction, so the log never
/// holds half a batch. Only if the log still cannot be written when the session ends are the
/// waiting events lost, and `finish()` says how many.
public final class SessionLogWriter: @unchecked Sendable {
    private let store: EventStore
    private let lock = NSLock()
    private var sessionId: Int64?
    /// Events not yet in the log, oldest first (the first is `sessionStarted` until the session row exists).
    private var waiting: [SessionEvent] = []
    private var waitingDeliveries: [AlarmDelivery] = []
    private var waitingTouch: Timestamp?
    /// The current write failure; `nil` while the log is being written.
    private var failure: StoreError?
    /// Events dropped because the buffer was full (`bufferLimit`).
    private var dropped = 0
    private let news: @Sendable (LogWriterNews) -> Void

    /// How many events may wait: far more than a day of sessions logs (a session logs tens of
    /// events; even the stress profile a few hundred), and a bound on the memory they take.
    public static let bufferLimit = 100_000

    private let taskId: Int64?
    private let source: String

    /// - Parameters: taskId: the task in the person's list the session is for, if any; source:
    ///   `live`, or `rehearsal` for a recording played as live; news: told when writing starts
    ///   failing and when it works again (once each way).
    public init(store: EventStore, taskId: Int64? = nil, source: String = "live", news: @escaping @Sendable (LogWriterNews) -> Void = { _ in }) {
        self.store = store
        self.taskId = taskId
        self.source = source
        self.news = news
    }

    public func write(_ events: [SessionEvent]) {
        lock.lock()
        defer { lock.unlock() }
        let room = Self.bufferLimit - waiting.count
        if events.count > room {
            // Keep the session's start (the rest refers to it); drop what does not fit.
            dropped += events.count - max(room, 0)
            waiting += events.prefix(max(room, 0))
        } else {
            waiting += events
        }
        flush()
    }

    /// Records that the session was alive at `at` (every few seconds): if the process is killed,
    /// the next start closes the session there. Also the moment a failed log is tried again.
    public func touch(_ at: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        waitingTouch = max(waitingTouch ?? at, at)
        flush()
    }

    /// Logs what the alarm channels did (after the session's own events: the session must exist).
    public func write(_ delivery: AlarmDelivery) {
        lock.lock()
        defer { lock.unlock() }
        if waitingDeliveries.count < Self.bufferLimit { waitingDeliveries.append(delivery) } else { dropped += 1 }
        flush()
    }

    /// A last try at the end of the session. Returns how many events and deliveries are not in
    /// the log (0 when everything is), with the reason.
    public func finish() -> (lost: Int, reason: StoreError?) {
        lock.lock()
        defer { lock.unlock() }
        flush()
        return (waiting.count + waitingDeliveries.count + dropped, failure)
    }

    /// Writes what waits, oldest first. Called with the lock held.
    private func flush() {
        let hadFailed = failure != nil
        // What waited before this write (the last batch is counted too: it waited behind them).
        let count = waiting.count + waitingDeliveries.count
        do {
            if sessionId == nil, let first = waiting.first, case .sessionStarted(let task, let planned) = first.kind {
                sessionId = try store.beginSession(task: task, taskId: taskId, source: source, recording: nil, startedAt: first.time, plannedSeconds: planned)
                waiting.removeFirst()
            }
            guard let id = sessionId else { return }
            if !waiting.isEmpty {
                try store.append(waiting, session: id)
                waiting.removeAll(keepingCapacity: true)
            }
            if !waitingDeliveries.isEmpty {
                try store.appendDeliveries(waitingDeliveries, session: id)
                waitingDeliveries.removeAll(keepingCapacity: true)
            }
            if let t = waitingTouch {
                try store.touch(session: id, at: t)
                waitingTouch = nil
            }
            if hadFailed {
                failure = nil
                news(.recovered(written: count))
            }
        } catch {
            failure = error
            if !hadFailed { news(.failing(error, waiting: waiting.count + waitingDeliveries.count)) }
        }
    }

    public var session: Int64? {
        lock.lock()
        defer { lock.unlock() }
        return sessionId
    }
}
