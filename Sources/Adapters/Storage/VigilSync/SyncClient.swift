import Foundation
import PostgresNIO
import Synchronization
import VigilStore

/// What one sync moved.
public struct SyncSummary: Sendable {
    /// Rows sent, by table.
    public var sent: [String: Int] = [:]
    /// Rows received that changed the log, by table.
    public var received: [String: Int] = [:]
    /// Sessions (and tasks, habits, days) deleted here because they were deleted elsewhere.
    public var deleted = 0
    /// The server's id and the devices it knows.
    public var server = ""
    public var devices: [SyncDevice] = []
    /// Whether this was the first sync of this log with this server.
    public var firstWithServer = false
    /// Rows received that the log did not take (`IncomingRows`): which, from where, why.
    public var rejected: [RejectedRow] = []
    public init() {}
}

/// How one sync runs.
public struct SyncOptions: Sendable {
    public var shareReasons = false
    /// Sessions per server transaction (their events go with them), and edited rows per transaction.
    public var sessionBatch = 500
    public var editBatch = 5000
    /// For the tests' fault points: called after each server transaction of a push has committed,
    /// before the log marks it sent (the window where a SIGKILL leaves a batch to send again).
    public var afterCommit: (@Sendable (String) throws -> Void)? = nil
    public init() {}
}

/// Sync between this log and the PostgreSQL server (docs/sync.md): push what this device made or
/// changed, then pull what the others did. Every step is one transaction on each side and marks
/// only what the other side committed, so an interruption anywhere (a dropped connection, a server
/// restart, SIGKILL) leaves work that the next sync does again, and the unique keys make the
/// repetition a no-op.
public enum SyncClient {
    /// The advisory lock held by every transaction that draws `server_seq` values ("vigil" in ASCII).
    static let pushLock: Int64 = 0x76_69_67_69_6c

    public static func sync(
        store: EventStore, address: ServerAddress, options: SyncOptions = SyncOptions(), progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(SyncError) -> SyncSummary {
        let me: SyncDevice
        do { me = try store.thisDevice() } catch { throw SyncError(.store, error.description) }
        let connection = try await connect(address)
        let server = Server(connection: connection, address: address)
        // The work, raced against the connection closing under it: postgres-nio never answers a
        // query written to a connection that has just closed (the server stopped between two
        // statements), so a close that the work has not reported within two seconds ends the
        // sync as unreachable (the stuck statement is left waiting, which costs nothing).
        // And raced against a server that stops answering in the middle of a step without closing
        // the connection (frozen, or a network dropping every packet): each step is given the
        // server's own timeouts and a margin (`Watchdog`), then the sync ends as unreachable.
        let outcome = Outcome()
        let watchdog = Watchdog(limit: address.statementTimeout + address.lockTimeout + Watchdog.margin)
        var checks: RepeatedTask?
        let result: Result<SyncSummary, SyncError> = await withCheckedContinuation { continuation in
            let work = Task {
                do throws(SyncError) {
                    let summary = try await run(server: server, store: store, me: me, options: options, watchdog: watchdog, progress: progress)
                    outcome.finish(.success(summary), continuation)
                } catch {
                    outcome.finish(.failure(error), continuation)
                }
            }
            connection.closeFuture.whenComplete { _ in
                _ = connection.eventLoop.scheduleTask(in: .seconds(2)) {
                    if outcome.finish(.failure(SyncError.closed(address)), continuation) { work.cancel() }
                }
            }
            checks = connection.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                if watchdog.isStalled, outcome.finish(.failure(SyncError.stalled(address, seconds: watchdog.limit)), continuation) {
                    work.cancel()
                }
            }
        }
        checks?.cancel()
        try? await connection.close()
        return try result.get()
    }

    /// How long one step with the server may take: set before it starts, cleared when it ends.
    final class Watchdog: Sendable {
        /// Seconds on top of the server's own timeouts: its answer to a statement it cancelled.
        static let margin = 5
        let limit: Int
        private let started = Mutex<ContinuousClock.Instant?>(nil)
        init(limit: Int) { self.limit = limit }

        /// Runs `body`, one exchange with the server, as the step being watched.
        func step<T>(_ body: () async throws(SyncError) -> T) async throws(SyncError) -> T {
            started.withLock { $0 = .now }
            defer { started.withLock { $0 = nil } }
            return try await body()
        }

        /// Whether the step under way has taken longer than `limit`.
        var isStalled: Bool { started.withLock { $0.map { $0.duration(to: .now) > .seconds(limit) } ?? false } }
    }

    /// The first of the work and the connection's close to end the sync.
    private final class Outcome: Sendable {
        private let done = Mutex(false)
        /// Resumes `continuation` with `result` unless something else did first; whether it did.
        @discardableResult
        func finish(_ result: Result<SyncSummary, SyncError>, _ continuation: CheckedContinuation<Result<SyncSummary, SyncError>, Never>) -> Bool {
            let first = done.withLock { (done: inout Bool) -> Bool in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(returning: result) }
            return first
        }
    }

