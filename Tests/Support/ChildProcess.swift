import Foundation

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Why not Foundation's `Process`: on Linux its monitoring thread reaps children with a blocking
/// `waitpid` per process, so while one long-lived child (a sound server) runs, a short one (`pactl`)
/// is never seen to exit and `waitUntilExit()` hangs. Tests that run a server next to tools use this.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private var status: Int32?
    /// The signal that ended it, if one did (`wait()` returns 128 + it).
    public private(set) var signal: Int32?

    /// Starts `path` with `arguments`; standard output and error go to `output` (a file path) or
    /// /dev/null. `environment` replaces the test's environment when given.
    public convenience init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, output: String? = nil) throws {
        try self.init(path, arguments, environment: environment, stdout: output ?? "/dev/null", stderr: nil)
    }

    /// Starts `path` with `arguments`, standard input read from `stdin` (or /dev/null), standard
    /// output written to `stdout` and standard error to `stderr` (nil: where standard output goes),
    /// in `directory` (or the test's).
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil, stdout: String,
        stderr: String?, directory: String? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let stderr {
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        if let directory {
            guard let addChdir = spawnAddChdir else { throw ChildProcessError(message: "this C library cannot start a process in a directory") }
            _ = addChdir(&actions, directory)
        }
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
        if (raw & 0x7f) != 0 { signal = raw & 0x7f }
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

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which Swift's Glibc module does
/// not declare (it is behind _GNU_SOURCE): looked up by name.
private let spawnAddChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}()

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
