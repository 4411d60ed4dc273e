import Synchronization
import VigilCore
import X11Detector

/// A sensor as the product registers it: the signal the session judges from its samples (its
/// scorers, causes and how its readings read, `SignalDefinition`), and how a live session on this
/// machine gets those samples (its detector, or why there is none).
public struct SensorModule: Sendable {
    public var signal: SignalDefinition
    /// The live detector for a configuration, with what the detectors of one session share.
    public var availability: @Sendable (VigilConfiguration, DetectorContext) -> SensorAvailability

    public var sensor: SensorKind { signal.sensor }

    public init(signal: SignalDefinition, availability: @escaping @Sendable (VigilConfiguration, DetectorContext) -> SensorAvailability) {
        self.signal = signal
        self.availability = availability
    }
}

/// What the detectors of one session share: the clock that stamps their samples, and what was
/// found out once about the X display (for idle and for the window in front), looked at only if
/// a module asks.
public final class DetectorContext: Sendable {
    public let now: @Sendable () -> Timestamp
    private let display = Mutex<X11Probe??>(nil)

    public init(now: @escaping @Sendable () -> Timestamp) { self.now = now }

    /// The X display, probed at the first call (a few milliseconds).
    public var x11: X11Probe? {
        display.withLock { probed in
            if let p = probed { return p }
            let p = X11Display.probe()
            probed = .some(p)
            return p
        }
    }
}

/// The sensors Vigil runs, each a module. The product's one list is in the App's composition file
/// (`Composition.registry`); every path takes it from there: the live session and its view,
/// rehearsal, `vigil record`, replay, `vigil inspect` and `vigil sensors`.
public struct SensorRegistry: Sendable {
    /// In the order their scorers are combined (ties between equal weighted scores go to the
    /// earlier one).
    public private(set) var modules: [SensorModule]

    public init(_ modules: [SensorModule]) { self.modules = modules }

    /// Presence and app switching, the desktop, the application in front, noise, calls, location.
    public static let builtIn = SensorRegistry([.input, .desktop, .app, .audio, .media, .location])

    /// This registry with one more module; a module of a sensor already registered replaces it.
    public func adding(_ module: SensorModule) -> SensorRegistry {
        var copy = self
        if let i = copy.modules.firstIndex(where: { $0.sensor == module.sensor }) {
            copy.modules[i] = module
        } else {
            copy.modules.append(module)
        }
        return copy
    }

    /// The signals a session judges.
    public var signals: SignalCatalog { SignalCatalog(modules.map(\.signal)) }

    /// Each sensor's detector for a session with this configuration, in the order Vigil lists
    /// sensors (built-in ones first, `SensorKind`'s order).
    public func availability(configuration: VigilConfiguration, now: @escaping @Sendable () -> Timestamp) -> [SensorAvailability] {
        let context = DetectorContext(now: now)
        return modules.sorted { $0.sensor < $1.sensor }.map { $0.availability(configuration, context) }
    }
}

extension SensorModule {
    /// Keyboards, mice and touchpads (libinput): presence and app switching.
    public static let input = SensorModule(signal: .input) { c, context in DetectorCatalog.input(c.input, now: context.now) }
    /// Idle, lock and sleep from the desktop and logind.
    public static let desktop = SensorModule(signal: .desktop) { c, context in
        DetectorCatalog.desktop(c.desktop, x11: c.desktop.enabled || c.apps.enabled ? context.x11 : nil, now: context.now)
    }
    /// The application in front (i3/sway IPC, X11 EWMH).
    public static let app = SensorModule(signal: .app) { c, context in
        DetectorCatalog.app(c.apps, x11: c.desktop.enabled || c.apps.enabled ? context.x11 : nil, now: context.now)
    }
    /// The microphone's level (PulseAudio).
    public static let audio = SensorModule(signal: .audio) { c, context in DetectorCatalog.audio(c.audio, now: context.now) }
    /// Calls and playback (PulseAudio streams).
    public static let media = SensorModule(signal: .media) { c, context in DetectorCatalog.media(c, now: context.now) }
    /// Position fixes (gpsd).
    public static let location = SensorModule(signal: .location) { c, context in DetectorCatalog.location(c.location, now: context.now) }
}
