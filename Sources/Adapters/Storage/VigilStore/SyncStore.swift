import Foundation
import GRDB
import VigilCore

/// A device a log knows: this one, or one its rows came from.
public struct SyncDevice: Sendable, Hashable {
    public var id: String
    public var name: String
    public var isSelf: Bool
    public init(id: String, name: String, isSelf: Bool) {
        self.id = id
        self.name = name
        self.isSelf = isSelf
    }
}

/// Sessions ready to be sent, with their events: one server transaction, so that a session is never
/// on the server without them.
public struct OutgoingSessions: Sendable {
    /// Local ids, to mark once the server has them.
    public var ids: [Int64] = []
    public var sessions: [[SyncValue]] = []
    /// Per table of `SyncTable.sessionEvents`, by name.
    public var events: [String: [[SyncValue]]] = [:]
    /// Sessions deleted here (forgotten) that the server may have: (origin device, origin id).
    public var deleted: [(device: String, id: Int64)] = []
    public var isEmpty: Bool { sessions.isEmpty && deleted.isEmpty }
    public var rowCount: Int { sessions.count + events.values.reduce(0) { $0 + $1.count } + deleted.count }
}

/// What applying received rows did to the log.
public struct AppliedCounts: Sendable, Equatable {
    /// Rows new to this log (sessions and events, or edited rows that won).
    public var added = 0
    /// Rows the log had already, or older than its own edits.
    public var skipped = 0
    public var deleted = 0
    /// Rows not taken because the log could not hold them as they are (`IncomingRows`).
    public var rejected: [RejectedRow] = []
    public init() {}
}

/// The log's side of sync (docs/sync.md; the schema: SyncMigration). VigilSync moves rows between
/// these calls and the server; every call here is one SQLite transaction, so the log is always
/// consistent whatever happens to the network or the process between two of them.
extension EventStore {
    private static let selfID = "(SELECT id FROM devices WHERE is_self = 1)"

    /// This device's id, as the rows name it.
    static func selfDevice(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT id FROM devices WHERE is_self = 1") ?? ""
    }

    // MARK: Devices

