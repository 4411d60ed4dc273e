import ArgumentParser
import Foundation
import HistorySimulation
import LogServices
import SessionRuntime
import SessionViews
import Synchronization
import SystemCalls
import VigilCore
import VigilPlanner
import VigilStats

struct Vigil: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vigil",
        abstract: "Notice the moment you drift: focus sessions with procrastination detection.",
        discussion: """
            During a focus session Vigil watches \(HelpText.sensors); it scores how distracted you \
            are, and logs every episode for statistics. Recordings (\(HelpText.formatNames)) are \
            judged the same way by vigil replay, and summarised by vigil inspect.

            Examples:
              vigil start --task "thesis" --minutes 50
              vigil sensors
              vigil replay Samples/coffee-break/session.jsonl
              vigil inspect keyboard.yml office.wav
              vigil log
              vigil report --last 30d
              vigil task add "Write chapter 3" --due 2026-12-01 --priority high
              vigil habit add "Thesis" --days mon,tue,wed,thu,fri --auto "50m on thesis"
              vigil today
              vigil sync

            Exit codes: 0 success, 1 nothing to act on or refused (no session running, one \
            already running) or another failure, 64 bad usage, 65 bad input data (a recording or \
            config file, an unknown task or habit number), 69 a service Vigil needs is not there \
            (a notification service for daemon --once, vigil-sync next to vigil, or a sync server \
            set up by a newer Vigil), 73 cannot create the data directory, the log or an output \
            file, 74 read or write error (or session events not logged); vigil sync and report \
            --group add 75 server unreachable (try later), 77 refused by the server, 78 sync not \
            set up.
            """,
        version: "0.1.0",
        subcommands: [
            Start.self, Replay.self, Record.self, Inspect.self, Sensors.self, Log.self, StatusCommand.self, StopCommand.self, PauseCommand.self,
            ResumeCommand.self, BreakCommand.self, SnoozeCommand.self, ReportCommand.self,
            TaskCommand.self, NextCommand.self, HabitCommand.self, TodayCommand.self, MotivateCommand.self, DaemonCommand.self, ExportCommand.self,
            CalendarCommand.self,
            ForgetCommand.self, ImportCommand.self, Simulate.self, ConfigCommand.self, AppsCommand.self, SyncCommand.self, DeviceCommand.self,
            SessionCommand.self, EpisodeCommand.self, RulesCommand.self, AttachCommand.self, UndoCommand.self, DesktopCommand.self,
            RestoreCommand.self,
        ]
    )

    /// ArgumentParser's own `main`, but with its error messages, which quote what was typed (an
    /// unknown option, a refused value), inert in a terminal like every other message. Help and
    /// completion scripts are printed as ArgumentParser prints them.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            // One rule for every command: a config file with a problem stops it, with every
            // problem named (exit 65). Only the commands that write, check or locate the file
            // run without a valid one.
            // Local times are shown in the command's zone (`--time-zone`), wherever they are printed.
            if let configured = command as? any VigilCommand { Shown.times.withLock { $0 = LocalTimeFormat(zone: configured.common.zone) } }
            if let configured = command as? any VigilCommand, type(of: configured).checksConfiguration {
                do {
                    _ = try configured.common.loadConfiguration()
                } catch let failure as Failure {
                    Vigil.fail(failure)
                }
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let message = inert(oneStyle(fullMessage(for: error)), quoting: CommandLine.arguments.dropFirst())
            if !message.isEmpty { writeStandardError(message + "\n") }
            Foundation.exit(code.rawValue)
        }
    }

    /// ArgumentParser's `Error: ...` in Vigil's one style, `vigil: error: ...` (as every error
    /// found while a command runs is printed), with the usage and the pointer to --help under it.
    static func oneStyle(_ message: String) -> String {
        message.hasPrefix("Error: ") ? "vigil: error: " + message.dropFirst("Error: ".count) : message
    }

    /// An error message of ArgumentParser's with its controls as escapes. The arguments it quotes
    /// (an option, a value: the whole argument, or what follows `=` in it) are put on one line
    /// first, so a newline typed in one cannot start a line of its own; the message's own newlines
    /// (the usage under the error) stay.
    static func inert(_ message: String, quoting arguments: some Sequence<String>) -> String {
        var text = message
        for argument in arguments where argument.unicodeScalars.contains(where: \.isTerminalControl) {
            let value = argument.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init)
            for quoted in [argument, value].compactMap({ $0 }) where !quoted.isEmpty {
                text = text.replacingOccurrences(of: quoted, with: quoted.terminalSafe)
            }
        }
        return text.terminalSafeLines
    }
}

