import Foundation
import SessionViews
import Synchronization
import VigilCore
import VigilRecording
import VigilStore

/// The live view model, shared by the session's callbacks, the keys and whoever draws it.
public final class LiveViewModel: @unchecked Sendable {
    // @unchecked: every access goes through the lock.
    private let lock = NSLock()
    private var value: LiveView
    private let changed: AsyncStream<Void>.Continuation
    /// An element after each change, the newest kept: the live screen is drawn when something it
    /// shows changed (a reading, an event, the session's tick each second, a key), not on a timer
    /// that wakes the process when nothing did.
    public let changes: AsyncStream<Void>

    public init(_ value: LiveView) {
        self.value = value
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit { changed.finish() }

    /// Reads or changes the view, and wakes whoever waits on `changes`.
    public func withLock<T>(_ body: (inout LiveView) -> T) -> T {
        defer { changed.yield() }
        return lock.withLock { body(&value) }
    }

    /// The view as it is now, waking no one (for the one who draws it).
    public func snapshot() -> LiveView { lock.withLock { value } }

    /// Wakes whoever draws the view: something shown around it changed (a question, the help).
    public func touch() { changed.yield() }
}

/// One focus session as `vigil start` runs it, from the first event to the last: the log (which
/// outlives a full disk), alarms through their channels, the live view model, the status file and
/// a heartbeat in the log, a Pomodoro plan, and a recording of what was judged.
///
/// How the session is shown (a screen, plain lines, JSON) and read from the keyboard is the
/// caller's: it gets each batch of events after the log and the alarms have them, the messages
/// for the person, and `view`.
public final class SessionRunner<C: Clock>: Sendable where C.Duration == Duration {
    public struct Plan: Sendable {
        public var task: String?
        public var taskId: Int64?
        /// The session's tags (`start --tag`), normalized.
        public var tags: [String] = []
        public var planned: Double?
        /// The wall time the session starts at (its clock's zero).
        public var wallStart: Timestamp
        /// A rehearsal of recordings (`--replay`): logged with the source "rehearsal", and it ends
        /// when the recordings do.
        public var rehearsal: Bool
        public var pomodoro: PomodoroPlan?
        /// Where to record what the session judged (`--record`).
        public var record: String?
        /// A strict session's cooling-off before an early end (`StrictGate`); nil: not strict.
        public var strictCoolOff: Double?
        /// What the person means to do (`start --intent`), in their words.
        public var intent: String?

        public init(
            task: String?, taskId: Int64?, planned: Double?, wallStart: Timestamp, rehearsal: Bool, pomodoro: PomodoroPlan? = nil,
            record: String? = nil, tags: [String] = [], strictCoolOff: Double? = nil, intent: String? = nil
        ) {
            self.intent = intent
            self.strictCoolOff = strictCoolOff
            // A strict session is tagged so: one killed before its end is then told apart as broken.
            self.tags = strictCoolOff == nil || tags.contains("strict") ? tags : tags + ["strict"]
            self.task = task
            self.taskId = taskId
            self.planned = planned
            self.wallStart = wallStart
            self.rehearsal = rehearsal
            self.pomodoro = pomodoro
            self.record = record
        }
    }

    /// How the session ended for the log and the recording.
    public struct Outcome: Sendable {
        /// The session's id in the log, once its first events were written.
        public var session: Int64?
        /// Events that could not be logged before the end, and the last reason.
        public var lostEvents: Int
        public var logProblem: StoreError?
        public var recording: String?
        /// Why the recording is incomplete, if it is.
        public var recordingProblem: String?
    }

