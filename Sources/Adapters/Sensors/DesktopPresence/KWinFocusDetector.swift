import DBusSupport
import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// The application in front under KDE Plasma (KWin 5.27 and 6, Wayland and X11), from a small KWin
/// script that Vigil loads into the running KWin over D-Bus for the time of a session: no install
/// step. KWin tells no other program on Wayland which window is in front; its scripts can see it,
/// and call back over D-Bus (`callDBus`).
///
/// The script is written to a private file and loaded with `org.kde.KWin` `/Scripting`
/// `loadScript(file, plugin)`, then started with `org.kde.kwin.Script.run` on the object KWin made
/// for it (`/Scripting/Script<id>` in KWin 6, `/<id>` in 5.27). It follows `windowActivated` (6) or
/// `clientActivated` (5), and the title of the window in front (`captionChanged`), and calls
/// `org.vigil.KWinFocus1.Changed(resource_class, caption)` on this connection's own unique name.
/// Only calls from KWin's connection are taken. At the end of the session the script is unloaded
/// (`unloadScript`); KWin restarting is seen (its name leaves the bus) and the script loaded again.
/// Titles are used for matching and dropped unless `apps.store_titles` (`FocusTracker`).
public final class KWinFocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The session bus address; nil is the environment's (see `MessageBus.address`).
    public let busAddress: String?
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff

    static let kwin = "org.kde.KWin"
    static let interface = "org.vigil.KWinFocus1"
    static let path = "/org/vigil/KWinFocus"

    public init(apps: VigilConfiguration.Apps = .init(), busAddress: String? = nil, retry: Backoff = .reconnect) {
        self.apps = apps
        self.busAddress = busAddress
        self.retry = retry
    }

    /// The script, for the connection named `service`. KWin 5 names the window in front
    /// `activeClient` and its change `clientActivated`; KWin 6 `activeWindow` and `windowActivated`.
    static func script(service: String) -> String {
        """
        // Vigil's KWin script: tells Vigil (\(service)) the window in front and its title.
        const vigil = "\(service)";
        let followed = null;
        function active() { return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient; }
        function report() {
            const w = active();
            callDBus(vigil, "\(path)", "\(interface)", "Changed", w ? String(w.resourceClass || "") : "", w ? String(w.caption || "") : "");
        }
        function follow(w) {
            try { if (followed) followed.captionChanged.disconnect(report); } catch (e) { }
            followed = w || null;
            if (followed) followed.captionChanged.connect(report);
            report();
        }
        (workspace.windowActivated || workspace.clientActivated).connect(follow);
        follow(active());

        """
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-kwin-focus") { [self] context in
            runBusWatch(
                context, bus: .session, address: busAddress, retry: retry, what: "KWin's window in front",
                remedy: "Is this a KDE Plasma session? Set apps.backend for another desktop."
            ) { bus, context throws(DBusFailure) in
                try watch(bus, context)
            }
        }
    }

    private func watch(_ bus: BusConnection, _ context: DetectorContext) throws(DBusFailure) {
        guard try bus.nameHasOwner(Self.kwin) else {
            throw DBusFailure(.noService, "KWin is not running (nothing owns \(Self.kwin) on the session bus)")
        }
        try bus.addMatch(ownerChangedRule(Self.kwin))
        guard let owner = try bus.nameOwner(Self.kwin) else { throw DBusFailure(.badReply, "the bus did not say who owns \(Self.kwin)") }
        let plugin = "vigil-focus-\(getpid())-\(bus.uniqueName.filter(\.isNumber))"
        try Self.loadScript(bus, plugin: plugin, source: Self.script(service: bus.uniqueName))
        defer {
            if bus.isConnected { _ = try? bus.call(Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(plugin)], timeout: 2) }
        }
        var tracker = FocusTracker(apps: apps)
        var reported = false
        // KWin says "no window" between two windows (the old one deactivated, then the new one
        // activated): a "no window" is reported only once nothing follows it for a moment.
        while !context.isStopped {
            let wait = tracker.settlesIn(now: monotonicSeconds()) ?? (reported ? 60 : 10)
            let message = try bus.nextSignal(timeout: wait, stop: context.stopDescriptor, answeringCalls: true)
            if let message, message.interface == Self.interface, message.member == "Changed", message.sender == owner,
                message.arguments.count == 2, let appClass = message.arguments[0].string, let title = message.arguments[1].string
            {
                if !reported {
                    context.report(.available, "the window in front from a KWin script (loaded into KWin over D-Bus as \(plugin))")
                    reported = true
                }
                if let change = tracker.settling(appClass: appClass.isEmpty ? nil : appClass, title: title, now: monotonicSeconds()) {
                    context.emit(.app(change))
                }
            } else if let message, let newOwner = newOwner(of: Self.kwin, in: message), newOwner != owner {
                throw DBusFailure(.noService, "KWin left the session bus")
            } else if message == nil, !reported {
                throw DBusFailure(.timedOut, "KWin ran Vigil's script but it did not report within 10 s")
            }
            if let change = tracker.settled(now: monotonicSeconds()) { context.emit(.app(change)) }
        }
    }
}

extension KWinFocusDetector {
    /// Writes the script to a private file, loads it into KWin and runs it; the file is removed
    /// once KWin has read it.
    static func loadScript(_ bus: BusConnection, plugin: String, source: String) throws(DBusFailure) {
        let directory = FileManager.default.temporaryDirectory.path + "/vigil-kwin-\(getuid())"
        mkdir(directory, 0o700)
        let file = directory + "/\(plugin).js"
        do {
            let output = try OutputFile(path: file)
            try output.write(Array(source.utf8))
            try output.commit(sync: false)
        } catch {
            throw DBusFailure(.remote, "cannot write the KWin script to \(file): \(error)")
        }
        defer { unlink(file) }
        // A script of the same name left by a Vigil that ended without unloading it (same pid reused).
        _ = try? bus.call(Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(plugin)])
        let reply = try bus.call(Self.kwin, "/Scripting", "org.kde.kwin.Scripting", "loadScript", [.string(file), .string(plugin)])
        guard case .int32(let id)? = reply.first, id >= 0 else { throw DBusFailure(.remote, "KWin refused to load Vigil's script (\(reply))") }
        do throws(DBusFailure) {
            try bus.call(Self.kwin, "/Scripting/Script\(id)", "org.kde.kwin.Script", "run")
        } catch  where error.isUnknownMember {
            // KWin 5 puts a script's object at the root.
            try bus.call(Self.kwin, "/\(id)", "org.kde.kwin.Script", "run")
        }
    }
}