/// `--minutes`: more than nothing and at most `limit` minutes (a value no person means, 1e9 or
/// inf, would overflow the session's clock), said with the range.
func validateMinutes(_ minutes: Double?, atMost limit: Double, what: String) throws {
    guard let m = minutes else { return }
    guard m > 0, m <= limit else {
        throw ValidationError("--minutes must be greater than 0 and at most \(Int(limit)) (\(what)); got \(m).")
    }
}

/// A path given on the command line must name something: an empty one is a usage error (exit
/// 64), said the same way for every option and argument. Opened as it is, "" failed as a missing
/// file (74), a file that cannot be created (73), or named the root directory (`--data-dir ""`).
func validatePath(_ path: String?, _ name: String, naming what: String = "a file") throws {
    if path?.isEmpty == true { throw ValidationError("\(name): the path is empty; name \(what).") }
}

/// `--source`: which sessions a listing or a report counts. The person's own (live and simulated)
/// unless it says otherwise (see SessionSource).
struct SourceOptions: ParsableArguments {
    @Option(name: .customLong("source"), help: sourceHelp(default: SessionSource.counted), completion: sourceCompletion)
    var text: String?

    var sources: Set<SessionSource> { text.flatMap(SessionSource.selection) ?? SessionSource.counted }

    func validate() throws { try validateSources(text) }
}

/// `--source`'s help, naming every source there is (`SessionSource.allCases`) and the command's default.
func sourceHelp(_ what: String = "Which sessions count", default sources: Set<SessionSource>) -> ArgumentHelp {
    ArgumentHelp(
        "\(what): \(SessionSource.names), several with commas, or all (default: \(SessionSource.list(sources))).", valueName: "sources")
}

var sourceCompletion: CompletionKind { .list(SessionSource.allCases.sorted().map(\.rawValue) + ["all"]) }

/// Refuses a `--source` that names something other than the sources there are.
func validateSources(_ text: String?) throws {
    if let text, SessionSource.selection(text) == nil {
        throw ValidationError("--source takes \(SessionSource.names) (several with commas), or all; got '\(text.terminalSafe)'.")
    }
}

/// Options every command takes, so scripts and tests can use a private store and config.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Directory for the event log (default: $XDG_DATA_HOME/vigil).", valueName: "dir"))
    var dataDir: String?

    @Option(name: .long, help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/vigil/config.yaml).", valueName: "file"))
    var config: String?

    /// "Now", for reproducible runs (tests, benchmarks): an RFC 3339 time.
    @Option(name: .long, help: .hidden)
    var now: String?

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp(
            "IANA time zone for local days, hours and times shown, e.g. Europe/Berlin (default: TZ, else the system's).", valueName: "zone"))
    var timeZone: String?

    var paths: VigilPaths { VigilPaths(dataDirectory: dataDir, configFile: config) }

    func validate() throws {
        try validatePath(dataDir, "--data-dir", naming: "a directory")
        try validatePath(config, "--config")
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone: '\(timeZone.terminalSafe)' is not an IANA time zone; use a name like Europe/Berlin or UTC.")
        }
    }

    /// The local time zone: `--time-zone`, else TZ, else the system's.
    var zone: TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? .current }

    /// Now, in the local time zone.
    func localNow() throws -> LocalNow { LocalNow(at: try currentTime(), zone: zone) }

    /// Now: `--now`, else the wall clock; to the whole millisecond either way (`WallClock`).
    func currentTime() throws -> Timestamp {
        guard let now else { return WallClock.now() }
        let t: Timestamp
        switch readRFC3339(now) {
        case .success(let time): t = time
        case .failure(let problem): throw Failure("--now: " + problem.describe(now) + ".", code: .usage)
        }
        return Timestamp(milliseconds: t.millisecondsSinceEpoch)
    }

    /// The effective configuration, read once per process (`Vigil.main` reads it before any
    /// command runs, and the command reads it again).
    func loadConfiguration() throws -> VigilConfiguration {
        let paths = paths
        if let loaded = loadedConfiguration.withLock({ $0 }), loaded.path == paths.configFile, loaded.explicit == paths.configExplicit {
            return loaded.configuration
        }
        do {
            var configuration = try paths.loadConfiguration(plugIns: Composition.registry.config)
            // Vigil's own file: one it cannot read is said, and the session goes on without it.
            do { configuration.apps.learned = try paths.loadLearnedRules() } catch {
                note("\(error.description); the rules Vigil learned from you are not used until the file is mended or removed")
            }
            loadedConfiguration.withLock { $0 = (paths.configFile, paths.configExplicit, configuration) }
            return configuration
        } catch {
            throw Failure(
                error.description
                    + "\nFix the file, or pass --config with another one: `vigil config check` lists every problem, `man vigil.yaml` documents every key.",
                code: .dataError)
        }
    }

    /// The motivation collection: the built-in lines and the person's own motivation.yaml next to
    /// the config file.
    func loadMotivation() throws -> MotivationCollection { try paths.loadMotivation() }

    /// Whether there is a log. A data directory this process may not search is said so, not
    /// taken for one where Vigil never stored anything ("No sessions yet").
    func hasLog() throws -> Bool {
        let path = paths.databasePath
        var info = stat()
        if stat(path, &info) == 0 { return true }
        let error = SystemError(call: "stat", errno: errno, path: path)
        if error.errno == ENOENT || error.errno == ENOTDIR { return false }
        throw Failure(
            "\(path.terminalSafe): cannot read the event log: \(error.reason). Fix the permissions of the data directory, or choose another with --data-dir.",
            code: .ioError)
    }

    /// - Parameter readOnly: the command only reads the log (a read-only one is read, not refused).
    func openLog(readOnly: Bool = false) throws -> LocalLog {
        let log = try LocalLog.open(at: paths.databasePath, readOnly: readOnly)
        if let warning = log.warning { Diagnostics.emit(warning, level: .warning) }
        return log
    }
}

