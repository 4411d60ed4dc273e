/// Counts of app-switching gestures in one input window. Only the classification leaves the input
/// detector, never which keys were pressed.
public struct AppSwitches: Hashable, Sendable {
    /// Alt+Tab and Alt+Shift+Tab.
    public var altTab: Int = 0
    /// A lone press of the Super (logo) key, which opens the launcher or overview on most desktops.
    public var superKey: Int = 0
    /// Ctrl+Tab, Ctrl+PageUp/PageDown: switching tabs inside an application.
    public var ctrlTab: Int = 0
    /// Workspace keys (Super+number, Ctrl+Alt+arrows).
    public var workspace: Int = 0
    /// Three- and four-finger touchpad swipes.
    public var swipes: Int = 0

    public init(altTab: Int = 0, superKey: Int = 0, ctrlTab: Int = 0, workspace: Int = 0, swipes: Int = 0) {
        self.altTab = altTab
        self.superKey = superKey
        self.ctrlTab = ctrlTab
        self.workspace = workspace
        self.swipes = swipes
    }

    @inlinable public var total: Int { altTab + superKey + ctrlTab + workspace + swipes }
}

/// Input-device activity aggregated over one window. Counts only: never key identities.
public struct InputActivity: Hashable, Sendable {
    /// Length of the window in seconds; the sample's timestamp is the window's end.
    public var window: Double
    /// Key presses (autorepeat excluded).
    public var keyPresses: Int
    /// Pointer travel in libinput's normalised units (about 1/1000 inch, roughly a pixel).
    public var pointerTravel: Double
    public var clicks: Int
    /// Scroll wheel clicks or touchpad scroll steps.
    public var scrollTicks: Int
    public var switches: AppSwitches
    /// Seconds since the last input event, measured at the window's end (may exceed `window`).
    public var idle: Double

    public init(
        window: Double, keyPresses: Int = 0, pointerTravel: Double = 0, clicks: Int = 0, scrollTicks: Int = 0,
        switches: AppSwitches = AppSwitches(), idle: Double
    ) {
        self.window = window
        self.keyPresses = keyPresses
        self.pointerTravel = pointerTravel
        self.clicks = clicks
        self.scrollTicks = scrollTicks
        self.switches = switches
        self.idle = idle
    }
}

/// Microphone level over one analysis window. Levels only: audio itself never leaves the detector.
public struct AudioLevel: Hashable, Sendable {
    /// RMS level in dBFS.
    public var rms: Double
    /// Sample peak in dBFS.
    public var peak: Double
    /// ITU-R BS.1770 short-term (3 s) loudness in LUFS, when the detector computes it.
    public var shortTermLUFS: Double?
    /// ITU-R BS.1770 momentary (400 ms) loudness in LUFS, when the detector computes it.
    public var momentaryLUFS: Double?

    public init(rms: Double, peak: Double, shortTermLUFS: Double? = nil, momentaryLUFS: Double? = nil) {
        self.rms = rms
        self.peak = peak
        self.shortTermLUFS = shortTermLUFS
        self.momentaryLUFS = momentaryLUFS
    }

    /// The level the noise scorer judges: short-term loudness when known, RMS otherwise.
    @inlinable public var level: Double { shortTermLUFS ?? rms }
}

/// GPS fix mode as gpsd reports it in TPV `mode`.
public enum FixMode: Int, Sendable, Comparable {
    case unknown = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }
}

/// One position report.
///
/// As the location detector hands it over (see `LocationPrivacy`), the coordinates are the centre
/// of a coarse cell (`cellSize` degrees) and `distanceFromWorkplace` carries what the engine judges,
/// measured on the exact position before it was dropped. Exact coordinates (`cellSize == nil`)
/// come from the person's own files, or from the detector when they opted in.
public struct LocationFix: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Estimated horizontal error in metres (gpsd's `eph`, or the larger of `epx`/`epy`), if known.
    public var horizontalAccuracy: Double?
    /// Speed over ground in m/s, if known.
    public var speed: Double?
    public var mode: FixMode
    /// Metres from the session's workplace, measured on the exact position; `nil` when the
    /// coordinates are exact (the engine measures) or the fix was not usable for judging.
    public var distanceFromWorkplace: Double?
    /// The coordinates are the centre of a cell this many degrees square; `nil` means exact.
    public var cellSize: Double?

    public init(
        latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil, speed: Double? = nil, mode: FixMode,
        distanceFromWorkplace: Double? = nil, cellSize: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.mode = mode
        self.distanceFromWorkplace = distanceFromWorkplace
        self.cellSize = cellSize
    }

    /// Whether the coordinates are the exact position.
    public var isExact: Bool { cellSize == nil }
}

/// What the desktop session says about the person: idle time and the screen lock from the X11
/// screen saver, GNOME's idle monitor or org.freedesktop.ScreenSaver, and lock and sleep from
/// logind. Unlike reading /dev/input it needs no special group, and it says nothing about which
/// keys were pressed.
public enum DesktopEvent: Hashable, Sendable {
    /// Seconds since the desktop last saw input from any keyboard or pointer, at the sample's instant.
    case idle(Double)
    /// The screen was locked: the person is away from this instant.
    case locked
    case unlocked
    /// The machine is about to sleep (logind's PrepareForSleep): a gap starts at this instant.
    case sleeping
    /// The machine woke up: the gap ends.
    case woke

