import GRDB
import VigilCore

/// The rows whose identity other programs keep: a session or a task exported to a calendar is
/// named the same on every export and from every device (its origin device and its id there, as
/// sync names it), so that a calendar reading the file again updates it instead of adding it twice.
public enum IdentifiedTable: String, Sendable {
    case sessions, tasks
}

extension EventStore {
    /// "DEVICE-ID" of every row of `table`, by its id here.
    public func globalIdentities(_ table: IdentifiedTable) throws(StoreError) -> [Int64: String] {
        try read { db in
            var out: [Int64: String] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, coalesce(origin_device, (SELECT id FROM devices WHERE is_self = 1)), coalesce(origin_id, id)
                    FROM \(table.rawValue)
                    """)
            while let r = try rows.next() {
                let device: String = r[1] ?? "local"
                let origin: Int64 = r[2]
                out[r[0]] = "\(device)-\(origin)"
            }
            return out
        }
    }
}
