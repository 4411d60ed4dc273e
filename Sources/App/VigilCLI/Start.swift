import ArgumentParser
import Foundation
import SessionViews
import Synchronization
import SystemCalls
import VigilCore
import VigilPlanner
import VigilRuntime

struct Start: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a live focus session.",
        discussion: """
            Watches \(HelpText.sensors) until the planned time is up, or until you end it. A \
            sensor that cannot be used is reported with the reason and the remedy, and the \
            session runs with the others (`vigil sensors` checks them beforehand).

            In a terminal, one screen shows the task, the time, the state, the distraction score \
            with its last minutes, and each sensor's reading; keys: p pause/resume, b break, \
            r resume, s snooze an alarm, q end (asks first), ? help. Piped or under systemd it \
            prints plain lines instead (--plain forces them), and a key is typed with Enter. \
            Ctrl-C ends the session (abandoned if early); SIGTERM or a closed terminal (SIGHUP) \
            saves it as interrupted. `vigil status` shows the running session from another \
            terminal, `vigil stop` ends it.

            While you are distracted, alarms escalate through the channels alarms.channels gives \
            each level: the terminal, desktop notifications, a sound.

            --replay plays recordings as if they were the sensors (any format vigil replay reads), \
            at --pace times real time: a rehearsal of a recorded scenario through the whole live \
            session. It is not logged unless --log asks: then it is kept with the source \
            "rehearsal", at the recording's own times (where `vigil replay` places them), and \
            reports leave it out unless --source asks for it.

            Examples:
              vigil start --task "chapter 3" --minutes 50
              vigil start --task 3 --minutes 25 --record today.jsonl
              vigil start --replay Samples/coffee-break/session.jsonl --pace 60
              vigil start --replay today.jsonl --pace 600 --log
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(
        help: ArgumentHelp(
            "What you are focusing on: a task's number or title from `vigil task list` (the session is then linked to it), or any name.",
            valueName: "task"))
    var task: String?

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp("Tags for the session, separated by commas or repeated (`vigil report --tag NAME`).", valueName: "tags"))
    var tags: [String] = []

    /// `--tag a,b --tag c`, normalized as task tags are, each once.
    var sessionTags: [String] { TaskItem.normalizedTags(tags) }

    @Option(
        help: ArgumentHelp(
            "Planned length in minutes (default: session.default_minutes; with --replay, to the recording's end).", valueName: "minutes"))
    var minutes: Double?

    @Flag(help: "Print one JSON object per event instead of text lines.")
    var json = false

    @Flag(help: "Plain lines even in a terminal, no live screen.")
    var plain = false

    @Option(help: ArgumentHelp("Also write every sample the session judged to this recording (replays to the same timeline).", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Play this recording as the sensors (repeat for several).", valueName: "file"))
    var replay: [String] = []

    @Option(help: ArgumentHelp("With --replay: how many times faster than real time.", valueName: "factor"))
    var pace: Double?

    @Flag(help: "With --replay: keep the rehearsal in the event log (source \"rehearsal\"; reports leave it out unless --source).")
    var log = false

    @Option(
        help: ArgumentHelp(
            "Pomodoro cycles: work/short break/long break (minutes) x work periods per set, or classic (25/5/15x4). The detectors rest in the breaks; after one the session waits for you to come back.",
            valueName: "plan"))
    var pomodoro: String?

    var pomodoroPlan: PomodoroPlan? { pomodoro.flatMap(PomodoroPlan.parse) }

    func validate() throws {
        try validateMinutes(minutes, atMost: 1440, what: "a day")
        try validatePath(record, "--record")
        for file in replay { try validatePath(file, "--replay") }
        if let t = task, t.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--task must not be blank.") }
        if let p = pace, !(p >= 0.01 && p <= 10_000) { throw ValidationError("--pace must be from 0.01 to 10000; got \(p).") }
        if pace != nil, replay.isEmpty { throw ValidationError("--pace only goes with --replay FILE.") }
        if log, replay.isEmpty { throw ValidationError("--log only goes with --replay FILE: a live session is always logged.") }
        if let pomodoro, PomodoroPlan.parse(pomodoro) == nil {
            throw ValidationError(
                "--pomodoro: '\(pomodoro.terminalSafe)' is not a plan like 25/5/15x4 (work/short break/long break in minutes, each at most 1440, x 1 to 100 work periods per set) or classic."
            )
        }
    }

    func run() async throws {
        await guarded(outputMatters: false) { try await runSession() }
    }

    /// Where --record would write, looked at without creating anything: a directory, a path that
    /// cannot be looked at, or a new file in a directory that is missing or not writable is refused.
    /// A FIFO or device is written where it is (`OutputFile`): opening it could wait for a reader,
    /// so it is left to the session.
    static func checkRecording(_ path: String) throws {
        let destination: OutputFile.Destination
        do {
            destination = try OutputFile.destination(of: path)
        } catch  where error.errno == EISDIR {
            throw Failure("\(path.terminalSafe): cannot create: it is a directory; choose a file for --record", code: .cannotCreate)
        } catch {
            throw Failure("\(path.terminalSafe): cannot create: \(error.reason); choose another file for --record", code: .cannotCreate)
        }
        guard case .replacing(let target) = destination else { return }
        let directory = FilePaths.directory(of: target)
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw Failure(
                "\(path.terminalSafe): cannot create: \(directory.terminalSafe) is not a directory; choose another file for --record",
                code: .cannotCreate)
        }
        if access(directory, W_OK) != 0 {
            throw Failure(
                "\(path.terminalSafe): cannot create: \(directory.terminalSafe) is not writable; choose another file for --record",
                code: .cannotCreate)
        }
    }

    private func runSession() async throws {
        let config = try common.loadConfiguration()
        // A recording that cannot be made is said before anything is created or started.
        if let path = record { try Self.checkRecording(path) }
        // A session outlives its readers: output to a pipe whose reader has gone fails (and is
        // dropped) instead of killing the session with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let eventLog = try common.openLog()
        let launcher = eventLog.launcher(dataDirectory: common.paths.dataDirectory)
        let launch = try launcher.launch(task: task)
        defer { launch.lock.release() }
        var task = launch.task
        let taskId = launch.taskId
        for id in launch.recoveredClosed {
            note(
                "session \(id) had not been saved as ended (Vigil was killed or the machine went down): closed as interrupted at its last sign of life"
            )
        }
        for id in launch.recoveredRemoved {
            note("session \(id) was stopped before its first reading (Vigil was killed as it started): removed, it held nothing")
        }
        let run = SessionRun(command: self, config: config, eventLog: eventLog, task: task, taskId: taskId)
        if replay.isEmpty {
            let clock = ContinuousClock()
            let wall = MonotonicWallClock(wallNow: Date().timeIntervalSince1970)
            let sensors = Composition.registry.availability(configuration: config, now: wall.now)
            try await run.go(
                clock: clock, wallStart: wall.start,
                planned: SessionLauncher.plannedSeconds(
                    minutes: minutes, pomodoroSet: pomodoroPlan?.setLength, otherwise: config.session.defaultMinutes * 60),
                detectors: sensors.compactMap(\.detector), statuses: sensors.compactMap(\.status), rehearsal: false)
        } else {
            let recordings = Recordings(configuration: config, signals: Composition.registry.signals)
            // Read through once before the session: a damaged line is refused as `vigil replay`
            // refuses it (its file and line, exit 65), not found halfway and taken for the end.
            try recordings.check(replay)
            let merged = try recordings.open(replay)
            if task == nil { task = merged.task }
            let pacer = RecordingPacer()
            let clock = ScaledClock(pace: pace ?? 1, pacer: pacer)
            let feed = RecordingFeed(merged, clock: clock, start: clock.now, pacer: pacer)
            let planned = SessionLauncher.plannedSeconds(minutes: minutes, pomodoroSet: pomodoroPlan?.setLength, otherwise: merged.plannedSeconds)
            let wallStart = SessionLauncher.rehearsalStart(
                logged: log, recordingStart: merged.start, now: Timestamp(seconds: Date().timeIntervalSince1970))
            try await SessionRun(command: self, config: config, eventLog: eventLog, task: task, taskId: taskId, keepsLog: log)
                .go(clock: clock, wallStart: wallStart, planned: planned, detectors: [feed], statuses: [], rehearsal: true)
        }
    }
}

/// One `vigil start`: the session, its screen or lines, keys, alarms, the log, the status file.
struct SessionRun {
    let command: Start
    let config: VigilConfiguration
    let eventLog: LocalLog
    let task: String?
    let taskId: Int64?
    /// False for a rehearsal without --log: its events go to a log in memory, dropped at the end.
    var keepsLog = true

    func go<C: Clock>(clock: C, wallStart: Timestamp, planned: Double?, detectors: [any Detector], statuses: [SensorStatus], rehearsal: Bool)
        async throws
    where C.Duration == Duration {
        let out = Output()
        let liveScreen = !command.json && !command.plain && isatty(0) != 0 && isatty(1) != 0
        let asJSON = command.json
        let terminal = LiveTerminal()
        // On the live screen the screen is the terminal channel: a bell, and the state in red.
        let terminalSink: any AlarmSink = liveScreen ? ScreenAlarmSink(terminal: terminal) : TerminalAlarmSink()
        let sinks = Composition.registry.sinks(configuration: config, context: ChannelContext(terminal: terminalSink))
        let lines = try command.common.loadMotivation()
        let lastLine = Mutex<Motivation?>(nil)
        let motivate: @Sendable () -> String? = {
            lastLine.withLock { last in
                var rng = SystemRandomNumberGenerator()
                last = lines.pick(avoiding: last, using: &rng)
                return last?.line
            }
        }
        let renderer = TimelineRenderer(sessionStart: wallStart)
        let lastStatusMinute = Mutex(0)
        // The session time of the last line printed: a status line is never dated before it, so
        // piped lines read in order (an alarm at 00:12:27 was followed by the status of minute 12,
        // dated 00:12:00, when the tick that printed it came after the alarm).
        let lastPrinted = Mutex(0.0)
        let presenter = SessionRunner<C>.Presenter(
            events: { rendered in
                guard !liveScreen else { return }
                for (e, text) in rendered {
                    if asJSON { out.line(renderer.json(e)) } else if let text { out.line(text) }
                    lastPrinted.withLock { $0 = max($0, e.time - wallStart) }
                }
                out.flush()
            },
            // On the live screen the runner's view shows it among the recent lines.
            note: { message in if !liveScreen { note(message) } },
            waiting: { elapsed in
                if !liveScreen, !asJSON {
                    out.line("\(clockDuration(elapsed))  waiting       the break is over: the session goes on when you are back")
                }
                out.flush()
            },
            // Plain lines carry the readings too: one status line a minute, timed by the session's ticks.
            tick: { snapshot in
                guard !liveScreen, !asJSON, snapshot.summary == nil else { return }
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
            })
        let runner = try SessionRunner(
            configuration: config, signals: Composition.registry.signals, log: keepsLog ? eventLog : .inMemory(),
            dataDirectory: command.common.paths.dataDirectory,
            plan: .init(
                task: task, taskId: taskId, planned: planned, wallStart: wallStart, rehearsal: rehearsal, pomodoro: command.pomodoroPlan,
                record: command.record, tags: command.sessionTags),
            clock: clock, sinks: sinks, motivation: motivate, presenter: presenter)
        let view = runner.view
        let before = liveScreen ? Milestones(reports: eventLog.reports) : nil
        // Ctrl-C is the person ending the session; `kill` and a closed terminal interrupt it.
        // Either way it is closed cleanly and saved, not lost.
        let signals = SignalWatch<LiveCommand>([(SIGINT, .control(.end)), (SIGTERM, .end(.interrupted)), (SIGHUP, .end(.interrupted))])
        let keys = KeyReader(view: view, signals: signals)
        if liveScreen {
            terminal.enter()
            keys.start(singleKeys: true)
        } else if isatty(0) != 0 {
            note("type s + Enter to snooze an alarm, p to pause, b for a break, r to resume, q to end the session")
            keys.start(singleKeys: false)
        }
        // The screen is drawn when the view changed (the session's tick changes its clock every
        // second; a key, a reading or an event), at most four times a second: a quiet session wakes
        // no more than its tick does, keys answer within a quarter of a second, and a sensor that
        // reads many times a second (a GPS at 10 Hz) is not drawn at its rate. Plain lines and JSON
        // need no painter.
        let painter =
            liveScreen
            ? Task {
                var changes = view.changes.makeAsyncIterator()
                let clock = ContinuousClock()
                repeat {
                    let drawn = clock.now
                    terminal.draw(keys.decorate(view.snapshot().lines(.init(color: terminal.color, width: terminal.width))))
                    guard await changes.next() != nil else { break }
                    try? await clock.sleep(until: drawn + .milliseconds(250))
                } while !Task.isCancelled
            } : nil
        let outcome = await runner.run(detectors: detectors, statuses: statuses, commands: signals.stream, inject: { signals.inject($0) })
        signals.finish()
        painter?.cancel()
        _ = await painter?.result
        if liveScreen {
            terminal.restore()
            let snapshot = view.withLock { $0 }
            for line in snapshot.recent { print(line) }
            print("")
            for line in snapshot.summaryLines() { print(line) }
            if let before { for line in before.changes(reports: eventLog.reports) { print(line) } }
        }
        // A recording that could not be written fails the command (exit 74) once the session is
        // saved: the session itself is not lost with it.
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

extension LaunchError {
    var failure: Failure {
        switch self {
        case .noTask(let id):
            Failure("no task #\(id). `vigil task list` shows your tasks; or give the session a name that is not a number.", code: .dataError)
        case .alreadyRunning(let pid, let task):
            Failure(
                "a session is already running"
                    + (pid.map { " (pid \($0), task \(task.map { "\"\($0.terminalSafe)\"" } ?? "none"))" } ?? "")
                    + ". `vigil status` shows it; `vigil stop` ends it.", code: .failure)
        }
    }
}
