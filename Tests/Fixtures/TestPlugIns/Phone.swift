import SessionRuntime
import VigilCore

/// A signal added from outside, as a new module would add one: a phone that reports when it is
/// unlocked and locked again. Nothing in the state machine, the recording format, the store's
/// schema, the statistics, the config loader or the command line is edited for it: one scorer, one
/// definition with its config section, one sensor module, one registration line.
public struct PhoneScorer: SignalScorer {
    public var sensor: SensorKind { .phone }
    public var cause: Cause { .phone }
    public var weight: Double { 1 }
    /// Seconds in hand that score nothing, and at which the score reaches 1 (`phone.grace`,
    /// `phone.full`).
    let grace: Double, full: Double
    private var unlockedSince: Timestamp?

    public init(_ configuration: VigilConfiguration) {
        grace = ConfigSection.phone.number("grace", in: configuration)
        full = max(grace + 1, ConfigSection.phone.number("full", in: configuration))
    }

    struct InHand: ScoreDetail {
        var seconds: Double
        var reason: String { "phone in hand for \(humanMinutes(seconds))" }
    }

    public mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        guard case .reading(let r) = payload else { return }
        if r.label == "unlocked" {
            unlockedSince = unlockedSince ?? t
        } else {
            unlockedSince = nil
        }
    }

    public mutating func restart(at now: Timestamp) { unlockedSince = nil }

    public func assess(at now: Timestamp) -> Assessment? {
        guard let since = unlockedSince else { return nil }
        let held = now - since
        let score = held <= grace ? 0 : min(1, (held - grace) / (full - grace))
        return Assessment(cause: .phone, score: score, detail: InHand(seconds: held), since: since)
    }
}

extension SensorKind { public static let phone = SensorKind(rawValue: "phone") }
extension Cause { public static let phone = Cause(rawValue: "phone") }

extension ConfigSection {
    /// `phone:` in the config file, declared once: the loader, `config check`, `config show` and
    /// `config init` all take it from here.
    public static let phone = ConfigSection(
        name: "phone", comment: "The phone in hand (the tests' plug-in signal).",
        keys: [
            ConfigKey("grace", .duration(0...3600), default: .number(30), comment: "Time in hand that scores nothing: a glance."),
            ConfigKey("full", .duration(1...7200), default: .number(90), comment: "Time in hand at which the score reaches 1."),
            ConfigKey("enabled", .boolean, default: .boolean(true), comment: "Watch the phone."),
        ])
}

extension SignalDefinition {
    public static let phone = SignalDefinition(sensor: .phone, causes: [.phone], configSection: .phone) { c in
        ConfigSection.phone.flag("enabled", in: c) ? [PhoneScorer(c)] : []
    }
}

/// The phone's live side: a detector that says the phone works, then that it was unlocked, and
/// stays open as a live sensor does.
public struct PhoneDetector: Detector {
    public var sensor: SensorKind { .phone }
    public init() {}
    public func readings() -> AsyncStream<SamplePayload> {
        AsyncStream { c in
            c.yield(.status(SensorStatus(sensor: .phone, state: .available)))
            c.yield(.reading(SignalReading(sensor: .phone, label: "unlocked")))
        }
    }
}

extension SensorModule {
    /// Registered as the product registers a sensor: `PlugInRegistry.builtIn.adding(.phone)`.
    public static let phone = SensorModule(signal: .phone) { c, context in
        guard ConfigSection.phone.flag("enabled", in: c) else {
            return .disabled(.phone, "the tests' phone", key: "phone.enabled")
        }
        return SensorAvailability(sensor: .phone, detector: PhoneDetector(), source: "the tests' phone")
    }
}
