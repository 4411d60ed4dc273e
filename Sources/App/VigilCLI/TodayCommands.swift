import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
import SessionViews
import SystemCalls
import VigilCore
import VigilPlanner

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "What is due today: habits to do and tasks due or overdue.",
        discussion: """
            --count prints only the number of things still to do, for a status bar.

            Examples:
              vigil today
              vigil today --count
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print only how many things are still to do today.") var count = false
    @Flag(help: "Print a JSON object: the day, how many to do, and the items (docs/json.md).") var json = false

    func run() async throws {
        await guarded {
            // Nothing to show without a log, and nothing is created to find that out.
            guard try common.hasLog() else {
                if json {
                    printJSON(.object([("date", .day(try common.localNow().day)), ("to_do", .int(0)), ("items", .array([]))]))
                    return
                }
                print(count ? "0" : "Nothing due today. Add a habit with `vigil habit add` or a task with `vigil task add`.")
                return
            }
            let agenda = try openPlanner(common).agenda()
            if count {
                print(agenda.toDo)
                return
            }
            if json {
                printJSON(.object([("date", .day(agenda.day)), ("to_do", .int(agenda.toDo)), ("items", .array(agenda.items.map(Self.itemJSON)))]))
                return
            }
            if agenda.items.isEmpty {
                print("Nothing due today. `vigil next` suggests a task to focus on.")
                return
            }
            print("Today, \(civilDate(agenda.day)): \(agenda.toDo) to do")
            for item in agenda.items { print(Self.line(item)) }
        }
    }

    /// An item of the day: `  [ ] habit #2 Read · at 21:00 · streak 4` or `  [ ] task #7 … · due today`.
    static func line(_ item: Agenda.Item) -> String {
        switch item {
        case .habit(let h, let status, let streak):
            let box = status == .completed ? "[x]" : status == .incomplete ? "[ ]" : "[-]"
            let mark = status == .incomplete || status == .completed ? "" : " · \(status.rawValue)"
            return "  \(box) habit #\(h.id) \(h.name.terminalSafe)" + (h.reminder.map { " · at \($0)" } ?? "") + " · streak \(streak)" + mark
        case .task(let t, let when):
            let due = t.due?.text ?? ""
            let timing =
                switch when {
                case .overdue: "overdue since \(due)"
                case .dueToday: "due today"
                case .dueAt(let time): "due at \(time)"
                }
            return "  [ ] task #\(t.id) \(t.title.terminalSafe) · \(timing)"
        }
    }
}

extension TodayCommand {
    /// An item of `today --json`: a habit with its status today, or a task with when it is due.
    static func itemJSON(_ item: Agenda.Item) -> JSONValue {
        switch item {
        case .habit(let h, let status, let streak):
            return .object([
                ("kind", .string("habit")), ("id", .int(h.id)), ("name", .string(h.name)), ("reminder", .string(h.reminder)),
                ("status", .string(status.rawValue)), ("streak", .int(streak)),
            ])
        case .task(let t, let when):
            let (state, time): (String, String?) =
                switch when {
                case .overdue: ("overdue", t.due?.time)
                case .dueToday: ("due_today", nil)
                case .dueAt(let time): ("due_at", time)
                }
            return .object([
                ("kind", .string("task")), ("id", .int(t.id)), ("title", .string(t.title)), ("due_date", .day(t.due?.day)),
                ("due_time", .string(time)), ("status", .string(state)),
            ])
        }
    }
}

struct MotivateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motivate",
        abstract: "A motivating line: a tip in Vigil's words or a public-domain quote.",
        discussion: """
            From the offline collection in config/motivation.yaml, extended by your own \
            $XDG_CONFIG_HOME/vigil/motivation.yaml. Each call gives a different one from the last.

            Examples:
              vigil motivate
              vigil motivate --category health
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: "focus, study or health.") var category: String?

    func validate() throws {
        if let category, Motivation.Category(rawValue: category) == nil {
            throw ValidationError(
                "--category must be one of \(Motivation.Category.allCases.map(\.rawValue).joined(separator: ", ")); got '\(category.terminalSafe)'.")
        }
    }

    func run() async throws {
        await guarded {
            let collection = try common.loadMotivation()
            // The last line shown, so the next call differs; in the data directory, not the log.
            let lastFile = FilePaths.directory(of: common.paths.databasePath) + "/last-motivation"
            let last = (try? String(contentsOfFile: lastFile, encoding: .utf8)).flatMap { text in collection.entries.first { $0.text == text } }
            var rng = SplitMix64(
                seed: UInt64(bitPattern: try common.currentTime().millisecondsSinceEpoch) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(getpid()))
            guard let m = collection.pick(category: category.flatMap(Motivation.Category.init(rawValue:)), avoiding: last, using: &rng) else {
                throw Failure(
                    "no motivation in the category '\((category ?? "").terminalSafe)'. Add some to \(FilePaths.directory(of: common.paths.configFile).terminalSafe)/motivation.yaml.",
                    code: .dataError)
            }
            // The person's own motivation.yaml may hold any text.
            print(m.line.terminalSafe)
            // Through OutputWriter, 0600 like every file in the data directory (Foundation's
            // atomic write made it 0644).
            let dir = FilePaths.directory(of: lastFile)
            if (try? makeDirectory(dir, mode: 0o700)) != nil, let file = try? OutputWriter(path: lastFile, what: "the last motivation") {
                try? file.write(m.text.utf8)
                try? file.commit(sync: false)
            }
        }
    }
}

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Send reminders for habits and tasks as desktop notifications.",
        discussion: """
            Runs until stopped (SIGTERM or Ctrl-C). It looks every `reminders.check` for what is due: \
            a habit at its reminder time (or `reminders.default_time`) and again every \
            `reminders.repeat_every` until it is done, a task `reminders.before_due` before its due \
            time and each morning while it is overdue; never in the quiet hours. Each reminder is \
            sent once, also across restarts. With sync set up (sync.url), it also syncs every \
            `sync.every` (README, "Sync"). Run it as the systemd user service vigil-daemon.service, \
            which the Debian package and `scripts/install.sh --daemon` install.

            With --watch (or daemon.watch: true) it also records \
            the whole day outside sessions: the application in front (class and category, never \
            a title), away, locked and asleep, one row per stretch, kept daemon.watch_days; \
            `vigil report` shows it. With goals: in the config, it tells each threshold of a limit \
            or goal as it is crossed (outside the quiet hours), once a day or week. On Monday \
            mornings (from 06:00, outside the quiet hours) it writes last week's HTML report into \
            the data directory's weekly/ folder and tells its headline against the week before \
            (daemon.weekly_summary).

            Examples:
              vigil daemon
              vigil daemon --watch
              systemctl --user enable --now vigil-daemon.service
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Look once, send what is due, and exit.") var once = false
    @Flag(help: "Watch the whole day too (as daemon.watch: true): applications, away, locked, asleep.") var watch = false

    func validate() throws {
        if once, watch { throw ValidationError("--watch records the day while the daemon runs; --once looks once and exits: give one of them.") }
    }

    func run() async throws {
        await guarded(outputMatters: false) {
            let config = try common.loadConfiguration()
            let eventLog = try common.openLog()
            let watching = watch || config.daemon.watch
            let state = DayWatchState()
            let weekly = config.daemon.weeklySummary ? WeeklySummary(directory: common.paths.dataDirectory + "/weekly") : nil
            let round = eventLog.reminders(
                config.reminders, goals: config.goals, calendars: config.calendar.files, watch: watching ? state : nil, weekly: weekly,
                sink: DesktopReminderSink())
            // --now (for tests) fixes the instant of every round; else each round reads the wall clock.
            let fixed = common.now == nil ? nil : try common.currentTime()
            let daemon = ReminderDaemon(
                round: round, every: config.reminders.check, clock: ContinuousClock(),
                now: { fixed ?? WallClock.now() }, report: { Diagnostics.emit($0, level: $1, prefixed: false) })
            if once { return try lookOnce(daemon) }
            // With sync set up, the daemon also syncs every `sync.every` (through vigil-sync).
            let sync = config.sync.url.map { url in
                SyncSchedule(
                    call: SyncToolCall(log: eventLog.path, url: url, sync: config.sync), every: config.sync.every,
                    log: { line, warning in Diagnostics.emit(line, level: warning ? .warning : .info, prefixed: false) })
            }
            let dayWatch = watching ? dayWatch(config, eventLog, state) : nil
            try await runUntilStopped(VigilDaemon(reminders: daemon, sync: sync, watch: dayWatch)) {
                log("vigil daemon: reminders from \(eventLog.path.terminalSafe), looking every \(humanDuration(config.reminders.check))")
                if sync != nil { log("vigil daemon: syncing with the server of sync.url every \(humanDuration(config.sync.every))") }
                if dayWatch != nil {
                    log(
                        "vigil daemon: watching the day (away after \(humanDuration(config.daemon.watchAwayAfter)), kept \(config.daemon.watchDays) days)"
                    )
                }
            }
            log("vigil daemon: stopped")
        }
    }

    /// The all-day watch: the desktop's and the application sensors' detectors, as a session has them.
    private func dayWatch(_ config: VigilConfiguration, _ eventLog: LocalLog, _ state: DayWatchState) -> DayWatchService {
        let detectors = Composition.registry.availability(configuration: config).filter { [.desktop, .app].contains($0.sensor) }.compactMap(
            \.detector)
        let status = SessionStatusFile(dataDirectory: common.paths.dataDirectory)
        return DayWatchService(
            log: eventLog, detectors: detectors, settings: config.daemon, state: state, sessionRunning: { status.running() != nil },
            now: { WallClock.now() },
            report: { line, warning in Diagnostics.emit(line, level: warning ? .warning : .info, prefixed: false) })
    }

    /// `--once`: one look; due reminders that could not be sent fail the command (exit 69), so a
    /// script or a timer unit can tell. The reason was said above ("cannot send reminders ...").
    private func lookOnce(_ daemon: ReminderDaemon<ContinuousClock>) throws {
        let unsent = try daemon.runOnce()
        guard unsent > 0 else { return }
        throw Failure(
            "\(unsent) due reminder\(unsent == 1 ? "" : "s") could not be sent; \(unsent == 1 ? "it waits" : "they wait") for the next look",
            code: .unavailable)
    }

    /// Runs the services until SIGTERM (systemd stopping it), Ctrl-C or SIGHUP shuts them down,
    /// which wakes the waits between their rounds at once.
    private func runUntilStopped(_ services: VigilDaemon, started: () -> Void) async throws {
        let signals = SignalWatch<Int32>([(SIGINT, SIGINT), (SIGTERM, SIGTERM), (SIGHUP, SIGHUP)])
        // Said once the signals are watched: whoever waits for these lines may stop it from then on.
        started()
        let watcher = Task {
            for await _ in signals.stream {
                await services.shutDown()
                break
            }
        }
        defer {
            watcher.cancel()
            signals.finish()
        }
        try await services.run()
    }

    /// The daemon's own lines, through `Diagnostics` (with the journal's priorities under systemd).
    private func log(_ line: String) { Diagnostics.emit(line, level: .info, prefixed: false) }
}
