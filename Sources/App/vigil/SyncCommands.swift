import ArgumentParser
import Foundation
import SystemCalls
import VigilCore
import VigilRuntime
import VigilStats
import VigilStore
import VigilSync

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "This computer's name and id in synced history, and the devices it knows.",
        discussion: """
            Every log is a device with a random id, made with the log (a copied data directory is \\
            the same device) and named after the host until you name it. The names appear in \\
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
            let store = try common.openStore()
            if let name { try store.renameThisDevice(name.trimmingCharacters(in: .whitespaces)) }
            let devices = try store.devices()
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
            Sessions with their events, tasks, habits and habit days travel to the PostgreSQL \\
            database named by sync.url in the config, and what your other devices sent comes back \\
            into this log. Samples, recordings, coordinates, window titles and application names \\
            never leave this computer; nor do the words of reasons unless sync.share_reasons is on. \\
            A sync that is interrupted is completed by the next one: nothing is lost or doubled. \\
            When the server cannot be reached, what waits stays here (exit 75). README, "Sync", \\
            has the setup: one createdb and one line of config.

            Examples:
              vigil sync
              PGPASSWORD=... vigil sync --config ~/.config/vigil/config.yaml

            Exit codes: 0 synced, 65 bad config, 69 the server was set up by a newer Vigil, 74 \\
            the log could not be read or written, 75 the server cannot be reached (try later), \\
            77 the server refused the user or password, 78 sync is not set up or its settings are \\
            wrong.
            """)
    @OptionGroup var common: CommonOptions

    func run() async throws {
        await guarded {
            let configuration = try common.loadConfiguration()
            guard let url = configuration.sync.url else {
                throw Failure(
                    "sync is not set up: add `sync: {url: postgres://USER@HOST/DATABASE}` to \(common.paths.configFile.terminalSafe) (README, \"Sync\").",
                    code: .configuration)
            }
            let address: ServerAddress
            do {
                address = try ServerAddress(url: url, passwordFile: configuration.sync.passwordFile)
            } catch let error as SyncError {
                throw Failure(error.message, code: .configuration)
            }
            let store = try common.openStore()
            var options = SyncOptions()
            options.shareReasons = configuration.sync.shareReasons
            let progress = isatty(2) != 0
            let summary: SyncSummary
            do {
                summary = try await SyncClient.sync(store: store, address: address, options: options) { line in
                    if progress { writeStandardError("\r\u{1B}[Kvigil: \(line)") }
                }
                if progress { writeStandardError("\r\u{1B}[K") }
            } catch let error as SyncError {
                if progress { writeStandardError("\r\u{1B}[K") }
                var message = error.message
                if error.kind == .unreachable, let pending = try? store.pendingSync(), pending.sessions + pending.edits > 0 {
                    let since =
                        pending.oldestSession.map { " (the oldest from \(Statistics.dateString(Int($0.millisecondsSinceEpoch / 86_400_000))))" } ?? ""
                    message += " Waiting here: \(pending.sessions) sessions\(since) and \(pending.edits) changes to tasks and habits."
                }
                throw Failure(message, code: Self.code(error.kind))
            }
            print(Self.describe(summary, address: address))
        }
    }

    static func code(_ kind: SyncError.Kind) -> Failure.Code {
        switch kind {
        case .configuration: .configuration
        case .unreachable: .tempFail
        case .authentication: .noPermission
        case .newerServer: .unavailable
        case .server: .failure
        case .store: .ioError
        }
    }

    /// What moved, in a few lines.
    static func describe(_ s: SyncSummary, address: ServerAddress) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let eventTables = SyncTable.sessionEvents.map(\.name)
        let editTables = SyncTable.editedTables.map(\.name)
        let sentSessions = s.sent["sessions"] ?? 0
        let sentEvents = eventTables.reduce(0) { $0 + (s.sent[$1] ?? 0) }
        let sentEdits = editTables.reduce(0) { $0 + (s.sent[$1] ?? 0) }
        let gotSessions = s.received["sessions"] ?? 0
        let gotEvents = eventTables.reduce(0) { $0 + (s.received[$1] ?? 0) }
        let gotEdits = editTables.reduce(0) { $0 + (s.received[$1] ?? 0) }
        var lines = ["Synced with \(address.shown.terminalSafe)\(s.firstWithServer ? " (the first time)" : "")."]
        if sentSessions + sentEdits + gotSessions + gotEdits + s.deleted == 0 {
            lines.append("  Up to date: nothing to send or receive.")
        } else {
            lines.append(
                "  Sent \(count(sentSessions, "session", "sessions")) (\(count(sentEvents, "event", "events"))), \(count(sentEdits, "change", "changes")) to tasks and habits."
            )
            lines.append(
                "  Received \(count(gotSessions, "session", "sessions")) (\(count(gotEvents, "event", "events"))), \(count(gotEdits, "change", "changes")) to tasks and habits"
                    + (s.deleted > 0 ? "; \(s.deleted) deleted here as on another device." : "."))
        }
        let names = s.devices.map(\.name.terminalSafe)
        lines.append("  Devices: \(names.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }
}
