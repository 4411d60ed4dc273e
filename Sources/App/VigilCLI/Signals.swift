import Foundation
import SessionRuntime
import Synchronization
import SystemCalls

/// Turns SIGINT, SIGTERM and SIGHUP into values on a stream, so a long-running command ends
/// cleanly (closing its session or recording) instead of dying mid-write.
///
/// The process's one signal handler (`ProcessSignals`) writes the signal's number to a pipe, read
/// by a thread of its own. Why not a DispatchSource: on Linux it needs the signal ignored (SIG_IGN)
/// and registers its own handling later, on dispatch's manager thread; a signal arriving in
/// between is discarded, which under load lost a SIGTERM sent right after the session started.
/// Here the handler is in place when `init` returns.
final class SignalWatch<Value: Sendable>: @unchecked Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation
    /// What a signal does instead of putting a value on the stream (`on`).
    private let actions = Mutex<[Int32: @Sendable () -> Void]>([:])

    init(_ map: [(Int32, Value)]) {
        (stream, continuation) = AsyncStream<Value>.makeStream()
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        let readEnd = fds[0]
        ProcessSignals.watch(writingTo: fds[1])
        let values = Dictionary(map, uniquingKeysWith: { a, _ in a })
        let c = continuation
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                if let act = actions.withLock({ $0[Int32(byte)] }) {
                    act()
                } else if let v = values[Int32(byte)] {
                    c.yield(v)
                }
            }
            close(readEnd)
        }
        thread.name = "vigil-signals"
        thread.start()
    }

    /// Runs `body` on the watch's thread when `signo` comes (SIGUSR2: the session's inbox).
    func on(_ signo: Int32, _ body: @escaping @Sendable () -> Void) { actions.withLock { $0[signo] = body } }

    /// Puts a value on the stream as if a signal had brought it (keys typed in the terminal).
    func inject(_ value: Value) { continuation.yield(value) }

    /// Signals clean up and end the process again (what the command writes after its loop keeps
    /// its temporaries' cleanup); ends the stream.
    func finish() {
        continuation.finish()
        let w = ProcessSignals.stopWatching()
        if w >= 0 { close(w) }
    }
}

/// A message for the person on standard error (`Diagnostics`).
func note(_ text: String) { Diagnostics.emit(text) }
