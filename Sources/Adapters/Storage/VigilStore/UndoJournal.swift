import Foundation
import GRDB

/// The last change a command made to tasks, habits (their days and notes) and sessions (an import
/// of them too, with what it remembered in `imports`), kept so
/// that `vigil undo` can put it back (migration v8's `undo_journal`). Each journaled write records,
/// in its own transaction and before it changes anything, the rows it may change as they were (a
/// JSON image made by SQLite itself, so that every value keeps its type); a row it adds has an empty
/// image. One level: a new change replaces the journal, and `undo` empties it.
///
/// Undoing deletes the rows the change made (those its parts select now that are not in the image)
/// and writes the image back over the rest, in one transaction, parents first. The log's triggers
/// stamp what it writes like any edit, so the undo travels with the next sync.
enum UndoJournal {
    /// A set of rows a change touches: `table` rows where each column has its value (or, for a
    /// range, lies within it).
    struct Part {
        let table: String
        let condition: [(column: String, value: Int64)]
        /// The comparison of each column with its value: `=`, `>=` or `<=`.
        private var comparisons: [String]
        init(table: String, column: String, value: Int64) {
            self.table = table
            condition = [(column, value)]
            comparisons = ["="]
        }
        init(table: String, _ condition: [(column: String, value: Int64)]) {
            self.table = table
            self.condition = condition
            comparisons = condition.map { _ in "=" }
        }
        /// The rows of `table` whose `column` is from `first` to `last`: the rows an import added
        /// in its one transaction, whose ids follow each other.
        static func range(_ table: String, _ column: String, from first: Int64, to last: Int64) -> Part {
            var part = Part(table: table, [(column, first), (column, last)])
            part.comparisons = [">=", "<="]
            return part
        }
        /// Vigil's own words, never input.
        var sql: String { zip(condition, comparisons).map { "\($0.column) \($1) ?" }.joined(separator: " AND ") }
        var values: String { "[" + condition.map { String($0.value) }.joined(separator: ",") + "]" }
    }

    /// Each table's key, for writing a row back over the one it was; a table without one
    /// (`activities`, a session's children only) has its rows replaced.
    private static let keys: [String: [String]] = [
        "habit_days": ["habit_id", "day"], "habit_notes": ["habit_id", "week"], "activities": [], "imports": ["source", "external_id"],
    ]

