import ArgumentParser
import Foundation
import LogServices
import SystemCalls
import VigilCore

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
