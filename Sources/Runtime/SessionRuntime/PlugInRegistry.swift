import SoundAlarm
import Synchronization
import VigilConfig
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

/// What the detectors of one session share: what was found out once about the X display (for
/// idle and for the window in front), looked at only if a module asks. (No clock: the session
/// stamps what its detectors read.)
public final class DetectorContext: Sendable {
    private let display = Mutex<X11Probe??>(nil)

    public init() {}

    /// The X display for the desktop and application sensors: looked at only when either is on.
    func x11(for c: VigilConfiguration) -> X11Probe? { c.desktop.enabled || c.apps.enabled ? x11 : nil }

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

/// An output module: a way an alarm reaches the person, or (issue 36) an action on a distraction,
/// named in `alarms.channels` for the levels that use it.
public struct ChannelModule: Sendable {
    public var channel: AlarmChannel
    /// Its sink for a session with this configuration.
    public var make: @Sendable (VigilConfiguration, ChannelContext) -> any AlarmSink
    /// An action's (`ActionSink`): the causes it acts on, for a replay to say what it would have
    /// done; nil for a channel that tells (a banner, a notification, a sound).
    public var actsOn: (@Sendable (Cause) -> Bool)?

    public init(
        channel: AlarmChannel, actsOn: (@Sendable (Cause) -> Bool)? = nil,
        make: @escaping @Sendable (VigilConfiguration, ChannelContext) -> any AlarmSink
    ) {
        self.channel = channel
        self.actsOn = actsOn
        self.make = make
    }
}

/// What the channels of one session are given by the program showing it: the terminal's own sink
/// when the session is on a live screen (its bell and red state), else the plain one.
public struct ChannelContext: Sendable {
    public var terminal: (any AlarmSink)?
    /// The session's data directory, where the actions note what they must undo after a crash.
    public var dataDirectory: String?
    public init(terminal: (any AlarmSink)? = nil, dataDirectory: String? = nil) {
        self.terminal = terminal
        self.dataDirectory = dataDirectory
    }
}

/// The plug-ins Vigil runs: sensors (a signal and its detector) and channels (what Vigil does
/// back), each a module. The product's one list is in the App's composition file
/// (`Composition.registry`); every path takes it from there: the live session and its view, its
/// alarms, rehearsal, `vigil record`, replay, `vigil inspect`, `vigil sensors` and the config
/// loader (which channel names `alarms.channels` may use).
public struct PlugInRegistry: Sendable {
    /// In the order their scorers are combined (ties between equal weighted scores go to the
    /// earlier one).
    public private(set) var modules: [SensorModule]
    public private(set) var channels: [ChannelModule]

    public init(_ modules: [SensorModule], channels: [ChannelModule] = []) {
        self.modules = modules
        self.channels = channels
    }

    /// Presence and app switching, the desktop, the application in front, noise, calls, location;
    /// the terminal, desktop notifications and sound.
    public static let builtIn = PlugInRegistry(
        [.input, .desktop, .app, .audio, .media, .location, .calendar], channels: [.terminal, .desktop, .sound, .pauseMedia, .dim, .hide, .refocus])

    /// This registry with one more channel; a module of a channel already registered replaces it.
    public func adding(_ module: ChannelModule) -> PlugInRegistry {
        var copy = self
        copy.channels.register(module, replacing: { $0.channel == module.channel })
        return copy
    }

    /// The names `alarms.channels` may use.
    public var channelNames: [AlarmChannel] { channels.map(\.channel) }

    /// The actions an alarm of a level and cause sets off with these alarm settings, in the order
    /// the alarm goes through its channels: what a replay says it would have done.
    public func actions(_ alarms: VigilConfiguration.Alarms) -> @Sendable (Int, Cause) -> [AlarmChannel] {
        let acting = Dictionary(channels.compactMap { m in m.actsOn.map { (m.channel, $0) } }, uniquingKeysWith: { a, _ in a })
        return { level, cause in alarms.channels(level: level).filter { acting[$0]?(cause) == true } }
    }

    /// What the modules add to the config file: the channel names, and the signals' own sections.
    public var config: ConfigPlugIns { ConfigPlugIns(channels: channelNames, sections: modules.compactMap(\.signal.configSection)) }

    /// Every registered channel's sink for a session with this configuration.
    public func sinks(configuration: VigilConfiguration, context: ChannelContext) -> [any AlarmSink] {
        channels.map { $0.make(configuration, context) }
    }

