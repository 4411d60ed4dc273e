import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
import SessionViews
import Synchronization
import SystemCalls
import VigilCore
import VigilPlanner

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

            --strict (or session.strict) makes the session a commitment: before its planned end, \
            q, Ctrl-C, `vigil stop`, SIGTERM and a closed terminal do not end it, and it cannot be \
            paused, put on a break (a Pomodoro plan's own breaks excepted) or snoozed. \
            `vigil stop --early` ends it after session.strict_cooloff (10 min unless set). A strict \
            session that is killed is logged as broken (tag "broken").

            --intent says what you mean to do, in your words: the screen and `vigil status` show \
            it, and at the end Vigil asks whether you did it (d done, p partly, n no; or later with \
            `vigil session intent N done`). When you come back from being away or locked for \
            session.ask_after (5 min unless set), it asks what that was: b a break, m a meeting or \
            call, o working away from the computer, d distracted. A break or a meeting is then not \
            counted as procrastination, and offline work counts as focus (Enter: as judged).

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
              vigil start --task thesis --minutes 90 --strict
              vigil start --task thesis --intent "draft the intro of chapter 3"
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

    @Option(
        help: ArgumentHelp(
            "What you mean to do in this session, in your words: shown while it runs; at its end Vigil asks whether you did it.",
            valueName: "text"))
    var intent: String?

    @Flag(
        help: ArgumentHelp(
            "A strict session: not ended before its planned time by q, Ctrl-C, `vigil stop` or SIGTERM, no pause or snooze; `vigil stop --early` ends it after session.strict_cooloff."
        ))
    var strict = false

    @Flag(
        help: ArgumentHelp(
            "Run the session without a terminal: closing this one does not end it. `vigil status`, pause, resume, break, snooze, attach and stop reach it from any terminal."
        ))
    var background = false

    /// The session `--background` started: no terminal to ask at, so it asks by notification.
    @Flag(help: .hidden) var detached = false

    func validate() throws {
        try validateMinutes(minutes, atMost: 1440, what: "a day")
        if background, plain || json {
            throw ValidationError("--background has no output here: its lines go to its log (`vigil status` says where).")
        }
        try validatePath(record, "--record")
        for file in replay { try validatePath(file, "--replay") }
        if let t = task, t.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--task must not be blank.") }
        if let i = intent {
            if i.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--intent must not be blank.") }
            if i.contains(where: { $0.isNewline }) { throw ValidationError("--intent is one line: say what you mean to do in a sentence.") }
            if i.count > 300 { throw ValidationError("--intent is at most 300 characters; got \(i.count).") }
        }
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
        await guarded(outputMatters: false) { try await background ? startInBackground() : runSession() }
    }

    /// `--background`: this command again, detached (`BackgroundSession`), and told once it runs.
    private func startInBackground() async throws {
        _ = try common.loadConfiguration()
        let statusFile = SessionStatusFile(dataDirectory: common.paths.dataDirectory)
        if let s = statusFile.running() { throw LaunchError.alreadyRunning(pid: s.pid, task: s.task).failure }
        let arguments = Array(CommandLine.arguments.dropFirst()).filter { $0 != "--background" } + ["--plain", "--detached"]
        let started = try await BackgroundStart(common: common).launch(arguments: arguments)
        print(started)
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
        for id in launch.recoveredClosed {
            note(
                "session \(id) had not been saved as ended (Vigil was killed or the machine went down): closed as interrupted at its last sign of life"
            )
        }
        for id in launch.recoveredRemoved {
            note("session \(id) was stopped before its first reading (Vigil was killed as it started): removed, it held nothing")
        }
        let run = SessionRun(
            command: self, config: config, eventLog: eventLog, task: launch.task, taskId: launch.taskId, keepsLog: replay.isEmpty || log)
        if replay.isEmpty { try await live(run) } else { try await rehearse(run) }
    }

    /// A session on the sensors there are, in real time.
    private func live(_ run: SessionRun) async throws {
        let sensors = Composition.registry.availability(configuration: run.config)
        try await run.go(
            clock: ContinuousClock(), wallStart: WallClock.now(),
            planned: SessionLauncher.plannedSeconds(
                minutes: minutes, pomodoroSet: pomodoroPlan?.setLength, otherwise: run.config.session.defaultMinutes * 60),
            detectors: sensors.compactMap(\.detector), statuses: sensors.compactMap(\.status), rehearsal: false)
    }

    /// A rehearsal: the session fed by recordings (--replay), at their pace or --pace's.
    private func rehearse(_ run: SessionRun) async throws {
        var run = run
        let recordings = Recordings(configuration: run.config, signals: Composition.registry.signals)
        // Read through once before the session: a damaged line is refused as `vigil replay`
        // refuses it (its file and line, exit 65), not found halfway and taken for the end.
        try recordings.check(replay)
        let merged = try recordings.open(replay)
        if run.task == nil { run.task = merged.task }
        let pacer = RecordingPacer()
        let clock = ScaledClock(pace: pace ?? 1, pacer: pacer)
        let feed = RecordingFeed(merged, clock: clock, start: clock.now, pacer: pacer)
        let planned = SessionLauncher.plannedSeconds(minutes: minutes, pomodoroSet: pomodoroPlan?.setLength, otherwise: merged.plannedSeconds)
        let wallStart = SessionLauncher.rehearsalStart(
            logged: log, recordingStart: merged.start, now: Timestamp(seconds: Date().timeIntervalSince1970))
        try await run.go(clock: clock, wallStart: wallStart, planned: planned, detectors: [feed], statuses: [], rehearsal: true)
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
