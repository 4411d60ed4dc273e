import Foundation
import Synchronization
import Testing
import VigilCore
import VigilTesting

/// Collects a detector's readings in the background, stamped on the wall clock as they come (as a
/// session stamps them), on a thread of its own: with both cores busy
/// and the cooperative pool's two threads held by other tests' waits, a collecting task on the
/// pool could see a detector's samples only tens of seconds late, and a test waiting for them
/// would give up while they were there.
public final class Collector: Sendable {
    final class Store: Sendable {
        let samples = Mutex<[Sample]>([])
    }
    let store = Store()
    let task: Task<Void, Never>

    public init(_ stream: AsyncStream<SamplePayload>) {
        let store = self.store
        let executor = ThreadExecutor()
        task = Task(executorPreference: executor) {
            defer { executor.finish() }
            for await reading in stream { store.samples.withLock { $0.append(Sample(time: wallClock(), payload: reading)) } }
        }
    }

    public var all: [Sample] { store.samples.withLock { $0 } }
    public var levels: [AudioLevel] { all.compactMap { if case .audio(let a) = $0.payload { a } else { nil } } }
    public var statuses: [SensorStatus] { all.compactMap { if case .status(let s) = $0.payload { s } else { nil } } }
    public var fixes: [LocationFix] { all.compactMap { if case .location(let f) = $0.payload { f } else { nil } } }
    public var media: [MediaActivity] { all.compactMap { if case .media(let m) = $0.payload { m } else { nil } } }
    public var apps: [AppFocus] { all.compactMap { if case .app(let a) = $0.payload { a } else { nil } } }
    public var desktop: [DesktopEvent] { all.compactMap { if case .desktop(let d) = $0.payload { d } else { nil } } }
    /// The idle readings, in seconds, oldest first.
    public var idle: [Double] { desktop.compactMap { if case .idle(let s) = $0 { s } else { nil } } }
    public var states: [SensorState] { all.compactMap { if case .status(let s) = $0.payload { s.state } else { nil } } }

    /// Waits for `condition`, polling every 50 ms (the other side is a real process), up to `timeout` s.
    public func wait(timeout: Double, _ condition: (Collector) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }

    public func stop() { task.cancel() }
}

/// Runs the jobs of the tasks that prefer it on one thread of its own, until `finish()` and its
/// last job (a task preferring it runs there whenever it is not suspended).
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "collector"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// No more jobs will come: the thread ends once it has run those it has.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

public let wallClock: @Sendable () -> Timestamp = { Timestamp(seconds: Date().timeIntervalSince1970) }

/// A TCP port nothing listens on right now.
public func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// Yields (never sleeps) until `condition` holds or `tries` yields have passed: for tests on a
/// manual clock, which move the clock on either way once another task had its chance.
public func yieldUntil(tries: Int = 100_000, _ condition: () -> Bool) async {
    for _ in 0..<tries where !condition() { await Task.yield() }
}

/// Waits, by yielding (never sleeping: the tests' clocks are manual), until `condition` holds;
/// a test issue names `what` was not reached after `tries` yields. The tests that drive a live
/// session, a runner, a scheduler or a daemon on a manual clock all wait this way.
public func settle(
    _ what: String = "the expected point", tries: Int = 200_000, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async {
    for _ in 0..<tries {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("did not reach \(what) after \(tries) yields", sourceLocation: sourceLocation)
}

/// Waits until something sleeps on `clock` (or `done` holds): the code under test has done what
/// it could and waits for the time to move.
public func settle(
    sleepingOn clock: ManualClock, tries: Int = 100_000, sourceLocation: SourceLocation = #_sourceLocation, until done: () -> Bool = { false }
) async {
    await settle("a sleeper on the clock", tries: tries, sourceLocation: sourceLocation) { clock.sleeperCount > 0 || done() }
}
