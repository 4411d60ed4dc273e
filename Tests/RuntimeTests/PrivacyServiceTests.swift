import Foundation
import LogServices
import SessionRuntime
import TestSupport
import Testing
import VigilCore
import VigilStore

/// `vigil forget`'s rules: a running session is refused before the person is asked, a "no"
/// deletes nothing, and a "yes" deletes the period's rows and says how many.
@Suite struct PrivacyServiceTests {
    let noon = parseRFC3339("2026-11-16T12:00:00Z")!
    let utc = TimeZone(identifier: "UTC")!

    func directory() throws -> String { try temporaryDirectory("vigil-privacy") }

    @Test func aRunningSessionIsRefusedBeforeAnyoneIsAsked() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        _ = try HistoryService(store: store, now: noon).add(task: nil, tags: [], note: nil, from: noon - 7200, to: noon - 3600)
        // A session of this process holds the directory: its lock, and its status naming a live pid.
        let lock = try #require(try SessionLock(dataDirectory: dir))
        defer { lock.release() }
        SessionStatusFile(dataDirectory: dir).write(
            SessionStatus(
                pid: getpid(), task: nil, started: "2026-11-16T11:59:00Z", planned: nil, state: "focused", score: 0, elapsed: 60, episodes: 0,
                alarms: 0, updated: 0))
        let privacy = PrivacyService(paths: VigilPaths(dataDirectory: dir))
        let today = LocalNow(at: noon, zone: utc)
        var asked = 0
        #expect(throws: PrivacyError.sessionRunning) {
            try privacy.forget(today.day...today.day, in: LocalLog(store), now: today) { _ in
                asked += 1
                return true
            }
        }
        #expect(asked == 0, "refused before asking")
        #expect(try store.sessionCount(from: noon - 86_400, to: noon) == 1)
    }

    @Test func noDeletesNothingAndYesDeletesThePeriod() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        let history = HistoryService(store: store, now: noon)
        // Today's: a judged session with its events (a state change at the start and at the end).
        var session = FocusSession(configuration: .default, task: "essay", plannedSeconds: 1500)
        let start = noon - 7200
        let judged = session.start(at: start) + session.tick(at: start + 1500) + session.end(.planReached, at: start + 1500)
        #expect(judged.contains { if case .stateChanged = $0.kind { true } else { false } })
        _ = try store.appendSession(judged, source: .live, recording: nil)
        _ = try history.add(task: nil, tags: [], note: nil, from: noon - 86_400 - 7200, to: noon - 86_400 - 3600)
        let privacy = PrivacyService(paths: VigilPaths(dataDirectory: dir))
        let today = LocalNow(at: noon, zone: utc)
        var told: [Int] = []
        #expect(
            try privacy.forget(today.day...today.day, in: LocalLog(store), now: today) {
                told.append($0)
                return false
            } == nil)
        #expect(try store.sessionCount(from: noon - 2 * 86_400, to: noon) == 2, "a no deletes nothing")
        let forgotten = try privacy.forget(today.day...today.day, in: LocalLog(store), now: today) {
            told.append($0)
            return true
        }
        #expect(told == [1, 1], "asked with the period's sessions")
        #expect(forgotten?.rows.sessions == 1)
        #expect((forgotten?.rows.events ?? 0) > 0, "the session's events with it")
        #expect(forgotten?.leftovers == [])
        #expect(try store.sessionCount(from: noon - 2 * 86_400, to: noon) == 1, "yesterday's is kept")
    }
}
