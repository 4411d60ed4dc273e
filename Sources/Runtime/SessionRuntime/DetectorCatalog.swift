import DesktopPresence
import DetectorSupport
import Foundation
import HyprlandDetector
import I3Detector
import InputDetector
import LocationDetector
import MicrophoneDetector
import Synchronization
import VigilCore
import WaylandDetector
import X11Detector

/// What is known about each live sensor before a session starts.
public struct SensorAvailability: Sendable {
    public var sensor: SensorKind
    /// The detector, or nil when the sensor is disabled in the config.
    public var detector: (any Detector)?
    /// Which library and where it looks (`libinput, seat "seat0"`).
    public var source: String
    /// Why there is no detector; a detector reports its own status when it runs.
    public var status: SensorStatus?

    public init(sensor: SensorKind, detector: (any Detector)?, source: String, status: SensorStatus? = nil) {
        self.sensor = sensor
        self.detector = detector
        self.source = source
        self.status = status
    }

    /// A sensor switched off by `key` in the config: no detector, and the reason.
    public static func disabled(_ sensor: SensorKind, _ source: String, key: String) -> SensorAvailability {
        SensorAvailability(
            sensor: sensor, detector: nil, source: source,
            status: SensorStatus(sensor: sensor, state: .unavailable, detail: "disabled in the config (\(key): false)"))
    }
}

/// What a sensor's state means for a session on this machine.
public enum SensorUse: String, Sendable {
    /// It measures (or is connected and waiting for a fix).
    case inUse = "in_use"
    /// Switched off in the config, or not there on this machine (no GPS, no sound server, no
    /// `input` group while the desktop gives the idle time): the session does without it.
    case notInUse = "not_in_use"
    /// The session needs it and it does not work: nothing tells whether the person is at the
    /// computer (neither the desktop nor input devices), or the workplace geofence has no gpsd.
    case failing

    /// How the state reads in `vigil sensors`.
    public var words: String {
        switch self {
        case .inUse: "in use"
        case .notInUse: "not in use"
        case .failing: "not working"
        }
    }
}

/// The built-in sensors' detectors, built from the config (`SensorModule`'s built-in modules call
/// them): libinput for input, PulseAudio for the microphone and calls, gpsd for location, the
/// desktop's idle interfaces and logind, the window manager for the application in front. A
/// disabled sensor is reported with the reason, and the session runs with the others; an enabled
/// one that cannot work says why in its first status sample.
public enum DetectorCatalog {
    /// Idle and lock from the desktop: its D-Bus interface (GNOME, then org.freedesktop.ScreenSaver),
    /// else the Wayland compositor's idle protocol (when $WAYLAND_DISPLAY names one that has it),
    /// else the X11 screen saver, or the configured one; with lock and sleep from logind, as one
    /// sensor.
    static func desktop(_ c: VigilConfiguration.Desktop, x11: X11Probe?)
        -> SensorAvailability
    {
        var backend = DesktopBusBackends.pick(c)
        // The compositor is looked at only when no D-Bus interface answered (a few milliseconds;
        // at once when $WAYLAND_DISPLAY is not set).
        let wayland = backend == nil && (c.backend == nil || c.backend == .wayland) ? WaylandCompositor.probe() : nil
        if backend == nil, c.backend == .wayland || (c.backend == nil && wayland?.idleProtocol != nil) { backend = .wayland }
        if backend == nil, c.backend == .x11 || (c.backend == nil && x11?.screenSaver == true) { backend = .x11 }
        let waylandDisplay = wayland.flatMap { $0.display.isEmpty ? nil : $0.display } ?? "$WAYLAND_DISPLAY"
        let names: [DesktopBackend: String] = [
            .gnome: "GNOME's idle monitor", .freedesktop: "org.freedesktop.ScreenSaver",
            .wayland: "Wayland \(wayland?.idleProtocol?.rawValue ?? "idle protocol") on \(waylandDisplay)",
            .x11: "X11 screen saver on \(displayName(x11))",
        ]
        let source = (backend.flatMap { names[$0] } ?? "no idle interface") + " + logind"
        guard c.enabled else { return .disabled(.desktop, source, key: "desktop.enabled") }
        var parts: [any Detector] = []
        switch backend {
        case .x11?: parts.append(X11IdleDetector(desktop: c))
        case .wayland?: parts.append(WaylandIdleDetector(desktop: c))
        case let bus?: DesktopBusBackends.detector(for: bus, config: c).map { parts.append($0) }
        case nil:
            let why =
                "no desktop idle interface: no GNOME idle monitor or org.freedesktop.ScreenSaver on the session bus, no Wayland "
                + "compositor with an idle protocol (\(wayland?.problem ?? "$WAYLAND_DISPLAY not set")), and no X display with the "
                + "screen saver extension (\(x11?.problem ?? "$DISPLAY not set")); set desktop.backend to choose one"
            parts.append(MissingDetector(sensor: .desktop, detail: why))
        }
        parts.append(LogindDetector())
        return SensorAvailability(sensor: .desktop, detector: CombinedDetector(sensor: .desktop, parts: parts), source: source)
    }

