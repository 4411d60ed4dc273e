import Foundation

/// A real GNOME Shell (Debian 12's 43.9) for one test: headless Wayland (`--headless --wayland
/// --no-x11 --virtual-monitor 1280x800`: no GPU, no input devices, no Xwayland), on private buses.
///
/// - Its session bus is a `SessionBus` of the test's own, which activates nothing: the shell finds
///   none of the desktop's other services there (calendar, polkit, the session manager), says so in
///   its log and runs without them.
/// - GNOME Shell needs logind on the system bus (it asks for its session and seat at start): a
///   second `SessionBus` stands in for the system bus (`DBUS_SYSTEM_BUS_ADDRESS`), with
///   python-dbusmock's `logind` template answering on it, since the real logind needs systemd as
///   PID 1.
/// - Its settings are GLib's keyfile backend in the test's home (`GSETTINGS_BACKEND=keyfile`:
///   `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`) rather than dconf, whose service this bus does
///   not activate; `gsettings` run with `environment` reads and writes the same file.
///
/// The home is empty at first: a test installs Vigil's extension (with `vigil desktop install`
/// and `environment`) before `start()`, as a person does before logging in. Windows get the
/// focus only when something activates them (no input here): the extension's `Activate`.
public final class GnomeShell {
    public let directory: String
    public let home: String
    public let runtime: String
    public let session: SessionBus
    private let system: SessionBus
    private let logind: ChildProcess
    private var shell: ChildProcess?

    public init() throws {
        directory = try temporaryDirectory("vigil-gnome")
        home = directory + "/home"
        runtime = directory + "/run"
        for path in [home, runtime] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        guard chmod(runtime, 0o700) == 0 else { throw TestFailure("cannot make \(runtime) private: \(String(cString: strerror(errno)))") }
        session = try SessionBus()
        system = try SessionBus()
        logind = try ChildProcess(
            "/usr/bin/env",
            [
                "-i", "PATH=/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS=\(system.address)", "/usr/bin/python3", "-m", "dbusmock", "--system",
                "--template", "logind",
            ],
            output: directory + "/logind.log")
        guard
            try Self.waitFor(
                seconds: 30, { self.busCall(self.system, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Peer.Ping") })
        else {
            throw TestFailure("dbusmock's logind did not start: \(log("logind.log"))")
        }
    }

    /// The environment of a program of this desktop session: its buses, home, runtime folder,
    /// Wayland display and settings backend.
    public var environment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share", "GSETTINGS_BACKEND": "keyfile", "DBUS_SESSION_BUS_ADDRESS": session.address,
            "DBUS_SYSTEM_BUS_ADDRESS": system.address, "WAYLAND_DISPLAY": "wayland-vigil", "XDG_SESSION_TYPE": "wayland",
            "XDG_CURRENT_DESKTOP": "GNOME",
        ]
    }

    /// Starts GNOME Shell and waits (up to 60 s) until it owns org.gnome.Shell and its Wayland
    /// socket answers; with `expectingExtension`, until Vigil's extension answers too.
    public func start(expectingExtension: Bool = true) throws {
        let env = environment.map { "\($0)=\($1)" }
        shell = try ChildProcess(
            "/usr/bin/env",
            ["-i"] + env + [
                "/usr/bin/gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800", "--wayland-display=wayland-vigil",
            ],
            output: directory + "/shell.log")
        let up = try Self.waitFor(seconds: 60) {
            guard self.shell?.isRunning == true, FileManager.default.fileExists(atPath: self.runtime + "/wayland-vigil") else { return false }
            return expectingExtension
                ? self.gdbus(["--method", "org.vigil.Focus1.Current"]).status == 0
                : self.busCall(self.session, "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.ListExtensions")
        }
        guard up else {
            shell?.kill()
            throw TestFailure("GNOME Shell did not start\(expectingExtension ? " with Vigil's extension" : ""):\n\(log("shell.log").suffix(4000))")
        }
    }

    /// GNOME Shell's log so far (for a failing test's message).
    public var shellLog: String { log("shell.log") }

    /// Starts a program in this session (a window: `Tests/DesktopDetectorTests/Data/wayland-window.py`).
    public func launch(_ path: String, _ arguments: [String], name: String) throws -> ChildProcess {
        try ChildProcess("/usr/bin/env", ["-i"] + environment.map { "\($0)=\($1)" } + [path] + arguments, output: directory + "/\(name).log")
    }

    /// Asks Vigil's extension to bring the window of `id` (app id or WM class) to the front, until
    /// the window is there to be activated (up to 30 s: a window just started may not be mapped yet).
    public func activate(_ id: String) throws {
        guard try Self.waitFor(seconds: 30, { self.gdbus(["--method", "org.vigil.Focus1.Activate", id]).output.contains("true") }) else {
            throw TestFailure("no window of \(id) to activate in GNOME Shell")
        }
    }

    /// The window in front as the extension says it: `('app id', 'wm class', 'title')`.
    public var current: String { gdbus(["--method", "org.vigil.Focus1.Current"]).output }

    /// Calls a method of GNOME Shell's on the session bus with gdbus (`--object-path` defaults to
    /// Vigil's extension's object).
    @discardableResult
    public func gdbus(_ arguments: [String], path: String = "/org/vigil/Focus") -> (status: Int32, output: String) {
        runTool(
            "/usr/bin/gdbus", ["call", "--session", "--dest", "org.gnome.Shell", "--object-path", path, "--timeout", "5"] + arguments,
            environment: environment)
    }

    private func busCall(_ bus: SessionBus, _ destination: String, _ path: String, _ method: String) -> Bool {
        runTool(
            "/usr/bin/gdbus", ["call", "--address", bus.address, "--dest", destination, "--object-path", path, "--method", method, "--timeout", "5"],
            environment: ["PATH": "/usr/bin:/bin"]
        ).status == 0
    }

    private func log(_ name: String) -> String { (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "" }

    private static func waitFor(seconds: Double, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    deinit {
        if let shell, shell.isRunning {
            // Asked to end, then made to: a shell stuck on its way out must not hold the suite.
            Foundation.kill(shell.pid, SIGTERM)
            for _ in 0..<50 where shell.isRunning { usleep(100_000) }
            shell.kill(SIGKILL)
        }
        logind.kill(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
