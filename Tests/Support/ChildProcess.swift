import Foundation

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Why not Foundation's `Process`: on Linux its monitoring thread reaps children with a blocking
/// `waitpid` per process, so while one long-lived child (a sound server) runs, a short one (`pactl`)
/// is never seen to exit and `waitUntilExit()` hangs. Tests that run a server next to tools use this.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// Guards `ended`: a test may poll `isRunning` from a watcher thread while another waits.
    private let lock = NSLock()
    private var ended: (status: Int32, signal: Int32?)?

    /// Starts `path` with `arguments`; standard output and error go to `output` (a file path) or
    /// /dev/null. `environment` replaces the test's environment when given.
    public convenience init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, output: String? = nil) throws {
        try self.init(path, arguments, environment: environment, stdout: output ?? "/dev/null", stderr: nil)
    }

    /// Starts `path` with `arguments`, standard input read from `stdin` (or /dev/null), standard
    /// output written to `stdout` and standard error to `stderr` (nil: where standard output goes),
    /// in `directory` (or the test's).
    /// - Parameters:
    ///   - descriptors: the test's open descriptors the child gets as its own (child's number:
    ///     test's descriptor), after the files above, e.g. `[1: writeEndOfAPipe]`.
    ///   - ownGroup: starts the child in a process group of its own, so that `kill(-pid, …)`
    ///     reaches what it starts too (gpsfake's gpsd).
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil, stdout: String,
        stderr: String?, directory: String? = nil, descriptors: [Int32: Int32] = [:], ownGroup: Bool = false
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
        for (child, mine) in descriptors.sorted(by: { $0.key < $1.key }) { posix_spawn_file_actions_adddup2(&actions, mine, child) }
        // Nothing else of the test's: a socket or pipe end a child inherits stays open while the
        // child runs, so a test that closes it would wait for an end that never comes (Foundation's
        // Process closed them too).
        if let addClosefrom = spawnAddClosefrom { _ = addClosefrom(&actions, max(3, (descriptors.keys.max() ?? 0) + 1)) }
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
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, env)
        guard rc == 0 else { throw ChildProcessError(message: "cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Waits for the exit and returns the exit status (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        reap(blocking: true)
        return lock.withLock { ended?.status ?? -1 }
    }

    /// Waits for the exit on a thread of its own, not one of Swift's cooperative threads (a test
    /// waiting many seconds must not starve the async tests beside it on a 2-core machine).
    @discardableResult
    public func exited() async -> Int32 {
        await offPool { self.wait() }
    }

    /// The signal that ended it, if one did (`wait()` returns 128 + it).
    public var signal: Int32? { lock.withLock { ended?.signal } }

    /// How it ended, as `wait()` returns it; nil while it runs or before it is waited for.
    public var exitStatus: Int32? { lock.withLock { ended?.status } }

    /// Whether it still runs (a child that ended is reaped here, so it never lingers as a zombie
    /// that `kill(pid, 0)` would still find).
    public var isRunning: Bool {
        reap(blocking: false)
        return lock.withLock { ended == nil }
    }

    /// Sends `signal` (unless it has ended) and waits for the exit.
    public func kill(_ signal: Int32 = SIGKILL) {
        if isRunning { Foundation.kill(pid, signal) }
        wait()
    }

    /// Asks it to end (SIGTERM) and waits.
    public func terminate() { kill(SIGTERM) }

    /// Reaps the child if it has ended (or, `blocking`, when it ends). The waiting itself holds no
    /// lock, so a watcher's `isRunning` never waits behind another thread's `wait()`.
    private func reap(blocking: Bool) {
        if lock.withLock({ ended != nil }) { return }
        var raw: Int32 = 0
        var got: pid_t
        repeat { got = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while got < 0 && errno == EINTR
        if got < 0 {
            // Reaped by another thread's wait, which is about to store what it read.
            for _ in 0..<200 where lock.withLock({ ended == nil }) { usleep(10_000) }
        }
        lock.withLock {
            guard ended == nil else { return }
            if got == pid {
                let signal = raw & 0x7f
                ended = signal == 0 ? ((raw >> 8) & 0xff, nil) : (128 + signal, signal)
            } else if got < 0 {
                ended = (-1, nil)
            }
        }
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which Swift's Glibc module does
/// not declare (it is behind _GNU_SOURCE): looked up by name.
private let spawnAddChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}()

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up by name as above.
private let spawnAddClosefrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
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

/// `runTool` waited for on a thread of its own, not one of Swift's cooperative threads.
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String]? = nil) async -> (status: Int32, output: String) {
    await offPool { runTool(path, arguments, environment: environment) }
}

/// Runs `body` on a thread of its own and waits for it without holding one of Swift's cooperative
/// threads: a test that waits for processes for many seconds must not, or the async tests running
/// beside it (a live session on real sensors) starve on a 2-core machine.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { c in
        Thread { c.resume(with: Result { try body() }) }.start()
    }
}

/// `offPool` for a body that cannot fail.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { c in Thread { c.resume(returning: body()) }.start() }
}

/// Polls until `condition` holds or `seconds` pass, every 100 ms (a loaded machine only makes it
/// slower); whether it held.
public func eventually(_ seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return try condition()
}