    /// This registry with one more module; a module of a sensor already registered replaces it.
    public func adding(_ module: SensorModule) -> PlugInRegistry {
        var copy = self
        copy.modules.register(module, replacing: { $0.sensor == module.sensor })
        return copy
    }

    /// The signals a session judges.
    public var signals: SignalCatalog { SignalCatalog(modules.map(\.signal)) }

    /// Each sensor's detector for a session with this configuration, in the order Vigil lists
    /// sensors (built-in ones first, `SensorKind`'s order).
    public func availability(configuration: VigilConfiguration) -> [SensorAvailability] {
        let context = DetectorContext()
        return modules.sorted { $0.sensor < $1.sensor }.map { $0.availability(configuration, context) }
    }
}

extension SensorModule {
    /// Keyboards, mice and touchpads (libinput): presence and app switching.
    public static let input = SensorModule(signal: .input) { c, context in DetectorCatalog.input(c.input) }
    /// Idle, lock and sleep from the desktop and logind.
    public static let desktop = SensorModule(signal: .desktop) { c, context in
        DetectorCatalog.desktop(c.desktop, x11: context.x11(for: c))
    }
    /// The application in front (Hyprland, i3/sway IPC, Vigil's GNOME Shell extension, X11 EWMH).
    public static let app = SensorModule(signal: .app) { c, context in
        DetectorCatalog.app(c.apps, x11: context.x11(for: c))
    }
    /// The microphone's level (PulseAudio).
    public static let audio = SensorModule(signal: .audio) { c, context in DetectorCatalog.audio(c.audio) }
    /// Calls and playback (PulseAudio streams).
    public static let media = SensorModule(signal: .media) { c, context in DetectorCatalog.media(c) }
    /// Position fixes (gpsd).
    public static let location = SensorModule(signal: .location) { c, context in DetectorCatalog.location(c.location) }
    /// Meetings in the person's calendars (`calendar.files`, through libical).
    public static let calendar = SensorModule(signal: .calendar) { c, _ in
        guard !c.calendar.files.isEmpty else {
            return SensorAvailability(
                sensor: .calendar, detector: nil, source: "calendar.files",
                status: SensorStatus(sensor: .calendar, state: .unavailable, detail: "no calendars: calendar.files lists none"))
        }
        return SensorAvailability(sensor: .calendar, detector: CalendarMeetingDetector(files: c.calendar.files), source: "calendar.files (libical)")
    }
}

extension Cause {
    /// For `ChannelModule.actsOn`: an action on every episode (pausing media).
    @Sendable static func any(_ cause: Cause) -> Bool { true }
    /// For `ChannelModule.actsOn`: an action on an application's episode only (a window's).
    @Sendable static func isApplication(_ cause: Cause) -> Bool { cause == .app }
}

extension ChannelModule {
    /// A banner and the bell in the terminal (or the live screen's own, from the context).
    public static let terminal = ChannelModule(channel: .terminal) { _, context in context.terminal ?? TerminalAlarmSink() }
    /// A desktop notification.
    public static let desktop = ChannelModule(channel: .desktop) { _, _ in DesktopAlarmSink() }
    /// A tone (or the configured sound file) through PulseAudio.
    public static let sound = ChannelModule(channel: .sound) { c, _ in
        SoundAlarmSink(configuration: c.alarms, player: TonePlayer(server: c.audio.server))
    }
    /// An action: the media players that are playing paused, and resumed when the person is back.
    public static let pauseMedia = ChannelModule(channel: .pauseMedia, actsOn: Cause.any) { _, _ in MediaPauseSink() }
    /// An action: the distracting window hidden (never closed), and put back at a break, a pause or
    /// the session's end. Only an application distraction is a window's doing.
    public static let hide = ChannelModule(channel: .hide, actsOn: Cause.isApplication) { c, context in
        HideSink(control: WindowControls.forDesktop(backend: c.apps.backend), apps: c.apps, journal: context.dataDirectory.map(HiddenWindows.init))
    }
    /// An action: the distracting window dimmed (GNOME, KDE), brightened again when the episode ends.
    public static let dim = ChannelModule(channel: .dim, actsOn: Cause.isApplication) { c, context in
        DimSink(control: WindowControls.forDesktop(backend: c.apps.backend), apps: c.apps, journal: context.dataDirectory.map(HiddenWindows.init))
    }
    /// An action: the last work window brought back to the front.
    public static let refocus = ChannelModule(channel: .refocus, actsOn: Cause.isApplication) { c, _ in
        RefocusSink(control: WindowControls.forDesktop(backend: c.apps.backend), apps: c.apps)
    }
}
