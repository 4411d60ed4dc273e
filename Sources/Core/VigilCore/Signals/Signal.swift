/// The pluggable-signal vocabulary: what a signal is made of, so that a new one is one module and
/// one registration line, and the state machine, the store, the statistics and the live view need
/// no edit.
///
/// A signal is a sensor kind (its samples and its status), one or more scorers that turn its samples
/// into a distraction score with a cause and a reason, and how its readings are shown. The four
/// built-in signals (input presence, app switching, noise, location) are defined the same way in
/// `BuiltInSignals.swift`; `SignalCatalog.builtIn` registers them.

/// A sensor: the name of a signal's samples and of its status. Also the `kind` of its lines in a
/// recording and the `sensor` of its status lines. A stable string, so logs and recordings made by
/// any version read the same.
public struct SensorKind: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    @inlinable public init(rawValue: String) { self.rawValue = rawValue }

    /// Keyboards, mice and touchpads (libinput).
    public static let input = SensorKind(rawValue: "input")
    /// The microphone's level (PulseAudio).
    public static let audio = SensorKind(rawValue: "audio")
    /// Position fixes (gpsd).
    public static let location = SensorKind(rawValue: "location")
    /// The desktop session's idle time, screen lock and sleep (X11, D-Bus, logind).
    public static let desktop = SensorKind(rawValue: "desktop")
    /// The application in front (X11 EWMH, i3/sway IPC).
    public static let app = SensorKind(rawValue: "app")
    /// Calls and playback on the sound server (PulseAudio).
    public static let media = SensorKind(rawValue: "media")
    /// Meetings in the person's calendars (`calendar.files`): a reading of 1 while one runs, 0 after.
    /// Its readings are generic ones (`SignalReading`), recorded as `{"kind":"calendar","value":1}`,
    /// so it is not among `builtIn`, whose sensors have formats of their own.
    public static let calendar = SensorKind(rawValue: "calendar")
    /// The built-in sensors, in the order Vigil checks and lists them.
    public static let builtIn: [SensorKind] = [.desktop, .input, .app, .audio, .media, .location]

    /// Built-in sensors first, in their order; others after them by name.
    public static func < (a: SensorKind, b: SensorKind) -> Bool {
        builtInOrder(a.rawValue, b.rawValue, builtIn.map(\.rawValue))
    }
    public var description: String { rawValue }
}

/// Why the person is judged distracted: a stable string in the log, the reports and the timeline.
/// Each signal names its own; the built-in ones are `away`, `switching`, `noise` and `location`.
public struct Cause: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    @inlinable public init(rawValue: String) { self.rawValue = rawValue }

    /// No input: away from the keyboard or idle.
    public static let away = Cause(rawValue: "away")
    /// Too many app switches: scattered attention.
    public static let switching = Cause(rawValue: "switching")
    /// A loud room: noise or a conversation.
    public static let noise = Cause(rawValue: "noise")
    /// Outside the workplace geofence.
    public static let location = Cause(rawValue: "location")
    /// Time in an application the person classed as distracting.
    public static let app = Cause(rawValue: "app")
    /// The built-in signals' causes, in the order reports list them.
    public static let builtIn: [Cause] = [.away, .switching, .noise, .location, .app]

    /// Built-in causes first, in their order; others after them by name.
    public static func < (a: Cause, b: Cause) -> Bool { builtInOrder(a.rawValue, b.rawValue, builtIn.map(\.rawValue)) }
    public var description: String { rawValue }
}

/// Orders names so that the listed ones come first, in list order, and the others after them by name.
func builtInOrder(_ a: String, _ b: String, _ list: [String]) -> Bool {
    switch (list.firstIndex(of: a), list.firstIndex(of: b)) {
    case (let i?, let j?): i < j
    case (_?, nil): true
    case (nil, _?): false
    case (nil, nil): a < b
    }
}