    /// What the caller is told as the session goes.
    public struct Presenter: Sendable {
        /// A batch of events, in order, with the text line of each (nil for the events the text
        /// timeline folds into others); called after the log and the alarms have them.
        public var events: @Sendable ([(event: SessionEvent, text: String?)]) -> Void
        /// A message for the person: the log failing or writing again, an alarm channel unavailable.
        /// It is also among the view's recent lines, where the live screen shows it.
        public var note: @Sendable (String) -> Void
        /// A Pomodoro break is over and the session waits for the person; `elapsed` is session time.
        public var waiting: @Sendable (_ elapsed: Double) -> Void
        /// After each tick of the session (every `session.tick`), the view as it now is: what plain
        /// output's once-a-minute status line is timed by, with no timer of its own.
        public var tick: @Sendable (LiveView) -> Void
        /// What an action did on the person's desktop (a delivery that says what), for the
        /// timeline's `action` lines.
        public var action: @Sendable (AlarmDelivery) -> Void
        /// The person is back from an away or locked stretch of at least `session.ask_after`: the
        /// moment to ask them what it was (`EpisodeLabel`).
        public var returned: @Sendable (Episode) -> Void

        public init(
            events: @escaping @Sendable ([(event: SessionEvent, text: String?)]) -> Void, note: @escaping @Sendable (String) -> Void,
            waiting: @escaping @Sendable (Double) -> Void = { _ in }, tick: @escaping @Sendable (LiveView) -> Void = { _ in },
            action: @escaping @Sendable (AlarmDelivery) -> Void = { _ in }, returned: @escaping @Sendable (Episode) -> Void = { _ in }
        ) {
            self.returned = returned
            self.action = action
            self.tick = tick
            self.events = events
            self.note = note
            self.waiting = waiting
        }
    }

    public let plan: Plan
    public let view: LiveViewModel
    /// The session's number in the log, once its first events are written.
    public var sessionID: Int64? { writer.session }

    /// Tells the person `message`: among the view's recent lines, and through the presenter.
    public func note(_ message: String) { tell(message) }
    private let configuration: VigilConfiguration
    private let signals: SignalCatalog
    private let store: EventStore
    private let statusFile: SessionStatusFile
    /// The screen for `vigil attach`.
    private let mirror: ScreenMirror
    private let clock: C
    private let presenter: Presenter
    private let writer: SessionLogWriter
    private let alarms: AlarmDispatcher
    private let recorder: SampleRecorder?
    /// A message for the person, on the live screen and through the presenter.
    private let tell: @Sendable (String) -> Void
    /// `session.music`'s player, for a live session that names one.
    private let music: MusicForWork?

    /// - Parameters:
    ///   - sinks: the alarm channels (the terminal's own depends on how the session is shown).
    ///   - motivation: a motivating line for each alarm, or nil.
    public init(
        configuration: VigilConfiguration, signals: SignalCatalog, log: LocalLog, dataDirectory: String, plan: Plan, clock: C,
        sinks: [any AlarmSink],
        motivation: @escaping @Sendable () -> String?, presenter: Presenter
    ) throws(RecordingError) {
        // A pomodoro set keeps its own clock: its work periods and breaks are the plan.
        var configuration = configuration
        if plan.pomodoro != nil { configuration.session.pauseExtendsPlan = false }
        self.configuration = configuration
        self.signals = signals
        self.store = log.store
        self.plan = plan
        self.clock = clock
        self.presenter = presenter
        statusFile = SessionStatusFile(dataDirectory: dataDirectory)
        mirror = ScreenMirror(dataDirectory: dataDirectory)
        let view = LiveViewModel(
            LiveView(
                task: plan.task, planned: plan.planned, workplace: configuration.location.workplace, signals: signals,
                pauseExtendsPlan: configuration.session.pauseExtendsPlan))
        view.withLock {
            $0.strict = plan.strictCoolOff != nil
            $0.intent = plan.intent
        }
        self.view = view
        let logPath = store.path
        let tell: @Sendable (String) -> Void = { message in
            view.withLock { $0.note(message) }
            presenter.note(message)
        }
        // A log that cannot be written does not stop the session: its events wait in memory.
        let writer = SessionLogWriter(
            store: store, taskId: plan.taskId, tags: plan.tags, intent: plan.intent, source: plan.rehearsal ? .rehearsal : .live
        ) { news in
            switch news {
            case .failing(let error, let count):
                tell(
                    "cannot write the event log (\(error.message)); the session goes on with its alarms, and its events "
                        + "(\(count) so far) wait in memory until \(logPath) can be written: free some disk space or make its directory writable")
            case .recovered(let count):
                tell("the event log is written again" + (count > 0 ? ": the \(count) events that waited are in it" : ""))
            }
        }
        self.writer = writer
        self.tell = tell
        music = plan.rehearsal ? nil : MusicForWork(configuration: configuration.session, tell: tell)
        if let path = plan.record {
            recorder = try SampleRecorder(
                path: path, header: RecordingHeader(start: plan.wallStart, source: "vigil start", task: plan.task, plannedSeconds: plan.planned),
                journal: VigilPaths.outputJournal(dataDirectory: dataDirectory))
        } else {
            recorder = nil
        }
        alarms = AlarmDispatcher(
            configuration: configuration.alarms, task: plan.task, sinks: sinks,
            onDelivery: { d in
                writer.write(d)
                // An action that did something says what (a channel that tells leaves it empty).
                if d.delivered, !d.detail.isEmpty { presenter.action(d) }
            },
            motivation: motivation, report: tell)
    }

