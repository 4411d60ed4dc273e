import VigilCore

/// Turns timed input events into one `InputActivity` per window. A plain value type that never
/// reads a clock: the caller says what time it is (`close(upTo:)`), so the live detector and a
/// recording replay run the same code, and tests step it event by event.
///
/// Windows are `[origin + k·window, origin + (k+1)·window)`; a window is emitted once time reaches
/// its end, empty windows included (their growing `idle` is what tells the session that the person
/// is away).
///
/// What is counted:
/// - key presses: keyboard keys going down; autorepeat and releases are not presses;
/// - pointer travel: the length of the motion vectors, in libinput's normalised units;
/// - clicks: mouse and touchpad button presses;
/// - scroll ticks: wheel detents (120 hi-res units each), plus one tick per `fingerScrollStep`
///   units of finger or continuous scrolling (about what one detent scrolls); remainders carry over
///   to the next window so slow scrolling still adds up;
/// - app switches: see `AppSwitchClassifier`;
/// - idle: seconds from the last event of any kind (a key release or a touch counts) to the
///   window's end; before the first event it is measured from `origin`.
///
/// Events are expected in time order; an event earlier than an already emitted window's end
/// (two devices whose frames interleave slightly) is counted in the current window.
public struct InputAggregator {
    /// Finger-scroll distance, in normalised units, that makes one scroll tick.
    public static let fingerScrollStep = 50.0

    public let window: Double
    public let origin: Double
    public private(set) var classifier: AppSwitchClassifier

    private var windowIndex = 0
    private var current = Counts()
    private var lastActivity: Double
    private var wheelRemainder = 0.0
    private var fingerRemainder = 0.0

    /// Totals over everything fed so far (for a recording's summary).
    public private(set) var totals = Counts()

    public struct Counts: Equatable {
        public var keyPresses = 0
        public var travel = 0.0
        public var clicks = 0
        public var scrollTicks = 0
        public var switches = AppSwitches()

        public init() {}
    }

    public init(window: Double, origin: Double, obfuscatedKeys: Bool = false) {
        precondition(window > 0, "window must be positive")
        self.window = window
        self.origin = origin
        self.lastActivity = origin
        self.classifier = AppSwitchClassifier(obfuscated: obfuscatedKeys)
    }

    /// From now on, keys are those of a recording made without --show-keycodes (see
    /// `AppSwitchClassifier`): a recording read as a stream says so at its first such key.
    public mutating func keysAreObfuscated() { classifier.obfuscated = true }

    /// The end of the window that is being filled.
    public var currentWindowEnd: Double { origin + Double(windowIndex + 1) * window }

    /// Adds one event. Emits (through `emit`) the windows that ended before it.
    public mutating func add(_ e: TimedInputEvent, emit: (_ end: Double, _ activity: InputActivity) -> Void) {
        close(upTo: e.time, emit: emit)
        lastActivity = max(lastActivity, e.time)
        var c = Counts()
        switch e.event {
        case .key(let code, let state):
            if state == .pressed, EvdevCode.isKeyboardKey(code) { c.keyPresses = 1 }
            classifier.key(code, state, into: &c.switches)
        case .motion(let dx, let dy):
            c.travel = (dx * dx + dy * dy).squareRoot()
        case .click:
            c.clicks = 1
        case .scroll(let v120, let distance):
            wheelRemainder += abs(v120) / 120
            fingerRemainder += abs(distance) / Self.fingerScrollStep
            // A tiny epsilon keeps 3 × 40 hi-res units from landing at 0.99999 ticks.
            let wheel = (wheelRemainder + 1e-9).rounded(.down)
            let finger = (fingerRemainder + 1e-9).rounded(.down)
            wheelRemainder = max(0, wheelRemainder - wheel)
            fingerRemainder = max(0, fingerRemainder - finger)
            // A glitching device can scroll an infinite or NaN distance: the ticks stop at the most a
            // sample holds (NaN is none) instead of trapping.
            c.scrollTicks = Int(saturating: min(wheel + finger, Double(SampleLimits.count.upperBound - 1)))
        case .swipe(let fingers):
            classifier.swipe(fingers: fingers, into: &c.switches)
        case .other:
            break
        }
        current.add(c)
        totals.add(c)
    }

    /// Emits every window that has ended at or before `time`.
    public mutating func close(upTo time: Double, emit: (_ end: Double, _ activity: InputActivity) -> Void) {
        while currentWindowEnd <= time {
            let end = currentWindowEnd
            emit(
                end,
                InputActivity(
                    window: window, keyPresses: current.keyPresses, pointerTravel: current.travel,
                    clicks: current.clicks, scrollTicks: current.scrollTicks, switches: current.switches,
                    idle: max(0, end - lastActivity)))
            current = Counts()
            windowIndex += 1
        }
    }
}

extension InputAggregator.Counts {
    public mutating func add(_ o: Self) {
        keyPresses += o.keyPresses
        travel += o.travel
        clicks += o.clicks
        scrollTicks += o.scrollTicks
        switches.altTab += o.switches.altTab
        switches.superKey += o.switches.superKey
        switches.ctrlTab += o.switches.ctrlTab
        switches.workspace += o.switches.workspace
        switches.swipes += o.switches.swipes
    }
}
