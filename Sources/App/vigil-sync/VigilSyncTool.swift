import ArgumentParser
import Foundation
import SystemCalls
import VigilCore
import VigilStats
import VigilStore
import VigilSync

/// `vigil sync`'s worker: a program of its own so that the PostgreSQL client, with SwiftNIO and
/// its TLS (BoringSSL), is loaded by the one command that uses it; linked into `vigil` it made
/// every command start 2 ms slower (BENCHMARKS.md, "Sync"). `vigil sync` reads the config, opens
/// the log (creating or upgrading it) and runs this with the settings; the daemon does the same.
@main
struct VigilSyncTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vigil-sync",
        abstract: "Sync one Vigil log with a PostgreSQL server: the worker `vigil sync` runs.",
        discussion: """
            The password: the URL's, else --password-file's (private to its owner), else \
            PGPASSWORD. Exit codes: 0 synced, 69 a server schema from a newer Vigil, 74 the log \
            could not be read or written, 75 the server cannot be reached, 77 user or password \
            refused, 78 wrong settings, 1 the server refused a statement.
            """)

    @Option(help: ArgumentHelp("The event log.", valueName: "file")) var log: String
    @Option(help: ArgumentHelp("The server, as libpq takes a URL.", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("A file with the password.", valueName: "file")) var passwordFile: String?
    @Flag(help: "Send the words of reasons too.") var shareReasons = false

    func run() async throws {
        let address: ServerAddress
        do {
            address = try ServerAddress(url: url, passwordFile: passwordFile)
        } catch {
            fail(error.message, code: 78)
        }
        let store: EventStore
        do {
            store = try EventStore(path: log)
        } catch {
            fail(error.description, code: error.kind == .contents ? 65 : 74)
        }
        var options = SyncOptions()
        options.shareReasons = shareReasons
        let progress = isatty(2) != 0
        do {
            let summary = try await SyncClient.sync(store: store, address: address, options: options) { line in
                if progress { try? writeAll(2, "\r\u{1B}[Kvigil: \(line)".utf8) }
            }
            if progress { try? writeAll(2, "\r\u{1B}[K".utf8) }
            print(Self.describe(summary, address: address))
        } catch {
            if progress { try? writeAll(2, "\r\u{1B}[K".utf8) }
            var message = error.message
            if error.kind == .unreachable, let pending = try? store.pendingSync(), pending.sessions + pending.edits > 0 {
                let since =
                    pending.oldestSession.map { " (the oldest from \(Statistics.dateString(Int($0.millisecondsSinceEpoch / 86_400_000))))" } ?? ""
                message += " Waiting here: \(pending.sessions) sessions\(since) and \(pending.edits) changes to tasks and habits."
            }
            fail(message, code: Self.code(error.kind))
        }
    }

    /// Says `message` as every vigil command says an error, and exits with `code`.
    func fail(_ message: String, code: Int32) -> Never {
        try? writeAll(2, "vigil: error: \(message.terminalSafe)\n".utf8)
        Foundation.exit(code)
    }

    /// sysexits' codes, as the rest of Vigil uses them.
    static func code(_ kind: SyncError.Kind) -> Int32 {
        switch kind {
        case .configuration: 78
        case .unreachable: 75
        case .authentication: 77
        case .newerServer: 69
        case .server: 1
        case .store: 74
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