    /// Runs the session until it ends: its planned time is up, an `end` command arrives, or (a
    /// rehearsal) the recordings end. `inject` reaches `commands`: the Pomodoro plan's breaks and
    /// resumptions go through it, as the person's keys do.
    public func run(
        detectors: [any Detector], statuses: [SensorStatus], commands: AsyncStream<LiveCommand>,
        inject: @escaping @Sendable (LiveCommand) -> Void
    ) async -> Outcome {
        let view = view
        let writer = writer
        let alarms = alarms
        let presenter = presenter
        let plan = plan
        let music = music
        let renderer = TimelineRenderer(sessionStart: plan.wallStart)
        let askAfter = configuration.session.askAfter
        var tap: (@Sendable (Sample) -> Void)?
        if let r = recorder { tap = { sample in r.append(sample) } }
        let strict = plan.strictCoolOff.map { StrictGate(coolOff: $0, plannedBreaks: plan.pomodoro != nil) }
        let books = Bookkeeper(statusFile: statusFile, plan: plan, writer: writer, strict: strict)
        let mirror = mirror
        let live = LiveSession(
            configuration: configuration, signals: signals, task: plan.task, plannedSeconds: plan.planned, wallStart: plan.wallStart, clock: clock,
            onSample: tap,
            onTick: { t, score, reason in
                let snapshot = view.withLock { v in
                    v.tick(at: t, score: score, reason: reason)
                    return v
                }
                books.update(snapshot)
                mirror.update(snapshot)
                presenter.tick(snapshot)
            },
            onEvents: { events in
                writer.write(events)
                alarms.handle(events)
                music?.handle(events)
                let rendered = events.map { e in (event: e, text: renderer.text(e)) }
                // A new state is in the status file at once, not at the next tick.
                let snapshot = view.withLock { v in
                    for r in rendered { v.apply(r.event, line: r.text) }
                    return v
                }
                books.update(snapshot)
                mirror.update(snapshot)
                presenter.events(rendered)
                for e in events {
                    if case .episodeEnded(let episode) = e.kind, askAfter > 0, episode.cause == .away, episode.closedBy == .back,
                        (episode.duration ?? 0) >= askAfter
                    {
                        presenter.returned(episode)
                    }
                }
            })
        await live.begin(statuses: statuses)
        // Pomodoro: a break at the end of each work period; after it, wait for the person (the
        // first sign of them, by the session's presence rule, starts the next work period).
        if let p = plan.pomodoro {
            view.withLock { $0.pomodoroPhase = (.work, 1, p.rounds, plan.wallStart, p.work) }
        }
        let pomodoro = plan.pomodoro.map { p in
            PomodoroScheduler(plan: p, presence: PresenceWatch(configuration), clock: clock) { step in
                // The phase starts at the session's current instant (its clock ticks every second).
                func phase(_ kind: PomodoroProgress.Phase, _ period: Int, _ length: Double?) {
                    view.withLock { v in v.pomodoroPhase = (kind, period, p.rounds, v.now ?? plan.wallStart, length) }
                }
                switch step {
                case .breakStarts(let period):
                    let long = period % p.rounds == 0
                    phase(long ? .longBreak : .shortBreak, period, p.breakLength(after: period))
                    inject(.control(.breakTime))
                    alarms.announce(.breakStarts(period: period, rounds: p.rounds, minutes: p.breakLength(after: period) / 60, long: long))
                case .waiting(let period):
                    phase(.waiting, period, nil)
                    let elapsed = view.withLock { v in
                        v.waiting = true
                        return v.elapsed
                    }
                    presenter.waiting(elapsed)
                    alarms.announce(.breakOver(period: period, rounds: p.rounds))
                case .resumed(let period):
                    phase(.work, period + 1, p.work)
                    view.withLock { $0.waiting = false }
                    inject(.control(.resume))
                    alarms.announce(.workStarts(period: period + 1, rounds: p.rounds, minutes: p.work / 60))
                }
            }
        }
        let pomodoroTask = pomodoro.map { p in Task { await p.run() } }
        await live.observeReadings { sample in
            view.withLock { $0.apply(sample) }
            pomodoro?.observe(sample)
        }
        let gated = strict.map { gate(commands, through: $0, session: live, books: books) } ?? commands
        await live.run(detectors: detectors, commands: gated, endWithDetectors: plan.rehearsal)
        pomodoroTask?.cancel()
        statusFile.remove()
        mirror.detach()
        alarms.drain()
        alarms.finish()
        music?.drain()
        let recordingProblem = recorder?.close()
        let (lost, reason) = writer.finish()
        return Outcome(session: writer.session, lostEvents: lost, logProblem: reason, recording: recorder?.path, recordingProblem: recordingProblem)
    }

