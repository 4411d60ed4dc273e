import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into values on a stream, so a long-running command ends
/// cleanly (closing its session or recording) instead of dying mid-write.
final class SignalWatch<Value: Sendable>: @unchecked Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation
    private var sources: [any DispatchSourceSignal] = []

    init(_ map: [(Int32, Value)]) {
        (stream, continuation) = AsyncStream<Value>.makeStream()
        for (sig, value) in map {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            let c = continuation
            source.setEventHandler { c.yield(value) }
            source.resume()
            sources.append(source)
        }
    }

    func finish() {
        continuation.finish()
        for s in sources { s.cancel() }
    }
}

/// Standard error, one line at a time.
func note(_ text: String) {
    FileHandle.standardError.write(Data("vigil: \(text)\n".utf8))
}
