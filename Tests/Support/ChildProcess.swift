import Foundation

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Why not Foundation's `Process`: on Linux its monitoring thread reaps children with a blocking
/// `waitpid` per process, so while one long-lived child (a sound server) runs, a short one (`pactl`)
/// is never seen to exit and `waitUntilExit()` hangs. Tests that run a server next to tools use this.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `arguments`; standard output and error go to `output` (a file path) or
    /// /dev/null. `environment` replaces the test's environment when given.
    public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, output: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let target = output ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for e in env { free(e) } }
        // The child starts with no signal blocked and every signal at its default: the test's
        // threads (Swift concurrency, dispatch) block most signals, and a spawned process inherits
        // that mask, so `kill(SIGINT)` would otherwise never reach, say, parecord.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, env)
        guard rc == 0 else { throw ChildProcessError(message: "cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Waits for the exit and returns the exit status (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let s = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = s
        return s
    }

    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        return waitpid(pid, &raw, WNOHANG) == 0
            ? true
            : {
                status = (raw >> 8) & 0xff
                return false
            }()
    }

    public func kill(_ signal: Int32 = SIGKILL) {
        guard status == nil else { return }
        Foundation.kill(pid, signal)
        wait()
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Runs a tool to completion and returns its exit status and combined output. `environment`
/// replaces the test's environment when given.
public func runTool(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> (status: Int32, output: String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-tool-\(UUID().uuidString).out").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard let child = try? ChildProcess(path, arguments, environment: environment, output: file) else { return (-1, "cannot start \(path)") }
    let status = child.wait()
    return (status, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
}
