import Foundation
import LogServices
import SessionRuntime
import SessionViews
import Synchronization
import SystemCalls
import VigilCore
import VigilPlanner

/// One `vigil start`: the session, its screen or lines, keys, alarms, the log, the status file.
struct SessionRun {
    let command: Start
    let config: VigilConfiguration
    let eventLog: LocalLog
    var task: String?
    let taskId: Int64?
    /// False for a rehearsal without --log: its events go to a log in memory, dropped at the end.
    var keepsLog = true

    /// Puts back the windows a session that ended without putting them back (killed, crashed)
    /// left hidden.
    func putBackHiddenWindows() {
        let hidden = HiddenWindows(dataDirectory: command.common.paths.dataDirectory)
        if let problem = hidden.problem() { note(problem.terminalSafe) }
        guard !hidden.leftBehind().isEmpty else { return }
        let (back, problems) = hidden.restoreLeftBehind(control: WindowControls.forDesktop(backend: config.apps.backend))
        if !back.isEmpty { note("put back \(back.joined(separator: ", ").terminalSafe), hidden by a session that ended without putting it back") }
        for p in problems { note("could not put back \(p.terminalSafe); `vigil restore` tries again") }
    }

    /// Ctrl-C is the person ending the session; `kill` and a closed terminal interrupt it (either
    /// way it is closed cleanly and saved, not lost); SIGUSR1 is `vigil stop --early`. A strict
    /// session says at its start what will not end it.
    private func watchSignals(strict: Bool, planned: Double?) -> SignalWatch<LiveCommand> {
        if strict, let planned {
            note(
                "a strict session: it goes on for its planned \(humanDuration(planned)) whatever ends it early; "
                    + "`vigil stop --early` ends it \(humanDuration(config.session.strictCoolOff)) after you ask")
        }
        let watch = SignalWatch<LiveCommand>([
            (SIGINT, .control(.end)), (SIGTERM, .end(.interrupted)), (SIGHUP, .end(.interrupted)), (SIGUSR1, .endEarly),
        ])
        // `vigil pause`, `resume`, `break`, `snooze` and `vigil attach`'s keys, from any terminal.
        let inbox = SessionInbox(dataDirectory: command.common.paths.dataDirectory)
        watch.on(SIGUSR2) { for c in inbox.take() { watch.inject(.control(c.action)) } }
        return watch
    }

    /// The live screen when both ends are a terminal and neither --json nor --plain asks for lines.
    var liveScreen: Bool { !command.json && !command.plain && isatty(0) != 0 && isatty(1) != 0 }

    func go<C: Clock>(clock: C, wallStart: Timestamp, planned: Double?, detectors: [any Detector], statuses: [SensorStatus], rehearsal: Bool)
        async throws
    where C.Duration == Duration {
        let liveScreen = liveScreen
        putBackHiddenWindows()
        let terminal = LiveTerminal()
        // On the live screen the screen is the terminal channel: a bell, and the state in red.
        let terminalSink: any AlarmSink = liveScreen ? ScreenAlarmSink(terminal: terminal) : TerminalAlarmSink()
        let questions = PersonsQuestions(eventLog: eventLog)
        let runner = try makeRunner(
            clock: clock, wallStart: wallStart, planned: planned, rehearsal: rehearsal, terminalSink: terminalSink, questions: questions)
        let before = liveScreen ? Milestones(reports: eventLog.reports) : nil
        let signals = watchSignals(strict: runner.plan.strictCoolOff != nil, planned: planned)
        let keys = KeyReader(view: runner.view, signals: signals)
        if liveScreen {
            terminal.enter()
            keys.start(singleKeys: true)
        } else if isatty(0) != 0 {
            note("type s + Enter to snooze an alarm, p to pause, b for a break, r to resume, q to end the session")
            keys.start(singleKeys: false)
        }
        // Someone can answer a question here: keys are read, and the output is for a person; and
        // the answer has a session to go to (a rehearsal without --log keeps none).
        let answering = keepsLog && (liveScreen || (isatty(0) != 0 && !command.json))
        questions.attach(
            keys: answering ? keys : nil, session: { runner.sessionID }, tell: { runner.note($0) }, byNotification: keepsLog && command.detached)
        questions.listen(
            .init(view: runner.view, inject: { signals.inject($0) }, rules: LearnedRules(paths: command.common.paths), zone: command.common.zone))
        let painter = liveScreen ? Self.paint(runner.view, on: terminal, keys: keys) : nil
        let outcome = await runner.run(detectors: detectors, statuses: statuses, commands: signals.stream, inject: { signals.inject($0) })
        signals.finish()
        let afterword = keepsLog ? await questions.atTheEnd(intent: command.intent, session: outcome.session, keys: answering ? keys : nil) : nil
        keys.dismiss()
        painter?.cancel()
        _ = await painter?.result
        if liveScreen {
            terminal.restore()
            Self.printSummary(of: runner.view, changes: before?.changes(reports: eventLog.reports) ?? [])
        }
        if let afterword { note(afterword) }
        try report(outcome)
    }

