import Foundation
import Synchronization
import VigilCore

/// What can reach a running session from outside: the person's actions, or the end of Vigil.
public enum LiveCommand: Sendable {
    case control(ControlAction)
    /// Ends the session for a reason other than the person's choice (`.interrupted` on SIGTERM).
    case end(EndCause)
    /// The person asks to end a strict session before its plan (`vigil stop --early`): it ends
    /// after its cooling-off (`StrictGate`). Any other session ends at once, as with `end`.
    case endEarly
    /// The person taught a rule ("this was work"): the session judges by it from now on, the
    /// application in front (`current`, as its detector gave it) at once.
    case learn(LearnedRule, current: AppFocus?)
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
///
/// Exact coordinates go no further than here unless the person opted in
/// (`location.exact_coordinates`): a fix that comes exact (from a file played as the sensors, a gpsd
/// log or a recording made with the opt-in) is made coarse as the live location detector makes
/// its own (`LocationPrivacy`), before the state machine, `onSample` (the recording) and the live
/// view see it. The judgement is the same either way.
public actor LiveSession<C: Clock> where C.Duration == Duration {
    private var stepper: SessionStepper
    private var privacy: LocationPrivacy
    private let clock: C
    private let clockStart: C.Instant
    private let wallStart: Timestamp
    private let onEvents: @Sendable ([SessionEvent]) -> Void
    private let onSample: (@Sendable (Sample) -> Void)?
    /// After each tick: the instant, the combined score and the reason behind it (the live view).
    private let onTick: (@Sendable (Timestamp, Double, String?) -> Void)?
    /// The instant of the last sample or control fed (and recorded): a silence after it (or after
    /// the start) gets a sign of life (`ControlAction.alive`, `SignOfLife`).
    private var lastFed: Timestamp?
    private let tickSeconds: Double
    private let gapSeconds: Double

    public init(
        configuration: VigilConfiguration, signals: SignalCatalog, task: String?, plannedSeconds: Double?, wallStart: Timestamp, clock: C,
        onSample: (@Sendable (Sample) -> Void)? = nil,
        onTick: (@Sendable (Timestamp, Double, String?) -> Void)? = nil,
        onEvents: @escaping @Sendable ([SessionEvent]) -> Void
    ) {
        self.onTick = onTick
        stepper = SessionStepper(
            session: FocusSession(configuration: configuration, task: task, plannedSeconds: plannedSeconds, signals: signals))
        privacy = LocationPrivacy(config: configuration.location)
        (tickSeconds, gapSeconds) = (configuration.session.tick, configuration.session.gap)
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
        let t = now()
        if stepper.hasStalled(at: t) {
            // Nothing, not even a tick, for longer than session.gap: this process did not run. The
            // gap ends now, and the recording says so; a replay would otherwise end it at the
            // next sample, a moment later.
            feed(Sample(time: t, payload: .control(.stallEnded)), into: &events)
        } else if SignOfLife.isDue(silence: t - (lastFed ?? wallStart), period: tickSeconds, gap: gapSeconds) {
            // Running, with nothing recorded for half of session.gap (sensors that report only
            // changes): a sign of life, so that the replay ticks on through the silence as this
            // session does, instead of booking a gap.
            feed(Sample(time: t, payload: .control(.alive)), into: &events)
        }
        let endedBefore = stepper.isEnded
        stepper.ticks(through: t, into: &events)
        if !endedBefore, stepper.isEnded, let end = stepper.session.plannedEnd {
            // The plan ran out on a tick: say so in the recording, so its replay ends here too.
            // (Every sample recorded so far is earlier: one at or after the planned end, the
            // control fed above included, ended the session itself, and its replay ends there.)
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

    private func feed(_ taken: Sample, into events: inout [SessionEvent]) {
        guard !stepper.isEnded else { return }
        lastFed = max(lastFed ?? taken.time, taken.time)
        var sample = taken
        if case .location(let fix) = taken.payload { sample.payload = .location(privacy.protect(fix)) }
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
        case .endEarly: control(.end)
        case .learn(let rule, let current):
            guard !stepper.isEnded else { return }
            var events: [SessionEvent] = []
            stepper.learn(rule, current: current, at: now(), into: &events)
            deliver(events)
        }
    }

    /// Runs until the plan is reached or a command ends it.
    /// - Parameter endWithDetectors: end the session (as the recording's end) when the detectors'
    ///   streams are over: a rehearsal of a recording ends with it.
    public func run(detectors: [any Detector], commands: AsyncStream<LiveCommand>, endWithDetectors: Bool = false) async {
        let tick = tickSeconds
        await withTaskGroup(of: Void.self) { group in
            group.drain(detectors) { d, reading in
                await self.receive(reading)
                d.taken(reading)
                return await !self.isEnded
            } ended: {
                if endWithDetectors { await self.end(.recordingEnded) }
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