    /// The application in front: `apps.backend`, else the desktop's own, in `AppBackend`'s order:
    /// Hyprland's event socket, i3's or sway's IPC, Vigil's GNOME Shell extension, a KWin script,
    /// a wlroots compositor's window list, the X11 window manager's EWMH `_NET_ACTIVE_WINDOW`. Under GNOME on X11 without the extension, X11 serves;
    /// on Wayland the extension is the only way, so its detector says how to install it.
    static func app(_ c: VigilConfiguration.Apps, x11: X11Probe?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SensorAvailability
    {
        let backend = c.backend ?? autoAppBackend(x11: x11, environment: environment)
        let source: String
        let detector: (any Detector)?
        switch backend {
        case .hyprland?:
            let directory = HyprlandFocusDetector.directory(environment: environment) ?? "$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE"
            source = "Hyprland's event socket in \(directory)"
            detector = HyprlandFocusDetector(directory: directory, apps: c)
        case .i3?:
            let socket = I3FocusDetector.socketPath(environment: environment) ?? x11?.i3Socket
            source = "i3/sway IPC at \(socket ?? "$I3SOCK or $SWAYSOCK")"
            detector = I3FocusDetector(socketPath: socket, apps: c)
        case .gnome?:
            source = "Vigil's GNOME Shell extension (\(GnomeFocusDetector.interface) on the session bus)"
            detector = GnomeFocusDetector(apps: c)
        case .kwin?:
            source = "a KWin script (loaded into KWin over the session bus)"
            detector = KWinFocusDetector(apps: c)
        case .wlroots?:
            source =
                "the Wayland compositor's window list (wlr-foreign-toplevel-management) on \(environment["WAYLAND_DISPLAY"] ?? "$WAYLAND_DISPLAY")"
            detector = WaylandFocusDetector(apps: c)
        case .x11?:
            source = "X11 window manager on \(displayName(x11))"
            detector = X11FocusDetector(apps: c)
        case nil:
            source = "no window manager found"
            detector = nil
        }
        guard c.enabled else { return .disabled(.app, source, key: "apps.enabled") }
        guard let detector else {
            let why =
                "no way to see the application in front: no X display (\(x11?.problem ?? "none")), no i3 or sway socket"
                + " ($I3SOCK, $SWAYSOCK), no Hyprland ($HYPRLAND_INSTANCE_SIGNATURE), no GNOME Shell or KWin on the session bus"
                + " and no Wayland compositor that lists its windows."
            return SensorAvailability(
                sensor: .app, detector: nil, source: source, status: SensorStatus(sensor: .app, state: .unavailable, detail: why))
        }
        return SensorAvailability(sensor: .app, detector: detector, source: source)
    }

    /// The desktop's own way to see the application in front (`apps.backend: auto`); nil for none.
    static func autoAppBackend(x11: X11Probe?, environment: [String: String]) -> AppBackend? {
        if HyprlandFocusDetector.directory(environment: environment) != nil { return .hyprland }
        if I3FocusDetector.socketPath(environment: environment) ?? x11?.i3Socket != nil { return .i3 }
        let x11Works = x11?.reachable == true
        switch DesktopShell.probe() {
        case .gnome(extensionRunning: true): return .gnome
        // GNOME on Wayland: only the extension can tell (an X display there is Xwayland's, which
        // sees X clients only). On X11 the window manager answers without it.
        case .gnome(extensionRunning: false) where !x11Works || isWaylandSession(environment): return .gnome
        case .kwin: return .kwin
        default: break
        }
        // Other Wayland compositors: the window list of wlroots' protocol, where the compositor has it.
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, WaylandCompositor.probe().listsWindows { return .wlroots }
        return x11Works ? .x11 : nil
    }

    /// Whether this is a Wayland session: `$XDG_SESSION_TYPE`, else `$WAYLAND_DISPLAY` being set.
    static func isWaylandSession(_ environment: [String: String]) -> Bool {
        if let type = environment["XDG_SESSION_TYPE"], !type.isEmpty { return type == "wayland" }
        return !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The X display looked at, for sources: `:0`, or `$DISPLAY` when none was named.
    private static func displayName(_ x11: X11Probe?) -> String {
        guard let d = x11?.display, !d.isEmpty else { return "$DISPLAY" }
        return d
    }

    /// Calls and playback: other programs' streams on the microphone's sound server.
    static func media(_ c: VigilConfiguration) -> SensorAvailability {
        let source = "PulseAudio streams" + (c.audio.server.map { " on \($0)" } ?? "")
        guard let detector = PulseMediaDetector(configuration: c) else { return .disabled(.media, source, key: "media.enabled") }
        return SensorAvailability(sensor: .media, detector: detector, source: source)
    }

    static func input(_ c: VigilConfiguration.Input) -> SensorAvailability {
        var source = "libinput"
        if let seat = c.seat { source += ", seat \"\(seat)\"" }
        if !c.devices.isEmpty { source += ", " + c.devices.joined(separator: ", ") }
        guard c.enabled else { return .disabled(.input, source, key: "input.enabled") }
        return SensorAvailability(
            sensor: .input, detector: LibinputDetector(seat: c.seat, devicePaths: c.devices, window: c.window), source: source)
    }

    static func audio(_ c: VigilConfiguration.Audio) -> SensorAvailability {
        let source = "PulseAudio, " + (c.source.map { "source \"\($0)\"" } ?? "default source") + (c.server.map { " on \($0)" } ?? "")
        guard c.enabled else { return .disabled(.audio, source, key: "audio.enabled") }
        return SensorAvailability(
            sensor: .audio, detector: PulseMicrophoneDetector(server: c.server, source: c.source, window: c.window),
            source: source)
    }

    static func location(_ c: VigilConfiguration.Location) -> SensorAvailability {
        let source = "gpsd at \(c.gpsdHost):\(c.gpsdPort)"
        guard c.enabled else { return .disabled(.location, source, key: "location.enabled") }
        return SensorAvailability(
            sensor: .location, detector: GPSDDetector(host: c.gpsdHost, port: c.gpsdPort, location: c), source: source)
    }

    /// What each probed sensor means for a session: every sensor but presence is optional, so one
    /// that is not there is "not in use"; presence fails only when neither the desktop nor input
    /// devices can tell it, and location only when a workplace is configured (the person relies
    /// on the geofence).
    public static func uses(_ statuses: [SensorStatus], configuration: VigilConfiguration) -> [SensorUse] {
        func measures(_ s: SensorStatus) -> Bool { s.state == .available || s.state == .noFix || s.state == .lost }
        let presence = statuses.contains { ($0.sensor == .desktop || $0.sensor == .input) && measures($0) }
        return statuses.map { s in
            if measures(s) { return .inUse }
            switch s.sensor {
            case .desktop where configuration.desktop.enabled, .input where configuration.input.enabled:
                return presence ? .notInUse : .failing
            case .location where configuration.location.enabled && configuration.location.workplace != nil:
                return .failing
            default:
                return .notInUse
            }
        }
    }

    /// Each sensor's state as its detector first reports it, waiting at most `timeout` seconds per
    /// detector (they are asked at the same time). For `vigil sensors`.
    public static func probe(_ sensors: [SensorAvailability], timeout: Double = 5) async -> [SensorStatus] {
        await withTaskGroup(of: (Int, SensorStatus).self) { group in
            for (i, s) in sensors.enumerated() {
                group.addTask {
                    if let status = s.status { return (i, status) }
                    guard let detector = s.detector else { return (i, SensorStatus(sensor: s.sensor, state: .unavailable)) }
                    // The first status is the answer, unless it is a passing one (gpsd connected but
                    // no fix yet): then the latest within the timeout.
                    let latest = Mutex<SensorStatus?>(nil)
                    let first = Task { () -> Void in
                        for await reading in detector.readings() {
                            guard case .status(let st) = reading else { continue }
                            latest.withLock { $0 = st }
                            if st.state != .noFix && st.state != .lost { return }
                        }
                    }
                    let timer = Task {
                        try? await Task.sleep(for: .seconds(timeout))
                        first.cancel()
                    }
                    await first.value
                    timer.cancel()
                    let status = latest.withLock { $0 }
                    return (
                        i,
                        status
                            ?? SensorStatus(
                                sensor: s.sensor, state: .unavailable,
                                detail: "no answer from \(s.source) within \(Int(timeout)) s")
                    )
                }
            }
            var out = [SensorStatus?](repeating: nil, count: sensors.count)
            for await (i, status) in group { out[i] = status }
            return out.map { $0! }
        }
    }
}
