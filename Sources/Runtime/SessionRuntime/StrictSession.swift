import Synchronization
import VigilCore

/// A strict session's guard (issue 36; `vigil start --strict`, `session.strict`): a commitment
/// device, as Freedom's locked sessions are, and the design's alarm that cannot be cancelled until
/// the person is back. Before its planned end the session cannot be ended (q, Ctrl-C, `vigil
/// stop`, SIGTERM, a closed terminal), paused, put on a break the plan did not make, or snoozed;
/// the alarms and actions go on until the person is back. Ending early is possible, but only
/// `coolOff` after asking (`vigil stop --early`), a delay set in the config beforehand, so the urge
/// of the moment passes first. Once the plan is reached the session ends by itself, as any does.
///
/// Each command is judged as it arrives; the session never sees a refused one.
public final class StrictGate: Sendable {
    public enum Verdict: Equatable, Sendable {
        case pass
        /// Not done, and why (told to the person).
        case refuse(String)
        /// The early end asked for: the session ends after the cooling-off.
        case endAfterCoolOff(Double)
    }

    public let coolOff: Double
    /// A Pomodoro plan's breaks are the plan's own: they are let through.
    private let plannedBreaks: Bool
    private let endAsked = Mutex(false)

    public init(coolOff: Double, plannedBreaks: Bool) {
        self.coolOff = coolOff
        self.plannedBreaks = plannedBreaks
    }

    public var earlyEndAsked: Bool { endAsked.withLock { $0 } }

    public func judge(_ command: LiveCommand) -> Verdict {
        let howToEnd = "`vigil stop --early` ends it \(humanDuration(coolOff)) after you ask"
        switch command {
        case .control(.end):
            return .refuse("a strict session: q, Ctrl-C and `vigil stop` do not end it before its planned end; " + howToEnd)
        case .end(.interrupted):
            return .refuse("a strict session goes on through SIGTERM and a closed terminal; " + howToEnd)
        case .control(.pause):
            return .refuse("a strict session cannot be paused; " + howToEnd)
        case .control(.breakTime) where !plannedBreaks:
            return .refuse("a strict session has no breaks but its Pomodoro plan's; " + howToEnd)
        case .control(.snooze):
            return .refuse("no snoozes in a strict session: the alarm stops when you are back at work")
        case .endEarly:
            let first = endAsked.withLock { asked in
                defer { asked = true }
                return !asked
            }
            return first ? .endAfterCoolOff(coolOff) : .refuse("the early end is asked already")
        case .learn:
            // A rule taught in the moment would be a way out of the commitment.
            return .refuse("a strict session learns no rules while it runs: `vigil episode N --was work` afterwards")
        case .control, .end:
            return .pass
        }
    }
}