    private static func run(
        server: Server, store: EventStore, me: SyncDevice, options: SyncOptions, watchdog: Watchdog, progress: @Sendable (String) -> Void
    ) async throws(SyncError) -> SyncSummary {
        var summary = SyncSummary()
        try storeCall { try store.repairClock() }
        summary.server = try await watchdog.step { () async throws(SyncError) in try await server.prepareSchema() }
        summary.firstWithServer = try storeCall { try store.bindSyncServer(summary.server) }
        try await watchdog.step { () async throws(SyncError) in try await server.register(me) }

        // Push: edits first (a session links to its task), then sessions.
        for table in SyncTable.editedTables {
            var guardRounds = 0
            while true {
                let rows = try storeCall { try store.outgoingEdits(table, limit: options.editBatch) }
                if rows.isEmpty { break }
                try await watchdog.step { () async throws(SyncError) in try await server.pushEdits(rows, of: table) }
                try fault(options, table.name)
                try storeCall { try store.markSent(rows, of: table) }
                summary.sent[table.name, default: 0] += rows.count
                guardRounds += 1
                // A row the log cannot mark (changed under the push every time) must not spin.
                if guardRounds > 10_000 { break }
            }
        }
        while true {
            let batch = try storeCall { try store.outgoingSessions(limit: options.sessionBatch, shareReasons: options.shareReasons) }
            if batch.isEmpty { break }
            try await watchdog.step { () async throws(SyncError) in try await server.pushSessions(batch) }
            try fault(options, "sessions")
            try storeCall { try store.markSent(batch) }
            summary.sent["sessions", default: 0] += batch.sessions.count + batch.deleted.count
            for (name, rows) in batch.events { summary.sent[name, default: 0] += rows.count }
            progress("sent \(summary.sent["sessions"] ?? 0) sessions")
        }

        // Pull: the devices' names, edits (parents first), then sessions.
        summary.devices = try await watchdog.step { () async throws(SyncError) in try await server.devices() }
        try storeCall { try store.recordDevices(summary.devices) }
        for table in SyncTable.editedTables {
            while true {
                let key = "pulled:" + table.name
                let after = Int64(try storeCall { try store.syncState(key) } ?? "0") ?? 0
                let (rows, last) = try await watchdog.step { () async throws(SyncError) in
                    try await server.pullEdits(of: table, after: after, excluding: me.id, limit: options.editBatch)
                }
                if rows.isEmpty { break }
                let counts = try storeCall { try store.applyIncomingEdits(rows, of: table, stateKey: key, stateValue: String(last)) }
                summary.received[table.name, default: 0] += counts.added
                summary.deleted += counts.deleted
                summary.rejected += counts.rejected
                if rows.count < options.editBatch { break }
            }
        }
        while true {
            let key = "pulled:sessions"
            let after = Int64(try storeCall { try store.syncState(key) } ?? "0") ?? 0
            let (incoming, last, count) = try await watchdog.step { () async throws(SyncError) in
                try await server.pullSessions(after: after, excluding: me.id, limit: options.sessionBatch)
            }
            if count == 0 { break }
            let counts = try storeCall { try store.applyIncoming(incoming, stateKey: key, stateValue: String(last)) }
            summary.received["sessions", default: 0] += incoming.sessions.count
            for (name, rows) in incoming.events { summary.received[name, default: 0] += rows.count }
            summary.deleted += counts.deleted
            summary.rejected += counts.rejected
            progress("received \(summary.received["sessions"] ?? 0) sessions")
            if count < options.sessionBatch { break }
        }
        try await watchdog.step { () async throws(SyncError) in try await server.finish(me) }
        return summary
    }

    private static func fault(_ options: SyncOptions, _ table: String) throws(SyncError) {
        do { try options.afterCommit?(table) } catch { throw SyncError(.unreachable, "stopped after sending \(table): \(error)") }
    }

    /// A call to the log; its failure (a `StoreError`, which names the file) ends the sync.
    private static func storeCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw SyncError(.store, "\(error)") }
    }

    static func connect(_ address: ServerAddress) async throws(SyncError) -> PostgresConnection {
        let configuration = try address.connectionConfiguration()
        var logger = Logger(label: "vigil.sync")
        logger.logLevel = .critical
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw SyncError.from(error, address: address)
        }
    }
}

extension SyncError {
    /// The server closed the connection (it stopped, or an administrator ended it).
    static func closed(_ address: ServerAddress) -> SyncError {
        SyncError(
            .unreachable,
            "\(address.host):\(address.port) closed the connection (the server stopped or restarted). Vigil will send what waits next time.")
    }

    /// The server stopped answering in the middle of a step, with the connection still open.
    static func stalled(_ address: ServerAddress, seconds: Int) -> SyncError {
        SyncError(
            .unreachable,
            "\(address.host):\(address.port) stopped answering: no reply within \(seconds) s (the server may be frozen, or the network dropping packets). Nothing was changed here; Vigil will send what waits next time."
        )
    }