    /// A strict session's commands, as `StrictGate` lets them through: a refused one is told to
    /// the person (and never reaches the session); an early end is the person's end once the
    /// cooling-off is over, on the session's own clock.
    private func gate(
        _ commands: AsyncStream<LiveCommand>, through gate: StrictGate, session live: LiveSession<C>, books: Bookkeeper
    ) -> AsyncStream<LiveCommand> {
        let (gated, continuation) = AsyncStream<LiveCommand>.makeStream()
        let (tell, clock) = (tell, clock)
        let forward = Task {
            await withTaskGroup(of: Void.self) { group in
                for await command in commands {
                    switch gate.judge(command) {
                    case .pass:
                        continuation.yield(command)
                    case .refuse(let why):
                        tell(why)
                    case .endAfterCoolOff(let seconds):
                        let at = await live.now() + seconds
                        books.endingEarly(at: at)
                        tell("a strict session: it ends early in \(humanDuration(seconds)), its cooling-off, unless its plan ends it first")
                        group.addTask {
                            do { try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds)), tolerance: nil) } catch { return }
                            continuation.yield(.control(.end))
                        }
                    }
                }
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forward.cancel() }
        return gated
    }
}

/// The session's books, kept at each tick and each batch of events: the status file for `vigil
/// status`, rewritten only when what it shows has changed, and every 10 s of session time a sign
/// of life in the log, where a killed session is closed. Driven by the session's own tick and
/// events, so they need no timer of their own.
private final class Bookkeeper: Sendable {
    private struct Books {
        /// The status last written, with `updated` zeroed, to compare with the next.
        var written: SessionStatus?
        var lastTouch: Timestamp
    }
    private let statusFile: SessionStatusFile
    private let task: String?
    private let intent: String?
    private let started: String
    private let planned: Double?
    private let writer: SessionLogWriter
    private let pid = getpid()
    private let books: Mutex<Books>

    /// What the status file says of a strict session: its cooling-off, and when it ends early.
    private let strict: Mutex<StrictStatus?>

    init(statusFile: SessionStatusFile, plan: SessionRunner<some Clock>.Plan, writer: SessionLogWriter, strict: StrictGate?) {
        self.strict = Mutex(strict.map { StrictStatus(coolOff: $0.coolOff, endsEarly: nil) })
        self.statusFile = statusFile
        task = plan.task
        intent = plan.intent
        started = plan.wallStart.description
        planned = plan.planned
        self.writer = writer
        books = Mutex(Books(written: nil, lastTouch: plan.wallStart))
    }

