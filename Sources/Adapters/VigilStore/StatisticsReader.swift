import Foundation
import GRDB
import GRDBSQLite
import VigilCore
import VigilStats

/// The facts the statistics read (`StatisticsFacts`), straight from SQLite: the report's hot path.
struct StatisticsReader: Sendable {
    let reader: any DatabaseReader
    /// The file, for messages.
    let path: String

    /// What the statistics need about every session that started before `before` (Unix ms: the
    /// rows go straight into the statistics' columns), optionally of one task: judged spans
    /// (pauses, breaks and gaps taken out), episodes, alarms.
    ///
    /// This is the report's hot path (years of a heavy user are hundreds of thousands of rows), so
    /// rows are stepped with SQLite's own column functions rather than GRDB's `Row`, tables are
    /// scanned in rowid order and grouped by session with a counting sort, of the state changes
    /// only those into and out of pauses are read (a covering partial index), and sessions and
    /// their episodes and alarms are read at the same time on two connections; what the second
    /// sees beyond the first's snapshot is left out, so a session being written meanwhile cannot
    /// tear the figures.
    func facts(before: Int64, task: String? = nil, sources: Set<SessionSource>) throws(StoreError) -> StatisticsFacts {
        let results = Results()
        do {
            if let pool = reader as? DatabasePool {
                // The children's reader starts once the sessions' reader holds its snapshot, so it
                // sees the same log or a later one; rows written after the sessions' snapshot are
                // then recognised by their times and left out (`assemble`).
                let sessionsReading = DispatchSemaphore(value: 0)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    do {
                        if i == 0 {
                            let rows = try pool.read {
                                try Self.readSessions(
                                    $0, before: before, task: task, sources: sources, snapshotTaken: { sessionsReading.signal() })
                            }
                            results.withLock { $0.sessions = rows }
                        } else {
                            sessionsReading.wait()
                            let rows = try pool.read { try Self.readChildren($0) }
                            results.withLock { $0.children = rows }
                        }
                    } catch {
                        results.withLock { $0.error = error }
                    }
                }
            } else {
                let rows = try reader.read {
                    ($0, try Self.readSessions($0, before: before, task: task, sources: sources, snapshotTaken: {}), try Self.readChildren($0))
                }
                results.withLock {
                    $0.sessions = rows.1
                    $0.children = rows.2
                }
            }
            if let error = results.withLock({ $0.error }) { throw error }
        } catch {
            throw StoreError(path: path, message: "cannot read the event log: \(reasonText(error))")
        }
        let (sessionRows, childRows) = results.withLock { ($0.sessions, $0.children) }
        return Self.assemble(sessionRows, childRows)
    }

    private struct SessionRows {
        var facts = StatisticsFacts()
        var sessions: [SessionFacts] = []
        /// Each session's last logged event, as the snapshot saw it: rows of the other reader
        /// after it were written later.
        var lastEvents: [Int64] = []
        /// Pauses, breaks and gaps by session id.
        var holes: [(Int64, Span)] = []
    }

    private struct ChildRows {
        var episodes: [(Int64, EpisodeFacts)] = []
        var alarms: [(Int64, AlarmFacts)] = []
    }

    /// What the two readers hand back.
    private final class Results: @unchecked Sendable {
        struct Values {
            var sessions = SessionRows()
            var children = ChildRows()
            var error: (any Error)?
        }
        private let lock = NSLock()
        private var values = Values()
        func withLock<T>(_ body: (inout Values) -> T) -> T { lock.withLock { body(&values) } }
    }

    /// `snapshotTaken` is called once the read transaction has its snapshot of the log.
    private static func readSessions(
        _ db: Database, before: Int64, task: String?, sources: Set<SessionSource>, snapshotTaken: () -> Void
    ) throws -> SessionRows {
        var out = SessionRows()
        // Any read fixes the snapshot; this one is tiny.
        _ = try Int64.fetchOne(db, sql: "SELECT max(id) FROM sessions")
        snapshotTaken()
        let sql =
            "SELECT id, task, started_ms, coalesce(ended_ms, last_event_ms), outcome, last_event_ms FROM sessions WHERE started_ms < ?"
            + " AND source IN (\(SessionSource.sqlList(sources)))" + (task == nil ? "" : " AND task = ?") + " ORDER BY id"
        try stepRows(db, sql, task == nil ? [before] : [before, task]) { p in
            let start = instant(p, 2)
            out.sessions.append(
                SessionFacts(
                    id: sqlite3_column_int64(p, 0), task: out.facts.internTask(text(p, 1)), start: start,
                    end: max(start, instant(p, 3)), outcome: .init(text(p, 4))))
            out.lastEvents.append(instant(p, 5))
        }
        // Pauses and breaks from the state changes into and out of them (in session, then time order).
        var pausedSince: (session: Int64, at: Int64)?
        var ends: [Int64: Int64] = [:]
        func end(of session: Int64) -> Int64 {
            if ends.isEmpty { for s in out.sessions { ends[s.id] = s.end } }
            return ends[session] ?? .max
        }
        try stepRows(
            db,
            """
            SELECT session_id, at_ms, from_state IN ('pause', 'break'), to_state IN ('pause', 'break')
            FROM state_changes INDEXED BY state_changes_pauses
            WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break') ORDER BY session_id, at_ms
            """
        ) { p in
            let session = sqlite3_column_int64(p, 0)
            if let open = pausedSince, open.session != session {  // never resumed: paused to its end
                out.holes.append((open.session, Span(open.at, end(of: open.session))))
                pausedSince = nil
            }
            let at = instant(p, 1)
            let pausedBefore = sqlite3_column_int(p, 2) != 0
            let pausedAfter = sqlite3_column_int(p, 3) != 0
            if pausedAfter, !pausedBefore, pausedSince == nil { pausedSince = (session, at) }
            if !pausedAfter, let open = pausedSince {
                out.holes.append((session, Span(open.at, at)))
                pausedSince = nil
            }
        }
        if let open = pausedSince { out.holes.append((open.session, Span(open.at, end(of: open.session)))) }
        try stepRows(db, "SELECT session_id, from_ms, to_ms FROM gaps") { p in
            out.holes.append((sqlite3_column_int64(p, 0), Span(instant(p, 1), instant(p, 2))))
        }
        return out
    }

    private static func readChildren(_ db: Database) throws -> ChildRows {
        var out = ChildRows()
        try stepRows(db, "SELECT session_id, number, started_ms, ended_ms, cause FROM episodes") { p in
            guard let cause = storedCause(text(p, 4)) else { return }
            let start = instant(p, 2)
            // An episode never closed ends with its session (Int64.max until assembled).
            let end = sqlite3_column_type(p, 3) == SQLITE_NULL ? Int64.max : max(start, instant(p, 3))
            out.episodes.append(
                (sqlite3_column_int64(p, 0), EpisodeFacts(number: Int(sqlite3_column_int64(p, 1)), span: Span(start, end), cause: cause)))
        }
        try stepRows(db, "SELECT session_id, episode_number, at_ms, repeat, cleared_ms FROM alarms") { p in
            out.alarms.append(
                (
                    sqlite3_column_int64(p, 0),
                    AlarmFacts(
                        episode: Int(sqlite3_column_int64(p, 1)), at: instant(p, 2), repeatCount: Int(sqlite3_column_int64(p, 3)),
                        cleared: sqlite3_column_type(p, 4) == SQLITE_NULL ? nil : instant(p, 4))
                ))
        }
        return out
    }

    /// Puts the rows in the statistics' layout: sessions in start order, each one's judged spans,
    /// episodes and alarms in consecutive ranges.
    private static func assemble(_ rows: SessionRows, _ children: ChildRows) -> StatisticsFacts {
        var sessions = rows.sessions
        // What the sessions' snapshot had seen of each session (ids ascending, as read).
        let lastEventById = rows.lastEvents
        // Statistics want start order; ids are nearly always in it already.
        if !sessions.isSorted(by: { ($0.start, $0.id) <= ($1.start, $1.id) }) { sessions.sort { ($0.start, $0.id) < ($1.start, $1.id) } }
        // Session id -> position, as a flat table: ids are dense.
        let firstId = sessions.map(\.id).min() ?? 0
        var position = [Int32](repeating: -1, count: sessions.isEmpty ? 0 : Int((sessions.map(\.id).max() ?? 0) - firstId + 1))
        for (i, s) in sessions.enumerated() { position[Int(s.id - firstId)] = Int32(i) }
        func index(_ id: Int64) -> Int32? {
            let k = id - firstId
            guard k >= 0, k < position.count, position[Int(k)] >= 0 else { return nil }
            return position[Int(k)]
        }
        // The last event the sessions' snapshot saw, by session position.
        var seenUntil = [Int64](repeating: .max, count: sessions.count)
        for (k, s) in rows.sessions.enumerated() { if let i = index(s.id) { seenUntil[Int(i)] = lastEventById[k] } }
        // Rows written after that snapshot: episodes and alarms that began later are left out, and
        // an end or a clearing that came later is not known yet.
        let episodes = children.episodes.compactMap { (id, e) -> (Int64, EpisodeFacts)? in
            guard let i = index(id) else { return nil }
            let seen = seenUntil[Int(i)]
            guard e.span.start <= seen else { return nil }
            var e = e
            if e.span.end > seen { e.span.end = .max }
            return (id, e)
        }
        let alarms = children.alarms.compactMap { (id, a) -> (Int64, AlarmFacts)? in
            guard let i = index(id) else { return nil }
            let seen = seenUntil[Int(i)]
            guard a.at <= seen else { return nil }
            return a.clearedAt > seen ? (id, AlarmFacts(episode: Int(a.episode), at: a.at, repeatCount: Int(a.repeatCount), cleared: nil)) : (id, a)
        }
        let (holeList, holeRanges) = groupBySession(rows.holes, sessions: sessions.count, index)
        var (episodeList, episodeRanges) = groupBySession(episodes, sessions: sessions.count, index)
        var (alarmList, alarmRanges) = groupBySession(alarms, sessions: sessions.count, index)

        var active: [Span] = []
        active.reserveCapacity(sessions.count + holeList.count)
        for i in sessions.indices {
            let whole = Span(sessions[i].start, sessions[i].end)
            let first = Int32(active.count)
            let r = holeRanges[i]
            if r.isEmpty {
                active.append(whole)
            } else {
                subtract(union(Array(holeList[Int(r.lowerBound)..<Int(r.upperBound)])), from: CollectionOfOne(whole), into: &active)
            }
            sessions[i].active = first..<Int32(active.count)
            sessions[i].episodes = episodeRanges[i]
            sessions[i].alarms = alarmRanges[i]
            let e = Int(episodeRanges[i].lowerBound)..<Int(episodeRanges[i].upperBound)
            for k in e where episodeList[k].span.end == .max { episodeList[k].span.end = max(episodeList[k].span.start, whole.end) }
            // Rowid order is the order they were logged in; sort only what is not in order.
            if !episodeList[e].isSorted(by: { $0.span.start <= $1.span.start }) { episodeList[e].sort { $0.span.start < $1.span.start } }
            let a = Int(alarmRanges[i].lowerBound)..<Int(alarmRanges[i].upperBound)
            if !alarmList[a].isSorted(by: { $0.at <= $1.at }) { alarmList[a].sort { $0.at < $1.at } }
        }
        return StatisticsFacts(sessions: sessions, tasks: rows.facts.tasks, active: active, episodes: episodeList, alarms: alarmList)
    }
}

