// The built-in signals, each defined as any plug-in signal is: a scorer conforming to
// `SignalScorer` and a detail type for its reason, in a file of its own (Presence, Switching,
// Noise, Location, AppInFront), and here the `SignalDefinition` that `SignalCatalog.builtIn`
// registers.

extension SignalDefinition {
    /// Keyboards, mice and touchpads: presence (cause `away`, also fed by the desktop and calls)
    /// and app switching (`switching`, also fed by the application in front).
    public static let input = SignalDefinition(sensor: .input, causes: [.away, .switching]) { c in
        var scorers: [any SignalScorer] = []
        if c.input.enabled || c.desktop.enabled { scorers.append(PresenceScorer(config: c.input, desktop: c.desktop, media: c.media)) }
        if c.switching.enabled { scorers.append(SwitchingScorer(config: c.switching, countsFocus: c.apps.enabled && c.apps.countSwitches)) }
        return scorers
    }
    /// The desktop's idle time, lock and sleep: read by the presence scorer (`input`) and, for
    /// sleep, by the session itself.
    public static let desktop = SignalDefinition(sensor: .desktop, causes: []) { _ in [] }
    /// The application in front: time in distracting applications (`app`).
    public static let app = SignalDefinition(sensor: .app, causes: [.app]) { c in
        c.apps.enabled ? [AppScorer(config: c.apps)] : []
    }
    /// The microphone's level: a loud room (`noise`).
    public static let audio = SignalDefinition(sensor: .audio, causes: [.noise]) { c in
        c.audio.enabled ? [NoiseScorer(config: c.audio, media: c.media)] : []
    }
    /// Calls and playback: read by the presence and noise scorers.
    public static let media = SignalDefinition(sensor: .media, causes: []) { _ in [] }
    /// Meetings in the calendars: read by the presence and noise scorers, as a call is (a meeting
    /// is presence, and its talk no noise).
    /// On the live screen: "in a meeting".
    public static let calendar = SignalDefinition(
        sensor: .calendar, causes: [], makeScorers: { _ in [] }, describe: { r in (r.value ?? 0) >= 1 ? "in a meeting" : "no meeting now" })
    /// Position fixes: outside the workplace (`location`).
    public static let location = SignalDefinition(sensor: .location, causes: [.location]) { c in
        c.location.enabled ? [LocationScorer(config: c.location)] : []
    }
}

/// Linear ramp: 0 at or below `low`, 1 at or above `high`.
@inlinable func ramp(_ x: Double, _ low: Double, _ high: Double) -> Double {
    if x <= low { return 0 }
    if x >= high { return 1 }
    return (x - low) / (high - low)
}
