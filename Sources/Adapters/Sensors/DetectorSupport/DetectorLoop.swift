import Foundation
import Synchronization
import SystemCalls
import VigilCore

/// What every live detector needs around its C library: a thread of its own (libgps blocks, libinput
/// and libpulse want their own loops), a stop signal from the consuming task, deduplicated status
/// reports, and a growing delay between reconnection attempts.
///
/// Kept out of `VigilCore` because it sleeps and starts threads; the core holds no I/O.
public final class DetectorContext: Sendable {
    public let sensor: SensorKind
    private let continuation: AsyncStream<SamplePayload>.Continuation
    private let stopped = Atomic<Bool>(false)
    /// The last state reported; emitting under the same lock keeps a status and the samples that
    /// follow it in order when two threads (a controller and a C library's loop) both emit.
    private let reported = Mutex<SensorState?>(nil)

    /// Written once when the session stops: a detector's waits include its read end, so they
    /// sleep until their server says something or the session stops, never polling.
    private let stopPipe = WakePipe()

    init(sensor: SensorKind, continuation: AsyncStream<SamplePayload>.Continuation) {
        self.sensor = sensor
        self.continuation = continuation
    }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() {
        stopped.store(true, ordering: .relaxed)
        stopPipe.signal()
    }

    /// Readable once the session has stopped: give it to `poll` next to the server's socket
    /// (`waitReadable(_:orStop:seconds:)`).
    public var stopDescriptor: Int32 { stopPipe.descriptor }

    /// The state last reported, nil before the first report.
    public var lastReported: SensorState? { reported.withLock { $0 } }

    /// Reports a change of the sensor's health; repeating the current state says nothing.
    public func report(_ state: SensorState, _ detail: String) {
        reported.withLock { last in
            guard last != state else { return }
            last = state
            continuation.yield(.status(SensorStatus(sensor: sensor, state: state, detail: detail)))
        }
    }

    /// Reports that the sensor cannot be reached: `.unavailable` if it never worked in this session
    /// (said once, however often the retries fail), `.lost` if it did.
    public func reportFailure(_ detail: String) {
        switch lastReported {
        case nil, .unavailable?, .permissionDenied?: report(.unavailable, detail)
        default: report(.lost, detail)
        }
    }

    /// Emits a reading (the session stamps it as it takes it). Its numbers are brought into the
    /// ranges a recording may hold (`SampleLimits`): a sensor's glitch, an idle time of 2^64 ms or a
    /// NaN level, must not stop the session later nor write a recording that cannot be read back.
    public func emit(_ payload: SamplePayload) {
        let reading = SampleLimits.clamped(payload)
        reported.withLock { _ in _ = continuation.yield(reading) }
    }

    /// Sleeps for `seconds`, waking at once when the session stops.
    public func sleep(seconds: Double) {
        guard !isStopped, seconds > 0 else { return }
        if stopPipe.descriptor >= 0 {
            waitReadable(-1, orStop: stopPipe.descriptor, seconds: seconds)
        } else {
            var left = seconds
            while left > 0, !isStopped {
                let step = min(left, 0.1)
                usleep(useconds_t(step * 1_000_000))
                left -= step
            }
        }
    }

    /// Runs `body` on a new thread named `name` and returns its readings. The thread sees
    /// `isStopped` become true when the consumer stops listening, and the stream finishes when
    /// `body` returns.
    public static func readings(
        sensor: SensorKind, threadName: String, body: @escaping @Sendable (DetectorContext) -> Void
    ) -> AsyncStream<SamplePayload> {
        // Bounded, newest kept: a consumer that stalls for minutes must not make a detector grow
        // without limit; a reading every second, 4096 of them are over an hour.
        let (stream, continuation) = AsyncStream<SamplePayload>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let context = DetectorContext(sensor: sensor, continuation: continuation)
        continuation.onTermination = { _ in context.stop() }
        let thread = Thread {
            body(context)
            continuation.finish()
        }
        thread.name = threadName
        thread.start()
        return stream
    }
}

/// How one attempt of a detector on its server ended (`DetectorContext.keepConnecting`).
public enum ConnectionEnd: Sendable {
    /// The session stopped.
    case stopped
    /// It worked, then was lost: the sentence for the person; the next attempt comes after the
    /// shortest delay again.
    case lost(String)
    /// It could not work: the reason with the remedy.
    case failed(String)
}

extension DetectorContext {
    /// The loop of every detector that talks to a server (X11, Wayland, i3/sway, D-Bus, PulseAudio,
    /// gpsd): one `attempt` at a time; a loss or a failure is reported (`reportFailure`, which says
    /// a failure once however often it repeats) and the next attempt waits a growing delay, back to
    /// the shortest after a connection that worked, until the session stops.
    public func keepConnecting(retry: Backoff, _ attempt: () -> ConnectionEnd) {
        var backoff = retry
        while !isStopped {
            let end = attempt()
            if isStopped { return }
            switch end {
            case .stopped: return
            case .lost(let why):
                backoff.reset()
                reportFailure(why)
            case .failed(let why): reportFailure(why)
            }
            sleep(seconds: backoff.next())
        }
    }
}

/// A pipe one thread writes to wake another's `poll`: the session's stop, a connection's change
/// of state. Level-triggered: once signalled it stays readable until drained, so a signal sent
/// between a check and the wait that follows is not lost. Both ends are non-blocking and closed
/// on exec; if the pipe cannot be made, `descriptor` is -1 and waits fall back to their timeouts.
public final class WakePipe: Sendable {
    /// The read end, for `poll`.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    /// Makes `descriptor` readable. A full pipe is already readable, so a failed write loses nothing.
    public func signal() {
        var byte: UInt8 = 1
        if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
    }

    /// Empties the pipe, so the next wait sleeps until the next signal.
    public func drain() {
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }
}

/// The delay before the next reconnection attempt: `first`, doubling up to `longest`, back to
/// `first` after a success. A server that is restarted is picked up within `longest` seconds.
public struct Backoff: Sendable {
    public let first: Double
    public let longest: Double
    private var current: Double

    /// A sensor's reconnections: half a second, doubling up to half a minute.
    public static let reconnect = Backoff(first: 0.5, longest: 30)

    public init(first: Double, longest: Double) {
        self.first = first
        self.longest = max(first, longest)
        current = first
    }

    public mutating func next() -> Double {
        defer { current = min(current * 2, longest) }
        return current
    }

    public mutating func reset() { current = first }
}
