import Foundation
import PostgresNIO
import VigilStore

/// The statements sync runs on the server, each step in one transaction.
struct Server: Sendable {
    let connection: PostgresConnection
    /// For messages.
    let address: ServerAddress
    /// Whether this is a shared group's database (whose refusals need other advice).
    var isGroup = false
    let logger: Logger = {
        var logger = Logger(label: "vigil.sync")
        logger.logLevel = .critical
        return logger
    }()

    // MARK: Transactions

    /// Runs `body` in a transaction that holds the push lock: it may draw `server_seq` values.
    private func writing<T>(_ body: () async throws -> T) async throws(SyncError) -> T {
        try await transaction("BEGIN") {
            // Read to its end: a SELECT's error (the lock timeout) comes after its row description,
            // so an unread result would leave it to the next statement as "transaction aborted".
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(SyncClient.pushLock))", logger: logger).collect()
            return try await body()
        }
    }

    /// Runs `body` in a transaction begun by `begin`; any failure rolls it back.
    func transaction<T>(_ begin: String, _ body: () async throws -> T) async throws(SyncError) -> T {
        // A query on a connection the server has closed is never answered (postgres-nio drops the
        // write); the close is noticed here, and `SyncClient.sync` covers a close in mid-flight.
        guard !connection.isClosed else { throw SyncError.closed(address) }
        do {
            try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw SyncError.from(error, address: address, group: isGroup)
        }
    }

    private func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    // MARK: Schema and devices

    /// Creates or upgrades the `vigil` schema; refuses one from a newer Vigil. Returns the server's id.
    func prepareSchema() async throws(SyncError) -> String {
        try await writing {
            try await migrate("vigil", ServerSchema.migrations, what: "the sync server's schema")
            if let id = try await connection.query("SELECT id::text FROM vigil.server", logger: logger).collect().first?.decode(String.self) {
                return id
            }
            let id = UUID().uuidString.lowercased()
            try await connection.query("INSERT INTO vigil.server (id) VALUES (\(id)::uuid)", logger: logger)
            return id
        }
    }

    /// Creates or upgrades the shared group's schema, `vigil_group`.
    func prepareGroupSchema() async throws(SyncError) {
        try await writing { try await migrate("vigil_group", GroupSchema.migrations, what: "the group's schema") }
    }

    /// Brings `schema` up to `migrations`, in the caller's transaction; refuses a newer one.
    private func migrate(_ schema: String, _ migrations: [String], what: String) async throws {
        let exists =
            try await connection.query("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = \(schema))", logger: logger)
            .collect().first?.decode(Bool.self) ?? false
        if !exists { try await execute("CREATE SCHEMA \(schema)") }
        // Created only when missing: a group member may use the schema without the right to create in it.
        let hasVersions =
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT to_regclass('\(schema).schema_version') IS NOT NULL"), logger: logger)
            .collect().first?.decode(Bool.self) ?? false
        if !hasVersions {
            try await execute("CREATE TABLE \(schema).schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        }
        let version =
            try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0)::bigint FROM \(schema).schema_version"), logger: logger
            )
            .collect().first?.decode(Int64.self) ?? 0
        guard version <= migrations.count else {
            throw SyncError(
                .newerServer,
                "\(what) is version \(version), made by a newer Vigil (this one knows \(migrations.count)). Update Vigil on this computer; nothing was sent or received."
            )
        }
        for v in Int(version)..<migrations.count {
            for statement in Self.statements(migrations[v]) { try await execute(statement) }
            try await execute("INSERT INTO \(schema).schema_version (version) VALUES (\(v + 1))")
        }
    }

    /// A migration's statements, one per query (the extended protocol runs one at a time).
    static func statements(_ sql: String) -> [String] {
        sql.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }
    }

    func register(_ me: SyncDevice) async throws(SyncError) {
        _ = try await writing {
            try await connection.query(
                """
                INSERT INTO vigil.devices AS d (id, name) VALUES (\(me.id)::uuid, \(me.name))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, last_sync = now(),
                    server_seq = CASE WHEN d.name <> excluded.name THEN nextval('vigil.change_seq') ELSE d.server_seq END
                """, logger: logger)
        }
    }

    func finish(_ me: SyncDevice) async throws(SyncError) {
        do {
            try await connection.query("UPDATE vigil.devices SET last_sync = now() WHERE id = \(me.id)::uuid", logger: logger)
        } catch {
            throw SyncError.from(error, address: address)
        }
    }

    func devices() async throws(SyncError) -> [SyncDevice] {
        do {
            var out: [SyncDevice] = []
            for try await (id, name) in try await connection.query("SELECT id::text, name FROM vigil.devices ORDER BY name", logger: logger)
                .decode((String, String).self)
            {
                out.append(SyncDevice(id: id, name: name, isSelf: false))
            }
            return out
        } catch {
            throw SyncError.from(error, address: address)
        }
    }

    // MARK: Push

    /// Copies `rows` into a temporary table shaped like `columns`, dropped at commit.
    private func stage(_ name: String, _ columns: [SyncTable.Column], _ rows: [[SyncValue]]) async throws {
        let definition = columns.map { "\($0.name) \($0.type.serverType)" }.joined(separator: ", ")
        try await execute("CREATE TEMPORARY TABLE \(name) (\(definition)) ON COMMIT DROP")
        guard !rows.isEmpty else { return }
        try await connection.copyFrom(table: name, columns: columns.map(\.name), logger: logger) { writer in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(1 << 20)
            for row in rows {
                CopyText.append(row, to: &buffer)
                if buffer.readableBytes >= 1 << 20 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
    }

    /// Merges changed rows of an edited table: a row replaces the server's when its clock is later
    /// (habit days: when its mark outranks, the person's over Vigil's, then by clock).
    func pushEdits(_ rows: [[SyncValue]], of table: SyncTable) async throws(SyncError) {
        let columns = table.sentColumns
        let names = columns.map(\.name).joined(separator: ", ")
        let keys = table.keyColumns.joined(separator: ", ")
        let updates = columns.filter { !table.keyColumns.contains($0.name) }.map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")
        let later =
            table.name == "habit_days"
            ? "(\(Self.rank("excluded")), excluded.hlc, excluded.hlc_device) > (\(Self.rank("t")), t.hlc, t.hlc_device)"
            : "(excluded.hlc, excluded.hlc_device) > (t.hlc, t.hlc_device)"
        try await writing {
            try await stage("stage_\(table.name)", columns, rows)
            // One row per key (a day unmarked and marked again travels twice): the latest.
            try await execute(
                """
                INSERT INTO vigil.\(table.name) AS t (\(names))
                SELECT DISTINCT ON (\(keys)) \(names) FROM stage_\(table.name) ORDER BY \(keys), hlc DESC, hlc_device DESC
                ON CONFLICT (\(keys)) DO UPDATE SET \(updates), server_seq = nextval('vigil.change_seq') WHERE \(later)
                """)
        }
    }

    /// A habit day's mark by who made it (as `EventStore.markRank`): a delete or the person's mark 2,
    /// sessions reaching the goal 1, a day Vigil failed on its own 0.
    private static func rank(_ row: String) -> String {
        "CASE WHEN \(row).deleted = 1 THEN 2 WHEN \(row).source = 'auto' THEN 0 WHEN \(row).source = 'session' THEN 1 ELSE 2 END"
    }

    /// Sends sessions with their events, and session deletes, in one transaction.
    func pushSessions(_ batch: OutgoingSessions) async throws(SyncError) {
        try await writing {
            if !batch.sessions.isEmpty {
                let columns = SyncTable.sessions.columns
                let names = columns.map(\.name).joined(separator: ", ")
                try await stage("stage_sessions", columns, batch.sessions)
                // A session sent again was edited: the later edit replaces its content (a
                // forgotten session stays forgotten), and every device pulls it again.
                let updates = columns.dropFirst(2).map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")
                try await execute(
                    """
                    INSERT INTO vigil.sessions (\(names)) SELECT \(names) FROM stage_sessions
                    ON CONFLICT (origin_device, origin_id) DO UPDATE SET \(updates), server_seq = nextval('vigil.change_seq')
                    WHERE NOT vigil.sessions.deleted AND coalesce(excluded.edited_hlc, 0) > coalesce(vigil.sessions.edited_hlc, 0)
                    """)
                for table in SyncTable.sessionEvents {
                    guard let rows = batch.events[table.name], !rows.isEmpty else { continue }
                    let names = table.columns.map(\.name).joined(separator: ", ")
                    try await stage("stage_\(table.name)", table.columns, rows)
                    try await execute(
                        "INSERT INTO vigil.\(table.name) (\(names)) SELECT \(names) FROM stage_\(table.name) ON CONFLICT (origin_device, origin_id) DO NOTHING"
                    )
                }
            }
            if !batch.deleted.isEmpty {
                var binds = PostgresBindings()
                binds.append(batch.deleted.map(\.device))
                binds.append(batch.deleted.map(\.id))
                let targets = "SELECT d::uuid, i FROM unnest($1::text[], $2::bigint[]) AS u(d, i)"
                for table in SyncTable.sessionEvents {
                    try await execute("DELETE FROM vigil.\(table.name) WHERE (origin_device, session_id) IN (\(targets))", binds)
                }
                // A forgotten session keeps only its identity, so that every device forgets it too.
                let content = SyncTable.sessions.columns.dropFirst(2).map { "\($0.name) = NULL" }.joined(separator: ", ")
                try await execute(
                    """
                    UPDATE vigil.sessions SET deleted = true, \(content), server_seq = nextval('vigil.change_seq')
                    WHERE (origin_device, origin_id) IN (\(targets)) AND NOT deleted
                    """, binds)
            }
        }
    }

    // MARK: Pull

    /// The select list of `columns`: uuids as text, as the log keeps them.
    private static func selectList(_ columns: [SyncTable.Column], prefix: String = "") -> String {
        columns.map { $0.type == .uuid ? "\(prefix)\($0.name)::text" : "\(prefix)\($0.name)" }.joined(separator: ", ")
    }

    /// Decodes a row whose first cells are `columns`, in order.
    private static func values(_ row: PostgresRow, _ columns: [SyncTable.Column]) throws -> [SyncValue] {
        var out: [SyncValue] = []
        out.reserveCapacity(columns.count)
        for (cell, column) in zip(row, columns) {
            switch column.type {
            case .integer: out.append(try cell.decode(Int64?.self).map(SyncValue.integer) ?? .null)
            case .real: out.append(try cell.decode(Double?.self).map(SyncValue.real) ?? .null)
            case .text, .uuid: out.append(try cell.decode(String?.self).map(SyncValue.text) ?? .null)
            }
        }
        return out
    }

    /// Only rows whose `server_seq` the sequence has drawn: a row written by hand with a larger one
    /// (Int64.max) would carry the watermark past every later change, and no device would pull
    /// again.
    static let drawn = "server_seq <= (SELECT last_value FROM vigil.change_seq)"

    /// Rows of an edited table changed after `after` by another device, oldest change first, and the
    /// last `server_seq` looked at (this device's own changes are passed over, not sent back).
    func pullEdits(of table: SyncTable, after: Int64, excluding me: String, limit: Int) async throws(SyncError) -> ([[SyncValue]], Int64) {
        let columns = table.sentColumns
        do {
            var rows: [[SyncValue]] = []
            var last = after
            var seen = 0
            let query = PostgresQuery(
                unsafeSQL:
                    "SELECT \(Self.selectList(columns)), server_seq FROM vigil.\(table.name) WHERE server_seq > \(after) AND \(Self.drawn) ORDER BY server_seq LIMIT \(limit)"
            )
            let hlcDevice = columns.firstIndex { $0.name == "hlc_device" }!
            for try await row in try await connection.query(query, logger: logger) {
                let values = try Self.values(row, columns)
                last = try Array(row).last!.decode(Int64.self)
                seen += 1
                if values[hlcDevice] != .text(me) { rows.append(values) }
            }
            // A batch of only this device's own changes still moves the watermark on.
            return (rows, seen == 0 ? after : last)
        } catch {
            throw SyncError.from(error, address: address)
        }
    }

    /// Sessions inserted, edited or deleted after `after`, oldest first, with the events of those of
    /// other devices (this device's own sessions only when edited, without events); read in one snapshot so that a session comes with all its events. Returns them, the
    /// last `server_seq` looked at, and how many rows were looked at.
    func pullSessions(after: Int64, excluding me: String, limit: Int) async throws(SyncError) -> (IncomingSessions, Int64, Int) {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            var incoming = IncomingSessions()
            let columns = SyncTable.sessions.columns
            var last = after
            var seen = 0
            var devices: [String] = []
            var ids: [Int64] = []
            let query = PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.selectList(columns)), deleted, server_seq FROM vigil.sessions
                    WHERE server_seq > \(after) AND \(Self.drawn) ORDER BY server_seq LIMIT \(limit)
                    """)
            for try await row in try await connection.query(query, logger: logger) {
                let cells = Array(row)
                let values = try Self.values(row, columns)
                let deleted = try cells[columns.count].decode(Bool.self)
                last = try cells[columns.count + 1].decode(Int64.self)
                seen += 1
                guard case .text(let device) = values[0], case .integer(let id) = values[1] else { continue }
                if deleted {
                    incoming.deleted.append((device, id))
                } else if device == me {
                    // This device's own session comes back only when another device edited it.
                    if case .integer(let edited) = values[columns.count - 1], edited > 0 { incoming.sessions.append(values) }
                } else {
                    incoming.sessions.append(values)
                    devices.append(device)
                    ids.append(id)
                }
            }
            if !ids.isEmpty {
                for table in SyncTable.sessionEvents {
                    var binds = PostgresBindings()
                    binds.append(devices)
                    binds.append(ids)
                    let query = PostgresQuery(
                        unsafeSQL: """
                            SELECT \(Self.selectList(table.columns)) FROM vigil.\(table.name)
                            WHERE (origin_device, session_id) IN (SELECT d::uuid, i FROM unnest($1::text[], $2::bigint[]) AS u(d, i))
                            ORDER BY origin_device, origin_id
                            """, binds: binds)
                    var rows: [[SyncValue]] = []
                    for try await row in try await connection.query(query, logger: logger) { rows.append(try Self.values(row, table.columns)) }
                    incoming.events[table.name] = rows
                }
            }
            return (incoming, last, seen)
        }
    }
}

/// PostgreSQL's COPY text format: tab-separated, `\N` for NULL, backslash escapes.
enum CopyText {
    static func append(_ row: [SyncValue], to buffer: inout ByteBuffer) {
        for (i, value) in row.enumerated() {
            if i > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.writeStaticString("\\N")
            case .integer(let v): buffer.writeString(String(v))
            case .real(let v):
                if v.isNaN {
                    buffer.writeStaticString("NaN")
                } else if v.isInfinite {
                    buffer.writeStaticString(v > 0 ? "Infinity" : "-Infinity")
                } else {
                    buffer.writeString("\(v)")
                }
            case .text(let s):
                for byte in s.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                    case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                    case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                    case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                    default: buffer.writeInteger(byte)
                    }
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }
}
