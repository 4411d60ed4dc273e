import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// The application in front under a wlroots compositor (sway, wayfire, labwc, river, niri…) from
/// `wlr-foreign-toplevel-management-unstable-v1`: the window whose state says activated, its
/// app_id as the application. Event-driven: the compositor sends each change of a window's state
/// or title, ended by `done` (`ForeignToplevels`). Needs no special group: any client may bind it.
///
/// Moving the focus from one window to another is two windows' changes (one loses `activated`,
/// the other gains it), which may come in two reads: a "no window" is reported only when no
/// window is activated for a quarter of a second. Titles are used for matching and dropped unless
/// `apps.store_titles` (`FocusTracker`). When the compositor goes away the detector reports the
/// loss and reconnects with a growing delay.
public final class WaylandFocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The Wayland display (`wayland-1`, or a socket's path); nil uses $WAYLAND_DISPLAY.
    public let display: String?
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff
    private let environment: [String: String]?

    public convenience init(display: String? = nil, apps: VigilConfiguration.Apps = .init(), retry: Backoff = .reconnect) {
        self.init(display: display, apps: apps, retry: retry, environment: nil)
    }

    /// As the public one, reading the display and runtime directory from `environment` (tests).
    init(display: String?, apps: VigilConfiguration.Apps, retry: Backoff, environment: [String: String]?) {
        self.display = display
        self.apps = apps
        self.retry = retry
        self.environment = environment
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-wayland-focus") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        var tracker = FocusTracker(apps: apps)
        WaylandConnection.keepConnected(display: display, environment: environment, retry: retry, context) { wayland in
            let windows: ForeignToplevels
            do throws(WaylandError) {
                guard let made = try ForeignToplevels(on: wayland, timeout: 10) else {
                    return "the Wayland compositor at \(wayland.displayName) does not list its windows (no "
                        + "wlr-foreign-toplevel-management: not a wlroots compositor). Retrying."
                }
                windows = made
            } catch {
                return "the Wayland compositor at \(wayland.displayName) failed while Vigil asked it for its windows (\(error)). Retrying."
            }
            if context.isStopped { return nil }
            context.report(.available, "the window in front from the Wayland compositor at \(wayland.displayName) (wlr-foreign-toplevel-management)")
            // The compositor has no window active between two windows: see `FocusTracker.settling`.
            func look() {
                let front = windows.active
                if let change = tracker.settling(appClass: front?.appID, title: front?.title, now: monotonicSeconds()) {
                    context.emit(.app(change))
                }
            }
            look()
            while !context.isStopped, wayland.failure == nil, !windows.list.finished {
                wayland.wait(seconds: tracker.settlesIn(now: monotonicSeconds()) ?? 60)
                if windows.list.changed || tracker.settlesIn(now: monotonicSeconds()) != nil {
                    windows.list.changed = false
                    look()
                }
            }
            return nil
        }
    }
}
