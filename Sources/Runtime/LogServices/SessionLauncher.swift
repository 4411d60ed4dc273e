import SessionRuntime
import VigilCore
import VigilPlanner
import VigilStore

/// Why a session could not start.
public enum LaunchError: Error, Equatable, Sendable {
    /// `--task` is a number, and no task has it.
    case noTask(Int64)
    /// Another session holds the data directory; its status, when it left one.
    case alreadyRunning(pid: Int32?, task: String?)
}

/// What `vigil start` does around a session, before and after it runs (`SessionRunner` runs it):
/// the task it is on, the data directory's lock, the recovery of sessions a killed Vigil left
/// open, how long it is planned for, where a logged rehearsal is placed, and the habits sessions
/// complete. The command parses, asks, runs and says.
public struct SessionLauncher: Sendable {
    public let store: EventStore
    public let dataDirectory: String

    public init(store: EventStore, dataDirectory: String) {
        self.store = store
        self.dataDirectory = dataDirectory
    }

    /// A session ready to run: what it is on, the lock it holds (released by the caller at the
    /// end), and the sessions recovered before it.
    public struct Launch: Sendable {
        public var task: String?
        public var taskId: Int64?
        public let lock: SessionLock
        /// Sessions a killed Vigil left open, closed as interrupted at their last sign of life;
        /// and those stopped before their first reading, removed.
        public var recoveredClosed: [Int64]
        public var recoveredRemoved: [Int64]
    }

    /// Resolves the task (a task's number or title links the session to it; another title names
    /// it), takes the lock (one session at a time, even when two start in the same instant), and,
    /// with no session running, closes the ones whose end was never logged.
    public func launch(task reference: String?) throws -> Launch {
        var task = reference
        var taskId: Int64?
        if let reference {
            do {
                let subject = try TaskLookup(store: store).sessionSubject(reference)
                (task, taskId) = (subject.name, subject.taskId)
            } catch PlannerError.noTask(let id) {
                throw LaunchError.noTask(id)
            }
        }
        guard let lock = try SessionLock(dataDirectory: dataDirectory) else {
            let running = SessionStatusFile(dataDirectory: dataDirectory).read()
            throw LaunchError.alreadyRunning(pid: running?.pid, task: running?.task)
        }
        do {
            let recovered = try store.closeInterruptedSessions()
            return Launch(task: task, taskId: taskId, lock: lock, recoveredClosed: recovered.closed, recoveredRemoved: recovered.removed)
        } catch {
            lock.release()
            throw error
        }
    }

    /// How long a session is planned for, in seconds: `--minutes`, else the Pomodoro set's
    /// length, else `otherwise` (the config's default for a live session, the recording's own
    /// plan for a rehearsal, which may have none).
    public static func plannedSeconds(minutes: Double?, pomodoroSet: Double?, otherwise: Double?) -> Double? {
        minutes.map { $0 * 60 } ?? pomodoroSet ?? otherwise
    }

    /// Where a rehearsal's session starts: a logged one at the recording's own start, where
    /// `vigil replay` puts it (now plus paced time would reach into the future at --pace 600);
    /// one that is not kept, now.
    public static func rehearsalStart(logged: Bool, recordingStart: Timestamp?, now: Timestamp) -> Timestamp {
        logged ? recordingStart ?? now : now
    }

    /// After a session: the habits sessions complete by themselves are marked done; returns them.
    public func completeHabits(now: LocalNow) -> [Habit] {
        ((try? PlannerHousekeeping.run(store: store, now: now))?.completedBySessions ?? []).map(\.habit)
    }
}
