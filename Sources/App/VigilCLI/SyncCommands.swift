import ArgumentParser
import Foundation
import SystemCalls
import VigilCore
import VigilRuntime

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "This computer's name and id in synced history, and the devices it knows.",
        discussion: """
            Every log is a device with a random id, made with the log (a copied data directory is \
            the same device) and named after the host until you name it. The names appear in \
            `vigil log` and in the report's by-device figures.

            Examples:
              vigil device
              vigil device --name laptop
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("Give this device a name (what the others and the reports call it).", valueName: "name")) var name: String?

    func validate() throws {
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.count <= 64, !trimmed.unicodeScalars.contains(where: \.isTerminalControl) else {
                throw ValidationError("--name: a device's name is 1 to 64 characters, without control characters.")
            }
        }
    }

    func run() async throws {
        await guarded {
            let log = try common.openLog()
            if let name { try log.renameThisDevice(name.trimmingCharacters(in: .whitespaces)) }
            let devices = try log.devices()
            for d in devices {
                print(d.isSelf ? "\(d.name.terminalSafe)  \(d.id)  (this device)" : "\(d.name.terminalSafe)  \(d.id)")
            }
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send this device's history to the sync server and receive the others'.",
        discussion: """
            Sessions with their events, tasks, habits and habit days travel to the PostgreSQL \
            database named by sync.url in the config, and what your other devices sent comes back \
            into this log. Samples, recordings, coordinates, window titles and application names \
            never leave this computer; nor do the words of reasons unless sync.share_reasons is on. \
            A sync that is interrupted is completed by the next one: nothing is lost or doubled. \
            When the server cannot be reached, what waits stays here (exit 75). README, "Sync", \
            has the setup: one createdb and one line of config.

            The work is done by vigil-sync, installed next to vigil: the PostgreSQL client (with \
            TLS) is loaded only by the command that needs it.

            Examples:
              vigil sync
              PGPASSWORD=... vigil sync --config ~/.config/vigil/config.yaml

            Exit codes: 0 synced, 65 bad config, 69 the server was set up by a newer Vigil, 74 \
            the log could not be read or written, 75 the server cannot be reached (try later), \
            77 the server refused the user or password, 78 sync is not set up or its settings are \
            wrong.
            """)
    @OptionGroup var common: CommonOptions

    func run() async throws {
        await guarded {
            let configuration = try common.loadConfiguration()
            guard let url = configuration.sync.url else {
                throw Failure(
                    "sync is not set up: add `sync: {url: postgres://USER@HOST/DATABASE}` to \(common.paths.configFile.terminalSafe) (keys in man vigil.yaml, section sync).",
                    code: .configuration)
            }
            // The log is made (or brought up to date) here, so vigil-sync only opens it.
            _ = try common.openLog()
            let call = SyncToolCall(log: common.paths.databasePath, url: url, sync: configuration.sync)
            throw Failure(try execSyncTool(call), code: .unavailable)
        }
    }
}

/// The daemon's sync: vigil-sync now, then every `sync.every`; after a failure sooner (a minute,
/// doubling up to `sync.every`), so a server that was down is caught up soon after it is back.
struct SyncSchedule {
    let call: SyncToolCall
    let every: Double
    let log: @Sendable (String, Bool) -> Void

    func run() async {
        var failures = 0
        while !Task.isCancelled {
            let (status, output) = await runSyncTool(call)
            let said = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if status == 0 {
                failures = 0
                log("vigil daemon: \(said)", false)
            } else {
                failures += 1
                log("vigil daemon: sync failed (exit \(status)): \(said)", true)
            }
            let wait = failures == 0 ? every : min(every, 60 * pow(2, Double(min(failures - 1, 20))))
            do { try await Task.sleep(for: .seconds(wait)) } catch { return }
        }
    }
}

/// Runs vigil-sync (next to vigil) to its end: its exit status and what it said (both streams).
/// Cancelled (the daemon stopping), it stops vigil-sync too: a sync cut anywhere is completed by
/// the next one.
func runSyncTool(_ call: SyncToolCall) async -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: FilePaths.directory(of: executablePath()) + "/vigil-sync")
    process.arguments = call.arguments
    process.environment = ProcessInfo.processInfo.environment.merging(call.environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return (127, "cannot start vigil-sync: \(error)")
    }
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    } onCancel: {
        process.terminate()
    }
}

/// How vigil-sync is run for the log at `log` and the config's sync settings: the URLs, which can
/// hold a password, go in its environment (which only its user can read, and which it clears once
/// read), never on its command line (which `ps` shows every user).
struct SyncToolCall {
    var arguments: [String]
    var environment: [String: String]

    init(log: String, url: String, sync: VigilConfiguration.Sync) {
        arguments = ["--log", log]
        environment = ["VIGIL_SYNC_URL": url]
        if let file = sync.passwordFile { arguments += ["--password-file", file] }
        if sync.shareReasons { arguments.append("--share-reasons") }
        if let group = sync.group { arguments += ["--group", group] }
        if let groupURL = sync.groupURL { environment["VIGIL_SYNC_GROUP_URL"] = groupURL }
        if let alias = sync.alias { arguments += ["--alias", alias] }
    }
}

/// Replaces this process with vigil-sync (installed next to vigil) as `call` says: its output
/// and exit code are the command's. Returns only the reason it could not be started.
func execSyncTool(_ call: SyncToolCall) throws -> String {
    let tool = FilePaths.directory(of: executablePath()) + "/vigil-sync"
    for (name, value) in call.environment { setenv(name, value, 1) }
    let argv = ([tool] + call.arguments).map { strdup($0) } + [nil]
    execv(tool, argv)
    let reason = SystemError(call: "execv", errno: errno, path: tool).reason
    return "cannot start \(tool.terminalSafe): \(reason). vigil sync needs vigil-sync next to vigil; install both (scripts/install.sh)."
}

/// This program's own file, through /proc (what the shell found on PATH may be a link).
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}
