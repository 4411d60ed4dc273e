import ArgumentParser
import DisplayWidth
import Foundation
import Synchronization
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
            The server's URL comes in the environment, never on the command line (where `ps` shows \
            it to every user): VIGIL_SYNC_URL, and VIGIL_SYNC_GROUP_URL for a group's own database; \
            both are removed from the environment once read. The password: the URL's, else \
            --password-file's (private to its owner), else PGPASSWORD. VIGIL_SYNC_LOCK_TIMEOUT and \
            VIGIL_SYNC_STATEMENT_TIMEOUT (seconds; 60 and 600 by default) bound how long a statement \
            waits for another device's lock and how long it runs. Exit codes: 0 synced, 69 a server schema from a newer Vigil, 74 the log \
            could not be read or written, 75 the server cannot be reached, 77 user or password \
            refused, 78 wrong settings, 1 the server refused a statement.
            """)

    @Option(help: ArgumentHelp("The event log.", valueName: "file")) var log: String
    @Option(help: ArgumentHelp("A file with the password.", valueName: "file")) var passwordFile: String?
    @Flag(help: "Send the words of reasons too.") var shareReasons = false
    @Option(help: ArgumentHelp("After the sync, publish the last 30 days' figures to this group.", valueName: "name")) var group: String?
    @Option(help: ArgumentHelp("The name the group sees (default: the login name).", valueName: "name")) var alias: String?
    @Option(help: ArgumentHelp("Do not sync: compare the group's members over the last DAYS days.", valueName: "days")) var groupReport: Int?
    @Flag(help: "With --group-report: as JSON.") var json = false

    func run() async throws {
        guard let url = Self.takeEnvironment("VIGIL_SYNC_URL") else {
            fail("no server: vigil-sync takes the server's URL in VIGIL_SYNC_URL (vigil sync sets it from sync.url).", code: 78)
        }
        let groupURL = Self.takeEnvironment("VIGIL_SYNC_GROUP_URL")
        let address = serverAddress(url: url, groupURL: groupURL)
        let groupServer = group == nil ? address : groupAddress(address, groupURL)
        let store: EventStore
        do {
            store = try EventStore(path: log)
        } catch {
            fail(error.description, code: error.kind == .contents ? 65 : 74)
        }
        if let days = groupReport {
            await printGroup(days: days, address: groupServer)
            return
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
            if let group { await publish(group: group, person: summary.server, store: store, address: groupServer) }
        } catch {
            if progress { try? writeAll(2, "\r\u{1B}[K".utf8) }
            fail(error.message + (error.kind == .unreachable ? Self.waiting(in: store) : ""), code: Self.code(error.kind))
        }
    }

    /// The server's address from `url` and --password-file, with the timeouts the environment
    /// sets; its passwords (and the group database's) are masked in whatever is printed.
    func serverAddress(url: String, groupURL: String?) -> ServerAddress {
        var address: ServerAddress
        do {
            address = try ServerAddress(url: url, passwordFile: passwordFile)
        } catch {
            fail(error.message, code: 78)
        }
        let passwords = [address.password, groupURL.flatMap { try? ServerAddress(url: $0, passwordFile: nil).password }]
        Self.secrets.withLock { $0 = passwords.compactMap { $0 } }
        address.lockTimeout = Self.seconds("VIGIL_SYNC_LOCK_TIMEOUT") ?? address.lockTimeout
        address.statementTimeout = Self.seconds("VIGIL_SYNC_STATEMENT_TIMEOUT") ?? address.statementTimeout
        return address
    }

    /// What waits to be sent, when the server cannot be reached: " Waiting here: 3 sessions ...".
    static func waiting(in store: EventStore) -> String {
        guard let pending = try? store.pendingSync(), pending.sessions + pending.edits > 0 else { return "" }
        let since = pending.oldestSession.map { " (the oldest from \(Statistics.dateString(Int($0.millisecondsSinceEpoch / 86_400_000))))" } ?? ""
        return " Waiting here: \(pending.sessions) sessions\(since) and \(pending.edits) changes to tasks and habits."
    }

    /// The group's database: `groupURL` (VIGIL_SYNC_GROUP_URL), else the sync server's, with its timeouts.
    func groupAddress(_ address: ServerAddress, _ groupURL: String?) -> ServerAddress {
        guard let groupURL else { return address }
        do {
            var group = try ServerAddress(url: groupURL, passwordFile: passwordFile)
            group.lockTimeout = address.lockTimeout
            group.statementTimeout = address.statementTimeout
            return group
        } catch {
            fail("sync.group_url: " + error.message, code: 78)
        }
    }

    /// The value of the environment variable `name`, removed from the environment once read (a
    /// secret stays in this process, not in what its children inherit).
    static func takeEnvironment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }) else { return nil }
        unsetenv(name)
        return value
    }

    /// Whole seconds from 1 to 3600 in the environment variable `name`; nil when unset.
    static func seconds(_ name: String) -> Int? {
        guard let text = ProcessInfo.processInfo.environment[name] else { return nil }
        guard let n = Int(text), (1...3600).contains(n) else { fail("\(name) must be whole seconds from 1 to 3600; got '\(text)'", code: 78) }
        return n
    }

    /// Publishes this person's last 30 local days (every device's sessions, a minute counted once)
    /// to the group: each day's focused and distracted minutes, sessions and streak, nothing finer.
    /// `address`: the group's database.
    func publish(group: String, person: String, store: EventStore, address: ServerAddress) async {
        let zone = TimeZone.current
        let now = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let today = LocalClock(timeZone: zone, from: now - 3 * 86_400, to: now + 86_400).slot(at: now).day
        let days: [GroupDay]
        do {
            let clock = LocalClock(timeZone: zone, days: (today - 29)...today)
            let facts = try store.statisticsFacts(before: clock.startOfDay(today + 1))
            let report = Statistics.report(facts, timeZone: zone, from: today - 29, to: today, openDay: today)
            let streaks = Dictionary(report.streak.calendar.map { ($0.date, $0.streak) }, uniquingKeysWith: { $1 })
            days = report.days.map {
                GroupDay(
                    day: $0.date, focusedMinutes: $0.focusedMinutes, distractedMinutes: $0.distractedMinutes, sessions: $0.sessions,
                    streak: streaks[$0.date] ?? 0)
            }
        } catch {
            fail("the figures for the group could not be read: \(error)", code: 74)
        }
        do {
            try await GroupClient.publish(address: address, group: group, person: person, alias: alias ?? loginName(), days: days)
            print("  Published \(days.count) days to the group \(group.terminalSafe) as \((alias ?? loginName()).terminalSafe).")
        } catch {
            fail("the group \(group): " + error.message, code: Self.code(error.kind))
        }
    }

    /// The group's members over the last `days` days, most focused first.
    /// `address`: the group's database.
    func printGroup(days: Int, address: ServerAddress) async {
        guard let group, (1...3660).contains(days) else { fail("--group-report needs --group and 1 to 3660 days", code: 64) }
        let zone = TimeZone.current
        let now = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let today = LocalClock(timeZone: zone, from: now - 3 * 86_400, to: now + 86_400).slot(at: now).day
        let from = Statistics.dateString(today - days + 1)
        let members: [GroupMember]
        do {
            members = try await GroupClient.members(address: address, group: group, fromDay: from)
        } catch {
            fail("the group \(group): " + error.message, code: Self.code(error.kind))
        }
        if json {
            print(Self.groupJSON(group, from: from, to: Statistics.dateString(today), members).text)
            return
        }
        print("Group \(group.terminalSafe) · \(from) to \(Statistics.dateString(today)) · each member's own devices, a minute counted once")
        for line in Self.groupTable(members) { print(line) }
    }

    /// `--group-report --json`: the period and each member's figures.
    static func groupJSON(_ group: String, from: String, to: String, _ members: [GroupMember]) -> JSONValue {
        let rows = members.map { m -> JSONValue in
            .object([
                ("alias", .str(m.alias)), ("role", .str(m.role)), ("skipped_days", .int(m.skippedDays)),
                ("focused_minutes", .exact(m.focusedMinutes)), ("distracted_minutes", .exact(m.distractedMinutes)),
                ("sessions", .int(m.sessions)), ("streak", .int(m.streak)), ("days", .int(m.days)),
            ])
        }
        return .object([("group", .str(group)), ("from", .str(from)), ("to", .str(to)), ("members", .array(rows))])
    }

    /// The members as a table, most focused first, and the days left out of anyone's figures.
    static func groupTable(_ members: [GroupMember]) -> [String] {
        guard !members.isEmpty else { return ["  Nobody has published yet: members set sync.group and run vigil sync."] }
        // A member is shown by alias, and by the database role that wrote the figures when that
        // differs: the alias is the member's own words, the role what the server vouches for.
        func name(_ m: GroupMember) -> String { m.alias == m.role ? m.alias.terminalSafe : "\(m.alias.terminalSafe) (\(m.role.terminalSafe))" }
        let width = max(6, members.map { name($0).count }.max() ?? 6)
        let widths = [12, 12, 6, 9, 7]
        func row(_ name: String, _ cells: [String]) -> String {
            "  " + name.padded(toWidth: width) + zip(cells, widths).map { $0.leftPadded(toWidth: $1) }.joined()
        }
        var out = [row("member", ["focused", "distracted", "share", "sessions", "streak"])]
        for m in members {
            let judged = m.focusedMinutes + m.distractedMinutes
            let share = judged > 0 ? "\(Int((100 * m.focusedMinutes / judged).rounded()))%" : "–"
            out.append(
                row(
                    name(m),
                    [humanDuration(m.focusedMinutes * 60), humanDuration(m.distractedMinutes * 60), share, String(m.sessions), String(m.streak)]))
        }
        for m in members where m.skippedDays > 0 {
            out.append("  Left out: \(m.skippedDays) of \(name(m))'s days, whose figures no day can have (not a number, or out of range).")
        }
        return out
    }

    func loginName() -> String {
        let name = ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.userName
        return name.isEmpty ? "me" : name
    }

    /// Says `message` as every vigil command says an error, with any password masked, and exits with `code`.
    func fail(_ message: String, code: Int32) -> Never { Self.fail(message, code: code) }

    static func fail(_ message: String, code: Int32) -> Never {
        try? writeAll(2, "vigil: error: \(masked(message).terminalSafe)\n".utf8)
        Foundation.exit(code)
    }

    /// The passwords of this run's servers, masked in every message.
    static let secrets = Mutex<[String]>([])

    /// `text` with every password this run knows as `***`, and any written into a URL it quotes
    /// (`maskingPasswords`, as every Vigil message).
    static func masked(_ text: String) -> String {
        secrets.withLock { $0 }.filter { !$0.isEmpty }.reduce(text.maskingPasswords) { $0.replacingOccurrences(of: $1, with: "***") }
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
        if !s.rejected.isEmpty {
            // Named one by one (the first 20), with the device that made each: the person can ask
            // that device's owner, or delete the row on the server.
            let deviceNames = Dictionary(s.devices.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            lines.append(
                "  Not taken: \(count(s.rejected.count, "row", "rows")) from the server that this log cannot hold (made by a damaged or newer Vigil, or by hand); every other row was taken."
            )
            for r in s.rejected.prefix(20) {
                let what = r.table + (r.id.map { " #\($0)" } ?? "") + (r.sub.map { " \($0)" } ?? "")
                let device = deviceNames[r.device].map { "\($0) (\(r.device))" } ?? r.device
                lines.append("    \(what) from \(device): \(r.reason)".terminalSafe)
            }
            if s.rejected.count > 20 { lines.append("    and \(s.rejected.count - 20) more.") }
        }
        return lines.joined(separator: "\n")
    }
}
