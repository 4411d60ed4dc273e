import ArgumentParser
import Foundation
import SessionRuntime
import SessionViews
import SystemCalls
import VigilCore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the running focus session (from any terminal).",
        discussion: """
            Exit code 0 when a session is running, 1 when none is.

            --format waybar, i3blocks or polybar prints one line in the form that status bar \
            reads, cheap enough to run every second: the task, the state, the time left, and the \
            reason while you are distracted. With no session it prints what hides the module, and \
            exits 0. waybar (custom module, "return-type": "json"): {"text", "tooltip", "class", \
            "percentage"}, the class being the state (focused, drifting, distracted, alarm, paused, \
            break, waiting) and the percentage the share of the plan done. i3blocks: the full text, \
            a short one and a colour, exit code 33 (urgent) while distracted. polybar \
            (custom/script): the line, coloured by the state.

            Examples:
              vigil status
              vigil status --json
              vigil status --format waybar
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "One JSON object (docs/json.md).") var json = false
    @Option(help: "A status bar's form: waybar, i3blocks or polybar.") var format: StatusBar.Format?

    func validate() throws {
        if json, format != nil { throw ValidationError("--json and --format each choose the output: give one.") }
    }

    func run() async throws {
        await guarded {
            let running = SessionStatusFile(dataDirectory: common.paths.dataDirectory).running()
            if let format {
                let (text, status) = StatusBar(format).render(running.map(Self.barSession))
                writeStandardOutput(Array(text.utf8))
                if status != 0 { throw ExitCode(status) }
                return
            }
            guard let s = running else {
                if json {
                    printJSON(.object([("running", .bool(false))]))
                } else {
                    print("No focus session is running. Start one with `vigil start`.")
                }
                throw ExitCode(1)
            }
            if json {
                let started: JSONValue =
                    if case .success(let t) = readRFC3339(s.started) { .time(t) } else { .string(s.started) }
                printJSON(
                    .object([
                        ("running", .bool(true)), ("pid", .int(Int(s.pid))), ("task", .string(s.task)), ("intent", .string(s.intent)),
                        ("commands", .bool(s.takesCommands == true)),
                        ("state", .string(s.state)),
                        ("started", started), ("planned_s", .seconds(s.planned)), ("elapsed_s", .seconds(s.elapsed)),
                        ("worked_s", .seconds(s.worked)), ("score", .score(s.score)), ("reason", .string(s.reason)),
                        ("pomodoro", s.pomodoro.map(Self.pomodoroJSON) ?? .null), ("strict", s.strict.map(Self.strictJSON) ?? .null),
                        ("episodes", .int(s.episodes)), ("alarms", .int(s.alarms)),
                        ("updated", .time(Timestamp(nanoseconds: Int64((s.updated * 1e9).rounded())))),
                    ]))
                return
            }
            Self.printText(s)
        }
    }

    private static func printText(_ s: SessionStatus) {
        var line =
            "Focus session" + (s.task.map { " on \"\($0.terminalSafe)\"" } ?? "") + ": \(s.state) · \(clockDuration(s.worked ?? s.elapsed))"
        if let p = s.planned { line += " of \(clockDuration(p))" }
        line +=
            " · score \(String(format: "%.2f", s.score)) · \(s.episodes) episode\(s.episodes == 1 ? "" : "s") · \(s.alarms) alarm\(s.alarms == 1 ? "" : "s")"
        print(line)
        if let intent = s.intent { print("Intent: \(intent.terminalSafe)") }
        if let reason = s.reason { print("Why: \(reason.terminalSafe)") }
        if let p = s.pomodoro { print("Pomodoro: \(p.text)") }
        guard let strict = s.strict else {
            print("pid \(s.pid), started \(localTime(s.started)). `vigil stop` ends it.")
            return
        }
        print(
            "Strict: "
                + (strict.endsEarly.map { "ends early at \(localTime($0)), as asked" }
                    ?? "ends at its planned time; `vigil stop --early` ends it \(humanDuration(strict.coolOff)) after you ask"))
        print("pid \(s.pid), started \(localTime(s.started)).")
    }

    /// What a status bar shows of the running session.
    static func barSession(_ s: SessionStatus) -> StatusBar.Session {
        .init(
            task: s.task, state: s.state, worked: s.worked ?? s.elapsed, planned: s.planned, reason: s.reason, strict: s.strict != nil,
            intent: s.intent)
    }

    static func strictJSON(_ s: StrictStatus) -> JSONValue {
        let early: JSONValue = s.endsEarly.map { at in if case .success(let t) = readRFC3339(at) { .time(t) } else { .string(at) } } ?? .null
        return .object([("cooloff_s", .seconds(s.coolOff)), ("ends_early", early)])
    }

    static func pomodoroJSON(_ p: PomodoroProgress) -> JSONValue {
        .object([("phase", .string(p.phase.rawValue)), ("period", .int(p.period)), ("rounds", .int(p.rounds)), ("left_s", .seconds(p.left))])
    }

    /// The status file's start (RFC 3339 in UTC, to the nanosecond, for programs) as a person
    /// reads it: local time to the second, with the zone.
    static func localTime(_ started: String) -> String {
        guard case .success(let t) = readRFC3339(started) else { return started.terminalSafe }
        return Shown.times.withLock { $0 }.secondWithZone(t)
    }
}

struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "End the running focus session, as if you pressed q in it.",
        discussion: """
            The session is saved: completed if its planned time was up, else abandoned.

            A strict session (`vigil start --strict`) is not ended by `vigil stop` before its \
            planned time: `vigil stop --early` ends it after its cooling-off \
            (session.strict_cooloff), counted from when you ask.

            Examples:
              vigil stop
              vigil stop --early
            """)
    @OptionGroup var common: CommonOptions

    @Flag(help: "End a strict session early, after its cooling-off (any other session ends at once).")
    var early = false

    func run() async throws {
        await guarded {
            let statusFile = SessionStatusFile(dataDirectory: common.paths.dataDirectory)
            guard let s = statusFile.running() else {
                print("No focus session is running.")
                throw ExitCode(1)
            }
            if let strict = s.strict {
                guard early else {
                    throw Failure(
                        "the running session is strict: it ends at its planned time, not before. `vigil stop --early` ends it "
                            + "\(humanDuration(strict.coolOff)) after you ask.", code: .failure)
                }
                try signal(s, SIGUSR1)
                // The session writes when it ends into its status file.
                for _ in 0..<50 {
                    if let at = statusFile.read()?.strict?.endsEarly, case .success(let t) = readRFC3339(at) {
                        print("The strict session ends at \(Shown.times.withLock { $0 }.secondWithZone(t)), after its cooling-off.")
                        return
                    }
                    guard SessionStatusFile.isAlive(s.pid) else { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                print("Asked the strict session to end after its cooling-off of \(humanDuration(strict.coolOff)).")
                return
            }
            try signal(s, SIGINT)
            // Wait for it to save and go (the status file goes with it).
            for _ in 0..<100 {
                if statusFile.read() == nil || !SessionStatusFile.isAlive(s.pid) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            print("Ended the focus session" + (s.task.map { " on \"\($0.terminalSafe)\"" } ?? "") + ".")
        }
    }

    private func signal(_ s: SessionStatus, _ signo: Int32) throws {
        do throws(SystemError) {
            try syscall("kill") { kill(s.pid, signo) }
        } catch {
            throw Failure("cannot signal the session's process \(s.pid): \(error.reason).", code: .failure)
        }
    }
}

extension StatusBar.Format: ExpressibleByArgument {}