    func update(_ view: LiveView) {
        var status = SessionStatus(
            pid: pid, task: task, started: started, planned: planned, state: view.stateText, score: (view.score * 100).rounded() / 100,
            elapsed: view.elapsed.rounded(), worked: view.worked.rounded(), episodes: view.episodes, alarms: view.alarms, updated: 0,
            reason: view.state == .focused ? nil : view.reason, pomodoro: view.pomodoro)
        status.strict = strict.withLock { $0 }
        status.intent = intent
        status.takesCommands = true
        let (write, touch) = books.withLock { b -> (Bool, Timestamp?) in
            let changed = b.written != status
            if changed { b.written = status }
            guard let now = view.now, now - b.lastTouch >= 10 else { return (changed, nil) }
            b.lastTouch = now
            return (changed, now)
        }
        if write {
            status.updated = Date().timeIntervalSince1970
            statusFile.write(status)
        }
        if let touch { writer.touch(touch) }
    }

    /// The early end of a strict session is set for `at`: the status file says so from the next update.
    func endingEarly(at: Timestamp) {
        strict.withLock { $0?.endsEarly = at.description }
    }
}

/// A recording written from several tasks: appends under a lock, keeps the first error and
/// stops writing after it (the session goes on; the error is reported at the end).
public final class SampleRecorder: @unchecked Sendable {
    // @unchecked: every access goes through the lock.
    public let path: String
    private let writer: RecordingWriter
    private let lock = NSLock()
    private var failure: RecordingError?
    /// Samples written, by sensor (`status` and `control` for those lines).
    private var counts: [String: Int] = [:]
    /// The instant of the last sample written.
    private var lastWritten: Timestamp?

    /// - Parameter journal: see `RecordingWriter`.
    public init(path: String, header: RecordingHeader, journal: String? = nil) throws(RecordingError) {
        self.path = path
        writer = try RecordingWriter(path: path, header: header, journal: journal)
    }

    /// A recording made by `source` (a program's name), starting at `start`, noting `task`.
    public convenience init(path: String, start: Timestamp, source: String, task: String?, journal: String? = nil) throws(RecordingError) {
        try self.init(path: path, header: RecordingHeader(start: start, source: source, task: task), journal: journal)
    }

    /// Stamps `payload` with `now()` under the lock and appends it: samples from several tasks are
    /// then written in the order of their stamps (stamping first and appending after could put a
    /// later stamp before an earlier one, and a recording must not go back in time).
    public func append(_ payload: SamplePayload, stampedBy now: () -> Timestamp) {
        lock.withLock { appendLocked(Sample(time: now(), payload: payload)) }
    }

    public func append(_ sample: Sample) {
        lock.withLock { appendLocked(sample) }
    }

    /// Appends a sign of life (`ControlAction.alive`) stamped now, when `isDue` says so of the
    /// seconds since the last sample written (or since `start`).
    public func appendSignOfLife(since start: Timestamp, stampedBy now: () -> Timestamp, isDue: (_ silence: Double) -> Bool) {
        lock.withLock {
            let t = now()
            if isDue(t - (lastWritten ?? start)) { appendLocked(Sample(time: t, payload: .control(.alive))) }
        }
    }

    private func appendLocked(_ sample: Sample) {
        guard failure == nil else { return }
        do throws(RecordingError) {
            try writer.append(sample)
            lastWritten = sample.time
            let kind: String
            switch sample.payload {
            case .input, .audio, .location, .desktop, .app, .media, .reading: kind = sample.sensor?.rawValue ?? "reading"
            case .status: kind = "status"
            case .control: kind = "control"
            }
            counts[kind, default: 0] += 1
        } catch {
            failure = error
        }
    }

    public var total: Int { lock.withLock { counts.values.reduce(0, +) } }

    public func snapshot() -> [String: Int] { lock.withLock { counts } }

    /// Flushes and syncs; returns the first problem, if any.
    public func close() -> String? {
        lock.withLock {
            do throws(RecordingError) { try writer.close() } catch { if failure == nil { failure = error } }
            return failure?.description
        }
    }
}