/// An episode's cause as stored, or nil for a cause this version does not know (its episode is
/// left out of the figures). The one place the statistics read a cause from its text.
private func storedCause(_ text: String?) -> Cause? {
    text.flatMap(Cause.init(rawValue:))
}

/// Steps a statement's rows with SQLite's column functions.
private func stepRows(_ db: Database, _ sql: String, _ arguments: StatementArguments = [], _ body: (OpaquePointer) throws -> Void) throws {
    let statement = try db.makeStatement(sql: sql)
    try statement.setArguments(arguments)
    let p = statement.sqliteStatement
    defer { sqlite3_reset(p) }
    while true {
        let rc = sqlite3_step(p)
        if rc == SQLITE_DONE { return }
        guard rc == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        try body(p)
    }
}

/// A `*_ms` column as the nearest supported instant (see TimeColumns.swift: an older Vigil may
/// have written one outside).
@inline(__always) private func instant(_ p: OpaquePointer, _ column: Int32) -> Int64 {
    SupportedDates.nearest(milliseconds: sqlite3_column_int64(p, column))
}

private func text(_ p: OpaquePointer, _ column: Int32) -> String? {
    guard let c = sqlite3_column_text(p, column) else { return nil }
    return String(cString: c)
}

/// Groups (session id, item) pairs by the session's position (`index`; pairs of sessions not
/// wanted are dropped), keeping each session's items in the order given: a counting sort, one
/// pass to count and one to place.
private func groupBySession<T>(_ items: [(Int64, T)], sessions: Int, _ index: (Int64) -> Int32?) -> ([T], [Range<Int32>]) {
    var counts = [Int32](repeating: 0, count: sessions + 1)
    var positions = [Int32](repeating: -1, count: items.count)
    for (k, (id, _)) in items.enumerated() {
        if let i = index(id) {
            positions[k] = i
            counts[Int(i) + 1] += 1
        }
    }
    for i in 0..<sessions { counts[i + 1] += counts[i] }
    let ranges = (0..<sessions).map { counts[$0]..<counts[$0 + 1] }
    guard let any = items.first?.1 else { return ([], ranges) }
    var out = [T](repeating: any, count: Int(counts[sessions]))
    var next = counts
    for (k, (_, item)) in items.enumerated() where positions[k] >= 0 {
        let i = Int(positions[k])
        out[Int(next[i])] = item
        next[i] += 1
    }
    return (out, ranges)
}

extension Collection {
    fileprivate func isSorted(by ordered: (Element, Element) -> Bool) -> Bool {
        var previous: Element?
        for e in self {
            if let p = previous, !ordered(p, e) { return false }
            previous = e
        }
        return true
    }
}
