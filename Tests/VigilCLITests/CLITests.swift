import Foundation
import TestSupport
import Testing

/// These tests run the built `vigil` binary as a person would, and read what it prints.
let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The `vigil` executable next to this test bundle (SwiftPM builds it because this target depends on it).
let vigilBinary: String = {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = me.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("vigil").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return repo + "/.build/debug/vigil"
}()

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs vigil with a private data dir and config dir, so the tests never touch the person's files.
/// `binary`: the product's `vigil`, or one composed with the tests' plug-ins (`pluggedBinary`).
func vigil(
    _ args: [String], home: String? = nil, stdin: String? = nil, env: [String: String] = [:], in directory: String = repo,
    binary: String = vigilBinary
) throws -> Run {
    let h = home ?? freshHome()
    var e = [
        "HOME": h, "XDG_DATA_HOME": h + "/data", "XDG_CONFIG_HOME": h + "/config", "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus,
        "TZ": "UTC",
    ]
    e.merge(env) { $1 }
    // Files rather than pipes: a chatty child can never block on a full pipe. A child of our own
    // (posix_spawn, waitpid on its pid) rather than Foundation's Process, whose waiting can miss a
    // short child's exit while a long one runs beside it, and hang (`ChildProcess`).
    let outPath = h + "/.stdout-\(UUID().uuidString)"
    let errPath = h + "/.stderr-\(UUID().uuidString)"
    var inPath: String?
    if let stdin {
        inPath = h + "/.stdin-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: inPath!, contents: Data(stdin.utf8))
    }
    let child = try ChildProcess(binary, args, environment: e, stdin: inPath, stdout: outPath, stderr: errPath, directory: directory)
    let status = child.wait()
    let stdoutData = FileManager.default.contents(atPath: outPath) ?? Data()
    let stderrData = FileManager.default.contents(atPath: errPath) ?? Data()
    // As Foundation's `terminationStatus` says it: a signal's number for a child a signal ended.
    return Run(
        status: child.signal ?? status, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
}

/// Runs a shell command in a pseudo-terminal (util-linux `script`), as if typed in a terminal;
/// returns its status and what it wrote to the terminal.
func inPseudoTerminal(_ command: String, home: String, env: [String: String] = [:], stdin: String? = nil) throws -> (Int32, String) {
    let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus]
        .merging(env) { $1 }
    let out = home + "/.pty-\(UUID().uuidString)"
    let child = try ChildProcess(
        "/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, stdin: stdin, stdout: out, stderr: "/dev/null")
    let status = child.wait()
    return (child.signal ?? status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
}

func vigil(
    _ args: [String], home: String? = nil, stdin: String? = nil, env: [String: String] = [:], in directory: String = repo,
    binary: String = vigilBinary
) async throws -> Run {
    try await offPool { try vigil(args, home: home, stdin: stdin, env: env, in: directory, binary: binary) }
}

func inPseudoTerminal(_ command: String, home: String, env: [String: String] = [:], stdin: String? = nil) async throws -> (Int32, String) {
    try await offPool { try inPseudoTerminal(command, home: home, env: env, stdin: stdin) }
}

/// Builds the LD_PRELOAD shim Tests/VigilCLITests/Data/NAME.c into `directory` with the C compiler
/// the Swift toolchain brings, and returns the library's path.
func buildShim(_ name: String, in directory: String) async throws -> String {
    let compilers =
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").flatMap { ["\($0)/clang", "\($0)/cc"] } + ["/usr/bin/cc"]
    let compiler = try #require(compilers.first { FileManager.default.isExecutableFile(atPath: $0) }, "no C compiler (the Swift toolchain has clang)")
    let shim = directory + "/\(name).so"
    let built = await runProcess(compiler, ["-shared", "-fPIC", "-O2", "-o", shim, repo + "/Tests/VigilCLITests/Data/\(name).c", "-ldl"])
    try #require(built.status == 0, "\(built.output)")
    return shim
}

/// A background process (usually `vigil`) whose standard output and error go to files.
struct Background {
    let process: ChildProcess
    let stdout: String
    let stderr: String
    var said: String { (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "" }
    var printed: String { (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "" }
}

/// Starts `executable` in the background with a private home (as `vigil()` does), standard input
/// empty. `stdout`/`stderr`: where its output goes instead of a fresh file of its own.
func background(
    _ executable: String, _ args: [String], home: String, env: [String: String] = [:], stdout: String? = nil, stderr: String? = nil,
    descriptors: [Int32: Int32] = [:]
) throws -> Background {
    let environment = [
        "HOME": home, "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus, "TZ": "UTC",
    ]
    .merging(env) { $1 }
    let id = UUID().uuidString
    let out = stdout ?? home + "/.out-\(id)"
    let err = stderr ?? home + "/.err-\(id)"
    let p = try ChildProcess(executable, args, environment: environment, stdout: out, stderr: err, descriptors: descriptors)
    return Background(process: p, stdout: out, stderr: err)
}

/// SQLite's own check of a log, by Python's sqlite3 (not Vigil's code): "ok\n" when it is sound.
func integrityCheck(_ database: String) async -> String {
    await runProcess(
        "/usr/bin/python3",
        [
            "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])",
            database,
        ]
    ).output
}

func freshHome() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-cli-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

func write(_ text: String, to path: String) {
    try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
}

@Suite struct CLITests {
    @Test func helpListsTheCommandsWithExamples() async throws {
        let r = try await vigil(["--help"])
        #expect(r.status == 0)
        for command in ["start", "replay", "record", "inspect", "sensors", "log", "config"] { #expect(r.stdout.contains(command)) }
        #expect(r.stdout.contains("Exit codes"))
        for command in ["start", "replay", "record", "inspect", "sensors", "log"] {
            let sub = try await vigil([command, "--help"])
            #expect(sub.status == 0)
            #expect(sub.stdout.contains("Examples:"), "\(command) --help has an example")
            #expect(sub.stdout.contains("--data-dir"))
        }
    }

    /// Every command's help, down to the subcommands of `task`, `habit` and `config`, reads as
    /// prose: no line ends in a backslash left from a Swift line continuation written twice.
    @Test func everyHelpReadsWithoutStrayBackslashes() async throws {
        func subcommands(_ help: String) -> [String] {
            guard let section = help.components(separatedBy: "SUBCOMMANDS:").dropFirst().first else { return [] }
            return section.split(separator: "\n").compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
            }
        }
        var checked = 0
        let top = try await vigil(["--help"]).stdout
        for command in subcommands(top) where command != "help" {
            let help = try await vigil([command, "--help"]).stdout
            for sub in [[command]] + subcommands(help).filter { $0 != "help" }.map({ [command, $0] }) {
                let text = sub.count == 1 ? help : try await vigil(sub + ["--help"]).stdout
                checked += 1
                for line in text.split(separator: "\n") {
                    #expect(!line.hasSuffix("\\"), "\(sub.joined(separator: " ")) --help: \(line)")
                }
            }
        }
        #expect(checked >= 30, "\(checked) helps")
    }

    @Test func replayPrintsTheTimelineAndIsByteIdenticalTwice() async throws {
        let file = "Samples/coffee-break/session.jsonl"
        let a = try await vigil(["replay", file])
        let b = try await vigil(["replay", file])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout == (try String(contentsOfFile: repo + "/Samples/coffee-break/expected.txt", encoding: .utf8)))
        let j = try await vigil(["replay", "--json", file])
        #expect(j.stdout == (try String(contentsOfFile: repo + "/Samples/coffee-break/expected.jsonl", encoding: .utf8)))
    }

    @Test func replayLogWritesTheSessionForVigilLog() async throws {
        let home = freshHome()
        let r = try await vigil(["replay", "--log", "Samples/loud-room/session.jsonl"], home: home)
        #expect(r.status == 0)
        #expect(r.stderr.contains("logged as session 1") && r.stderr.contains("--source replay"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/data/vigil/vigil.sqlite3"), "the XDG data dir is used")
        // A replay is not the person's own time: listed only when asked for, and said so.
        let own = try await vigil(["log"], home: home)
        #expect(own.stdout.contains("No live or simulated sessions.") && own.stdout.contains("Not listed: 1 replay"), "\(own.stdout)")
        let log = try await vigil(["log", "--source", "replay"], home: home)
        #expect(log.status == 0)
        #expect(log.stdout.contains("\"code review\"  replay  completed"))
        #expect(log.stdout.contains("episode 1"))
        #expect(log.stdout.contains("noise"))
        let json = try await vigil(["log", "--json", "--source", "all"], home: home)
        let obj = jsonRecords(json.stdout).first
        #expect(obj?["task"] as? String == "code review")
        #expect((obj?["episodes"] as? [Any])?.count == 1)
    }

    @Test func aCorruptRecordingNamesTheFileAndLineAndExits65() async throws {
        let home = freshHome()
        let bad = home + "/bad.jsonl"
        write(
            #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"# + "\n" + #"{"t":1,"kind":"input","window":5,"idle":1}"# + "\n"
                + #"{"t":2,"kind":"input","wind"#, to: bad)
        let r = try await vigil(["replay", "--log", "--data-dir", home + "/d", bad], home: home)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("vigil: error: \(bad):3: column"))
        #expect(r.stderr.contains("truncated"))
        // Nothing half-written: the log holds no session from the failed replay.
        let log = try await vigil(["log", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("No sessions yet"))
        // And listing where there is no log at all creates nothing.
        let none = try await vigil(["log", "--data-dir", home + "/none"], home: home)
        #expect(none.status == 0)
        #expect(!FileManager.default.fileExists(atPath: home + "/none"))
    }

    @Test func aMissingRecordingIsNamed() async throws {
        let r = try await vigil(["replay", "/nonexistent.jsonl"])
        #expect(r.status == 74)
        #expect(r.stderr == "vigil: error: /nonexistent.jsonl: cannot open: No such file or directory\n")
    }

    @Test func configCheckNamesTheKeyAndLine() async throws {
        let home = freshHome()
        write("session:\n  gap: 90s\nscoring:\n  drift_enter: 2\ninput:\n  idel_grace: 2m\n", to: home + "/config/vigil/config.yaml")
        let r = try await vigil(["config", "check"], home: home)
        #expect(r.status == 65)
        #expect(r.stderr.contains("config.yaml:4: scoring.drift_enter: must be between 0 and 1, got 2.0"))
        #expect(r.stderr.contains("config.yaml:6: input.idel_grace: unknown key (did you mean 'idle_grace'?)"))
        #expect(r.stderr.contains("3 problems found"), "the unknown key did not hide the range problem or the relation it breaks")
        // Every command refuses a bad config rather than running with half of it.
        let replay = try await vigil(["replay", "Samples/steady-focus/session.jsonl"], home: home)
        #expect(replay.status == 65)
        #expect(replay.stderr.contains("input.idel_grace"))
        // The shipped default passes.
        let ok = try await vigil(["config", "check", "--config", repo + "/config/vigil.yaml"])
        #expect(ok.status == 0)
        #expect(ok.stdout.hasSuffix("vigil.yaml: OK\n"))
    }

    @Test func aUserConfigChangesTheReplay() async throws {
        let home = freshHome()
        // A stricter idle rule: the coffee break is noticed earlier.
        write("input:\n  idle_grace: 30s\n  idle_full: 90s\n", to: home + "/my.yaml")
        let r = try await vigil(["replay", "--config", home + "/my.yaml", "Samples/coffee-break/session.jsonl"], home: home)
        #expect(r.status == 0)
        #expect(r.stdout != (try String(contentsOfFile: repo + "/Samples/coffee-break/expected.txt", encoding: .utf8)))
        #expect(r.stdout.contains("away since 00:07:59"))
    }

    @Test func anUnwritableDataDirIsNamedAndExits73() async throws {
        let home = freshHome()
        write("not a directory", to: home + "/blocker")
        let r = try await vigil(["replay", "--log", "--data-dir", home + "/blocker/data", "Samples/steady-focus/session.jsonl"], home: home)
        #expect(r.status == 73)
        #expect(r.stderr.contains("vigil: error: \(home)/blocker: cannot create the data directory: a file of that name is in the way"))
        #expect(r.stderr.contains("--data-dir"))
        #expect(r.stdout.isEmpty, "nothing was replayed before the problem was found")
    }

    @Test func startRunsALiveSessionSaysWhichSensorsAreMissingAndLogsIt() async throws {
        let home = freshHome()
        let r = try await vigil(["start", "--task", "demo", "--minutes", "0.05"], home: home)
        #expect(r.status == 0)
        // This machine has no input devices, and no sound server or gpsd runs for this test: each
        // live detector says so, with the remedy, and the session runs on.
        #expect(r.stdout.contains("sensor        input unavailable · no input devices"))
        #expect(r.stdout.contains("sensor        audio unavailable · cannot record from the PulseAudio server"))
        #expect(r.stdout.contains("pactl info"))
        #expect(r.stdout.contains("sensor        location unavailable · cannot reach gpsd at localhost:2947"))
        #expect(r.stdout.contains("started       task \"demo\" · planned 3 s"))
        #expect(r.stdout.contains("ended         completed"))
        let log = try await vigil(["log", "--json"], home: home)
        #expect(log.stdout.contains("\"outcome\":\"completed\""))
        #expect(log.stdout.contains("\"source\":\"live\""))
    }

    @Test func ctrlCEndsALiveSessionCleanlyAsAbandoned() async throws {
        let home = freshHome()
        let p = try background(vigilBinary, ["start", "--minutes", "10", "--json"], home: home, env: ["XDG_DATA_HOME": home + "/data"])
        // Wait for the session to start (its first event), then interrupt it.
        #expect(try await eventually(300) { p.printed.contains("session_started") || !p.process.isRunning }, "\(p.said)")
        kill(p.process.pid, SIGINT)
        #expect(await p.process.exited() == 0, "\(p.said)")
        #expect(p.printed.contains("\"event\":\"session_ended\",\"outcome\":\"abandoned\""), "\(p.printed)")
        let log = try await vigil(["log", "--json"], home: home)
        #expect(log.stdout.contains("\"outcome\":\"abandoned\""))
    }

    @Test func sigtermInterruptsALiveSessionAndSavesIt() async throws {
        let home = freshHome()
        let p = try background(vigilBinary, ["start", "--minutes", "10", "--json", "--data-dir", home + "/d"], home: home)
        #expect(try await eventually(300) { p.printed.contains("session_started") || !p.process.isRunning }, "\(p.said)")
        kill(p.process.pid, SIGTERM)
        #expect(await p.process.exited() == 0, "\(p.said)")
        #expect(p.printed.contains("\"outcome\":\"interrupted\""), "\(p.printed)")
        let log = try await vigil(["log", "--json", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("\"outcome\":\"interrupted\""))
    }

    @Test func badArgumentsExit64WithAHint() async throws {
        let r = try await vigil(["replay"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Name at least one recording") || r.stderr.contains("Missing expected argument"))
        let m = try await vigil(["start", "--minutes", "0"])
        #expect(m.status == 64)
        #expect(m.stderr.contains("--minutes must be greater than 0"))
    }

    /// In a terminal, typed letters control the session (until the live view's single keys): here
    /// through a real pseudo-terminal made by script(1). A snooze with no alarm is refused and said
    /// so; q ends the session early, as abandoned.
    @Test func keysTypedInTheTerminalReachTheSession() async throws {
        let home = freshHome()
        write("s\nq\n", to: home + "/keys")
        let (status, text) = try await inPseudoTerminal(
            "\(vigilBinary) start --minutes 5 --json --data-dir \(home)/d", home: home,
            env: ["TERM": "dumb"], stdin: home + "/keys")
        #expect(status == 0, "\(text)")
        #expect(text.contains("\"event\":\"snooze_refused\",\"reason\":\"no alarm to snooze\""), "\(text)")
        #expect(text.contains("\"event\":\"session_ended\",\"outcome\":\"abandoned\""), "\(text)")
    }
}

/// Shell completions and manual pages come from the command definitions; these check that what
/// the binary generates works in a real bash and knows the commands.
@Suite struct CompletionTests {
    @Test func bashCompletesCommandsSubcommandsAndValues() async throws {
        let home = freshHome()
        let script = try await vigil(["--generate-completion-script", "bash"], home: home)
        #expect(script.status == 0)
        write(script.stdout, to: home + "/vigil.bash")
        func complete(_ words: [String]) async -> [String] {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = await runProcess(
                "/bin/bash",
                [
                    "-c",
                    """
                    source '\(home)/vigil.bash'
                    COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                    _vigil vigil '\(words.last!)' '\(words[words.count - 2])'
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """,
                ])
            #expect(r.status == 0, "\(r.output)")
            return r.output.split(separator: "\n").map(String.init)
        }
        #expect(await complete(["vigil", "rep"]) == ["replay", "report"])
        #expect(Set(await complete(["vigil", "st"])) == ["start", "status", "stop"])
        #expect(await complete(["vigil", "habit", ""]).contains("check"))
        #expect(await complete(["vigil", "report", "--format", ""]) == ["text", "json", "csv", "markdown", "html"])
        #expect(await complete(["vigil", "task", "add", "x", "--priority", ""]) == ["high", "medium", "low"])
    }

    @Test func zshAndFishScriptsNameEveryCommand() async throws {
        let home = freshHome()
        for shell in ["zsh", "fish"] {
            let r = try await vigil(["--generate-completion-script", shell], home: home)
            #expect(r.status == 0)
            for command in ["start", "status", "stop", "report", "task", "habit", "today", "daemon", "motivate", "next"] {
                #expect(r.stdout.contains(command), "\(shell): \(command)")
            }
        }
    }

    /// Every command, run into its failures: the documented exit code (README, `vigil --help`), and
    /// a message that names what is wrong (file, line, key, option or number) and what to do.
    @Test func everyCommandFailsWithItsDocumentedExitCode() async throws {
        let home = freshHome()
        let bad = home + "/bad.yaml"
        let truncated = home + "/truncated.jsonl"
        let notes = home + "/notes.txt"
        try "session:\n  tick: 1s\n  wibble: 3\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try
            (#"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"# + "\n" + #"{"t":1,"kind":"input","window":5,"idle":1}"# + "\n"
            + #"{"t":2,"kind":"input","wind"#).write(toFile: truncated, atomically: true, encoding: .utf8)
        try "hello\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let farFuture = home + "/far-future.jsonl"
        try (#"{"vigil":"recording","version":1,"start":"9999-12-31T00:00:00Z"}"# + "\n" + #"{"t":1,"kind":"input","window":5}"# + "\n")
            .write(toFile: farFuture, atomically: true, encoding: .utf8)
        let unwritable = "/proc/vigil-nowhere"
        // A second log with one task, for the failures that need a log to exist.
        let withTask = home + "/with-task"
        #expect(try await vigil(["task", "add", "Slides", "--data-dir", withTask], home: home).status == 0)
        let cases: [(args: [String], code: Int32, says: [String])] = [
            (["start", "--minutes", "0"], 64, ["--minutes must be greater than 0"]),
            // Dates the time type cannot hold: refused where they enter, with the range (issue 17:
            // a task due 9999-12-31 was stored, then crashed every `task list`).
            (["task", "add", "someday", "--due", "9999-12-31"], 64, ["--due: '9999-12-31' is outside", "from 1970-01-01 to 2199-12-31"]),
            (["report", "--from", "1492-10-12"], 64, ["--from: '1492-10-12' is outside", "from 1970-01-01 to 2199-12-31"]),
            (["report", "--now", "9999-01-01T00:00:00Z"], 64, ["--now", "from 1970-01-01 to 2199-12-31"]),
            (["simulate", "--until", "2262-04-12"], 64, ["--until", "from 1970-01-01 to 2199-12-31"]),
            (["replay", farFuture], 65, ["far-future.jsonl:1", "from 1970-01-01 to 2199-12-31"]),
            // Numbers no person means, which used to crash the session's clock (issue 17).
            (["start", "--minutes", "1e9"], 64, ["--minutes must be greater than 0 and at most 1440 (a day)"]),
            (["start", "--minutes", "inf"], 64, ["--minutes must be greater than 0 and at most 1440"]),
            (["replay", "--minutes", "1e300", "Samples/coffee-break/session.jsonl"], 64, ["at most 525600 (a year)"]),
            (["replay", "--pace", "1e-300", "Samples/coffee-break/session.jsonl"], 64, ["--pace must be from 0.01 to 10000"]),
            (["start", "--replay", "Samples/coffee-break/session.jsonl", "--pace", "1e-300"], 64, ["--pace must be from 0.01 to 10000"]),
            (["start", "--pomodoro", "1e300/5/15x4"], 64, ["--pomodoro: '1e300/5/15x4' is not a plan", "each at most 1440"]),
            (["start", "--pomodoro", "25/5/15x99999999999"], 64, ["is not a plan", "1 to 100 work periods"]),
            (["record", "-o", home + "/x.jsonl", "--minutes", "nan"], 64, ["--minutes must be greater than 0"]),
            (["start", "--config", bad, "--minutes", "1"], 65, ["bad.yaml:3", "session.wibble", "vigil config check"]),
            (["start", "--data-dir", unwritable, "--minutes", "0.01"], 73, [unwritable, "cannot create the data directory", "--data-dir"]),
            (
                ["start", "--minutes", "0.01", "--record", unwritable + "/r.jsonl"], 73,
                [unwritable + "/r.jsonl", "cannot create", "choose another file"]
            ),
            (["replay", home + "/missing.jsonl"], 74, ["missing.jsonl: cannot open"]),
            (["replay", truncated], 65, ["truncated.jsonl:3: column 28", "truncated"]),
            (["replay"], 64, ["Missing expected argument"]),
            (["record", "-o", unwritable + "/x.jsonl", "--minutes", "0.01"], 73, [unwritable + "/x.jsonl", "cannot create"]),
            (["inspect", notes], 65, ["notes.txt: not a recording Vigil reads", "WAV"]),
            (["sensors", "--config", bad], 65, ["bad.yaml:3", "session.wibble"]),
            (["log", "--limit", "0"], 64, ["--limit must be at least 1"]),
            (["status"], 1, []),
            (["stop"], 1, []),
            (["report", "--from", "2026-13-01"], 64, ["--from: '2026-13-01' is no real date", "a month past 12"]),
            (["report", "--from", "someday"], 64, ["--from: 'someday' is not a date; use YYYY-MM-DD", "3d, 2w", ":lastmonth"]),
            (["report", "--last", "1m"], 64, ["--last: '1m' is not a span; use 7d, 2w, 1mo or 1y", "--period"]),
            (["report", "--period", ":fortnight"], 64, ["--period: ':fortnight' is not a date", ":week"]),
            (["forget", "--period", ":lastweek", "--from", "monday", "--yes"], 64, ["give --from and --to, or --period"]),
            (["report", "-o", unwritable + "/r.txt"], 73, [unwritable + "/r.txt", "Choose another file with -o"]),
            // An empty path is bad usage, for every path option (issue 17).
            (["report", "-o", ""], 64, ["--output: the path is empty"]),
            (["start", "--record", ""], 64, ["--record: the path is empty"]),
            (["simulate", "--days", "0"], 64, ["--days must be between 1 and 36500"]),
            (
                ["config", "check", "--config", bad], 65,
                [
                    "bad.yaml:3", "session.wibble", "unknown key",
                    "known: ask_after, default_minutes, gap, music, pause_extends_plan, strict, strict_cooloff, tick",
                ]
            ),
            (["task", "add", " "], 64, ["title must not be blank"]),
            (["task", "show", "99"], 65, ["no tasks or habits yet", "vigil task add"]),
            (["task", "show", "99", "--data-dir", withTask], 65, ["no task #99", "vigil task list --all"]),
            (["next", "--count", "0"], 64, ["--count must be at least 1"]),
            (["habit", "add", "X", "--days", "mon", "--times", "3/week"], 64, ["conflicting schedule", "--days and --times"]),
            (["habit", "check", "42"], 65, ["no tasks or habits yet", "vigil habit add"]),
            (["habit", "check", "42", "--data-dir", withTask], 65, ["no habit #42", "vigil habit list --archived"]),
            (["today", "--limit", "3"], 64, ["Unknown option '--limit'"]),
            (["motivate", "--category", "nope"], 64, ["--category must be one of focus, study, health"]),
            (["daemon", "--once", "--config", bad], 65, ["bad.yaml:3"]),
            (["export"], 64, ["say --all"]),
            (["export", "--all", "-o", home + "/e.json"], 65, ["no event log", "stored nothing about you"]),
            (["export", "--all", "-o", unwritable + "/e.json", "--data-dir", withTask], 73, [unwritable + "/e.json", "cannot write the export"]),
            (["forget", "--from", "2026-03-09", "--to", "2026-03-03", "--yes"], 64, ["--from 2026-03-09 is after --to 2026-03-03"]),
            (["bogus"], 64, ["Unexpected argument 'bogus'"]),
        ]
        for c in cases {
            let r = try await vigil(c.args, home: home)
            let said = r.stderr + r.stdout
            #expect(r.status == c.code, "vigil \(c.args.joined(separator: " ")): exit \(r.status), said: \(said)")
            for fragment in c.says { #expect(said.contains(fragment), "vigil \(c.args.joined(separator: " ")): \(said)") }
            if c.code == 1 { #expect(said.contains("No focus session is running"), "\(said)") }
        }
        // Each documented failure code is there, and nothing was created by the failures.
        #expect(Set(cases.map(\.code)) == [1, 64, 65, 73, 74])
        #expect(!FileManager.default.fileExists(atPath: home + "/data/vigil/vigil.sqlite3"), "a failed command creates no log")
    }
}
