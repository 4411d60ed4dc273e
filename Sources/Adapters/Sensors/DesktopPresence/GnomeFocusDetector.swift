import DBusSupport
import DetectorSupport
import Foundation
import VigilCore

/// The application in front under GNOME Shell (Wayland and X11), from Vigil's own Shell extension
/// (`desktop/gnome-shell/`, installed by `vigil desktop install`): GNOME on Wayland tells no other
/// program which window is in front, so the extension, running inside the shell, says it on the
/// session bus under org.gnome.Shell at /org/vigil/Focus, interface org.vigil.Focus1.
///
/// Event-driven: `Current()` once at the start, then a `Changed(app_id, wm_class, title)` signal
/// at each change of the window in front or of its title. The application is the WM class (on
/// Wayland the xdg-shell app_id, as sway reports it; on X11 the WM_CLASS class, as the X11
/// backend reports it), else GTK's application id. Titles are used for matching and dropped unless
/// `apps.store_titles` (`FocusTracker`).
///
/// With the extension missing or disabled, the detector says what to run, and tries again with a
/// growing delay: enabling it later (or the shell loading it at the next login) is picked up. The
/// shell's `ExtensionStateChanged` says when the extension is disabled while a session runs.
public final class GnomeFocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The session bus address; nil is the environment's (see `MessageBus.address`).
    public let busAddress: String?
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff

    static let shell = "org.gnome.Shell"
    static let path = "/org/vigil/Focus"
    public static let interface = "org.vigil.Focus1"
    static let extensions = "org.gnome.Shell.Extensions"

    public init(apps: VigilConfiguration.Apps = .init(), busAddress: String? = nil, retry: Backoff = .reconnect) {
        self.apps = apps
        self.busAddress = busAddress
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-gnome-focus") { [self] context in
            runBusWatch(
                context, bus: .session, address: busAddress, retry: retry, what: "Vigil's GNOME Shell extension",
                remedy: "Run `vigil desktop install` (on Wayland, then log out and in again)."
            ) { bus, context throws(DBusFailure) in
                try watch(bus, context)
            }
        }
    }

    /// A window as the extension names it: its class and title, or none in front.
    struct ShellWindow: Equatable {
        /// nil for no window in front.
        var appClass: String?
        var title: String?
    }

    /// The window in front, asked with `Current()`.
    static func current(_ bus: BusConnection, timeout: Double = 5) throws(DBusFailure) -> ShellWindow {
        let reply = try bus.call(shell, path, interface, "Current", timeout: timeout)
        guard let window = window(reply) else { throw DBusFailure(.badReply, "\(interface).Current did not answer (sss)") }
        return window
    }

    /// The window three strings (app id, WM class, title) name, no window when they are empty;
    /// nil when the arguments are not three strings.
    static func window(_ arguments: [DBusValue]) -> ShellWindow? {
        guard arguments.count == 3, let appID = arguments[0].string, let wmClass = arguments[1].string, let title = arguments[2].string else {
            return nil
        }
        let appClass = wmClass.isEmpty ? appID : wmClass
        return appClass.isEmpty ? ShellWindow() : ShellWindow(appClass: appClass, title: title)
    }

    private func watch(_ bus: BusConnection, _ context: DetectorContext) throws(DBusFailure) {
        guard try bus.nameHasOwner(Self.shell) else {
            throw DBusFailure(.noService, "GNOME Shell is not running (nothing owns \(Self.shell) on the session bus)")
        }
        try bus.addMatch("type='signal',sender='\(Self.shell)',path='\(Self.path)',interface='\(Self.interface)',member='Changed'")
        try bus.addMatch(
            "type='signal',sender='\(Self.shell)',path='/org/gnome/Shell',interface='\(Self.extensions)',member='ExtensionStateChanged',"
                + "arg0='\(GnomeShellExtensionFiles.uuid)'")
        try bus.addMatch(ownerChangedRule(Self.shell))
        // Subscribed first, then asked: a change between the two is told twice, not missed.
        let now: ShellWindow
        do throws(DBusFailure) {
            now = try Self.current(bus)
        } catch  where error.isUnknownMember {
            throw DBusFailure(.noService, "GNOME Shell runs without Vigil's extension (\(GnomeShellExtensionFiles.uuid))")
        }
        var tracker = FocusTracker(apps: apps)
        context.report(.available, "the window in front from Vigil's GNOME Shell extension (\(Self.interface) on the session bus)")
        if let change = tracker.focus(appClass: now.appClass, title: now.title) { context.emit(.app(change)) }
        while !context.isStopped {
            guard let signal = try bus.nextSignal(timeout: 60, stop: context.stopDescriptor) else { continue }
            if signal.interface == Self.interface, signal.member == "Changed" {
                guard let window = Self.window(signal.arguments) else { continue }
                if let change = tracker.focus(appClass: window.appClass, title: window.title) { context.emit(.app(change)) }
            } else if signal.interface == Self.extensions, signal.member == "ExtensionStateChanged", !Self.enabled(signal.arguments) {
                throw DBusFailure(.noService, "Vigil's GNOME Shell extension was disabled")
            } else if let owner = newOwner(of: Self.shell, in: signal), owner.isEmpty {
                throw DBusFailure(.noService, "GNOME Shell left the session bus")
            }
        }
    }

    /// Whether an `ExtensionStateChanged(uuid, state)` says the extension is enabled: its `state`
    /// is 1 (GNOME Shell's ExtensionState.ENABLED; 2 is disabled, 3 error, 4 out of date…).
    static func enabled(_ arguments: [DBusValue]) -> Bool {
        guard arguments.count == 2, case .array(_, let entries) = arguments[1] else { return true }
        for case .dictEntry(let key, let value) in entries where key.string == "state" {
            if case .double(let state) = value.unwrapped { return state == 1 }
        }
        return true
    }
}