/// One observation of a signal that has no payload type of its own in the core: a number, a label,
/// or both (a door sensor's `open`, a heart rate's 72). Recorded as
/// `{"t":5,"kind":"door","value":1,"label":"open"}`.
///
/// The built-in sensors have typed payloads (`InputActivity`, `AudioLevel`, `LocationFix`): they
/// carry many fields, and the replay's hot path decodes them without allocating.
public struct SignalReading: Hashable, Sendable {
    public var sensor: SensorKind
    public var value: Double?
    public var label: String?

    public init(sensor: SensorKind, value: Double? = nil, label: String? = nil) {
        self.sensor = sensor
        self.value = value
        self.label = label
    }
}

/// The facts behind a score, kept as values: the human sentence is formatted only when an event
/// needs it, since formatting a string for every sample would cost more than the rest of the
/// replay loop. Each signal has its own detail type.
public protocol ScoreDetail: Hashable, Sendable {
    /// A human-readable reason: "no input for 4 min", "212 m from the office".
    var reason: String { get }
}

/// One scorer's judgement at an instant.
public struct Assessment: Hashable, Sendable {
    public var cause: Cause
    /// Distraction score in [0, 1].
    public var score: Double
    public var detail: any ScoreDetail
    /// When the condition behind the score began (the last input, the first loud sample, the first
    /// fix outside). Episodes are dated back to this instant, not to when a threshold fired.
    public var since: Timestamp
    /// Evidence that needs no confirmation: the episode opens at once, without waiting
    /// `scoring.distract_confirm` (a locked screen is not a thinking pause).
    public var decisive: Bool

    public init(cause: Cause, score: Double, detail: any ScoreDetail, since: Timestamp, decisive: Bool = false) {
        self.cause = cause
        self.score = score
        self.detail = detail
        self.since = since
        self.decisive = decisive
    }

    public var reason: String { detail.reason }

    public static func == (a: Assessment, b: Assessment) -> Bool {
        a.cause == b.cause && a.score == b.score && a.since == b.since && a.decisive == b.decisive
            && AnyHashable(a.detail) == AnyHashable(b.detail)
    }
    public func hash(into h: inout Hasher) {
        h.combine(cause)
        h.combine(score)
        h.combine(since)
        h.combine(decisive)
        h.combine(AnyHashable(detail))
    }
}

/// How specific a cause is: when several scorers hold at once, the episode is explained by the
/// most specific one (then by the higher weighted score, then by the scorer registered first). A
/// person who walks out of the building is "outside the workplace", not "no input".
public enum Specificity {
    /// The screen is locked: nothing explains absence better.
    public static let locked = 60
    /// Outside the workplace geofence.
    public static let location = 50
    /// In an application classed as distracting.
    public static let app = 40
    /// Scattered app switching.
    public static let switching = 30
    /// A plug-in signal that says nothing else.
    public static let plugIn = 25
    /// No input (or media playing without input).
    public static let idle = 20
    /// A loud room.
    public static let noise = 10
}

/// Turns one sensor's samples into a distraction score. A plain value: the state machine owns its
/// scorers and steps them with instants; a scorer never reads a clock.
///
/// The state machine calls, for every sample of the scorer's sensor, `observe` (only while the
/// session is judged, unless `observesWhilePaused`); before every evaluation `advance` and then
/// `assess`; `restart` at the start, after a pause and after a gap (nothing before counts); and
/// `sensorChanged` when the sensor's status changes.
public protocol SignalScorer: Sendable {
    /// The sensor whose status this scorer follows and whose samples it reads.
    var sensor: SensorKind { get }
    /// Every sensor whose samples it reads: `[sensor]` unless it combines evidence (presence reads
    /// libinput, the desktop's idle and lock, and calls).
    var sensors: [SensorKind] { get }
    /// The cause its assessments name.
    var cause: Cause { get }
    /// How much a full score of this scorer weighs in the combined score, in [0, 1].
    var weight: Double { get }
    /// Whether it keeps observing while the session is paused (the location fence keeps its centre).
    var observesWhilePaused: Bool { get }

