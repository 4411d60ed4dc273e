import GRDB
import VigilCore

/// The all-day watch's stretches (`day_stretches`, migration v14): written as each one ends, read
/// for reports, dropped after `daemon.watch_days`.
extension EventStore {
    /// The longest row: a longer stretch (a week asleep) is written as rows of a day at most, so
    /// that a period's stretches are found by their start within a day before it.
    static let longestRow: Int64 = 86_400_000

    /// Adds closed stretches (one transaction). One that reads as the last row and begins where it
    /// ended lengthens it instead (away, a moment back, away again: one stretch away), up to a day.
    public func recordStretches(_ stretches: [DayStretch]) throws(StoreError) {
        var pieces: [DayStretch] = []
        for s in stretches where s.end > s.start {
            var piece = s
            // A year at most: a longer stretch is a clock that jumped, not a day lived.
            piece.end = min(piece.end, Timestamp(milliseconds: piece.start.millisecondsSinceEpoch + 366 * Self.longestRow))
            while piece.end.millisecondsSinceEpoch - piece.start.millisecondsSinceEpoch > Self.longestRow {
                var head = piece
                head.end = Timestamp(milliseconds: piece.start.millisecondsSinceEpoch + Self.longestRow)
                pieces.append(head)
                piece.start = head.end
            }
            pieces.append(piece)
        }
        guard !pieces.isEmpty else { return }
        try write { db in
            // What `vigil forget` deleted after a stretch began is cut out of it.
            let forgotten = try Row.fetchAll(db, sql: "SELECT at_ms, from_ms, to_ms FROM forgotten_periods").map {
                (at: $0[0] as Int64, from: $0[1] as Int64, to: $0[2] as Int64)
            }
            if !forgotten.isEmpty {
                pieces = pieces.flatMap { s -> [DayStretch] in
                    var kept = [s]
                    for f in forgotten where f.at >= s.start.millisecondsSinceEpoch {
                        kept = kept.flatMap { k -> [DayStretch] in
                            let (a, b) = (k.start.millisecondsSinceEpoch, k.end.millisecondsSinceEpoch)
                            guard f.to > a, f.from < b else { return [k] }
                            var out: [DayStretch] = []
                            if f.from > a {
                                var left = k
                                left.end = Timestamp(milliseconds: f.from)
                                out.append(left)
                            }
                            if f.to < b {
                                var right = k
                                right.start = Timestamp(milliseconds: f.to)
                                out.append(right)
                            }
                            return out
                        }
                    }
                    return kept
                }
            }
            for s in pieces {
                try db.execute(
                    sql: """
                        UPDATE day_stretches SET end_ms = ?
                        WHERE rowid = (SELECT max(rowid) FROM day_stretches) AND end_ms = ? AND kind = ?
                            AND app_class IS ? AND category IS ? AND rule IS ? AND ? - start_ms <= \(Self.longestRow)
                        """,
                    arguments: [
                        max(s.end, s.start).millisecondBound, s.start.millisecondBound, s.kind.rawValue, s.appClass, s.category?.rawValue, s.rule,
                        max(s.end, s.start).millisecondBound,
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
            // A row is a day long at most (`recordStretches`): one that reaches in starts within a day before.
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT kind, app_class, category, rule, start_ms, end_ms FROM day_stretches
                    WHERE start_ms >= ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms
                    """, arguments: [lo - Self.longestRow, hi, lo])
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
