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
    func facts(before: Int64, task: String? = nil, device: String? = nil, sources: Set<SessionSource>) throws(StoreError) -> StatisticsFacts {
        try reportFacts(before: before, task: task, device: device, sources: sources, countingSourcesFrom: .max).facts
    }

    /// `facts`, and how many sessions of each source (counted or not, of any task) started within
    /// [`countingSourcesFrom`, `before`): what `LogQueries.sessionsBySource` counts, here from the
    /// same scan of the sessions and the same snapshot instead of a second pass over them.
    /// `activitiesFrom`: the sessions' stretches in applications and on calls that reach into
    /// [`activitiesFrom`, `before`) are read too (a report's period: the others would only be
    /// skipped); nil reads none.
    func reportFacts(
        before: Int64, task: String?, tag: String? = nil, device: String? = nil, sources: Set<SessionSource>, countingSourcesFrom: Int64,
        activitiesFrom: Int64? = nil
    ) throws(StoreError) -> (facts: StatisticsFacts, sessionsBySource: [SessionSource: Int]) {
        let activities = activitiesFrom.map { $0..<before }
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
                            let rows = try pool.read { db in
                                try Self.withSmallCache(db) {
                                    try Self.readSessions(
                                        db, before: before, task: task, tag: tag, device: device, sources: sources,
                                        countingSourcesFrom: countingSourcesFrom,
                                        snapshotTaken: { sessionsReading.signal() })
                                }
                            }
                            results.withLock { $0.sessions = rows }
                        } else {
                            sessionsReading.wait()
                            let rows = try pool.read { db in try Self.withSmallCache(db) { try Self.readChildren(db, activities: activities) } }
                            results.withLock { $0.children = rows }
                        }
                    } catch {
                        results.withLock { $0.error = error }
                    }
                }
            } else {
                let rows = try reader.read {
                    (
                        $0,
                        try Self.readSessions(
                            $0, before: before, task: task, tag: tag, device: device, sources: sources, countingSourcesFrom: countingSourcesFrom,
                            snapshotTaken: {}),
                        try Self.readChildren($0, activities: activities)
                    )
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
        // Taken out of `results`, so that `assemble` owns the only reference to each array and
        // fills them in place instead of copying them.
        var (sessionRows, childRows) = results.withLock { values in
            defer { values = .init() }
            return (values.sessions, values.children)
        }
        var bySource: [SessionSource: Int] = [:]
        for (i, source) in SessionSource.allCases.enumerated() where sessionRows.bySource[i] > 0 { bySource[source] = sessionRows.bySource[i] }
        return (Self.assemble(&sessionRows, &childRows), bySource)
    }

    /// The sessions' rows, as read: in id order, each session's pauses, breaks and gaps (by
    /// session id, in parallel arrays).
    private struct SessionRows {
        var tasks = NameTable()
        /// Device names, as the sessions refer to them (`SessionFacts.device`).
        var devices: [String] = []
        var sessions: [SessionFacts] = []
        /// Each session's last logged event, as the snapshot saw it: rows of the other reader
        /// after it were written later.
        var lastEvents: [Int64] = []
        /// Pauses, breaks and gaps, and the session of each.
        var holes: [Span] = []
        var holeSessions: [Int64] = []
        /// Sessions counted by source, in the order of `SessionSource.allCases`.
        var bySource = [Int](repeating: 0, count: SessionSource.allCases.count)
        /// The selected sessions nobody judged (imported, added): their start and end.
        var tracked: [Span] = []
    }

    /// Episodes, alarms and activities in rowid order, and the session of each (parallel arrays:
    /// grouped by session in place when they are in session order already, as they nearly always
    /// are).
    private struct ChildRows {
        var episodes: [EpisodeFacts] = []
        var episodeSessions: [Int64] = []
        /// Episodes the person labelled as no distraction (`StatisticsFacts.relabelled`).
        var relabelled: [EpisodeFacts] = []
        var relabelledSessions: [Int64] = []
        var alarms: [AlarmFacts] = []
        var alarmSessions: [Int64] = []
        var activities: [ActivityFacts] = []
        var activitySessions: [Int64] = []
        var applications = ApplicationTable()
    }

    /// An alarm by its session, episode and instant (Unix ms, as stored).
    private struct AlarmKey: Hashable {
        var session: Int64
        var episode: Int64
        var at: Int64
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
        _ db: Database, before: Int64, task: String?, tag: String?, device: String?, sources: Set<SessionSource>, countingSourcesFrom: Int64,
        snapshotTaken: () -> Void
    ) throws -> SessionRows {
        var out = SessionRows()
        // Any read fixes the snapshot; this one is tiny, and gives room for the rows to come (ids
        // are dense), so that the arrays are not copied as they grow.
        let capacity = Self.capacity(for: try Int64.fetchOne(db, sql: "SELECT (SELECT max(id) FROM sessions) - (SELECT min(id) FROM sessions) + 1"))
        snapshotTaken()
        out.sessions.reserveCapacity(capacity)
        out.lastEvents.reserveCapacity(capacity)
        // NOT INDEXED: the table in rowid order, the order wanted. By the index on (source,
        // started_ms) SQLite would look up every session's row by its id and sort them all again
        // (26 ms against 9 ms for 51,000 sessions), and a report reads nearly every session.
        // Every source and task is read, to count the sessions by source; the others are left out
        // here, by their bytes.
        let sql =
            "SELECT id, task, started_ms, coalesce(ended_ms, last_event_ms), outcome, last_event_ms, source, origin_device, \(intentColumn) FROM sessions NOT INDEXED WHERE started_ms < ?"
        // An imported or added session was judged by nobody: tracked time, never in the judged
        // figures, whatever the selection.
        let wanted = SessionSource.allCases.map { sources.contains($0) && $0.isJudged }
        let tracked = SessionSource.allCases.map { sources.contains($0) && !$0.isJudged }
        let taskBytes = task.map { Array($0.utf8) }
        // Sessions with the tag or on a task with it, from the same snapshot.
        let tagged = try tag.map { Set(try Int64.fetchAll(db, sql: EventStore.taggedSessionsSQL, arguments: [$0, $0])) }
        // The devices by id: this one (its sessions have no origin) first. Two devices of the same
        // name are told apart by the start of their ids.
        let known = try Row.fetchAll(db, sql: "SELECT id, name, is_self FROM devices ORDER BY is_self DESC, name, id")
        let duplicated = Set(Dictionary(grouping: known.map { $0[1] as String }, by: { $0 }).filter { $0.value.count > 1 }.keys)
        var deviceIndex: [String: Int32] = [:]
        for row in known {
            let id: String = row[0]
            let name: String = row[1]
            deviceIndex[id] = Int32(out.devices.count)
            out.devices.append(duplicated.contains(name) ? "\(name) (\(id.prefix(8)))" : name)
        }
        let thisDevice: Int32 = known.first.map { ($0[2] as Bool) ? 0 : -1 } ?? -1
        let wantedDevice: Int32? = device.map { name in out.devices.firstIndex(of: name).map(Int32.init) ?? -2 }
        try stepRows(db, sql, [before]) { p in
            let source = sourceIndex(p, 6)
            guard source >= 0 else { return }  // a source from a newer Vigil: neither counted nor read
            if sqlite3_column_int64(p, 2) >= countingSourcesFrom { out.bySource[source] += 1 }
            guard wanted[source] || tracked[source] else { return }
            if let taskBytes {
                guard let c = sqlite3_column_text(p, 1),
                    same(taskBytes, UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, 1))))
                else { return }
            }
            if let tagged, !tagged.contains(sqlite3_column_int64(p, 0)) { return }
            var deviceOfSession = thisDevice
            if let origin = sqlite3_column_text(p, 7) {
                deviceOfSession = deviceIndex[String(cString: origin)] ?? -1
            }
            if let wantedDevice, deviceOfSession != wantedDevice { return }
            let start = instant(p, 2)
            if tracked[source] {
                out.tracked.append(Span(start, max(start, instant(p, 3))))
                return
            }
            var session = SessionFacts(
                id: sqlite3_column_int64(p, 0), task: out.tasks.index(p, 1), device: deviceOfSession, start: start,
                end: max(start, instant(p, 3)),
                outcome: outcome(p, 4))
            session.intent = SessionFacts.Intent(rawValue: UInt8(truncatingIfNeeded: sqlite3_column_int64(p, 8))) ?? .none
            out.sessions.append(session)
            out.lastEvents.append(instant(p, 5))
        }
        // Pauses and breaks from the state changes into and out of them (in session, then time order).
        var pausedSince: (session: Int64, at: Int64)?
        var ends: [Int64: Int64] = [:]
        func end(of session: Int64) -> Int64 {
            if ends.isEmpty { for s in out.sessions { ends[s.id] = s.end } }
            return ends[session] ?? .max
        }
        func hole(_ session: Int64, _ span: Span) {
            out.holes.append(span)
            out.holeSessions.append(session)
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
                hole(open.session, Span(open.at, end(of: open.session)))
                pausedSince = nil
            }
            let at = instant(p, 1)
            let pausedBefore = sqlite3_column_int(p, 2) != 0
            let pausedAfter = sqlite3_column_int(p, 3) != 0
            if pausedAfter, !pausedBefore, pausedSince == nil { pausedSince = (session, at) }
            if !pausedAfter, let open = pausedSince {
                hole(session, Span(open.at, at))
                pausedSince = nil
            }
        }
        if let open = pausedSince { hole(open.session, Span(open.at, end(of: open.session))) }
        try stepRows(db, "SELECT session_id, from_ms, to_ms FROM gaps") { p in
            hole(sqlite3_column_int64(p, 0), Span(instant(p, 1), instant(p, 2)))
        }
        return out
    }

    /// `activities`: the stretches in applications and on calls that reach into it (nil: none).
    private static func readChildren(_ db: Database, activities: Range<Int64>?) throws -> ChildRows {
        var out = ChildRows()
        let episodes = Self.capacity(for: try Int64.fetchOne(db, sql: "SELECT (SELECT max(id) FROM episodes) - (SELECT min(id) FROM episodes) + 1"))
        out.episodes.reserveCapacity(episodes)
        out.episodeSessions.reserveCapacity(episodes)
        try stepRows(db, "SELECT session_id, number, started_ms, ended_ms, cause, label FROM episodes") { p in
            guard let cause = storedCause(p, 4) else { return }
            let start = instant(p, 2)
            // An episode never closed ends with its session (Int64.max until assembled).
            let end = sqlite3_column_type(p, 3) == SQLITE_NULL ? Int64.max : max(start, instant(p, 3))
            let label = sqlite3_column_type(p, 5) == SQLITE_NULL ? nil : storedLabel(p, 5)
            let episode = EpisodeFacts(number: Int(sqlite3_column_int64(p, 1)), span: Span(start, end), cause: cause, label: label)
            // The person said it was no distraction: its time moves (`assemble`).
            if let label, label.counted != .distracted {
                out.relabelled.append(episode)
                out.relabelledSessions.append(sqlite3_column_int64(p, 0))
                return
            }
            out.episodes.append(episode)
            out.episodeSessions.append(sqlite3_column_int64(p, 0))
        }
        let alarms = Self.capacity(for: try Int64.fetchOne(db, sql: "SELECT (SELECT max(id) FROM alarms) - (SELECT min(id) FROM alarms) + 1"))
        out.alarms.reserveCapacity(alarms)
        out.alarmSessions.reserveCapacity(alarms)
        // The instant the person was back: the alarm's clearing, when it has a recovery time (an
        // alarm that a pause, a break or the end stopped has none).
        let back = "CASE WHEN recovery_s IS NOT NULL THEN cleared_ms END"
        // The alarms at which an action did something: its delivery says what (a channel that only
        // tells leaves the detail empty). Few, where there are any: looked up only then.
        var acted = Set<AlarmKey>()
        try stepRows(
            db, "SELECT DISTINCT session_id, episode_number, at_ms FROM alarm_deliveries WHERE action = 'fired' AND delivered = 1 AND detail <> ''"
        ) { p in
            acted.insert(AlarmKey(session: sqlite3_column_int64(p, 0), episode: sqlite3_column_int64(p, 1), at: sqlite3_column_int64(p, 2)))
        }
        try stepRows(db, "SELECT session_id, episode_number, at_ms, repeat, \(back) FROM alarms") { p in
            let session = sqlite3_column_int64(p, 0)
            let episode = sqlite3_column_int64(p, 1)
            out.alarms.append(
                AlarmFacts(
                    episode: Int(episode), at: instant(p, 2), repeatCount: Int(sqlite3_column_int64(p, 3)),
                    back: sqlite3_column_type(p, 4) == SQLITE_NULL ? nil : instant(p, 4),
                    acted: !acted.isEmpty && acted.contains(AlarmKey(session: session, episode: episode, at: sqlite3_column_int64(p, 2)))))
            out.alarmSessions.append(session)
        }
        guard let activities else { return out }
        // No index on their times: the table is scanned, as a report's period is most of the
        // history it reads. The kind and the category come as one number (`activityKind`), which
        // SQLite works out for no more than reading them costs it, and saves two texts a row.
        try stepRows(
            db, "SELECT session_id, start_ms, end_ms, \(activityKind), app_class FROM activities WHERE end_ms > ? AND start_ms < ?",
            [activities.lowerBound, activities.upperBound]
        ) { p in
            var application: Int32 = -1
            let kind = Int(sqlite3_column_int64(p, 3))
            if kind >= 0 {
                application = out.applications.index(p, classColumn: 4, category: kind)
                guard application >= 0 else { return }  // an application without a class: nothing to name
            }
            let start = instant(p, 1)
            out.activities.append(ActivityFacts(span: Span(start, max(start, instant(p, 2))), application: application))
            out.activitySessions.append(sqlite3_column_int64(p, 0))
        }
        return out
    }

    /// Runs `body` with a small page cache on the connection of a file's log, then gives it back
    /// its own. The statistics read each table once, in order, so no page is wanted twice, and
    /// SQLite's default cache (2 MB a connection) only costs fresh memory to fault in: 5 of 88 ms
    /// CPU for stress-5y's 10 MB of rows.
    private static func withSmallCache<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let size = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -128")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(size)") }
        return try body()
    }

    /// Room for the rows of a table whose ids span `span` (ids are dense unless rows were
    /// forgotten): at most ten million, so that a log with strange ids cannot ask for more memory
    /// than its rows need.
    private static func capacity(for span: Int64?) -> Int { Int(min(max(span ?? 0, 0), 10_000_000)) }

    /// Puts the rows in the statistics' layout: sessions in start order, each one's judged spans,
    /// episodes and alarms in consecutive ranges. Takes the rows' arrays over (they are left empty).
    private static func assemble(_ rows: inout SessionRows, _ children: inout ChildRows) -> StatisticsFacts {
        var sessions: [SessionFacts] = []
        swap(&sessions, &rows.sessions)
        // What the sessions' snapshot had seen of each session, by position once in start order.
        var lastEvents: [Int64] = []
        swap(&lastEvents, &rows.lastEvents)
        // Statistics want start order; ids are nearly always in it already.
        if !sessions.isSorted(by: { ($0.start, $0.id) <= ($1.start, $1.id) }) {
            let order = sessions.indices.sorted { (sessions[$0].start, sessions[$0].id) < (sessions[$1].start, sessions[$1].id) }
            sessions = order.map { sessions[$0] }
            lastEvents = order.map { lastEvents[$0] }
        }
        // Constants from here on: the closures below read them for every row, and a variable they
        // captured would be boxed and its every access checked for exclusivity.
        let seenUntil = lastEvents
        // Session id -> position, as a flat table: ids are dense.
        var firstId = Int64.max
        var lastId = Int64.min
        for s in sessions {
            firstId = min(firstId, s.id)
            lastId = max(lastId, s.id)
        }
        var positions = [Int32](repeating: -1, count: sessions.isEmpty ? 0 : Int(lastId - firstId + 1))
        for (i, s) in sessions.enumerated() { positions[Int(s.id - firstId)] = Int32(i) }
        let (position, first) = (positions, firstId)
        let index = { (id: Int64) -> Int32 in
            let k = id &- first
            return k >= 0 && k < position.count ? position[Int(k)] : -1
        }
        // Rows written after the sessions' snapshot: episodes and alarms that began later are left
        // out, and an end or a clearing that came later is not known yet.
        var (episodes, episodeRanges) = groupBySession(
            &children.episodes, children.episodeSessions, sessions: sessions.count, index,
            keep: { e, i in e.span.start <= seenUntil[i] },
            adjust: { e, i in if e.span.end > seenUntil[i] { e.span.end = .max } })
        var (alarms, alarmRanges) = groupBySession(
            &children.alarms, children.alarmSessions, sessions: sessions.count, index,
            keep: { a, i in a.at <= seenUntil[i] },
            adjust: { a, i in if a.backAt > seenUntil[i] { a.backAt = .min } })
        // A stretch is logged when it ends: one that ended after the snapshot is not known yet.
        var (activities, activityRanges) = groupBySession(
            &children.activities, children.activitySessions, sessions: sessions.count, index,
            keep: { a, i in a.span.end <= seenUntil[i] }, adjust: { _, _ in })
        let (holes, holeRanges) = groupBySession(
            &rows.holes, rows.holeSessions, sessions: sessions.count, index, keep: { _, _ in true }, adjust: { _, _ in })
        var (relabelled, relabelledRanges) = groupBySession(
            &children.relabelled, children.relabelledSessions, sessions: sessions.count, index,
            keep: { e, i in e.span.start <= seenUntil[i] },
            adjust: { e, i in if e.span.end > seenUntil[i] { e.span.end = .max } })
        var holesAndBreaks: [Span] = []

        var active: [Span] = []
        active.reserveCapacity(sessions.count + holes.count)
        var joined: [Span] = []
        for i in sessions.indices {
            let whole = Span(sessions[i].start, sessions[i].end)
            let first = Int32(active.count)
            let r = Int(holeRanges[i].lowerBound)..<Int(holeRanges[i].upperBound)
            let moved = Int(relabelledRanges[i].lowerBound)..<Int(relabelledRanges[i].upperBound)
            for k in moved where relabelled[k].span.end == .max { relabelled[k].span.end = max(relabelled[k].span.start, whole.end) }
            sessions[i].relabelled = relabelledRanges[i]
            if r.isEmpty, moved.isEmpty {
                active.append(whole)
            } else if moved.isEmpty {
                union(holes[r], into: &joined)
                subtract(joined, from: CollectionOfOne(whole), into: &active)
            } else {
                // A break or a meeting the person named is out of the judged time, as a pause is.
                holesAndBreaks.removeAll(keepingCapacity: true)
                holesAndBreaks += holes[r]
                for e in relabelled[moved] where e.label?.counted == .neither { holesAndBreaks.append(e.span) }
                union(holesAndBreaks[...], into: &joined)
                subtract(joined, from: CollectionOfOne(whole), into: &active)
            }
            sessions[i].active = first..<Int32(active.count)
            sessions[i].episodes = episodeRanges[i]
            sessions[i].alarms = alarmRanges[i]
            let e = Int(episodeRanges[i].lowerBound)..<Int(episodeRanges[i].upperBound)
            for k in e where episodes[k].span.end == .max { episodes[k].span.end = max(episodes[k].span.start, whole.end) }
            // Rowid order is the order they were logged in; sort only what is not in order.
            if !episodes[e].isSorted(by: { $0.span.start <= $1.span.start }) { episodes[e].sort { $0.span.start < $1.span.start } }
            let a = Int(alarmRanges[i].lowerBound)..<Int(alarmRanges[i].upperBound)
            if !alarms[a].isSorted(by: { $0.at <= $1.at }) { alarms[a].sort { $0.at < $1.at } }
            // Logged at their ends: a call that ran across applications comes after them.
            sessions[i].activities = activityRanges[i]
            let s = Int(activityRanges[i].lowerBound)..<Int(activityRanges[i].upperBound)
            if !activities[s].isSorted(by: { $0.span.start <= $1.span.start }) { activities[s].sort { $0.span.start < $1.span.start } }
        }
        return StatisticsFacts(
            sessions: sessions, tasks: rows.tasks.names, devices: rows.devices, active: active, episodes: episodes, alarms: alarms,
            tracked: rows.tracked, applications: children.applications.keys, activities: activities, relabelled: relabelled)
    }
}
