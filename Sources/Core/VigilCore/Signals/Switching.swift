import DequeModule

// App switching: scattered attention (cause `switching`).

/// App switches in the scorer's window: "14 app switches in 2 min".
public struct SwitchDetail: ScoreDetail {
    public var count: Int
    public var window: Double
    public var reason: String { "\(count) app switches in \(humanMinutes(window))" }
}

/// Scores the number of app switches in a sliding window.
///
/// Where the application in front is known (`app` samples), each change of it is a switch, and
/// libinput's Alt+Tab, Super, workspace and swipe gestures no longer count: they are the same
/// switches seen twice. Ctrl+Tab (tabs inside one application) still counts.
public struct SwitchingScorer: SignalScorer {
    public var sensor: SensorKind { .input }
    public var sensors: [SensorKind] { countsFocus ? [.input, .app] : [.input] }
    public var cause: Cause { .switching }
    public var weight: Double { config.weight }
    public let config: VigilConfiguration.Switching
    /// `apps.count_switches` with the app signal on.
    public let countsFocus: Bool
    private var recent = Deque<(time: Timestamp, count: Int)>()
    private var total = 0
    /// The application in front, once an app sample said.
    private var focused: String?

    public init(config: VigilConfiguration.Switching, countsFocus: Bool = false) {
        self.config = config
        self.countsFocus = countsFocus
    }

    public mutating func specificity(at now: Timestamp) -> Int { Specificity.switching }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        switch payload {
        case .input(let a): observe(a, at: t)
        case .app(let f): observe(f, at: t)
        default: break
        }
    }

    public mutating func observe(_ a: InputActivity, at t: Timestamp) {
        guard config.enabled else { return }
        note(focused == nil ? a.switches.total : a.switches.ctrlTab, at: t)
    }

    public mutating func observe(_ f: AppFocus, at t: Timestamp) {
        guard config.enabled, countsFocus else { return }
        // No window in front (the desktop, a lock screen) is not an application to switch to.
        guard !f.appClass.isEmpty else { return }
        let previous = focused
        focused = f.appClass
        note(previous != nil && previous != f.appClass ? 1 : 0, at: t)
    }

    private mutating func note(_ n: Int, at t: Timestamp) {
        if n > 0 {
            recent.append((t, n))
            total += n
        }
        advance(to: t)
    }

    public mutating func advance(to now: Timestamp) {
        while let first = recent.first, now - first.time > config.window {
            total -= first.count
            recent.removeFirst()
        }
    }

    public mutating func restart(at now: Timestamp) {
        recent.removeAll()
        total = 0
    }

    /// No switch in the window: nothing to forget, nothing to score.
    public var isQuiet: Bool { !config.enabled || recent.isEmpty }

    /// The count holds until the oldest switch leaves the window.
    public mutating func outlook(after now: Timestamp) -> ScoreOutlook {
        guard config.enabled, let first = recent.first else { return .steady(until: nil) }
        return .steady(until: dueInstant(first.time, after: config.window))
    }

    public func score(at now: Timestamp) -> Double {
        guard config.enabled, !recent.isEmpty else { return 0 }
        return ramp(Double(total), Double(config.calm), Double(config.storm))
    }

    public func assess(at now: Timestamp) -> Assessment? {
        guard config.enabled, let first = recent.first else { return nil }
        return Assessment(cause: .switching, score: score(at: now), detail: SwitchDetail(count: total, window: config.window), since: first.time)
    }
}
