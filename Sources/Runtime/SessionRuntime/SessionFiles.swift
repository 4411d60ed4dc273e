import Foundation
import SessionViews
import SystemCalls
import VigilCore

/// What a running session tells other commands (`vigil status`, `vigil stop`, `vigil forget`)
/// through its status file. The file's fields are these, in JSON, with `planned_s` and `elapsed_s`
/// in seconds and `updated` (when any other field last changed) in seconds since the epoch.
public struct SessionStatus: Codable, Hashable, Sendable {
    public var pid: Int32
    public var task: String?
    /// The session's start, RFC 3339.
    public var started: String
    public var planned: Double?
    /// The state as the live screen says it: `focused`, `alarm 2`, `waiting for you to come back`.
    public var state: String
    public var score: Double
    public var elapsed: Double
    /// The time counted against the plan: `elapsed` less the pauses that freeze it.
    public var worked: Double?
    public var episodes: Int
    public var alarms: Int
    public var updated: Double
    /// Why the score is what it is ("no input for 3 min"), unless the person is focused.
    public var reason: String?
    /// Where the Pomodoro set stands, if the session runs one.
    public var pomodoro: PomodoroProgress?
    /// A strict session's cooling-off, and its early end once asked for; nil when not strict.
    public var strict: StrictStatus?
    /// What the person means to do in it (`vigil start --intent`).
    public var intent: String?
    /// The session takes commands from other terminals (`SessionInbox`) and mirrors its screen
    /// (`ScreenMirror`). Nil in a session of an older Vigil, which SIGUSR2 would end.
    public var takesCommands: Bool?

    public init(
        pid: Int32, task: String?, started: String, planned: Double?, state: String, score: Double, elapsed: Double, worked: Double? = nil,
        episodes: Int, alarms: Int, updated: Double, reason: String? = nil, pomodoro: PomodoroProgress? = nil
    ) {
        self.reason = reason
        self.pomodoro = pomodoro
        self.worked = worked
        self.pid = pid
        self.task = task
        self.started = started
        self.planned = planned
        self.state = state
        self.score = score
        self.elapsed = elapsed
        self.episodes = episodes
        self.alarms = alarms
        self.updated = updated
    }

    enum CodingKeys: String, CodingKey {
        case pid, task, started
        case planned = "planned_s"
        case state, score
        case elapsed = "elapsed_s"
        case worked = "worked_s"
        case episodes, alarms, updated, reason, pomodoro, strict, intent
        case takesCommands = "commands"
    }

    /// The object as one JSON line, keys sorted (this runs up to once a tick).
    public var json: String {
        var w = JSONWriter(style: .compact, capacity: 320)
        w.object { w in
            w.field("alarms", alarms)
            if let takesCommands { w.field("commands", takesCommands) }
            w.field("elapsed_s", JSONValue.exact(elapsed))
            w.field("episodes", episodes)
            if let intent { w.field("intent", intent) }
            w.field("pid", Int(pid))
            w.field("planned_s", planned.map(JSONValue.exact))
            if let p = pomodoro {
                w.field(
                    "pomodoro",
                    JSONValue.object([
                        ("left_s", p.left.map(JSONValue.exact) ?? .null), ("period", .int(p.period)), ("phase", .str(p.phase.rawValue)),
                        ("rounds", .int(p.rounds)),
                    ]))
            } else {
                w.field("pomodoro", JSONValue.null)
            }
            w.field("reason", reason)
            w.field("score", JSONValue.exact(score))
            w.field("started", started)
            w.field("state", state)
            if let strict {
                w.field(
                    "strict",
                    JSONValue.object([("cooloff_s", JSONValue.exact(strict.coolOff)), ("ends_early", strict.endsEarly.map(JSONValue.str) ?? .null)]))
            }
            w.field("task", task)
            w.field("updated", JSONValue.exact(updated))
            w.field("worked_s", worked.map(JSONValue.exact))
        }
        return w.text
    }
}

/// A strict session in the status file (`StrictGate`).
public struct StrictStatus: Codable, Hashable, Sendable {
    /// Seconds from `vigil stop --early` to the session's end.
    public var coolOff: Double
    /// When the session ends early (RFC 3339), once asked for.
    public var endsEarly: String?

    enum CodingKeys: String, CodingKey {
        case coolOff = "cooloff_s"
        case endsEarly = "ends_early"
    }

    public init(coolOff: Double, endsEarly: String?) {
        self.coolOff = coolOff
        self.endsEarly = endsEarly
    }
}

/// The running session's status file in a data directory: written whole and renamed into place,
/// so a reader never sees half of it; removed when the session ends.
public struct SessionStatusFile: Sendable {
    public let path: String

    public init(dataDirectory: String) { path = dataDirectory + "/running-session.json" }

    /// The status a session left, or nil when there is none or it cannot be read. A pid that no
    /// session can have is not read: 0 and negative numbers name process groups (kill(-1) signals
    /// every process the user may signal) and 1 is init, so `vigil stop` must never signal them.
    public func read() -> SessionStatus? {
        guard let data = FileManager.default.contents(atPath: path),
            let status = try? JSONDecoder().decode(SessionStatus.self, from: data), status.pid > 1
        else { return nil }
        return status
    }

    /// Not synced: it is rewritten as the session goes and means nothing after a crash. No
    /// journal: a temporary left in the data directory is found there by `vigil forget`.
    public func write(_ status: SessionStatus) {
        guard let file = try? OutputWriter(path: path, what: "the session status") else { return }
        try? file.write(status.json.utf8)
        try? file.commit(sync: false)
    }

    public func remove() { unlink(path) }

    /// The session whose status is in the file, if a session holds the data directory's lock and
    /// the file's process is alive: a status file left behind, or put there by someone else, never
    /// makes `vigil stop` signal a process that is not a running session.
    public func running() -> SessionStatus? {
        let directory = FilePaths.directory(of: path)
        guard let s = read(), SessionLock.isHeld(dataDirectory: directory), Self.isAlive(s.pid) else { return nil }
        return s
    }

    /// The process exists; EPERM: it does, but is not ours to signal.
    public static func isAlive(_ pid: Int32) -> Bool { processExists(pid) }
}

/// The data directory's session lock (flock on `session.lock`): held by the running session, so a
/// second `vigil start` is refused even when both start in the same instant.
public final class SessionLock: @unchecked Sendable {
    // @unchecked: `fd` changes only in `release`, which the owner calls once, at the end.
    private var fd: Int32

    /// The lock file cannot be made; the message says what to do.
    public struct CannotCreate: PersonFacingError, Sendable {
        public var description: String
        public var exitStatus: ExitStatus { .cannotCreate }
    }

    /// nil when another process holds the lock; throws when the lock file cannot be made.
    public init?(dataDirectory: String) throws(CannotCreate) {
        let path = dataDirectory + "/session.lock"
        do {
            fd = try syscall("open", path: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        } catch {
            throw CannotCreate(
                description:
                    "\(path.terminalSafe): cannot create the session lock: \(error.reason). Fix the data directory's permissions or choose another with --data-dir."
            )
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
    }

    /// Whether a session holds the lock now (without creating the lock file or taking the lock).
    public static func isHeld(dataDirectory: String) -> Bool {
        let fd = open(dataDirectory + "/session.lock", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
