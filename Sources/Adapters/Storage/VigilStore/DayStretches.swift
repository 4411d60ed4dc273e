import GRDB
import VigilCore

/// The all-day watch's stretches (`day_stretches`, migration v14): written as each one ends, read
/// for reports, dropped after `daemon.watch_days`.
extension EventStore {
    /// Adds closed stretches (one transaction). One that reads as the last row and begins where it
    /// ended lengthens it instead (away, a moment back, away again: one stretch away).
    public func recordStretches(_ stretches: [DayStretch]) throws(StoreError) {
        guard !stretches.isEmpty else { return }
        try write { db in
            for s in stretches {
                try db.execute(
                    sql: """
                        UPDATE day_stretches SET end_ms = ?
                        WHERE rowid = (SELECT max(rowid) FROM day_stretches) AND end_ms = ? AND kind = ?
                            AND app_class IS ? AND category IS ? AND rule IS ?
                        """,
                    arguments: [
                        max(s.end, s.start).millisecondBound, s.start.millisecondBound, s.kind.rawValue, s.appClass, s.category?.rawValue, s.rule,
                    ])
                if db.changesCount > 0 { continue }
                try db.execute(
                    sql: "INSERT INTO day_stretches (kind, app_class, category, rule, start_ms, end_ms) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        s.kind.rawValue, s.appClass, s.category?.rawValue, s.rule, s.start.millisecondBound, max(s.end, s.start).millisecondBound,
                    ])
            }
        }
    }

    /// The stretches that overlap [from, to), oldest first, cut to the period.
    public func dayStretches(from: Timestamp, to: Timestamp) throws(StoreError) -> [DayStretch] {
        let (lo, hi) = (from.millisecondBound, to.millisecondBound)
        return try read { db in
            var out: [DayStretch] = []
            // A stretch is shorter than a day but for sleep; a week back covers any that reach in.
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT kind, app_class, category, rule, start_ms, end_ms FROM day_stretches
                    WHERE start_ms >= ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms
                    """, arguments: [lo - 7 * 86_400_000, hi, lo])
            while let r = try rows.next() {
                guard let kind = DayStretch.Kind(rawValue: r[0]) else { continue }
                let start = max(storedTime(r[4]), from)
                let end = min(storedTime(r[5]), to)
                guard end > start else { continue }
                out.append(
                    DayStretch(
                        kind: kind, appClass: r[1], category: (r[2] as String?).flatMap(AppCategory.init(rawValue:)), rule: r[3], start: start,
                        end: end))
            }
            return out
        }
    }

    /// Drops the stretches that ended before `before`; returns how many.
    @discardableResult
    public func pruneStretches(endedBefore before: Timestamp) throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM day_stretches WHERE end_ms < ?", arguments: [before.millisecondBound])
            return db.changesCount
        }
    }
}
