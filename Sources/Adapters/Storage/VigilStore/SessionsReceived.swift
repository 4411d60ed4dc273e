import Foundation
import GRDB
import VigilCore

/// Sessions received from the server, with their events, and the sessions deleted elsewhere.
public struct IncomingSessions: Sendable {
    public var sessions: [[SyncValue]] = []
    public var events: [String: [[SyncValue]]] = [:]
    /// Sessions deleted on some device: (origin device, origin id).
    public var deleted: [(device: String, id: Int64)] = []
    public init() {}
}

extension EventStore {
    /// Stores sessions received from the server with their events, and removes the sessions
    /// deleted elsewhere, in one transaction together with the new watermark `stateKey` =
    /// `stateValue`: the watermark never runs ahead of the rows. A session the log already has
    /// keeps its events, and takes the content received only when edited later than its own.
    public func applyIncoming(_ incoming: IncomingSessions, stateKey: String, stateValue: String) throws(StoreError) -> AppliedCounts {
        try applying { db in
            var counts = AppliedCounts()
            let me = try Self.selfDevice(db)
            // The sessions' columns after their identity, task link resolved to a local task.
            let sessionColumns = SyncTable.sessions.columns.map(\.name)
            let notContent = ["task_origin_device", "task_origin_id", SyncTable.labelsColumn]
            let contentColumns = sessionColumns.dropFirst(2).filter { !notContent.contains($0) }
            let labelsAt = sessionColumns.firstIndex(of: SyncTable.labelsColumn) ?? 0
            // The labels of the sessions taken, by local id: given once their episodes are in.
            var labelsOf: [(session: Int64, labels: [(number: Int64, label: String)])] = []
            func labels(_ row: [SyncValue]) -> [(number: Int64, label: String)] {
                guard case .text(let text) = row[labelsAt], case .success(let labels) = SessionLabels.parse(text) else { return [] }
                return labels
            }
            let insertSession = try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (origin_device, origin_id, pushed, task_id, \(contentColumns.joined(separator: ", ")))
                    VALUES (?, ?, 1, ?, \(contentColumns.map { _ in "?" }.joined(separator: ", ")))
                    ON CONFLICT (origin_device, origin_id) WHERE origin_device IS NOT NULL DO NOTHING
                    """)
            let updateSession = try db.cachedStatement(
                sql: """
                    UPDATE sessions SET task_id = ?, \(contentColumns.map { "\($0) = ?" }.joined(separator: ", "))
                    WHERE id = ? AND edited_hlc < ?
                    """)
            // Local session ids by (origin device, origin id), for their events.
            var localSessions: [String: Int64] = [:]
            // Each session's events, to be checked with it: a session is taken whole or not at all.
            var eventsOf: [String: [(SyncTable, [SyncValue])]] = [:]
            for table in SyncTable.sessionEvents {
                for row in incoming.events[table.name] ?? [] {
                    if case .text(let device) = row[0], row.count > 2, case .integer(let session) = row[2] {
                        eventsOf["\(device) \(session)", default: []].append((table, row))
                    }
                }
            }
            for row in incoming.sessions {
                guard row.count == sessionColumns.count, case .text(let device) = row[0], case .integer(let origin) = row[1] else {
                    counts.skipped += 1
                    continue
                }
                if let why = IncomingRows.problem(session: row, events: eventsOf["\(device) \(origin)"] ?? []) {
                    counts.rejected.append(RejectedRow(table: "sessions", device: device, id: origin, reason: why))
                    continue
                }
                var taskID: Int64? = nil
                if case .text(let taskDevice) = row[3], case .integer(let taskOrigin) = row[4] {
                    taskID = try Self.localID(db, table: "tasks", device: taskDevice, origin: taskOrigin, me: me)
                }
                var content: [DatabaseValue] = []
                for (i, name) in sessionColumns.enumerated().dropFirst(2) where !notContent.contains(name) {
                    // Sessions sent before the server had tags and edits: the log's defaults.
                    switch (row[i], name) {
                    case (.null, "tags"): content.append("".databaseValue)
                    case (.null, "edited_hlc"): content.append(0.databaseValue)
                    default: content.append(row[i].databaseValue)
                    }
                }
                // Edited somewhere: the later edit wins, and the clock moves past it.
                if case .integer(let edited) = row[sessionColumns.count - 1], edited > 0 {
                    try db.execute(sql: "UPDATE sync_clock SET hlc = max(hlc, ?)", arguments: [edited])
                    if let local = try Self.localID(db, table: "sessions", device: device, origin: origin, me: me) {
                        try updateSession.execute(
                            arguments: StatementArguments([taskID.databaseValue] + content + [local.databaseValue, edited.databaseValue]))
                        if db.changesCount == 1 {
                            counts.added += 1
                            labelsOf.append((local, labels(row)))
                        } else {
                            counts.skipped += 1
                        }
                        continue
                    }
                }
                guard device != me else {
                    counts.skipped += 1
                    continue
                }
                try insertSession.execute(
                    arguments: StatementArguments([device.databaseValue, origin.databaseValue, taskID.databaseValue] + content))
                if db.changesCount == 1 {
                    localSessions["\(device) \(origin)"] = db.lastInsertedRowID
                    labelsOf.append((db.lastInsertedRowID, labels(row)))
                    counts.added += 1
                } else {
                    counts.skipped += 1
                }
            }
            for table in SyncTable.sessionEvents {
                guard let rows = incoming.events[table.name], !rows.isEmpty else { continue }
                let content = table.columns.dropFirst(3)
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT INTO \(table.name) (session_id, \(content.map(\.name).joined(separator: ", ")))
                        VALUES (?, \(content.map { _ in "?" }.joined(separator: ", ")))
                        """)
                for row in rows {
                    guard case .text(let device) = row[0], case .integer(let session) = row[2],
                        let local = localSessions["\(device) \(session)"]
                    else { continue }
                    var arguments: [DatabaseValue] = [local.databaseValue]
                    for (offset, column) in content.enumerated() {
                        let value = row[3 + offset]
                        // A reason that stayed on its device: the log's column wants words.
                        if value == .null, column.name == "reason", table.name != "state_changes" {
                            arguments.append("".databaseValue)
                        } else {
                            arguments.append(value.databaseValue)
                        }
                    }
                    try insert.execute(arguments: StatementArguments(arguments))
                    counts.added += 1
                }
            }
            // The labels as the later edit has them, over the session's episodes (now all in).
            let unlabel = try db.cachedStatement(sql: "UPDATE episodes SET label = NULL WHERE session_id = ? AND label IS NOT NULL")
            let label = try db.cachedStatement(sql: "UPDATE episodes SET label = ? WHERE session_id = ? AND number = ?")
            for (session, labels) in labelsOf {
                try unlabel.execute(arguments: [session])
                for l in labels { try label.execute(arguments: [l.label, session, l.number]) }
            }
            for d in incoming.deleted {
                let local =
                    d.device == me
                    ? try Int64.fetchOne(db, sql: "SELECT id FROM sessions WHERE id = ? AND origin_device IS NULL", arguments: [d.id])
                    : try Int64.fetchOne(db, sql: "SELECT id FROM sessions WHERE origin_device = ? AND origin_id = ?", arguments: [d.device, d.id])
                guard let local else { continue }
                for table in CrashRecovery.eventTables {
                    try db.execute(sql: "DELETE FROM \(table) WHERE session_id = ?", arguments: [local])
                }
                try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [local])
                counts.deleted += db.changesCount
            }
            try Self.setState(db, stateKey, stateValue)
            return counts
        }
    }
}
