#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call or C library function: which call, the errno it set, and the file it was about.
///
/// Built where the call fails, with errno read before anything else runs: errno is one
/// thread-local value that any later call (a `close` in cleanup, `free`, an allocation) may
/// overwrite, so a message formatted from errno a few lines later can name the wrong error.
/// This type and the `syscall` functions are the one place in Vigil where errno becomes text;
/// each C library with its own codes has its own error type in the module that imports it
/// (`LibinputError`, `PulseError`, `GPSDError`).
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The function that failed, as its manual page names it (`open`, `fsync`, `fopen`).
    public var call: String
    /// The errno the call left, e.g. `ENOENT`.
    public var errno: Int32
    /// The file the call was about, when there is one.
    public var path: String?

    public init(call: String, errno: Int32, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    /// The error of a C function that has just failed and set errno (stdio's `fwrite`, `fflush`;
    /// `udev_new`). Call it first thing after the failing call, before any cleanup.
    @inline(__always)
    public static func current(call: String, path: String? = nil) -> SystemError {
        SystemError(call: call, errno: currentErrno(), path: path)
    }

    /// What the C library says about the errno: "No such file or directory".
    ///
    /// Vigil's messages put this after their own words ("/x.jsonl: cannot open: No such file or
    /// directory"), so it is separate from `description`.
    public var reason: String { String(cString: strerror(errno)) }

    /// "open: No such file or directory", or with the file "open /x.jsonl: No such file or directory".
    public var description: String {
        if let path { return "\(call) \(path): \(reason)" }
        return "\(call): \(reason)"
    }

    /// The call was interrupted by a signal before it did anything (EINTR).
    public var isInterrupted: Bool { errno == EINTR }
}

/// The calling thread's errno. A function of its own because `SystemError.errno` shadows the
/// global inside the type.
@inline(__always)
func currentErrno() -> Int32 { errno }

/// Runs a system call and returns its result; throws a `SystemError` with errno read at the call
/// when it fails (returns -1).
///
/// A call a signal interrupted (EINTR) is made again when it is `restartable`, as `SA_RESTART`
/// would: Vigil's own handlers ask for SA_RESTART, but a handler a library installs may not, and
/// an interrupted `write` or `open` of a FIFO is not a failure. Pass `restartable: false` for `close` (Linux frees the descriptor even when
/// close reports EINTR, so a retry could close another thread's new file) and for calls whose
/// EINTR is the answer the caller waits for.
///
/// Modelled on swift-nio's `syscall` (`Sources/NIOPosix/System.swift`).
///
/// - Parameters:
///   - name: the call's name for the message, as its manual page names it.
///   - path: the file the call is about, kept in the error.
@inline(__always)
@discardableResult
public func syscall<T: FixedWidthInteger>(
    _ name: String, path: String? = nil, restartable: Bool = true, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        guard result < 0 else { return result }
        let code = currentErrno()
        if code == EINTR && restartable { continue }
        throw SystemError(call: name, errno: code, path: path)
    }
}

/// Runs a C function that returns a pointer, NULL with errno set on failure (`fopen`, `fdopen`),
/// and returns the pointer; throws a `SystemError` with errno read at the call on NULL.
///
/// EINTR is retried as by `syscall(_:path:restartable:_:)`: `fopen` of a FIFO may be interrupted.
@inline(__always)
public func syscallPointer<P>(
    _ name: String, path: String? = nil, restartable: Bool = true, _ body: () -> P?
) throws(SystemError) -> P {
    while true {
        if let result = body() { return result }
        let code = currentErrno()
        if code == EINTR && restartable { continue }
        throw SystemError(call: name, errno: code, path: path)
    }
}

/// mkdir(2) where an entry already there counts as made (EEXIST), as when another process made
/// the directory first. Whether the entry is a directory is the caller's to check.
public func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
    do {
        try syscall("mkdir", path: path) { mkdir(path, mode) }
    } catch  where error.errno == EEXIST {}
}

/// Milliseconds for a C timeout argument (`poll`, libdbus), from seconds: negative and NaN become
/// 0, and anything longer than `Int32.max` milliseconds (24 days) is capped, where `Int32(x * 1000)`
/// would stop the program on a large configured value.
public func timeoutMilliseconds(_ seconds: Double) -> Int32 {
    let ms = (seconds * 1000).rounded()
    guard ms > 0 else { return 0 }
    return ms >= Double(Int32.max) ? Int32.max : Int32(ms)
}

/// Waits until `fd` can be read, or `stop` can (the other side asks to stop), or `seconds` pass.
/// True when `fd` is readable. One `poll`, so a detector waiting for its server's next message
/// sleeps until something happens instead of waking every tenth of a second to look.
@discardableResult
public func waitReadable(_ fd: Int32, orStop stop: Int32, seconds: Double) -> Bool {
    var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
    let count = fd >= 0 ? 2 : 1
    let ready = fds.withUnsafeMutableBufferPointer { b in
        (try? syscall("poll") { poll(fd >= 0 ? b.baseAddress! : b.baseAddress! + 1, nfds_t(count), timeoutMilliseconds(seconds)) }) ?? 0
    }
    return ready > 0 && fd >= 0 && fds[0].revents != 0
}

/// CLOCK_MONOTONIC in seconds: a clock that does not jump, for the detectors' own deadlines (and
/// libinput's event clock).
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The text a C function wrote into `buffer`, up to its NUL (all of it without one), as UTF-8 with
/// invalid bytes replaced: libdbus's error names, libpulse's and dlerror's reasons.
public func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