    mutating func observe(_ payload: SamplePayload, at t: Timestamp)
    /// Moves time-based judgements forward to `now` (an idle spell passing its grace period).
    mutating func advance(to now: Timestamp)
    /// Forgets the past: nothing before `now` counts.
    mutating func restart(at now: Timestamp)
    mutating func sensorChanged(to state: SensorState, at t: Timestamp)
    /// The status of one of `sensors` changed. By default, `sensorChanged(to:at:)` for `sensor`'s own.
    mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp)
    func assess(at now: Timestamp) -> Assessment?
    /// `assess(at:)?.score ?? 0`. The session asks for the score at every sample and tick and for
    /// the assessment only when it needs a reason or a cause, so a scorer may answer this faster.
    func score(at now: Timestamp) -> Double

    // What the session calls; implemented below for every scorer. Requirements rather than plain
    // extension methods so that each scorer's witness is compiled for its own type: the session
    // reaches a scorer through one call, in place, without copying it.

    /// `observe`, unless the session is paused and the scorer does not observe then; returns
    /// `isQuiet` after it.
    mutating func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) -> Bool
    /// `advance`, then `score`, and `isQuiet` after them.
    mutating func judge(at now: Timestamp) -> (score: Double, quiet: Bool)

    /// Its cause's `Specificity` as things stand (presence is more specific while the screen is
    /// locked). Asked only of scorers scoring above 0.
    mutating func specificity(at now: Timestamp) -> Int

    /// True when the scorer scores 0 and will go on doing so, whatever the time, until it observes
    /// a sample (nothing loud heard, no switch in the window, inside the fence): the session then
    /// skips it at the evaluations in between. False by default, which is always correct.
    var isQuiet: Bool { get }

    /// Right after `judge(at: now)`: how the score goes on if no sample, status change or restart
    /// comes (see `ScoreOutlook`). A replay steps the session from one instant that matters to
    /// the next instead of every second, so months of samples replay in seconds. An earlier
    /// `until` is always correct, only slower: the default, `.steady(until: now)`, has the session
    /// judge the scorer at every tick. (Mutating only so that the session calls it in place, as
    /// `specificity`.)
    mutating func outlook(after now: Timestamp) -> ScoreOutlook
}

extension SignalScorer {
    public var sensors: [SensorKind] { [sensor] }
    public mutating func specificity(at now: Timestamp) -> Int { Specificity.plugIn }
    public var observesWhilePaused: Bool { false }
    public var isQuiet: Bool { false }
    public mutating func outlook(after now: Timestamp) -> ScoreOutlook { .steady(until: now) }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) -> Bool {
        if judging || observesWhilePaused { observe(payload, at: t) }
        return isQuiet
    }

    public mutating func judge(at now: Timestamp) -> (score: Double, quiet: Bool) {
        advance(to: now)
        return (score(at: now), isQuiet)
    }

    public func score(at now: Timestamp) -> Double { assess(at: now)?.score ?? 0 }

    public mutating func advance(to now: Timestamp) {}
    public mutating func sensorChanged(to state: SensorState, at t: Timestamp) {}
    public mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp) {
        if status.sensor == sensor { sensorChanged(to: status.state, at: t) }
    }
}

/// A signal as Vigil registers it: its sensor, the causes it can name, how it makes its scorers
/// from the configuration, and how the live screen shows its latest reading.
public struct SignalDefinition: Sendable {
    public var sensor: SensorKind
    /// The causes its scorers name (ties between equal scores go to the scorer made first).
    public var causes: [Cause]
    /// The scorers for a session with this configuration (none when the signal is switched off).
    public var makeScorers: @Sendable (VigilConfiguration) -> [any SignalScorer]
    /// The live screen's reading for a `SignalReading` of this sensor ("open", "72 bpm").
    /// Built-in sensors have typed payloads and their own lines.
    public var describe: @Sendable (SignalReading) -> String
    /// A plug-in's own section of the config file, when it has settings; its scorers read them
    /// through it. (The built-in signals' sections are `VigilConfiguration`'s typed structs.)
    public var configSection: ConfigSection?