    private static func columns(_ db: Database, _ table: String) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] }
    }

    /// The tables sync writes that a change may touch, with their keys as `undo_overtaken` holds
    /// them (a one-column key with 0 as its second part) and the column a pulled change moves.
    private static let synced: [(table: String, key: (String, String), clock: String)] = [
        ("tasks", ("id", "0"), "hlc"), ("habits", ("id", "0"), "hlc"), ("habit_days", ("habit_id", "day"), "hlc"),
        ("habit_notes", ("habit_id", "week"), "hlc"), ("sessions", ("id", "0"), "edited_hlc"),
    ]

    /// Migration v12: `undo_overtaken` lists the rows sync changed since the journal began (a
    /// change another device made: a pulled edit, insert or delete), so that `undo` never writes
    /// its image over a change it did not make. Sync's own bookkeeping (a row marked sent) leaves
    /// a row's clock as it is and is not listed.
    static var overtakenMigration: String {
        var sql = "CREATE TABLE undo_overtaken (tbl TEXT NOT NULL, k1, k2);\n"
        let when = "EXISTS (SELECT 1 FROM sync_applying) AND EXISTS (SELECT 1 FROM undo_journal)"
        for t in synced {
            for (event, row, extra) in [
                ("INSERT", "NEW", ""), ("DELETE", "OLD", ""), ("UPDATE", "OLD", " AND NEW.\(t.clock) IS NOT OLD.\(t.clock)"),
            ] {
                let k2 = t.key.1 == "0" ? "0" : "\(row).\(t.key.1)"
                sql += """
                    CREATE TRIGGER undo_overtaken_\(t.table)_\(event.lowercased()) AFTER \(event) ON \(t.table) WHEN \(when)\(extra)
                    BEGIN INSERT INTO undo_overtaken VALUES ('\(t.table)', \(row).\(t.key.0), \(k2)); END;

                    """
            }
        }
        return sql
    }

    /// The first row of the journaled change that sync changed since, as the person knows it
    /// ("task #3"); nil when none was.
    private static func overtaken(_ db: Database, _ parts: some Sequence<Row>) throws -> String? {
        for e in parts {
            let table: String = e["tbl"]
            guard let t = synced.first(where: { $0.table == table }) else { continue }
            let (k1, k2) = t.key
            let image = "SELECT json_extract(value, '$.\(k1)'), \(k2 == "0" ? "0" : "json_extract(value, '$.\(k2)')") FROM json_each(?)"
            let now = "SELECT \(k1), \(k2) FROM \(table) WHERE \(e["cond"] as String)"
            let values = (e["args"] as String).dropFirst().dropLast().split(separator: ",").compactMap { Int64($0) }
            if let row = try Row.fetchOne(
                db, sql: "SELECT k1, k2 FROM undo_overtaken WHERE tbl = ? AND ((k1, k2) IN (\(image)) OR (k1, k2) IN (\(now))) LIMIT 1",
                arguments: StatementArguments([table.databaseValue, (e["image"] as String).databaseValue] + values.map(\.databaseValue)))
            {
                let id: Int64 = row["k1"]
                switch table {
                case "habit_days", "habit_notes": return "a day or note of habit #\(id)"
                case "tasks": return "task #\(id)"
                case "habits": return "habit #\(id)"
                default: return "session #\(id)"
                }
            }
        }
        return nil
    }

    /// Starts the journal of a change (`label`, said by `vigil undo`), replacing the last one.
    static func begin(_ db: Database, _ label: String) throws {
        try db.execute(sql: "DELETE FROM undo_journal")
        try db.execute(sql: "DELETE FROM undo_overtaken")
        try db.execute(sql: "INSERT INTO undo_journal (label, tbl, cond, args, image) VALUES (?, '', '', '[]', '[]')", arguments: [label])
    }

    /// Records the rows of `parts` as they are now, to the change `begin` started. A part whose
    /// rows the change adds is recorded empty (`before: false`).
    static func record(_ db: Database, _ parts: [Part], before: Bool = true) throws {
        for p in parts {
            let object = try columns(db, p.table).map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
            let image = before ? "(SELECT json_group_array(json_object(\(object))) FROM \(p.table) WHERE \(p.sql))" : "'[]'"
            try db.execute(
                sql: """
                    INSERT INTO undo_journal (label, tbl, cond, args, image)
                    VALUES ((SELECT label FROM undo_journal ORDER BY seq LIMIT 1), ?, ?, ?, \(image))
                    """,
                arguments: StatementArguments(
                    [p.table.databaseValue, p.sql.databaseValue, p.values.databaseValue] + (before ? p.condition.map(\.value.databaseValue) : [])))
        }
    }

    /// Starts a change's journal and records `parts` as they are before it.
    static func journal(_ db: Database, _ label: String, _ parts: [Part]) throws {
        try begin(db, label)
        try record(db, parts)
    }

    /// Puts the journaled change back and empties the journal; its label, or nil when there is none.
    static func undo(_ db: Database) throws -> String? {
        let entries = try Row.fetchAll(db, sql: "SELECT label, tbl, cond, args, image FROM undo_journal ORDER BY seq")
        func arguments(_ e: Row, _ more: [String] = []) -> StatementArguments {
            let values = (e["args"] as String).dropFirst().dropLast().split(separator: ",").compactMap { Int64($0) }
            return StatementArguments(values.map(\.databaseValue) + more.map(\.databaseValue))
        }
        guard let label: String = entries.first?["label"] else { return nil }
        let parts = entries.dropFirst()
        // Another device's later change is not the person's to lose by undoing their own.
        if let changed = try overtaken(db, parts) {
            throw Overtaken(label: label, row: changed)
        }
        // Rows the change added: children first.
        for e in parts.reversed() {
            let table: String = e["tbl"]
            let key = keys[table] ?? ["id"]
            let condition: String = e["cond"]
            guard !key.isEmpty else {
                try db.execute(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: arguments(e))
                continue
            }
            let extract = key.map { "json_extract(value, '$.\($0)')" }.joined(separator: ", ")
            try db.execute(
                sql: "DELETE FROM \(table) WHERE \(condition) AND (\(key.joined(separator: ", "))) NOT IN (SELECT \(extract) FROM json_each(?))",
                arguments: arguments(e, [e["image"]]))
        }
        // Rows as they were: parents first.
        for e in parts {
            let table: String = e["tbl"]
            let names = try columns(db, table).map { "\"\($0)\"" }
            let key = keys[table] ?? ["id"]
            let sets = names.filter { !key.map { "\"\($0)\"" }.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            try db.execute(
                sql: """
                    INSERT INTO \(table) (\(names.joined(separator: ", ")))
                    SELECT \(names.map { "json_extract(value, '$.' || '\($0.dropFirst().dropLast())')" }.joined(separator: ", ")) FROM json_each(?) WHERE true
                    \(key.isEmpty ? "" : "ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(sets)")
                    """, arguments: [e["image"] as String])
        }
        // A session deleted and not yet sent: its delete is not to be sent either.
        for e in parts where e["tbl"] == "sessions" {
            try db.execute(
                sql: """
                    DELETE FROM sync_tombstones WHERE tbl = 'sessions' AND pushed = 0 AND (origin_device, origin_id) IN (
                        SELECT coalesce(json_extract(value, '$.origin_device'), (SELECT id FROM devices WHERE is_self = 1)),
                            coalesce(json_extract(value, '$.origin_id'), json_extract(value, '$.id'))
                        FROM json_each(?))
                    """, arguments: [e["image"] as String])
        }
        try db.execute(sql: "DELETE FROM undo_journal")
        try db.execute(sql: "DELETE FROM undo_overtaken")
        return label
    }

    /// The change cannot be undone: sync brought another device's change to one of its rows.
    struct Overtaken: Error {
        let label: String
        let row: String
    }
}

extension EventStore {
    /// Undoes the last change a command made to tasks, habits or sessions (`vigil undo`); what it
    /// was, or nil when there is nothing to undo.
    /// A change another device made since to one of its rows (brought by `vigil sync`) is never
    /// overwritten: the undo is refused, and the journal kept.
    public func undoLastChange() throws(StoreError) -> String? {
        var overtaken: UndoJournal.Overtaken?
        let label = try write { db -> String? in
            do {
                return try UndoJournal.undo(db)
            } catch let refused as UndoJournal.Overtaken {
                overtaken = refused  // refused before writing anything
                return nil
            }
        }
        if let overtaken {
            throw StoreError(
                path: path,
                message:
                    "cannot undo \(overtaken.label): \(overtaken.row) was changed on another device since (the last `vigil sync` brought that change), and undoing would overwrite it. Nothing was changed; change it by hand if you still want to.",
                kind: .contents)
        }
        return label
    }

    /// What `undoLastChange` would undo.
    public func lastChange() throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT label FROM undo_journal ORDER BY seq LIMIT 1") }
    }
}
