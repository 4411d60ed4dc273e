import Foundation
import GRDB
import Testing
import VigilCore
import VigilStats

@testable import VigilStore

/// The facts the statistics read are derived from the logged events: judged time is the session
/// minus its pauses and gaps, read through both store paths (the in-memory queue and the file's
/// pool, which reads sessions and their episodes on two connections at once).
@Suite struct StatisticsFactsTests {
    /// The last instant a `Timestamp` holds: every session started before it.
    let allTime = Timestamp(nanoseconds: .max)

    /// Typing every 5 s for 10 min, a 5-minute pause, typing to 20 min, the laptop asleep from
    /// 20:00 to 23:20, typing to 30 min, then ended.
    func pausedAndSleepingSession() -> [SessionEvent] {
        var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 3600)
        var events = s.start(at: t0)
        let typing = { (t: Double) in Sample(time: t0 + t, payload: .input(InputActivity(window: 5, keyPresses: 12, idle: 0))) }
        for t in stride(from: 5.0, through: 600, by: 5) { events += s.receive(typing(t)) }
        events += s.receive(Sample(time: t0 + 600, payload: .control(.pause)))
        for t in stride(from: 605.0, through: 900, by: 5) { events += s.receive(typing(t)) }
        events += s.receive(Sample(time: t0 + 900, payload: .control(.resume)))
        for t in stride(from: 905.0, through: 1200, by: 5) { events += s.receive(typing(t)) }
        for t in stride(from: 1400.0, through: 1800, by: 5) { events += s.receive(typing(t)) }
        events += s.end(.user, at: t0 + 1800)
        return events
    }

    func spans(_ f: StatisticsFacts, _ session: SessionFacts) -> [Span] {
        Array(f.active[Int(session.active.lowerBound)..<Int(session.active.upperBound)])
    }

    @Test(arguments: [false, true])
    func judgedTimeIsTheSessionWithoutPausesAndGaps(onDisk: Bool) throws {
        let store = onDisk ? try EventStore(path: tempDir() + "/vigil.sqlite3") : EventStore()
        try store.appendSession(pausedAndSleepingSession(), source: .live, recording: nil)
        let facts = try store.statisticsFacts(before: allTime)
        let s = try #require(facts.sessions.first)
        let base = t0.millisecondsSinceEpoch
        #expect(spans(facts, s) == [Span(base, base + 600_000), Span(base + 900_000, base + 1_200_000), Span(base + 1_400_000, base + 1_800_000)])
        #expect(facts.task(of: s) == "thesis")
        #expect(s.outcome == .abandoned)
        #expect(s.end == base + 1_800_000)
    }

    @Test func onlyTheTaskAskedForAndOnlyBeforeTheEnd() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        try store.appendSession(sampleSessionEvents(), source: .live, recording: nil)
        try store.appendSession(
            pausedAndSleepingSession().map { e in
                guard case .sessionStarted(_, let planned) = e.kind else { return e }
                return SessionEvent(time: e.time, kind: .sessionStarted(task: "email", plannedSeconds: planned))
            }, source: .live, recording: nil)
        let all = try store.statisticsFacts(before: allTime)
        #expect(all.sessions.count == 2)
        #expect(all.episodes.count == 1 && all.alarms.count == 2)
        let email = try store.statisticsFacts(before: allTime, task: "email")
        #expect(email.sessions.count == 1 && email.episodes.isEmpty && email.alarms.isEmpty)
        #expect(try store.statisticsFacts(before: t0).sessions.isEmpty)
        #expect(try store.taskNames() == ["email", "thesis"])
    }

    /// Rows the sessions' snapshot had not seen (here: times after the session's last logged
    /// event, as a live session writing during the report would leave them) are left out, or
    /// their end is not known yet.
    @Test func rowsWrittenAfterTheSessionsSnapshotAreLeftOut() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        let id = try #require(try store.appendSession(sampleSessionEvents(), source: .live, recording: nil))
        let last = (t0 + 2010).millisecondsSinceEpoch
        try store.db.write { db in
            try db.execute(sql: "UPDATE alarms SET cleared_ms = ? WHERE session_id = ?", arguments: [last + 5000, id])
            try db.execute(
                sql:
                    "INSERT INTO episodes (session_id, number, started_ms, confirmed_ms, cause, peak_score, reason) VALUES (?, 2, ?, ?, 'noise', 0.9, 'loud')",
                arguments: [id, last + 1000, last + 1000])
            try db.execute(
                sql: "INSERT INTO alarms (session_id, episode_number, at_ms, level, repeat, cause, reason) VALUES (?, 2, ?, 1, 0, 'noise', 'loud')",
                arguments: [id, last + 2000])
        }
        let facts = try store.statisticsFacts(before: allTime)
        #expect(facts.episodes.count == 1)
        #expect(facts.alarms.count == 2)
        #expect(facts.alarms.allSatisfy { $0.back == nil })
    }

    /// The report reads pauses through a partial index that covers what it needs.
    @Test func pausesAreReadThroughTheirCoveringIndex() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        let detail = try store.db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT session_id, at_ms, from_state IN ('pause', 'break'), to_state IN ('pause', 'break')
                    FROM state_changes INDEXED BY state_changes_pauses
                    WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break') ORDER BY session_id, at_ms
                    """
            ).map { $0["detail"] as String }
        }
        #expect(detail.contains { $0.contains("COVERING INDEX state_changes_pauses") }, "\(detail)")
        #expect(!detail.contains { $0.contains("TEMP B-TREE") }, "no sort: the index gives the order")
    }

    /// A report counts the sessions by source in the same read as its facts: the counts are those
    /// of `sessionsBySource` (every source and task, from the period's start), whatever task and
    /// sources the facts are for, and the facts are those `statisticsFacts` reads.
    @Test func sessionsAreCountedBySourceInTheSameReadAsTheFacts() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        func session(task: String?, at offset: Double) -> [SessionEvent] {
            sampleSessionEvents().map { e in
                guard case .sessionStarted(_, let planned) = e.kind else { return SessionEvent(time: e.time + offset, kind: e.kind) }
                return SessionEvent(time: e.time + offset, kind: .sessionStarted(task: task, plannedSeconds: planned))
            }
        }
        let sources: [SessionSource] = [.live, .replay, .live, .rehearsal, .simulated, .live, .replay]
        for (k, source) in sources.enumerated() {
            try store.appendSession(
                session(task: k % 3 == 0 ? "thesis" : k % 3 == 1 ? "email" : nil, at: Double(k) * 7200), source: source, recording: nil)
        }
        let end = t0 + 7 * 7200
        for task in [nil, "thesis", "email"] {
            for counted in [SessionSource.counted, Set(SessionSource.allCases), [.replay]] {
                for from in [nil, t0 + 3 * 7200] {
                    let read = try store.reportFacts(before: end, task: task, sources: counted, sourcesFrom: from)
                    let bySource = try store.sessionsBySource(from: from, to: end)
                    #expect(
                        read.sessionsBySource == bySource, "task \(task ?? "none"), sources \(counted.sorted()), from \(String(describing: from))")
                    let facts = try store.statisticsFacts(before: end, task: task, sources: counted)
                    let ids = read.facts.sessions.map(\.id)
                    let expected = facts.sessions.map(\.id)
                    #expect(ids == expected)
                }
            }
        }
    }

    /// A session like `sampleSessionEvents()` (an away episode with two alarms, a gap) starting at
    /// `start`, of `task`.
    func awaySession(at start: Timestamp, task: String?) -> [SessionEvent] {
        var s = FocusSession(configuration: .default, task: task, plannedSeconds: 3600)
        var events = s.start(at: start)
        events += s.receive(Sample(time: start + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
        for t in stride(from: 6.0, through: 500, by: 1) { events += s.tick(at: start + t) }
        events += s.receive(Sample(time: start + 505, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
        events += s.receive(Sample(time: start + 2000, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
        events += s.end(.user, at: start + 2010)
        return events
    }

    /// Everything the facts say of each session, to compare two reads.
    func described(_ f: StatisticsFacts) -> [String] {
        f.sessions.map { s in
            let active = f.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)].map { "\($0.start)-\($0.end)" }
            let episodes = f.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)].map {
                "\($0.number) \($0.cause) \($0.span.start)-\($0.span.end)"
            }
            let alarms = f.alarms[Int(s.alarms.lowerBound)..<Int(s.alarms.upperBound)].map {
                "\($0.episode).\($0.repeatCount) \($0.at) \(String(describing: $0.back))"
            }
            return "\(s.id) \(f.task(of: s) ?? "-") \(s.start)-\(s.end) \(s.outcome) \(active) \(episodes) \(alarms)"
        }
    }

    /// Two sessions logged at the same time, the later one's events first: their episodes and
    /// alarms are not in session order in the tables, and each session still gets its own, as
    /// when the sessions were logged one after the other.
    @Test func rowsLoggedOutOfSessionOrderGoToTheirSessions() throws {
        let first = awaySession(at: t0, task: "thesis")
        let second = awaySession(at: t0 + 3000, task: "email")
        let inOrder = try EventStore(path: tempDir() + "/vigil.sqlite3")
        try inOrder.appendSession(first, source: .live, recording: nil)
        try inOrder.appendSession(second, source: .live, recording: nil)
        let interleaved = try EventStore(path: tempDir() + "/vigil.sqlite3")
        let a = try interleaved.beginSession(task: "thesis", source: .live, recording: nil, startedAt: t0, plannedSeconds: 3600)
        let b = try interleaved.beginSession(task: "email", source: .live, recording: nil, startedAt: t0 + 3000, plannedSeconds: 3600)
        try interleaved.append(Array(second.dropFirst()), session: b)
        try interleaved.append(Array(first.dropFirst()), session: a)
        let expected = described(try inOrder.statisticsFacts(before: allTime))
        let got = described(try interleaved.statisticsFacts(before: allTime))
        let withAwayEpisodes = expected.filter { $0.contains("away") }.count
        #expect(withAwayEpisodes == 2)
        #expect(got == expected)
    }

    /// Typing all along in the editor; a video from 5 min to 12 min (an app episode), the editor
    /// again, a call from 13:20 to 14:10, a pause from 15 to 17 min, the end at 20 min.
    func sessionInApplications(at start: Timestamp) -> [SessionEvent] {
        var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 3600)
        var events = s.start(at: start)
        let code = AppFocus(appClass: "code", category: .work, rule: "editors")
        let video = AppFocus(appClass: "firefox", category: .distracting, rule: "youtube")
        for t in 1...1200 {
            let now = start + Double(t)
            switch t {
            case 5: events += s.receive(Sample(time: now, payload: .app(code)))
            case 300: events += s.receive(Sample(time: now, payload: .app(video)))
            case 720: events += s.receive(Sample(time: now, payload: .app(code)))
            case 800: events += s.receive(Sample(time: now, payload: .media(MediaActivity(calls: 1))))
            case 850: events += s.receive(Sample(time: now, payload: .media(MediaActivity(calls: 0))))
            case 900: events += s.receive(Sample(time: now, payload: .control(.pause)))
            case 1020: events += s.receive(Sample(time: now, payload: .control(.resume)))
            default: break
            }
            if t % 5 == 0 { events += s.receive(Sample(time: now, payload: .input(InputActivity(window: 5, keyPresses: 12, idle: 0)))) }
            events += s.tick(at: now)
        }
        events += s.end(.user, at: start + 1200)
        return events
    }

    /// A report reads the stretches in applications and on calls that reach into its period, each
    /// session's in order of start: the same time as the query `vigil apps` sums, and an app
    /// episode is the video's.
    @Test(arguments: [false, true])
    func applicationStretchesAreReadForTheReportsPeriod(onDisk: Bool) throws {
        let store = onDisk ? try EventStore(path: tempDir() + "/vigil.sqlite3") : EventStore()
        try store.appendSession(sampleSessionEvents(), source: .live, recording: nil)
        let start = t0 + 3600
        try store.appendSession(sessionInApplications(at: start), source: .live, recording: nil)
        let base = start.millisecondsSinceEpoch
        let end = t0 + 3 * 3600
        let read = try store.reportFacts(before: end, sourcesFrom: nil, activities: true).facts
        let session = try #require(read.sessions.last)
        let stretches = read.activities[Int(session.activities.lowerBound)..<Int(session.activities.upperBound)].map { a in
            "\(a.isCall ? "call" : "\(read.applications[Int(a.application)].appClass) \(read.applications[Int(a.application)].category)") "
                + "\((a.span.start - base) / 1000)-\((a.span.end - base) / 1000)"
        }
        #expect(
            stretches == ["code work 5-300", "firefox distracting 300-720", "code work 720-900", "call 800-850", "code work 1020-1200"],
            "\(stretches)")
        #expect(read.sessions.first?.activities.isEmpty == true, "a session without applications has none")
        // The same sums as the query of `vigil apps`.
        let totals = try store.activityTotals(from: t0, to: end)
        for total in totals {
            let mine = read.activities.filter { a in
                total.isCall ? a.isCall : !a.isCall && read.applications[Int(a.application)] == ApplicationKey(total.appClass!, total.category!)
            }
            #expect(Double(mine.reduce(0) { $0 + $1.span.milliseconds }) / 1000 == total.seconds && mine.count == total.stretches, "\(total)")
        }
        #expect(totals.count == 3)
        let report = Statistics.report(read, timeZone: TimeZone(identifier: "UTC")!, from: nil, to: Int(t0.millisecondsSinceEpoch / 86_400_000))
        let apps = try #require(report.applications).apps
        #expect(apps.map { "\($0.appClass) \($0.minutes) \($0.stretches) \($0.episodes)" } == ["code 10.92 3 0", "firefox 7.0 1 1"], "\(apps)")

        // Only what reaches into the period: from 12:30 (750 s) on.
        let late = try store.reportFacts(before: end, sourcesFrom: start + 750, activities: true).facts
        #expect(late.activities.map { ($0.span.start - base) / 1000 } == [720, 800, 1020])
        #expect(late.applications == [ApplicationKey("code", .work)], "the video ended before: not met")
        // Without asking, none (what other readers of the facts need).
        #expect(try store.reportFacts(before: end, sourcesFrom: nil).facts.activities.isEmpty)
        #expect(try store.statisticsFacts(before: end).activities.isEmpty)

        // A category from a newer Vigil (or none) counts as neutral, as `vigil apps` shows it.
        try store.db.write { db in
            for (category, offset) in [("chore", 100), (nil, 200)] as [(String?, Int64)] {
                try db.execute(
                    sql: "INSERT INTO activities (session_id, kind, app_class, category, start_ms, end_ms) VALUES (?, 'app', 'ledger', ?, ?, ?)",
                    arguments: [session.id, category, base + offset * 1000, base + (offset + 60) * 1000])
            }
        }
        let newer = try store.reportFacts(before: end, sourcesFrom: nil, activities: true).facts
        #expect(newer.applications.last == ApplicationKey("ledger", .neutral) && newer.activities.count == 7, "\(newer.applications)")
    }

    /// Task names are told apart by their bytes, past the handful a person usually has too.
    @Test func everySessionKeepsItsTaskAmongMany() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        let names: [String?] = (0..<40).map { k in k % 9 == 0 ? nil : "task \(k % 23)" + (k % 5 == 0 ? " é" : "") }
        for (k, name) in names.enumerated() {
            try store.appendSession(awaySession(at: t0 + Double(k) * 3000, task: name), source: .live, recording: nil)
        }
        let facts = try store.statisticsFacts(before: allTime)
        let tasks = facts.sessions.map { facts.task(of: $0) }
        #expect(tasks == names)
        #expect(Set(facts.tasks).count == facts.tasks.count, "each name once")
    }

    /// A report checks its `--task` with one row where it can: a session with exactly those bytes.
    @Test func aTaskIsFoundByItsBytes() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        try store.appendSession(awaySession(at: t0, task: "caf\u{E9}"), source: .replay, recording: nil)
        let exact = try store.hasSession(task: "caf\u{E9}")
        let decomposed = try store.hasSession(task: "cafe\u{301}")
        let otherCase = try store.hasSession(task: "Caf\u{E9}")
        #expect(exact && !decomposed && !otherCase)
        #expect(try store.taskNames().contains("cafe\u{301}"), "the list still compares names as Swift does")
    }
}
