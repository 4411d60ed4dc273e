import CXCB
import DetectorSupport
import Foundation
import VigilCore

/// The application in front on X11, from the window manager's EWMH `_NET_ACTIVE_WINDOW`, event by
/// event (PropertyNotify; nothing is polled).
///
/// The class is the second string of the window's `WM_CLASS` ("Navigator\0firefox\0" → `firefox`).
/// The title (`_NET_WM_NAME` as UTF8_STRING or STRING, else `WM_NAME`) is read only when a rule
/// matches on titles or titles are stored, and never leaves this module otherwise (see
/// `FocusTracker`). Property changes of the window in front are watched too, so a browser tab
/// turning to a video site changes the category without a change of window. Each change of
/// (class, category, rule) is one `.app` sample; no window in front is an empty class.
///
/// Needs an EWMH window manager (i3, openbox, xfwm4, KWin, Mutter on X11…); without one
/// `_NET_ACTIVE_WINDOW` never changes. When the X server goes away the detector reports the loss
/// and reconnects with a growing delay.
public final class X11FocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The X display (`:0`); nil uses $DISPLAY.
    public let display: String?
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff

    /// - Parameters:
    ///   - display: the X display; nil uses $DISPLAY.
    ///   - apps: the rules that categorise applications, and whether titles may be stored.
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public init(
        display: String? = nil, apps: VigilConfiguration.Apps = .init(), retry: Backoff = .reconnect
    ) {
        self.display = display
        self.apps = apps
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-x11-focus") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        var tracker = FocusTracker(apps: apps)
        X11Connection.keepConnected(display: display, retry: retry, context) { x in
            var windows = ActiveWindow(x, readTitles: tracker.needsTitles)
            x.select(x.root, mask: UInt32(XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue))
            let ewmh = x.property32(x.root, x.atom("_NET_SUPPORTED")).contains(windows.activeAtom)
            context.report(
                .available,
                "the window in front on the X display \(x.displayName)"
                    + (ewmh ? "" : " (no EWMH window manager announces _NET_ACTIVE_WINDOW yet: nothing is seen until one does)"))
            var changed = true
            while !context.isStopped, x.failure == nil {
                // Events first: the replies read by the last update may have brought some along,
                // and the socket would not wake `wait` for those.
                x.drainEvents { event in
                    if vigil_xcb_event_code(event) == XCB_PROPERTY_NOTIFY, windows.matters(event) { changed = true }
                }
                if changed {
                    changed = false
                    let focus = windows.update()
                    if let change = tracker.focus(appClass: focus.appClass, title: focus.title) { context.emit(.app(change)) }
                    continue
                }
                x.wait(seconds: 60, stop: context.stopDescriptor)
            }
            return nil
        }
    }
}

private let noWindow = xcb_window_t(XCB_WINDOW_NONE.rawValue)

/// The window in front and the properties of it that are watched.
struct ActiveWindow {
    let x: X11Connection
    let readTitles: Bool
    let activeAtom: xcb_atom_t
    let netWMName: xcb_atom_t
    /// The window whose property changes this client selected; none yet.
    private(set) var watched = noWindow

    init(_ x: X11Connection, readTitles: Bool) {
        self.x = x
        self.readTitles = readTitles
        activeAtom = x.atom("_NET_ACTIVE_WINDOW")
        netWMName = x.atom("_NET_WM_NAME")
    }

    /// Whether a PropertyNotify may change what is in front: the root's active window, or the
    /// watched window's class or title.
    func matters(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool {
        let window = vigil_xcb_property_window(event)
        let atom = vigil_xcb_property_atom(event)
        if window == x.root { return atom == activeAtom }
        guard window == watched else { return false }
        return atom == XCB_ATOM_WM_CLASS.rawValue || (readTitles && (atom == netWMName || atom == XCB_ATOM_WM_NAME.rawValue))
    }

    /// Reads the window in front and moves the watch to it. The watch is set before the reading,
    /// so a change in between is not lost.
    mutating func update() -> (appClass: String?, title: String?) {
        let active = x.property32(x.root, activeAtom).first ?? 0
        if active != watched {
            if watched != noWindow { x.select(watched, mask: 0) }
            if active != noWindow { x.select(active, mask: UInt32(XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue)) }
            watched = active
        }
        guard active != noWindow else { return (nil, nil) }
        return (x.appClass(of: active), readTitles ? x.title(of: active) : nil)
    }
}
