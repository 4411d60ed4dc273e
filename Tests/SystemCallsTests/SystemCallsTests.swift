import Glibc
import SystemCalls
import Testing

/// The errno funnel: errno is read at the failing call, EINTR is retried where the call allows
/// it, and the message is the call's name and the C library's text.
@Suite struct SystemCallsTests {
    @Test func aFailedCallKeepsTheErrnoOfTheCall() {
        do {
            try syscall("open", path: "/nonexistent/vigil") { open("/nonexistent/vigil", O_RDONLY) }
            Issue.record("open of a missing file succeeded")
        } catch {
            // Whatever runs after the call (here: another failing call) does not change the error.
            _ = close(-1)
            #expect(errno == EBADF)
            #expect(error == SystemError(call: "open", errno: ENOENT, path: "/nonexistent/vigil"))
        }
    }

    @Test func anInterruptedCallIsMadeAgain() throws {
        var calls = 0
        let result = try syscall("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func anInterruptedCallThatMustNotBeRepeatedFails() {
        var calls = 0
        #expect(throws: SystemError(call: "close", errno: EINTR)) {
            try syscall("close", restartable: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func aNullPointerIsAFailureWithItsErrno() throws {
        #expect(throws: SystemError(call: "fopen", errno: ENOENT, path: "/nonexistent/vigil")) {
            try syscallPointer("fopen", path: "/nonexistent/vigil") { fopen("/nonexistent/vigil", "rb") }
        }
        let file = try syscallPointer("fopen", path: "/dev/null") { fopen("/dev/null", "rb") }
        fclose(file)
    }

    @Test func aFunctionThatSetsErrnoIsReadAtOnce() {
        errno = ENOSPC
        let error = SystemError.current(call: "fwrite", path: "/tmp/r.jsonl")
        errno = 0
        #expect(error.errno == ENOSPC)
    }

    @Test func messagesNameTheCallTheFileAndTheReason() {
        #expect(SystemError(call: "fsync", errno: EIO).description == "fsync: Input/output error")
        let e = SystemError(call: "open", errno: ENOENT, path: "/x.jsonl")
        #expect(e.description == "open /x.jsonl: No such file or directory")
        #expect(e.reason == "No such file or directory")
        #expect(SystemError(call: "write", errno: EINTR).isInterrupted)
    }

    @Test func aDirectoryAlreadyThereCountsAsMade() throws {
        try makeDirectory("/tmp", mode: 0o700)
        #expect(throws: SystemError(call: "mkdir", errno: ENOENT, path: "/nonexistent/vigil")) {
            try makeDirectory("/nonexistent/vigil", mode: 0o700)
        }
    }

    @Test func timeoutsOfAnyLengthBecomeMillisecondsWithoutStopping() {
        #expect(timeoutMilliseconds(1.5) == 1500)
        #expect(timeoutMilliseconds(0.0004) == 0)
        #expect(timeoutMilliseconds(-3) == 0)
        #expect(timeoutMilliseconds(.nan) == 0)
        // A configured poll of 1e13 s (which `Int32(x * 1000)` traps on) waits as long as C allows.
        #expect(timeoutMilliseconds(1e13) == Int32.max)
        #expect(timeoutMilliseconds(.infinity) == Int32.max)
    }
}
