import Foundation
import SessionRuntime
import TestSupport
import Testing

/// The files through which a running session speaks to other commands: its status and its lock.
@Suite struct SessionFilesTests {
    func directory() throws -> String { try temporaryDirectory("vigil-files") }

    @Test func theStatusReadsBackAsWrittenPrivateAndWhole() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = SessionStatusFile(dataDirectory: dir)
        #expect(file.read() == nil && file.running() == nil)
        let status = SessionStatus(
            pid: getpid(), task: "chapter \"3\"\n", started: "2026-03-02T09:00:00Z", planned: 1500, state: "alarm 2",
            score: 0.73, elapsed: 312, episodes: 1, alarms: 2, updated: 1_772_442_312.5)
        file.write(status)
        #expect(file.read() == status)
        // A live pid is not enough: a session holds the data directory's lock (a status file left
        // behind or planted must not make `vigil stop` signal some other process).
        #expect(file.running() == nil, "no session holds the lock")
        let lock = try #require(try SessionLock(dataDirectory: dir))
        #expect(file.running() == status, "this process is alive and holds the lock")
        lock.release()
        #expect(file.running() == nil)
        try FileManager.default.removeItem(atPath: dir + "/session.lock")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The fields other programs read, by their documented names.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.path))) as? [String: Any]
        #expect(object?["elapsed_s"] as? Double == 312 && object?["planned_s"] as? Double == 1500 && object?["task"] as? String == "chapter \"3\"\n")
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["running-session.json"])
        file.remove()
        #expect(file.read() == nil)
    }

    @Test func aStatusLeftByADeadProcessIsNotARunningSession() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = SessionStatusFile(dataDirectory: dir)
        // A child that has exited and been reaped: its pid names no process.
        let child = try ChildProcess("/bin/true", [])
        child.wait()
        file.write(
            SessionStatus(
                pid: child.pid, task: nil, started: "2026-03-02T09:00:00Z", planned: nil, state: "focused",
                score: 0, elapsed: 1, episodes: 0, alarms: 0, updated: 0))
        #expect(file.read() != nil)
        #expect(file.running() == nil)
    }

    @Test func theLockIsHeldByOneSessionAtATime() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try #require(try SessionLock(dataDirectory: dir))
        #expect(try SessionLock(dataDirectory: dir) == nil, "a second session is refused")
        first.release()
        let again = try SessionLock(dataDirectory: dir)
        #expect(again != nil, "free again once released")
        #expect(throws: SessionLock.CannotCreate.self) { _ = try SessionLock(dataDirectory: dir + "/missing") }
    }
}

/// Diagnostics: one format, with the journal's priority prefix only when standard error is the journal.
@Suite struct DiagnosticsTests {
    @Test func linesCarryTheirLevelForTheJournalOnly() {
        #expect(Diagnostics.line("saved as session 3", level: .info, journal: false) == "vigil: saved as session 3\n")
        #expect(Diagnostics.line("no such task", level: .error, journal: false) == "vigil: error: no such task\n")
        #expect(Diagnostics.line("no such task", level: .error, journal: true) == "<3>vigil: error: no such task\n")
        #expect(Diagnostics.line("the log is written again", level: .warning, journal: true) == "<4>vigil: the log is written again\n")
    }

    /// Whatever error a message came from, nothing in it drives the terminal; its own lines stay.
    @Test func controlsInAMessageAreShownAsEscapes() {
        #expect(
            Diagnostics.line("a.yaml\u{1B}]0;x\u{7}: bad\nRun `vigil config check`\r", level: .error, journal: false)
                == "vigil: error: a.yaml\\u{1B}]0;x\\u{7}: bad\nRun `vigil config check`\\r\n")
    }
}
