import Foundation
import GRDB
import Testing
import VigilCore
import VigilTesting

@testable import VigilStore

func tempDir() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-store-\(UUID().uuidString)").path
    return dir
}

let t0 = testEpoch

/// A small but complete session: one away episode with two alarms, a sensor status, a gap.
func sampleSessionEvents() -> [SessionEvent] {
    var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 3600)
    var events = s.start(at: t0)
    events += s.receive(Sample(time: t0 + 1, payload: .status(SensorStatus(sensor: .location, state: .noFix, detail: "indoors"))))
    events += s.receive(Sample(time: t0 + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
    var t = 6.0
    while t <= 500 {
        events += s.tick(at: t0 + t)
        t += 1
    }
    events += s.receive(Sample(time: t0 + 505, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
    events += s.receive(Sample(time: t0 + 2000, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
    events += s.end(.user, at: t0 + 2010)
    return events
}

@Suite struct StoreTests {
    @Test func aSessionIsStoredWithItsEpisodesAlarmsAndGaps() throws {
        let store = EventStore()
        let events = sampleSessionEvents()
        let id = try #require(try store.appendSession(events, source: .replay, recording: "r.jsonl"))
        // A replay is listed only when asked for: the person's figures count live sessions.
        #expect(try store.sessions().isEmpty)
        let sessions = try store.sessions(sources: [.replay])
        #expect(sessions.count == 1)
        let s = try #require(sessions.first)
        #expect(s.id == id)
        #expect(s.task == "thesis")
        #expect(s.outcome == "abandoned")
        #expect(s.started == t0)
        #expect(s.ended == t0 + 2010)
        #expect(s.episodes == 1)
        #expect(try store.counts()["alarms"] == 2)
        let episodes = try store.episodes(session: id)
        #expect(episodes.count == 1)
        #expect(episodes.first?.cause == "away")
        #expect(episodes.first?.startedAt == t0 + 4.5)
        #expect(episodes.first?.endedAt == t0 + 505)
        #expect(episodes.first?.alarmLevel == 2)
        let counts = try store.counts()
        #expect(counts["alarms"] == 2)
        #expect(counts["gaps"] == 1)
        #expect(counts["sensor_events"] == 1)
        // Every alarm was cleared, with its time to recovery.
        let uncleared = try store.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM alarms WHERE cleared_ms IS NULL OR recovery_s <= 0") }
        #expect(uncleared == 0)
    }

    /// A session killed after it logged something is closed as interrupted at its last sign of
    /// life; one killed before its first event (a start that crashed) held nothing and is removed,
    /// so that it does not count as a session not completed.
    @Test func recoveryClosesWhatWasLoggedAndRemovesWhatNeverBegan() throws {
        let store = EventStore()
        let events = sampleSessionEvents()
        let begun = try store.beginSession(task: "thesis", source: .live, recording: nil, startedAt: t0, plannedSeconds: 3600)
        try store.append(Array(events.dropFirst().prefix(8)), session: begun)
        let stillborn = try store.beginSession(task: "thesis", source: .live, recording: nil, startedAt: t0 + 3000, plannedSeconds: 3600)
        // Touched, but no event: still nothing of the person's (the touch only says it was alive).
        let touched = try store.beginSession(task: "thesis", source: .live, recording: nil, startedAt: t0 + 4000, plannedSeconds: 3600)
        try store.touch(session: touched, at: t0 + 4005)
        let recovered = try store.closeInterruptedSessions()
        #expect(recovered.closed == [begun, touched])
        #expect(recovered.removed == [stillborn])
        let left = try store.sessions()
        #expect(left.map(\.id).sorted() == [begun, touched])
        #expect(left.allSatisfy { $0.outcome == "interrupted" })
        #expect(try store.closeInterruptedSessions() == ([], []) as ([Int64], [Int64]), "nothing left open")
    }

    /// Issue 32: an alarm that a break stopped was logged with a recovery time, and counted as a
    /// return. It has none; and logs written before are mended by migration v10.
    @Test func anAlarmStoppedByABreakHasNoRecoveryTimeEvenInAnOlderLog() throws {
        let path = tempDir() + "/vigil.sqlite3"
        var s = FocusSession(configuration: .default, task: "thesis", plannedSeconds: 3600)
        var events = s.start(at: t0)
        events += s.receive(Sample(time: t0 + 5, payload: .input(InputActivity(window: 5, keyPresses: 9, idle: 0.5))))
        for t in stride(from: 6.0, through: 400, by: 1) { events += s.tick(at: t0 + t) }
        events += s.control(.breakTime, at: t0 + 401)
        events += s.end(.user, at: t0 + 420)
        do {
            let store = try EventStore(path: path)
            _ = try store.appendSession(events, source: .live, recording: nil)
            let rows = try store.db.read { try Row.fetchAll($0, sql: "SELECT cleared_ms, recovery_s FROM alarms") }
            #expect(!rows.isEmpty && rows.allSatisfy { $0["cleared_ms"] as Int64? != nil && $0["recovery_s"] as Double? == nil }, "\(rows)")
            #expect(try store.statisticsFacts(before: t0 + 86_400).alarms.allSatisfy { $0.back == nil })
            // As an older Vigil logged it: a recovery time, and migration v10 not yet applied.
            try store.db.write { db in
                try db.execute(sql: "UPDATE alarms SET recovery_s = 12")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v10: recovery only for returns'")
            }
        }
        let reopened = try EventStore(path: path)
        let mended = try reopened.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM alarms WHERE recovery_s IS NOT NULL") }
        #expect(mended == 0)
    }

    @Test func liveBatchesAreDurableAcrossReopening() throws {
        let dir = tempDir()
        let path = dir + "/vigil.sqlite3"
        let events = sampleSessionEvents()
        do {
            let store = try EventStore(path: path)
            let id = try store.beginSession(task: "thesis", source: .live, recording: nil, startedAt: t0, plannedSeconds: 3600)
            // Half the session, as a live session would have written it before being killed.
            try store.append(Array(events.dropFirst().prefix(8)), session: id)
        }
        let reopened = try EventStore(path: path)
        let s = try #require(try reopened.sessions().first)
        #expect(s.outcome == nil, "not ended: a later start can close it as interrupted")
        // Its events reached the file: recovery closes it at the last of them, not at its start.
        #expect(try reopened.closeInterruptedSessions().closed == [s.id])
        #expect(try reopened.sessionRecord(id: s.id)?.ended.map { $0 > t0 } == true)
        #expect(
            try reopened.appliedMigrations() == [
                "v1: sessions and events", "v2: alarm deliveries per channel, snoozes", "v3: index for the statistics' pauses",
                "v4: tasks, habits, reminders", "v5: time in applications and on calls", "v6: sessions by source",
                "v7: sync between devices", "v8: imports from other tools", "v9: session tags, notes, edits and undo",
                "v10: recovery only for returns",
                "v11: imported sessions tagged, not judged", "v12: undo sees other devices' changes",
                "v13: intentions and the person's labels", "v14: the day outside sessions",
            ])
        let mode = try reopened.db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let sync = try reopened.db.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(sync == 2, "FULL: a commit is on disk when append returns")
    }

    @Test func theLogIsPrivateToItsOwner() throws {
        let dir = tempDir() + "/nested/vigil"
        _ = try EventStore(path: dir + "/vigil.sqlite3")
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir + "/vigil.sqlite3")[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test func anUnwritableDataDirectoryIsNamed() throws {
        // Root ignores permissions, so use a path under a regular file: it can never be a directory.
        let blocker = tempDir()
        try FileManager.default.createDirectory(atPath: (blocker as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        do {
            _ = try EventStore(path: blocker + "/data/vigil.sqlite3")
            Issue.record("expected an error")
        } catch {
            #expect(error.path == blocker)
            #expect(error.message.contains("cannot create the data directory: a file of that name is in the way"))
            #expect(error.message.contains("--data-dir"))
        }
    }

    @Test func aFailedBatchLeavesNothingHalfWritten() throws {
        let store = EventStore()
        let id = try store.beginSession(task: nil, source: .live, recording: nil, startedAt: t0, plannedSeconds: nil)
        let episode = Episode(number: 1, start: t0, confirmedAt: t0 + 10, cause: .away, peakScore: 0.7, reason: "no input for 4 min")
        // The second insert of the same episode number violates UNIQUE(session_id, number): the whole batch must roll back.
        let batch = [
            SessionEvent(time: t0 + 10, kind: .episodeStarted(episode)),
            SessionEvent(time: t0 + 11, kind: .alarm(level: 1, repeat: 0, episode: 1, cause: .away, reason: "x")),
            SessionEvent(time: t0 + 12, kind: .episodeStarted(episode)),
        ]
        #expect(throws: StoreError.self) { try store.append(batch, session: id) }
        let counts = try store.counts()
        #expect(counts["episodes"] == 0)
        #expect(counts["alarms"] == 0)
    }
}
