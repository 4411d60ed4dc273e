import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// The session's idle time from a Wayland compositor that offers an idle protocol
/// (`ext-idle-notify-v1`, else KDE's `org_kde_kwin_idle`): wlroots compositors such as sway, where
/// neither GNOME's nor the freedesktop D-Bus interface exists and X11 sees only Xwayland's input.
/// Needs no special group: any client of the compositor may ask.
///
/// Neither protocol tells the idle time; they say "idle" once the seat has had no input for a
/// timeout the client chose, and "resumed" at the next input. So the detector asks for a short
/// timeout (the `threshold`: `desktop.poll`, between 0.05 and 5 s) and reads the idle time as 0
/// while the person is active and as `threshold` + the time since the "idle" event after it: exact
/// from the threshold on, and 0 below it (as X11's readings, every poll, are coarse by a poll).
/// Every `desktop.poll` seconds it emits `.desktop(.idle(seconds))`, and at once on each event.
///
/// What it cannot see: the idle time before it connected (the compositor's timer starts with the
/// request), so after a start or a reconnection idle reads 0 until the threshold passes; and input
/// while the compositor inhibits idleness (a video player's idle inhibitor, per both protocols)
/// does not exist for it: the seat is never idle then. No lock either: a Wayland locker
/// (swaylock, through ext-session-lock-v1) tells only the compositor; logind's LockedHint is the
/// lock on such desktops.
///
/// When the compositor goes away the detector reports the loss and reconnects with a growing delay.
public final class WaylandIdleDetector: Detector, Sendable {
    public let sensor = SensorKind.desktop
    /// The Wayland display (`wayland-1`, or a socket's path); nil uses $WAYLAND_DISPLAY.
    public let display: String?
    /// Seconds between idle readings.
    public let interval: Double
    /// Seconds without input after which the compositor says "idle"; idle below it reads 0.
    public let threshold: Double
    private let retry: Backoff
    /// Where $WAYLAND_DISPLAY and $XDG_RUNTIME_DIR are read; nil: the process's environment.
    private let environment: [String: String]?

    /// - Parameters:
    ///   - display: the Wayland display; nil uses $WAYLAND_DISPLAY.
    ///   - desktop: `poll` sets the seconds between idle readings and the idle threshold.
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public convenience init(
        display: String? = nil, desktop: VigilConfiguration.Desktop = .init(), retry: Backoff = .reconnect
    ) {
        self.init(display: display, desktop: desktop, retry: retry, environment: nil)
    }

    /// As the public one, reading the display and runtime directory from `environment` (tests).
    init(
        display: String?, desktop: VigilConfiguration.Desktop, retry: Backoff, environment: [String: String]?
    ) {
        self.display = display
        self.environment = environment
        interval = max(0.05, desktop.poll.isFinite ? desktop.poll : 1)
        threshold = min(interval, 5)
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .desktop, threadName: "vigil-wayland-idle") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        WaylandConnection.keepConnected(display: display, environment: environment, retry: retry, context) { wayland in
            let watch: IdleNotification
            do throws(WaylandError) {
                guard let made = try IdleNotification(on: wayland, threshold: threshold, timeout: 10) else {
                    return WaylandCompositor.noIdleProtocol(wayland.displayName, globals: wayland.globals) + " Retrying."
                }
                watch = made
            } catch {
                return "the Wayland compositor at \(wayland.displayName) failed while Vigil asked it for idle notifications (\(error)). Retrying."
            }
            if context.isStopped { return nil }
            context.report(
                .available,
                "idle time from the Wayland compositor at \(wayland.displayName) (\(watch.idleProtocol.rawValue); "
                    + "idle shorter than \(threshold.secondsText) s reads as 0)")
            var due = monotonicSeconds()
            while !context.isStopped, wayland.failure == nil {
                let now = monotonicSeconds()
                if watch.state.changed || now >= due {
                    watch.state.changed = false
                    context.emit(.desktop(.idle(watch.state.idleSince.map { threshold + max(0, now - $0) } ?? 0)))
                    due = now + interval
                    continue
                }
                wayland.wait(seconds: due - now)
            }
            return nil
        }
    }
}

/// What a Wayland compositor offers Vigil, for choosing a backend before starting a session.
public struct WaylandProbe: Sendable, Equatable {
    /// The display tried (`wayland-1`); empty when none was given and $WAYLAND_DISPLAY is not set.
    public var display: String
    /// A connection was made and the compositor answered.
    public var reachable: Bool
    /// The idle protocol `WaylandIdleDetector` would use; nil when the compositor offers neither.
    public var idleProtocol: WaylandIdleProtocol?
    /// Why not, in a sentence, when there is no idle protocol to use.
    public var problem: String?
    /// It lists its windows (`zwlr_foreign_toplevel_manager_v1`): `WaylandFocusDetector` works.
    public var listsWindows = false
}

/// Looking at a Wayland compositor without a detector.
public enum WaylandCompositor {
    /// Connects to `display` (or $WAYLAND_DISPLAY), reads the globals and disconnects: a few
    /// milliseconds, at most `timeout` seconds when the compositor does not answer.
    public static func probe(display: String? = nil, timeout: Double = 2) -> WaylandProbe {
        probe(display: display, timeout: timeout, environment: ProcessInfo.processInfo.environment)
    }

    static func probe(display: String?, timeout: Double, environment: [String: String]) -> WaylandProbe {
        let name = (try? WaylandConnection.displayName(display, environment)) ?? ""
        var probe = WaylandProbe(display: name, reachable: false)
        let wayland: WaylandConnection
        do throws(WaylandError) {
            wayland = try WaylandConnection(display: display, timeout: timeout, environment: environment)
        } catch {
            probe.problem =
                error == .noDisplay
                ? "no Wayland display: $WAYLAND_DISPLAY is not set" : "cannot connect to the Wayland compositor at \(name): \(error)"
            return probe
        }
        probe.reachable = true
        probe.listsWindows = wayland.globals.offers(ForeignToplevels.managerInterface)
        probe.idleProtocol = WaylandIdleProtocol.best(in: wayland.globals)
        if probe.idleProtocol == nil || !wayland.globals.offers("wl_seat") {
            probe.idleProtocol = nil
            probe.problem = noIdleProtocol(name, globals: wayland.globals)
        }
        return probe
    }

    /// Why a compositor is of no use for idle time, naming the compositors that are.
    static func noIdleProtocol(_ display: String, globals: WaylandConnection.Globals) -> String {
        guard globals.offers("wl_seat") else { return "the Wayland compositor at \(display) offers no seat (wl_seat), so it has no idle time." }
        return "the Wayland compositor at \(display) offers no idle protocol (neither ext-idle-notify-v1 nor org_kde_kwin_idle). "
            + "sway 1.8 and later, KWin 5.27 and later, Hyprland, labwc and niri offer ext-idle-notify-v1; sway 1.7 and other "
            + "compositors on wlroots 0.17 or older offer org_kde_kwin_idle. On GNOME set desktop.backend to gnome."
    }
}