    private func makeRunner<C: Clock>(
        clock: C, wallStart: Timestamp, planned: Double?, rehearsal: Bool, terminalSink: any AlarmSink, questions: PersonsQuestions
    ) throws -> SessionRunner<C> where C.Duration == Duration {
        try SessionRunner(
            configuration: config, signals: Composition.registry.signals, log: keepsLog ? eventLog : .inMemory(),
            dataDirectory: command.common.paths.dataDirectory,
            plan: .init(
                task: task, taskId: taskId, planned: planned, wallStart: wallStart, rehearsal: rehearsal, pomodoro: command.pomodoroPlan,
                record: command.record, tags: command.sessionTags,
                strictCoolOff: command.strict || config.session.strict ? config.session.strictCoolOff : nil, intent: command.intent),
            clock: clock,
            sinks: Composition.registry.sinks(
                configuration: config, context: ChannelContext(terminal: terminalSink, dataDirectory: command.common.paths.dataDirectory)),
            motivation: try motivation(),
            presenter: PlainLines(wallStart: wallStart, json: command.json, quiet: liveScreen).presenter(returned: { questions.returned($0) }))
    }

    /// A motivating line for each alarm, never the same twice running.
    private func motivation() throws -> @Sendable () -> String? {
        let lines = try command.common.loadMotivation()
        let lastLine = Mutex<Motivation?>(nil)
        return {
            lastLine.withLock { last in
                var rng = SystemRandomNumberGenerator()
                last = lines.pick(avoiding: last, using: &rng)
                return last?.line
            }
        }
    }

    /// Draws the screen when the view changed (the session's tick changes its clock every second;
    /// a key, a reading or an event), at most four times a second: a quiet session wakes no more
    /// than its tick does, keys answer within a quarter of a second, and a sensor that reads many
    /// times a second (a GPS at 10 Hz) is not drawn at its rate.
    private static func paint(_ view: LiveViewModel, on terminal: LiveTerminal, keys: KeyReader) -> Task<Void, Never> {
        Task {
            var changes = view.changes.makeAsyncIterator()
            let clock = ContinuousClock()
            repeat {
                let drawn = clock.now
                terminal.draw(keys.decorate(view.snapshot().lines(.init(color: terminal.color, width: terminal.width)), width: terminal.width))
                guard await changes.next() != nil else { break }
                try? await clock.sleep(until: drawn + .milliseconds(250))
            } while !Task.isCancelled
        }
    }

    /// What stays on the terminal once the live screen is gone: its last lines, the summary, and
    /// what the session changed of the day (a streak, an achievement).
    private static func printSummary(of view: LiveViewModel, changes: [String]) {
        let snapshot = view.withLock { $0 }
        for line in snapshot.recent { print(line) }
        print("")
        for line in snapshot.summaryLines() { print(line) }
        for line in changes { print(line) }
    }

