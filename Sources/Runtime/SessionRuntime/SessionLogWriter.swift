import Foundation
import Synchronization
import VigilCore
import VigilStore

/// What the log writer has to say about the log during a session.
public enum LogWriterNews: Sendable {
    /// A write failed (disk full, read-only, I/O error): the events are kept in memory.
    case failing(StoreError, waiting: Int)
    /// The log can be written again: the events that waited are in it.
    case recovered(written: Int)
}

/// Writes a live session's events to the log as they come: one durable transaction per batch.
///
/// When the log cannot be written (the disk is full, the data directory became read-only, an I/O
/// error), the session must go on with its alarms and lose nothing that can be saved: the events
/// wait in memory, in order, and every later write (at the latest the heartbeat every few seconds)
/// tries again, oldest first. A failed write is one rolled-back transaction, so the log never
/// holds half a batch. Only if the log still cannot be written when the session ends are the
/// waiting events lost, and `finish()` says how many.
public final class SessionLogWriter: @unchecked Sendable {
    private let store: EventStore
    private let lock = NSLock()
    private var sessionId: Int64?
    /// Events not yet in the log, oldest first (the first is `sessionStarted` until the session row exists).
    private var waiting: [SessionEvent] = []
    private var waitingDeliveries: [AlarmDelivery] = []
    private var waitingTouch: Timestamp?
    /// The current write failure; `nil` while the log is being written.
    private var failure: StoreError?
    /// Events dropped because the buffer was full (`bufferLimit`).
    private var dropped = 0
    private let news: @Sendable (LogWriterNews) -> Void

    /// How many events may wait: far more than a day of sessions logs (a session logs tens of
    /// events; even the stress profile a few hundred), and a bound on the memory they take.
    public static let bufferLimit = 100_000

    private let taskId: Int64?
    private let tags: [String]
    private let intent: String?
    private let source: SessionSource

    /// - Parameters: taskId: the task in the person's list the session is for, if any; source:
    ///   `live`, or `rehearsal` for a recording played as live; news: told when writing starts
    ///   failing and when it works again (once each way); tags: the session's (`start --tag`);
    ///   intent: what the person means to do in it (`start --intent`).
    public init(
        store: EventStore, taskId: Int64? = nil, tags: [String] = [], intent: String? = nil, source: SessionSource = .live,
        news: @escaping @Sendable (LogWriterNews) -> Void = { _ in }
    ) {
        self.store = store
        self.taskId = taskId
        self.tags = tags
        self.intent = intent
        self.source = source
        self.news = news
    }

    public func write(_ events: [SessionEvent]) {
        lock.lock()
        defer { lock.unlock() }
        let room = Self.bufferLimit - waiting.count
        if events.count > room {
            // Keep the session's start (the rest refers to it); drop what does not fit.
            dropped += events.count - max(room, 0)
            waiting += events.prefix(max(room, 0))
        } else {
            waiting += events
        }
        flush()
    }

    /// Records that the session was alive at `at` (every few seconds): if the process is killed,
    /// the next start closes the session there. Also the moment a failed log is tried again.
    public func touch(_ at: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        waitingTouch = max(waitingTouch ?? at, at)
        flush()
    }

    /// Logs what the alarm channels did (after the session's own events: the session must exist).
    public func write(_ delivery: AlarmDelivery) {
        lock.lock()
        defer { lock.unlock() }
        if waitingDeliveries.count < Self.bufferLimit { waitingDeliveries.append(delivery) } else { dropped += 1 }
        flush()
    }

    /// A last try at the end of the session. Returns how many events and deliveries are not in
    /// the log (0 when everything is), with the reason.
    public func finish() -> (lost: Int, reason: StoreError?) {
        lock.lock()
        defer { lock.unlock() }
        flush()
        return (waiting.count + waitingDeliveries.count + dropped, failure)
    }

    /// Writes what waits, oldest first. Called with the lock held.
    private func flush() {
        let hadFailed = failure != nil
        // What waited before this write (the last batch is counted too: it waited behind them).
        let count = waiting.count + waitingDeliveries.count
        do {
            if sessionId == nil, let first = waiting.first, case .sessionStarted(let task, let planned) = first.kind {
                sessionId = try store.beginSession(
                    task: task, taskId: taskId, tags: tags, source: source, recording: nil, startedAt: first.time, plannedSeconds: planned,
                    intent: intent)
                waiting.removeFirst()
            }
            guard let id = sessionId else { return }
            if !waiting.isEmpty {
                try store.append(waiting, session: id)
                waiting.removeAll(keepingCapacity: true)
            }
            if !waitingDeliveries.isEmpty {
                try store.appendDeliveries(waitingDeliveries, session: id)
                waitingDeliveries.removeAll(keepingCapacity: true)
            }
            if let t = waitingTouch {
                try store.touch(session: id, at: t)
                waitingTouch = nil
            }
            if hadFailed {
                failure = nil
                news(.recovered(written: count))
            }
        } catch {
            failure = error
            if !hadFailed { news(.failing(error, waiting: waiting.count + waitingDeliveries.count)) }
        }
    }

    public var session: Int64? {
        lock.lock()
        defer { lock.unlock() }
        return sessionId
    }
}
