import Synchronization
import VigilCore

/// Runs a Pomodoro plan beside a session: at the end of each work period a break, at the end of
/// the break a wait for the person, and the first sign of them by the session's presence rule
/// (`PresenceWatch`: input, the desktop's idle time or unlock, a call) ends the wait and starts the
/// next work period. Event-driven: the wait is a continuation that
/// `observe` resumes, not a poll. Generic over the clock, so tests step it on a `ManualClock`.
public final class PomodoroScheduler<C: Clock>: Sendable where C.Duration == Duration {
    public enum Step: Hashable, Sendable {
        /// Work period `period` (1-based) is over: the break starts.
        case breakStarts(period: Int)
        /// The break after work period `period` is over: waiting for the person.
        case waiting(period: Int)
        /// The person is back: the next work period starts.
        case resumed(period: Int)
    }

    public let plan: PomodoroPlan
    private let clock: C
    private let onStep: @Sendable (Step) -> Void
    private let state: Mutex<Waiting>

    private struct Waiting {
        var presence: PresenceWatch
        var period = 0
        var continuation: CheckedContinuation<Void, Never>?
        var isWaiting = false
    }

    /// - Parameter presence: the session's presence rule, from its configuration.
    public init(
        plan: PomodoroPlan, presence: PresenceWatch = PresenceWatch(VigilConfiguration()), clock: C, onStep: @escaping @Sendable (Step) -> Void
    ) {
        self.plan = plan
        self.clock = clock
        self.onStep = onStep
        state = Mutex(Waiting(presence: presence))
    }

    /// Whether the scheduler is waiting for the person to come back.
    public var isWaiting: Bool { state.withLock { $0.isWaiting } }

    /// Runs the plan until the task is cancelled.
    public func run() async {
        var period = 0
        while !Task.isCancelled {
            period += 1
            do { try await clock.sleep(for: .seconds(plan.work)) } catch { return }
            onStep(.breakStarts(period: period))
            do { try await clock.sleep(for: .seconds(plan.breakLength(after: period))) } catch { return }
            let p = period
            await withTaskCancellationHandler {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    state.withLock {
                        $0.period = p
                        $0.isWaiting = true
                        $0.continuation = c
                    }
                    onStep(.waiting(period: p))
                }
            } onCancel: {
                state.withLock { s in
                    s.isWaiting = false
                    s.continuation.take()?.resume()
                }
            }
        }
    }

    /// A sample the session received: every one is watched (input seen during the break is no
    /// return), and while waiting, one that shows the person ends the wait.
    public func observe(_ sample: Sample) {
        let back: (CheckedContinuation<Void, Never>, Int)? = state.withLock { s in
            guard s.presence.observe(sample), s.isWaiting, let c = s.continuation.take() else { return nil }
            s.isWaiting = false
            return (c, s.period)
        }
        guard let (continuation, period) = back else { return }
        onStep(.resumed(period: period))
        continuation.resume()
    }
}