    /// Says where the session and its recording went, and the habits it completed; fails (exit 74)
    /// once the session is saved when events or the recording could not be written.
    private func report<C>(_ outcome: SessionRunner<C>.Outcome) throws {
        let recordingFailure = outcome.recordingProblem.map {
            "its recording could not be written (\($0.terminalSafe)); choose another file for --record"
        }
        if let path = outcome.recording, recordingFailure == nil { note("recorded to \(path.terminalSafe)") }
        if outcome.lostEvents > 0 {
            throw Failure(
                "the session ran, but \(outcome.lostEvents) of its events could not be logged and are lost"
                    + (outcome.logProblem.map { " (\($0))" } ?? "")
                    + "; what reached the log before is intact (a session left unfinished there is closed as interrupted at the next start)"
                    + (recordingFailure.map { "; and " + $0 } ?? ""),
                code: .ioError)
        }
        if !keepsLog {
            note("a rehearsal: not logged (--log keeps it, apart from your own sessions)")
        } else if let id = outcome.session {
            note("saved as session \(id) in \(eventLog.path.terminalSafe)")
        }
        // Habits that sessions complete by themselves.
        for h in eventLog.launcher(dataDirectory: command.common.paths.dataDirectory).completeHabits(now: LocalNow(at: WallClock.now())) {
            note("habit #\(h.id) \(h.name.terminalSafe) is done for today: your sessions reached it")
        }
        if let recordingFailure { throw Failure("the session ran, but " + recordingFailure, code: .ioError) }
    }
}

/// A session shown as lines (plain or JSON) rather than on the live screen: each event's line,
/// and once a minute a status line with the readings, timed by the session's ticks.
final class PlainLines: Sendable {
    let wallStart: Timestamp
    let json: Bool
    /// On the live screen: the runner's view shows it all, and nothing is printed.
    let quiet: Bool
    private let out = Output()
    private let renderer: TimelineRenderer
    private let lastStatusMinute = Mutex(0)
    /// The session time of the last line printed: a status line is never dated before it, so piped
    /// lines read in order (an alarm at 00:12:27 was followed by the status of minute 12, dated
    /// 00:12:00, when the tick that printed it came after the alarm).
    private let lastPrinted = Mutex(0.0)

    init(wallStart: Timestamp, json: Bool, quiet: Bool) {
        self.wallStart = wallStart
        self.json = json
        self.quiet = quiet
        renderer = TimelineRenderer(sessionStart: wallStart)
    }

    func presenter<C: Clock>(returned: @escaping @Sendable (Episode) -> Void) -> SessionRunner<C>.Presenter {
        let quiet = quiet
        return SessionRunner<C>.Presenter(
            events: events, note: { message in if !quiet { note(message) } }, waiting: waiting, tick: tick, action: action, returned: returned)
    }

    private func events(_ rendered: [(event: SessionEvent, text: String?)]) {
        guard !quiet else { return }
        for (e, text) in rendered {
            if json { out.line(renderer.json(e)) } else if let text { out.line(text) }
            lastPrinted.withLock { $0 = max($0, e.time - wallStart) }
        }
        out.flush()
    }

    /// What an action did, as a line of the timeline, after the alarm that set it off.
    private func action(_ d: AlarmDelivery) {
        guard !quiet else { return }
        out.line(json ? renderer.json(d) : renderer.text(d))
        out.flush()
    }

    private func waiting(_ elapsed: Double) {
        if !quiet, !json { out.line("\(clockDuration(elapsed))  waiting       the break is over: the session goes on when you are back") }
        out.flush()
    }

    private func tick(_ snapshot: LiveView) {
        guard !quiet, !json, snapshot.summary == nil else { return }
        let minute = Int(snapshot.elapsed / 60)
        guard
            lastStatusMinute.withLock({ last in
                defer { last = max(last, minute) }
                return minute > last
            })
        else { return }
        // Dated when it was taken (to the second), and never before a line already printed.
        let at = lastPrinted.withLock { last in
            last = max(last, snapshot.elapsed.rounded(.down))
            return last
        }
        out.line("\(clockDuration(at))  status        " + snapshot.statusLine())
        out.flush()
    }
}