/// The configuration this process read, with the file it came from.
private let loadedConfiguration = Mutex<(path: String, explicit: Bool, configuration: VigilConfiguration)?>(nil)

/// A command of Vigil's: it takes the common options, and a config file with a problem stops it
/// before it runs (`Vigil.main`), unless it is one that writes, checks or locates the file.
protocol VigilCommand {
    var common: CommonOptions { get }
    static var checksConfiguration: Bool { get }
}

extension VigilCommand {
    static var checksConfiguration: Bool { true }
}

/// An error for the person, with a distinct exit code.
struct Failure: Error, CustomStringConvertible {
    typealias Code = ExitStatus
    var message: String
    var code: Code
    init(_ message: String, code: Code = .failure) {
        self.message = message
        self.code = code
    }
    var description: String { message }
}

extension ParsableCommand {
    /// Prints a failure as `vigil: error: ...` and exits with its code.
    static func fail(_ error: Failure) -> Never {
        Diagnostics.emit(error.message, level: .error)
        Foundation.exit(error.code.rawValue)
    }
}

/// Runs `body`, turning our errors into messages and exit codes.
///
/// - Parameter outputMatters: standard output is what the command makes (a report, a listing): if
///   it could not all be written (a full disk), the command fails with exit 74 instead of ending
///   as if it had succeeded. False for a session and the daemon, whose lines are a view of what
///   they do and must never end them.
func guarded<T>(outputMatters: Bool = true, _ body: () async throws -> T) async -> T {
    // A file-size limit (`ulimit -f`) would kill the process with SIGXFSZ at the first write past
    // it, and a session or a recording with it: ignored, the write fails with EFBIG and is
    // reported (and, for the log, retried) like a full disk.
    signal(SIGXFSZ, SIG_IGN)
    do {
        let result = try await body()
        if outputMatters, let reason = standardOutputFailure() {
            throw Failure("cannot write to standard output: \(reason). Free some space, or write elsewhere.", code: .ioError)
        }
        return result
    } catch let f as Failure {
        Vigil.fail(f)
    } catch let e as ExitCode {
        Foundation.exit(e.rawValue)
    } catch let e as FileWriteError {
        Vigil.fail(Failure(e.message, code: e.kind == .cannotCreate ? .cannotCreate : .ioError))
    } catch let e as LaunchError {
        Vigil.fail(e.failure)
    } catch let e as ReportError {
        Vigil.fail(e.failure)
    } catch let e as PrivacyError {
        Vigil.fail(e.failure)
    } catch let e as LogNotEmpty {
        Vigil.fail(e.failure)
    } catch let e as any PersonFacingError {
        Vigil.fail(Failure(e.description, code: e.exitStatus))
    } catch {
        // Any other error's words may quote a path or what a library read: on one line, inert.
        Vigil.fail(Failure("\(error)".terminalSafe))
    }
}

/// Buffered standard output: a replay prints thousands of lines.
final class Output: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    func line(_ s: String) {
        lock.lock()
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        let full = buffer.count > 1 << 16
        lock.unlock()
        if full { flush() }
    }
    func flush() {
        lock.lock()
        defer { lock.unlock() }
        guard !buffer.isEmpty else { return }
        // A failed write (stdout on a full disk; a closed pipe in a session, which ignores
        // SIGPIPE) drops the lines, never the session; `guarded` reports it for other commands.
        writeStandardOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
