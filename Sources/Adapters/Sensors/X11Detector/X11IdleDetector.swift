import CXCB
import DetectorSupport
import Foundation
import VigilCore

/// The session's idle time from the X server's MIT-SCREEN-SAVER extension, with no special group:
/// any X client may ask how long ago the last keyboard or pointer input was.
///
/// Every `desktop.poll` seconds it emits `.desktop(.idle(seconds))`. A blanked screen (the X screen
/// saver's state ON or CYCLE) is not a lock: nothing was locked, and calling it one gave reasons
/// ("screen locked") that did not happen. It comes after the screen saver's timeout, when the idle
/// time already says the person is away, and the extension's notify events make the reading at a
/// blank or an unblank come at once, not at the next poll. A lock is seen through logind's
/// LockedHint (lockers started by xss-lock or the desktop set it).
/// Under Xwayland the idle time counts only input that reached X clients: use the GNOME or
/// freedesktop backend there.
///
/// When the X server goes away the detector reports the loss and reconnects with a growing delay.
public final class X11IdleDetector: Detector, Sendable {
    public let sensor = SensorKind.desktop
    /// The X display (`:0`); nil uses $DISPLAY.
    public let display: String?
    /// Seconds between idle readings.
    public let interval: Double
    private let retry: Backoff

    /// - Parameters:
    ///   - display: the X display; nil uses $DISPLAY.
    ///   - desktop: `poll` sets the seconds between idle readings.
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public init(
        display: String? = nil, desktop: VigilConfiguration.Desktop = .init(), retry: Backoff = .reconnect
    ) {
        self.display = display
        interval = max(0.05, desktop.poll)
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .desktop, threadName: "vigil-x11-idle") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        X11Connection.keepConnected(display: display, retry: retry, context) { x in
            guard let firstEvent = x.screenSaverFirstEvent else {
                return "the X display \(x.displayName) has no MIT-SCREEN-SAVER extension, so its idle time cannot be read "
                    + "(an X server started with `-extension MIT-SCREEN-SAVER`?). Set desktop.backend to gnome or freedesktop "
                    + "if the desktop offers those. Retrying."
            }
            // A reading at a blank or an unblank, between the polls.
            _ = xcb_screensaver_select_input(x.connection, x.root, UInt32(XCB_SCREENSAVER_EVENT_NOTIFY_MASK.rawValue))
            _ = xcb_flush(x.connection)
            context.report(.available, "idle time from the X display \(x.displayName) (MIT-SCREEN-SAVER)")
            var due = ContinuousClock.now
            while !context.isStopped, x.failure == nil {
                var notified = false
                x.drainEvents { event in
                    if vigil_xcb_event_code(event) == firstEvent + UInt8(XCB_SCREENSAVER_NOTIFY) { notified = true }
                }
                if notified || ContinuousClock.now >= due {
                    guard read(x, context) else { break }
                    due = ContinuousClock.now + .seconds(interval)
                    continue
                }
                let left = due - ContinuousClock.now
                x.wait(seconds: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, stop: context.stopDescriptor)
            }
            return nil
        }
    }

    /// One reading: the idle time. False when the connection is gone.
    private func read(_ x: X11Connection, _ context: DetectorContext) -> Bool {
        guard let info = x.screenSaverInfo() else { return false }
        context.emit(.desktop(.idle(Double(info.idleMilliseconds) / 1000)))
        return true
    }
}