    /// This device, made when the log was.
    public func thisDevice() throws(StoreError) -> SyncDevice {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name FROM devices WHERE is_self = 1") else {
                throw StoreError(path: path, message: "the event log has no device identity; it is damaged", kind: .contents)
            }
            return SyncDevice(id: row[0], name: row[1], isSelf: true)
        }
    }

    /// Every device the log knows, this one first, then by name.
    public func devices() throws(StoreError) -> [SyncDevice] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, is_self FROM devices ORDER BY is_self DESC, name, id").map {
                SyncDevice(id: $0[0], name: $0[1], isSelf: $0[2])
            }
        }
    }

    public func renameThisDevice(_ name: String) throws(StoreError) {
        try write { db in try db.execute(sql: "UPDATE devices SET name = ? WHERE is_self = 1", arguments: [name]) }
    }

    /// Other devices as the server names them.
    public func recordDevices(_ devices: [SyncDevice]) throws(StoreError) {
        try write { db in
            for d in devices where !d.isSelf {
                try db.execute(
                    sql: "INSERT INTO devices (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name WHERE is_self = 0",
                    arguments: [d.id, d.name])
            }
        }
    }

    // MARK: Which server, and how far

    /// A value sync keeps in the log (the server's id, watermarks).
    public func syncState(_ key: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: [key]) }
    }

    /// Makes `serverID` the server this log syncs with. When it is another one than last time (a
    /// new database, or the first sync), everything of this log is to be sent again and everything
    /// of the server received: the old server's marks mean nothing to the new one.
    /// Returns whether the server changed.
    @discardableResult
    public func bindSyncServer(_ serverID: String) throws(StoreError) -> Bool {
        try write { db in
            let current = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'server'")
            guard current != serverID else { return false }
            try db.execute(sql: "DELETE FROM sync_state")
            try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES ('server', ?)", arguments: [serverID])
            try db.execute(sql: "UPDATE sessions SET pushed = 0 WHERE origin_device IS NULL AND pushed <> 0")
            for table in ["tasks", "habits", "habit_days", "habit_notes"] {
                try db.execute(sql: "UPDATE \(table) SET dirty = 1 WHERE dirty = 0")
            }
            try db.execute(sql: "UPDATE sync_tombstones SET pushed = 0")
            return true
        }
    }

    /// What waits to be sent: closed sessions of this device, changed tasks and habits, deletes.
    public func pendingSync() throws(StoreError) -> (sessions: Int, edits: Int, oldestSession: Timestamp?) {
        try read { db in
            let sessions = try Row.fetchOne(
                db, sql: "SELECT count(*), min(started_ms) FROM sessions WHERE pushed = 0 AND ended_ms IS NOT NULL AND origin_device IS NULL")!
            var edits = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_tombstones WHERE pushed = 0") ?? 0
            edits += try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions INDEXED BY sessions_edited WHERE pushed = 2") ?? 0
            for table in ["tasks", "habits", "habit_days", "habit_notes"] {
                edits += try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE dirty = 1") ?? 0
            }
            return (sessions[0], edits, (sessions[1] as Int64?).map(storedTime))
        }
    }

    // MARK: Sending

    /// Up to `limit` closed sessions of this device not yet sent, oldest first, with their events;
    /// up to `limit` sessions edited here since they were sent (of any device), without them; and
    /// the sessions deleted here that the server may have.
    public func outgoingSessions(limit: Int, shareReasons: Bool) throws(StoreError) -> OutgoingSessions {
        try read { db in
            var out = OutgoingSessions()
            let me = try Self.selfDevice(db)
            func sessions(_ index: String, _ condition: String) throws -> [Row] {
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.id, coalesce(s.origin_device, ?), coalesce(s.origin_id, s.id), s.task,
                            CASE WHEN t.id IS NULL THEN NULL ELSE coalesce(t.origin_device, ?) END,
                            coalesce(t.origin_id, t.id), s.source, s.started_ms, s.planned_s, s.ended_ms, s.outcome, s.active_s,
                            s.focused_s, s.distracted_s, s.paused_s, s.gap_s, s.episodes, s.alarms, s.last_event_ms, s.tags, s.note,
                            s.intent, s.intent_kept, \(SessionLabels.outgoingSQL), s.edited_hlc
                        FROM sessions s INDEXED BY \(index) LEFT JOIN tasks t ON t.id = s.task_id
                        WHERE \(condition) ORDER BY s.id LIMIT ?
                        """, arguments: [me, me, limit])
            }
            let fresh = try sessions("sessions_unpushed", "s.pushed = 0 AND s.ended_ms IS NOT NULL AND s.origin_device IS NULL")
            for row in try fresh + sessions("sessions_edited", "s.pushed = 2") {
                out.ids.append(row[0])
                out.sessions.append((1..<row.count).map { syncValue(row[$0]) })
            }
            if !fresh.isEmpty {
                let ids = fresh.map { String($0[0] as Int64) }.joined(separator: ",")
                for table in SyncTable.sessionEvents {
                    let content = table.columns.dropFirst(3).map {
                        !shareReasons && SyncTable.reasonColumns.contains($0.name) ? "NULL" : $0.name
                    }
                    let rows = try Row.fetchAll(
                        db,
                        sql: "SELECT id, session_id, \(content.joined(separator: ", ")) FROM \(table.name) WHERE session_id IN (\(ids)) ORDER BY id")
                    out.events[table.name] = rows.map { row in [.text(me)] + (0..<row.count).map { syncValue(row[$0]) } }
                }
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT origin_device, origin_id FROM sync_tombstones WHERE tbl = 'sessions' AND pushed = 0 LIMIT ?", arguments: [limit])
            {
                out.deleted.append((row[0], row[1]))
            }
            return out
        }
    }

    /// Marks sessions (and session deletes) as on the server.
    public func markSent(_ batch: OutgoingSessions) throws(StoreError) {
        try write { db in
            // Only at the edit that was sent: one made meanwhile is still to be sent.
            let mark = try db.cachedStatement(sql: "UPDATE sessions SET pushed = 1 WHERE id = ? AND edited_hlc IS ?")
            for (id, row) in zip(batch.ids, batch.sessions) {
                try mark.execute(arguments: [id, row.last?.databaseValue])
            }
            for d in batch.deleted {
                try db.execute(
                    sql: "UPDATE sync_tombstones SET pushed = 1 WHERE tbl = 'sessions' AND origin_device = ? AND origin_id = ?",
                    arguments: [d.device, d.id])
            }
        }
    }

    /// Up to `limit` changed rows of an edited table (`SyncTable.editedTables`): changed rows with
    /// their content, deleted ones as tombstones (content NULL, `deleted` 1), each ending with its
    /// clock (`SyncTable.sentColumns`).
    public func outgoingEdits(_ table: SyncTable, limit: Int) throws(StoreError) -> [[SyncValue]] {
        try read { db in
            let content = table.columns.dropFirst(table.kind == .habitPart ? 3 : 2).map { "x." + $0.name }.joined(separator: ", ")
            let sql: String
            switch table.kind {
            case .edited:
                sql = """
                    SELECT coalesce(x.origin_device, \(Self.selfID)), coalesce(x.origin_id, x.id), \(content), x.hlc, x.hlc_device, 0
                    FROM \(table.name) x WHERE x.dirty = 1 ORDER BY x.id LIMIT ?
                    """
            case .habitPart:
                let sub = table.name == "habit_days" ? "CAST(x.day AS TEXT)" : "x.week"
                sql = """
                    SELECT coalesce(h.origin_device, \(Self.selfID)), coalesce(h.origin_id, h.id), \(sub), \(content), x.hlc, x.hlc_device, 0
                    FROM \(table.name) x JOIN habits h ON h.id = x.habit_id WHERE x.dirty = 1 ORDER BY x.habit_id, \(sub) LIMIT ?
                    """
            case .session, .sessionEvent:
                preconditionFailure("\(table.name) is not an edited table")
            }
            var rows = try Row.fetchAll(db, sql: sql, arguments: [limit]).map { row in (0..<row.count).map { syncValue(row[$0]) } }
            let nulls = [SyncValue](repeating: .null, count: table.columns.count - table.keyColumns.count)
            for t in try Row.fetchAll(
                db, sql: "SELECT origin_device, origin_id, sub, hlc, hlc_device FROM sync_tombstones WHERE tbl = ? AND pushed = 0 LIMIT ?",
                arguments: [table.name, max(0, limit - rows.count)])
            {
                let key: [SyncValue] = table.kind == .habitPart ? [.text(t[0]), .integer(t[1]), .text(t[2])] : [.text(t[0]), .integer(t[1])]
                rows.append(key + nulls + [.integer(t[3]), .text(t[4]), .integer(1)])
            }
            return rows
        }
    }

    /// Marks edited rows as on the server: those still at the clock they were sent with (an edit
    /// made meanwhile is still to be sent).
    public func markSent(_ rows: [[SyncValue]], of table: SyncTable) throws(StoreError) {
        let keyCount = table.keyColumns.count
        let hlcIndex = table.columns.count
        try write { db in
            let me = try Self.selfDevice(db)
            for row in rows {
                guard case .text(let device) = row[0], case .integer(let origin) = row[1], case .integer(let hlc) = row[hlcIndex] else { continue }
                let sub: String = if keyCount == 3, case .text(let s) = row[2] { s } else { "" }
                if row[hlcIndex + 2] == .integer(1) {
                    try db.execute(
                        sql: "UPDATE sync_tombstones SET pushed = 1 WHERE tbl = ? AND origin_device = ? AND origin_id = ? AND sub = ? AND hlc = ?",
                        arguments: [table.name, device, origin, sub, hlc])
                    continue
                }
                let local = try Self.localID(db, table: table.kind == .habitPart ? "habits" : table.name, device: device, origin: origin, me: me)
                guard let local else { continue }
                switch table.name {
                case "habit_days":
                    try db.execute(
                        sql: "UPDATE habit_days SET dirty = 0 WHERE habit_id = ? AND day = ? AND hlc = ?", arguments: [local, Int64(sub) ?? 0, hlc])
                case "habit_notes":
                    try db.execute(sql: "UPDATE habit_notes SET dirty = 0 WHERE habit_id = ? AND week = ? AND hlc = ?", arguments: [local, sub, hlc])
                default:
                    try db.execute(sql: "UPDATE \(table.name) SET dirty = 0 WHERE id = ? AND hlc = ?", arguments: [local, hlc])
                }
            }
        }
    }

    // MARK: Receiving

    /// The local id of a task or habit known by its global identity; nil when the log has none.
    /// `me`: this device's id (`selfDevice`).
    static func localID(_ db: Database, table: String, device: String, origin: Int64, me: String) throws -> Int64? {
        if device == me {
            return try Int64.fetchOne(db, sql: "SELECT id FROM \(table) WHERE id = ? AND origin_device IS NULL", arguments: [origin])
        }
        return try Int64.fetchOne(
            db, sql: "SELECT id FROM \(table) WHERE origin_device = ? AND origin_id = ?", arguments: [device, origin])
    }

    /// Runs `body` in one transaction with the triggers quiet: what sync writes is not a local edit.
    func applying<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try write { db in
            try db.execute(sql: "INSERT INTO sync_applying VALUES (1)")
            let result = try body(db)
            try db.execute(sql: "DELETE FROM sync_applying")
            return result
        }
    }

    static func setState(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
    }

    /// Merges rows of an edited table received from the server (`SyncTable.sentColumns` each), in
    /// one transaction with the watermark: a row replaces the log's when its clock is later
    /// (habit days: when marked by someone who outranks, the person over Vigil), a tombstone deletes.
    public func applyIncomingEdits(_ rows: [[SyncValue]], of table: SyncTable, stateKey: String, stateValue: String) throws(StoreError)
        -> AppliedCounts
    {
        try applying { db in
            var counts = AppliedCounts()
            let me = try Self.selfDevice(db)
            let keyCount = table.keyColumns.count
            let content = Array(table.columns.dropFirst(keyCount))
            let hlcIndex = table.columns.count
            var latestClock: Int64 = 0
            for row in rows {
                if let why = IncomingRows.problem(row, of: table) {
                    let sub: String? = if table.kind == .habitPart, row.count > 2, case .text(let s) = row[2] { String(s.prefix(40)) } else { nil }
                    let origin: Int64? = if case .integer(let id) = row[1] { id } else { nil }
                    counts.rejected.append(
                        RejectedRow(table: table.name, device: row.first.map(IncomingRows.describe) ?? "", id: origin, sub: sub, reason: why))
                    continue
                }
                guard case .text(let device) = row[0], case .integer(let origin) = row[1], case .integer(let hlc) = row[hlcIndex],
                    case .text(let hlcDevice) = row[hlcIndex + 1]
                else {
                    counts.skipped += 1
                    continue
                }
                let deleted = row[hlcIndex + 2] == .integer(1)
                let values = Array(row[keyCount..<hlcIndex])
                latestClock = max(latestClock, hlc)
                switch table.kind {
                case .edited:
                    let local = try Self.localID(db, table: table.name, device: device, origin: origin, me: me)
                    if let local {
                        let current = try Row.fetchOne(db, sql: "SELECT hlc, hlc_device FROM \(table.name) WHERE id = ?", arguments: [local])!
                        guard Self.isLater(hlc, hlcDevice, than: current[0], current[1] ?? me) else {
                            counts.skipped += 1
                            continue
                        }
                        if deleted {
                            try db.execute(sql: "DELETE FROM \(table.name) WHERE id = ?", arguments: [local])
                            counts.deleted += 1
                        } else {
                            let sets = content.map { "\($0.name) = ?" }.joined(separator: ", ")
                            try db.execute(
                                sql: "UPDATE \(table.name) SET \(sets), hlc = ?, hlc_device = ?, dirty = 0 WHERE id = ?",
                                arguments: StatementArguments(
                                    values.map(\.databaseValue) + [hlc.databaseValue, hlcDevice.databaseValue, local.databaseValue]))
                            counts.added += 1
                        }
                    } else {
                        // Not here: new, unless this log deleted it later than that change.
                        let tombstone = try Row.fetchOne(
                            db, sql: "SELECT hlc, hlc_device FROM sync_tombstones WHERE tbl = ? AND origin_device = ? AND origin_id = ? AND sub = ''",
                            arguments: [table.name, device, origin])
                        if deleted || (tombstone.map { !Self.isLater(hlc, hlcDevice, than: $0[0], $0[1]) } ?? false) {
                            counts.skipped += 1
                            continue
                        }
                        let names = content.map(\.name).joined(separator: ", ")
                        let marks = content.map { _ in "?" }.joined(separator: ", ")
                        let origins: [DatabaseValue] = device == me ? [.null, .null] : [device.databaseValue, origin.databaseValue]
                        try db.execute(
                            sql:
                                "INSERT INTO \(table.name) (origin_device, origin_id, \(names), hlc, hlc_device, dirty) VALUES (?, ?, \(marks), ?, ?, 0)",
                            arguments: StatementArguments(origins + values.map(\.databaseValue) + [hlc.databaseValue, hlcDevice.databaseValue]))
                        counts.added += 1
                    }
                case .habitPart:
                    guard case .text(let sub) = row[2], let habit = try Self.localID(db, table: "habits", device: device, origin: origin, me: me)
                    else {
                        counts.skipped += 1
                        continue
                    }
                    let isDays = table.name == "habit_days"
                    let keyColumn = isDays ? "day" : "week"
                    let keyValue: DatabaseValue = isDays ? (Int64(sub) ?? 0).databaseValue : sub.databaseValue
                    let current = try Row.fetchOne(
                        db, sql: "SELECT hlc, hlc_device\(isDays ? ", source" : "") FROM \(table.name) WHERE habit_id = ? AND \(keyColumn) = ?",
                        arguments: [habit, keyValue])
                    if let current {
                        let incomingRank = isDays && !deleted ? Self.markRank(values[1]) : Self.personRank
                        let currentRank = isDays ? Self.markRank(syncValue(current[2])) : Self.personRank
                        let later = Self.isLater(hlc, hlcDevice, than: current[0], current[1] ?? me)
                        guard incomingRank > currentRank || (incomingRank == currentRank && later) else {
                            counts.skipped += 1
                            continue
                        }
                    } else if deleted {
                        counts.skipped += 1
                        continue
                    }
                    try db.execute(sql: "DELETE FROM \(table.name) WHERE habit_id = ? AND \(keyColumn) = ?", arguments: [habit, keyValue])
                    if deleted {
                        counts.deleted += 1
                    } else {
                        let names = content.map(\.name).joined(separator: ", ")
                        let marks = content.map { _ in "?" }.joined(separator: ", ")
                        try db.execute(
                            sql:
                                "INSERT INTO \(table.name) (habit_id, \(keyColumn), \(names), hlc, hlc_device, dirty) VALUES (?, ?, \(marks), ?, ?, 0)",
                            arguments: StatementArguments(
                                [habit.databaseValue, keyValue] + values.map(\.databaseValue) + [hlc.databaseValue, hlcDevice.databaseValue]))
                        counts.added += 1
                    }
                case .session, .sessionEvent:
                    preconditionFailure("\(table.name) is not an edited table")
                }
            }
            // The clock moves past every change taken (checked to be in `IncomingRows.clock`).
            try db.execute(sql: "UPDATE sync_clock SET hlc = max(hlc, ?)", arguments: [latestClock])
            try Self.setState(db, stateKey, stateValue)
            return counts
        }
    }

    /// Whether clock (hlc, device) is later than (otherHLC, otherDevice): by time, then by device id.
    static func isLater(_ hlc: Int64, _ device: String, than otherHLC: Int64, _ otherDevice: String) -> Bool {
        hlc != otherHLC ? hlc > otherHLC : device > otherDevice
    }

    /// A habit day's mark by who made it: the person's own (or a delete, which only a person makes)
    /// outranks one from sessions reaching the goal, which outranks a day Vigil failed because it
    /// passed unmarked.
    static func markRank(_ source: SyncValue) -> Int {
        switch source {
        case .text("auto"): 0
        case .text("session"): 1
        default: personRank
        }
    }
    static let personRank = 2

    /// Advances this log's clock to at least `hlc`, so its next edit is later than anything seen;
    /// never past `IncomingRows.clock`, so that the next stamp cannot overflow.
    public func observeClock(_ hlc: Int64) throws(StoreError) {
        let taken = min(max(hlc, IncomingRows.clock.lowerBound), IncomingRows.clock.upperBound)
        try write { db in try db.execute(sql: "UPDATE sync_clock SET hlc = max(hlc, ?)", arguments: [taken]) }
    }

    /// Brings back into `IncomingRows.clock` a clock (and the stamps of rows) that an older Vigil let
    /// a row from the server push to the end of Int64, where the next stamp overflowed and every
    /// push was refused. A no-op on a sound log; run before each sync.
    public func repairClock() throws(StoreError) {
        let last = IncomingRows.clock.upperBound
        try write { db in
            try db.execute(sql: "UPDATE sync_clock SET hlc = ? WHERE hlc > ? OR typeof(hlc) <> 'integer'", arguments: [last, last])
            for table in SyncTable.editedTables.map(\.name) + ["sync_tombstones"] {
                try db.execute(sql: "UPDATE \(table) SET hlc = ? WHERE hlc > ? OR typeof(hlc) <> 'integer'", arguments: [last, last])
            }
        }
    }
}

/// A SQLite value as it travels.
func syncValue(_ value: DatabaseValue) -> SyncValue {
    switch value.storage {
    case .null: .null
    case .int64(let v): .integer(v)
    case .double(let v): .real(v)
    case .string(let v): .text(v)
    case .blob(let v): .text(String(decoding: v, as: UTF8.self))
    }
}

func syncValue(_ value: (any DatabaseValueConvertible)?) -> SyncValue { syncValue(value?.databaseValue ?? .null) }

extension SyncValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let v): v.databaseValue
        case .real(let v): v.databaseValue
        case .text(let v): v.databaseValue
        }
    }
}
