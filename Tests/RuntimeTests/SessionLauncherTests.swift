import Foundation
import LogServices
import TestSupport
import Testing
import VigilCore
import VigilPlanner
import VigilStore

/// What `vigil start` does around a session: the task, one session at a time, recovery of what a
/// killed Vigil left open, the planned length and where a logged rehearsal goes.
@Suite struct SessionLauncherTests {
    let noon = parseRFC3339("2026-11-16T12:00:00Z")!

    @Test func oneSessionAtATimeWithItsTaskAndWhatAKilledOneLeftClosed() throws {
        let dir = try temporaryDirectory("vigil-launch")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try EventStore(path: dir + "/vigil.sqlite3")
        let task = try PlannerService(store: store, now: LocalNow(at: noon)).addTask(title: "Write chapter 3")
        // A session a killed Vigil left open, with a reading: closed as interrupted.
        let killed = try store.beginSession(task: nil, source: .live, recording: nil, startedAt: noon - 3600, plannedSeconds: 1500)
        try store.append(
            [SessionEvent(time: noon - 3000, kind: .stateChanged(from: .planned, to: .focused, score: 0, reason: nil))], session: killed)
        let launcher = SessionLauncher(store: store, dataDirectory: dir)
        #expect(throws: LaunchError.noTask(99)) { try launcher.launch(task: "99") }
        let launch = try launcher.launch(task: "\(task.id)")
        #expect(launch.task == "Write chapter 3" && launch.taskId == task.id)
        #expect(launch.recoveredClosed == [killed] && launch.recoveredRemoved.isEmpty)
        #expect(throws: LaunchError.alreadyRunning(pid: nil, task: nil)) { try launcher.launch(task: "thesis") }
        launch.lock.release()
        let named = try launcher.launch(task: "thesis")
        #expect(named.task == "thesis" && named.taskId == nil && named.recoveredClosed.isEmpty)
        named.lock.release()
    }

    @Test func thePlannedLengthAndTheRehearsalsPlace() {
        #expect(SessionLauncher.plannedSeconds(minutes: 25, pomodoroSet: 6000, otherwise: 3000) == 1500)
        #expect(SessionLauncher.plannedSeconds(minutes: nil, pomodoroSet: 6000, otherwise: 3000) == 6000)
        #expect(SessionLauncher.plannedSeconds(minutes: nil, pomodoroSet: nil, otherwise: 3000) == 3000)
        #expect(SessionLauncher.plannedSeconds(minutes: nil, pomodoroSet: nil, otherwise: nil) == nil)
        let recorded = noon - 86_400 * 200
        #expect(SessionLauncher.rehearsalStart(logged: true, recordingStart: recorded, now: noon) == recorded)
        #expect(SessionLauncher.rehearsalStart(logged: true, recordingStart: nil, now: noon) == noon)
        #expect(SessionLauncher.rehearsalStart(logged: false, recordingStart: recorded, now: noon) == noon)
    }
}