    /// The word recordings use for the events (`{"kind":"desktop","state":"locked"}`).
    public var stateName: String? {
        switch self {
        case .idle: nil
        case .locked: "locked"
        case .unlocked: "unlocked"
        case .sleeping: "sleeping"
        case .woke: "woke"
        }
    }

    public init?(stateName: String) {
        switch stateName {
        case "locked": self = .locked
        case "unlocked": self = .unlocked
        case "sleeping": self = .sleeping
        case "woke": self = .woke
        default: return nil
        }
    }

    public static let stateNames = ["locked", "unlocked", "sleeping", "woke"]
}

/// How time in an application counts (`apps:` in the config).
public enum AppCategory: String, Hashable, Sendable, CaseIterable {
    case work, neutral, distracting
}

/// The application in front, each time it changes. Only the class and its category leave the
/// detector; the window title only when the person opted in (`apps.store_titles`), because titles
/// carry what people read and write.
public struct AppFocus: Hashable, Sendable {
    /// The application's class: X11's WM_CLASS class, a Wayland app_id; empty when no window has
    /// the focus (the desktop itself, a locked screen).
    public var appClass: String
    public var category: AppCategory
    /// The name of the `apps` rule that matched (`youtube`); nil when none did.
    public var rule: String?
    /// The window title: only with `apps.store_titles: true`.
    public var title: String?

    public init(appClass: String, category: AppCategory, rule: String? = nil, title: String? = nil) {
        self.appClass = appClass
        self.category = category
        self.rule = rule
        self.title = title
    }
}

/// Who uses the sound server besides Vigil: another program recording from a microphone is a
/// call or a meeting (the person is there and busy); a stream playing is media.
public struct MediaActivity: Hashable, Sendable {
    /// Streams recording from a source (not Vigil's own, not level meters).
    public var calls: Int
    /// Streams playing (not paused).
    public var playing: Int

    public init(calls: Int = 0, playing: Int = 0) {
        self.calls = calls
        self.playing = playing
    }

    public var onCall: Bool { calls > 0 }
    public var isPlaying: Bool { playing > 0 }
}

/// What a detector can say about itself.
public enum SensorState: String, Sendable, CaseIterable {
    case available
    case lost
    case permissionDenied = "permission_denied"
    case noFix = "no_fix"
    case unavailable
}

public struct SensorStatus: Hashable, Sendable {
    public var sensor: SensorKind
    public var state: SensorState
    /// A human sentence: what happened and, when it is not available, what to do about it.
    public var detail: String

    public init(sensor: SensorKind, state: SensorState, detail: String = "") {
        self.sensor = sensor
        self.state = state
        self.detail = detail
    }
}

/// What the person did to the session itself (keys in the live view; recorded so a replay repeats it).
public enum ControlAction: String, Sendable, CaseIterable {
    /// A declared pause.
    case pause
    /// A planned break (Pomodoro-style).
    case breakTime = "break"
    case resume
    /// The person ends the session.
    case end
    /// The person asks for a few quiet minutes from the alarms (limited per session).
    case snooze
    /// Not the person's: a live session's own clock stood still for longer than `session.gap` (the
    /// process was stopped, or the machine slept without logind saying so) and runs again from
    /// this instant. The live session writes it into its recording where it noticed, so that the
    /// replay books the gap ending at the same instant instead of at the next sample.
    case stallEnded = "stall_ended"
    /// Not the person's: a live session was running and nothing else was recorded for half of
    /// `session.gap`. A sensor that reports only changes (the window in front, a phone's lock)
    /// can be silent for longer than `session.gap` while the session ticks on; without a sign of
    /// life, its replay would read that silence as a gap. Written as a line of its own kind,
    /// `{"kind":"alive"}`, which an older reader skips.
    case alive
}

/// One observation from a sensor, or a control action.
public enum SamplePayload: Hashable, Sendable {
    case input(InputActivity)
    case audio(AudioLevel)
    case location(LocationFix)
    case desktop(DesktopEvent)
    case app(AppFocus)
    case media(MediaActivity)
    /// A reading of any other signal (see `SignalReading`).
    case reading(SignalReading)
    case status(SensorStatus)
    case control(ControlAction)
}

/// A sample with the instant it describes.
public struct Sample: Hashable, Sendable {
    public var time: Timestamp
    public var payload: SamplePayload

    /// The sensor that took it; `nil` for a control action.
    public var sensor: SensorKind? {
        switch payload {
        case .input: .input
        case .audio: .audio
        case .location: .location
        case .desktop: .desktop
        case .app: .app
        case .media: .media
        case .reading(let r): r.sensor
        case .status(let s): s.sensor
        case .control: nil
        }
    }

    @inlinable public init(time: Timestamp, payload: SamplePayload) {
        self.time = time
        self.payload = payload
    }
}