    /// A connection failure in a person's words: the system's reason for the first address tried,
    /// or that the name did not resolve.
    static func reason(_ error: (any Error)?) -> String? {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if let connection = error as? NIOConnectionError {
            if let first = connection.connectionErrors.first, let io = first.error as? IOError {
                return String(cString: strerror(io.errnoCode)).lowercased()
                    + (io.errnoCode == ECONNREFUSED ? " (is the server running, on that port?)" : "")
            }
            if connection.dnsAError != nil || connection.dnsAAAAError != nil { return "the host name cannot be resolved" }
        }
        if let channel = error as? ChannelError, case .connectTimeout(let limit) = channel {
            return "it did not answer within \(limit.nanoseconds / 1_000_000_000) s (connect_timeout in sync.url)"
        }
        if error is ChannelError { return "the connection failed (\(error!))" }
        return nil
    }

    /// What a failure of postgres-nio means for the person, with what to do. `group`: on a shared
    /// group's database.
    static func from(_ error: any Error, address: ServerAddress, group: Bool = false) -> SyncError {
        let server = "\(address.host):\(address.port)"
        if let error = error as? SyncError { return error }
        if let transaction = error as? PostgresTransactionError {
            return from(transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? error, address: address, group: group)
        }
        guard let psql = error as? PSQLError else {
            if let ssl = error as? NIOSSLError {
                return SyncError(
                    .configuration,
                    "\(server): TLS failed (\(ssl)). Check sslmode and sslrootcert in sync.url: the server's certificate must be signed by that CA and, with verify-full, name the host."
                )
            }
            return SyncError(.unreachable, "\(server) cannot be reached: \(reason(error) ?? "\(error)"). Vigil will send what waits next time.")
        }
        if psql.code == .server, let info = psql.serverInfo {
            let state = info[.sqlState] ?? ""
            let text = info[.message] ?? "refused"
            switch state {
            case "28P01", "28000":
                return SyncError(
                    .authentication,
                    "\(server) refused user \(address.user): \(text). Check the user in sync.url and the password (sync.password_file or PGPASSWORD)."
                )
            case "3D000":
                return SyncError(
                    .configuration, "\(server): \(text). Create it once with `createdb \(address.database)` (or name another in sync.url).")
            case "42501" where group && text.contains("row-level security"):
                return SyncError(
                    .server,
                    "\(server): \(text). In the group each member (database role) writes only their own figures, and \(address.user) tried to write figures another role publishes: give each person their own role in sync.group_url, used on all their devices (docs/sync.md, \"A shared group\")."
                )
            case "42501" where group:
                return SyncError(
                    .server,
                    "\(server): \(text). The group's schema is made, and upgraded after an update of Vigil, by the role that owns it (the first member to publish: run vigil sync as that member once; the first one needs GRANT CREATE ON DATABASE \(address.database) TO \(address.user)). Every other member needs only to connect: GRANT CONNECT ON DATABASE \(address.database) TO \(address.user) (docs/sync.md, \"A shared group\")."
                )
            case "42501":
                return SyncError(
                    .server,
                    "\(server): \(text). The user \(address.user) needs to create Vigil's schema once: GRANT CREATE ON DATABASE \(address.database) TO \(address.user)."
                )
            case "57P01", "57P02", "57P03", "53300":
                return SyncError(.unreachable, "\(server): \(text). Vigil will send what waits next time.")
            case "55P03":
                return SyncError(
                    .unreachable,
                    "\(server): another device has held the sync lock for more than \(address.lockTimeout) s (it may have dropped off in the middle of a sync; the server releases its lock within \(address.lockTimeout) s). Nothing was changed here; Vigil will send what waits next time."
                )
            case "57014", "25P03":
                return SyncError(
                    .unreachable,
                    "\(server): a statement took longer than \(address.statementTimeout) s and was cancelled (\(text)). Nothing was changed here; Vigil will send what waits next time."
                )
            default:
                return SyncError(.server, "\(server) refused: \(text) (SQLSTATE \(state)).")
            }
        }
        switch psql.code {
        case .sslUnsupported:
            return SyncError(.configuration, "\(server) does not offer TLS, and sync.url asks for it (sslmode=\(address.sslMode.rawValue)).")
        case .failedToAddSSLHandler:
            return SyncError(.configuration, "\(server): TLS cannot be set up. Check sslmode and sslrootcert in sync.url.")
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return SyncError(
                .authentication,
                "\(server) wants a password for \(address.user) that Vigil does not have, or refused it. Set sync.password_file (or PGPASSWORD)."
            )
        default:
            let underlying = psql.underlying.map { "\($0)" } ?? "\(psql.code)"
            if let ssl = psql.underlying as? NIOSSLError {
                return SyncError(
                    .configuration, "\(server): TLS failed (\(ssl)). Check sslmode and sslrootcert in sync.url.")
            }
            return SyncError(
                .unreachable,
                "\(server) cannot be reached: \(reason(psql.underlying) ?? underlying). Nothing is lost: Vigil sends what waits next time.")
        }
    }
}