    public init(
        sensor: SensorKind, causes: [Cause], configSection: ConfigSection? = nil,
        makeScorers: @escaping @Sendable (VigilConfiguration) -> [any SignalScorer],
        describe: @escaping @Sendable (SignalReading) -> String = SignalDefinition.plainReading
    ) {
        self.sensor = sensor
        self.causes = causes
        self.configSection = configSection
        self.makeScorers = makeScorers
        self.describe = describe
    }

    /// `open`, `72`, or `open (1)`.
    public static let plainReading: @Sendable (SignalReading) -> String = { r in
        let value = r.value.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : String($0) }
        switch (r.label, value) {
        case (let label?, let value?): return "\(label) (\(value))"
        case (let label?, nil): return label
        case (nil, let value?): return value
        case (nil, nil): return "—"
        }
    }
}

/// The signals a session judges, in the order their scorers are combined (ties between equal
/// weighted scores go to the earlier one). Register a signal by adding its definition.
public struct SignalCatalog: Sendable {
    public private(set) var signals: [SignalDefinition]

    public init(_ signals: [SignalDefinition]) { self.signals = signals }

    /// Presence and app switching, the desktop, the application in front, noise, calls, location.
    public static let builtIn = SignalCatalog([.input, .desktop, .app, .audio, .media, .location, .calendar])

    /// This catalog with one more signal; a signal of a sensor already registered replaces it.
    public func adding(_ signal: SignalDefinition) -> SignalCatalog {
        var copy = self
        copy.signals.register(signal, replacing: { $0.sensor == signal.sensor })
        return copy
    }

    public var sensors: [SensorKind] { signals.map(\.sensor) }
    public func knows(_ sensor: SensorKind) -> Bool { signals.contains { $0.sensor == sensor } }

    /// The scorers for a session with this configuration, in combination order.
    public func makeScorers(_ configuration: VigilConfiguration) -> [any SignalScorer] {
        signals.flatMap { $0.makeScorers(configuration) }
    }
}

/// How a scorer's score goes on after a judgement if no sample comes: until `until` (for ever when
/// `nil`), judging again changes nothing in the scorer but its score, which stays as it is, or,
/// when `rising`, never falls and is what `score(at:)` says. A replay skips the ticks before
/// `until` when steady, and while rising goes straight to the tick where the combined score
/// reaches the session's next threshold.
public struct ScoreOutlook: Hashable, Sendable {
    public var until: Timestamp?
    public var rising: Bool

    public static func steady(until: Timestamp?) -> ScoreOutlook { ScoreOutlook(until: until, rising: false) }
    public static func rising(until: Timestamp?) -> ScoreOutlook { ScoreOutlook(until: until, rising: true) }

    /// Both together: rising if either rises, until the earlier end.
    public func combined(with other: ScoreOutlook) -> ScoreOutlook {
        let until: Timestamp? =
            switch (self.until, other.until) {
            case (let a?, let b?): min(a, b)
            case (let a?, nil): a
            case (nil, let b): b
            }
        return ScoreOutlook(until: until, rising: rising || other.rising)
    }

    /// The outlook of a score `ramp(now - since, low, high)`: 0 until `since + low`, rising to 1
    /// at `since + high`, then 1 for ever.
    public static func ramp(since: Timestamp, now: Timestamp, low: Double, high: Double) -> ScoreOutlook {
        let x = now - since
        if x < low { return .steady(until: dueInstant(since, after: low)) }
        if x >= high { return .steady(until: nil) }
        return .rising(until: nil)
    }
}

/// `since + seconds`, a millisecond early, as an outlook's `until`: an instant computed in
/// floating point may land a nanosecond after the tick whose judgement it must not skip, and
/// early only costs one more evaluation.
@inlinable public func dueInstant(_ since: Timestamp, after seconds: Double) -> Timestamp { since + (seconds - 0.001) }

extension Array {
    /// A registration: `item` replaces the first element that `isSame` (a module of the same
    /// sensor or channel), or comes last.
    public mutating func register(_ item: Element, replacing isSame: (Element) -> Bool) {
        if let i = firstIndex(where: isSame) { self[i] = item } else { append(item) }
    }
}
