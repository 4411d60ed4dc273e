import Foundation
import VigilRuntime

/// The write end of the self-pipe the signal handler writes to (one per process: one command runs).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGHUP into values on a stream, so a long-running command ends
/// cleanly (closing its session or recording) instead of dying mid-write.
///
/// A real `sigaction` handler that writes the signal number to a pipe, read by a thread of its own.
/// Why not a DispatchSource: on Linux it needs the signal ignored (SIG_IGN) and registers its own
/// handling later, on dispatch's manager thread; a signal arriving in between is discarded, which
/// under load lost a SIGTERM sent right after the session started. Here the handler is in place
/// when `init` returns.
final class SignalWatch<Value: Sendable>: @unchecked Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation
    private let signals: [Int32]
    /// The handlers before, put back by `finish`: OutputFile's, which removes a temporary, stays
    /// in place for what the command writes after its loop.
    private var previous: [sigaction] = []
    private let readEnd: Int32

    init(_ map: [(Int32, Value)]) {
        (stream, continuation) = AsyncStream<Value>.makeStream()
        signals = map.map(\.0)
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        readEnd = fds[0]
        signalPipeWriteEnd = fds[1]
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                // Async-signal-safe: one write(2) of one byte.
                var byte = UInt8(truncatingIfNeeded: signo)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var before = sigaction()
            sigaction(sig, &action, &before)
            previous.append(before)
        }
        let values = Dictionary(map, uniquingKeysWith: { a, _ in a })
        let c = continuation
        let fd = readEnd
        let thread = Thread {
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1 {
                if let v = values[Int32(byte)] { c.yield(v) }
            }
            close(fd)
        }
        thread.name = "vigil-signals"
        thread.start()
    }

    /// Puts a value on the stream as if a signal had brought it (keys typed in the terminal).
    func inject(_ value: Value) { continuation.yield(value) }

    /// Restores the handlers from before and ends the stream.
    func finish() {
        for (sig, var before) in zip(signals, previous) { sigaction(sig, &before, nil) }
        continuation.finish()
        let w = signalPipeWriteEnd
        signalPipeWriteEnd = -1
        if w >= 0 { close(w) }
    }
}

/// A message for the person on standard error (`Diagnostics`).
func note(_ text: String) { Diagnostics.emit(text) }
