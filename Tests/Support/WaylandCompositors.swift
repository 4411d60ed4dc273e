import Foundation

/// KWin (Plasma 5.27's compositor, Debian 12's kwin-wayland), headless, for one test: its virtual
/// backend (no GPU, no DRM, no input devices), QPainter compositing, no lock screen, no global
/// shortcuts, no activities, no Xwayland, no session bus. It is here because it is the compositor
/// in Debian 12 that offers `ext_idle_notifier_v1` (sway 1.7 offers only KDE's older idle
/// protocol); it offers `org_kde_kwin_idle` too.
///
/// Debian installs /usr/bin/kwin_wayland with the file capability cap_sys_resource (to raise its
/// own limits). A container's bounding set usually lacks that capability, and the kernel then
/// refuses to exec the file at all (EPERM), root or not; so the test runs a copy of the binary
/// without the capability, which behaves the same otherwise.
public final class KWinCompositor {
    public let directory: String
    public let runtime: String
    /// The session bus KWin was given (it then owns org.kde.KWin there, with its scripting
    /// interface), nil for none.
    public let sessionBus: SessionBus?
    private let process: ChildProcess

    public init(sessionBus: SessionBus? = nil) throws {
        self.sessionBus = sessionBus
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-kwin-\(UUID().uuidString.prefix(8))").path
        runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        guard chmod(runtime, 0o700) == 0 else { throw TestFailure("cannot make \(runtime) private: \(String(cString: strerror(errno)))") }
        // Copied by cp, not by this process: a file this process held open for writing could be
        // inherited by a child another test spawns meanwhile, and exec would then fail (ETXTBSY).
        let binary = directory + "/kwin_wayland"
        let copied = runTool("/bin/cp", ["/usr/bin/kwin_wayland", binary])
        guard copied.status == 0 else { throw TestFailure("cannot copy kwin_wayland: \(copied.output)") }
        let log = directory + "/kwin.log"
        process = try ChildProcess(
            "/usr/bin/env",
            [
                "-i", "PATH=/usr/bin:/bin", "HOME=\(directory)", "XDG_RUNTIME_DIR=\(runtime)", "KWIN_COMPOSE=Q",
                "DBUS_SESSION_BUS_ADDRESS=\(sessionBus?.address ?? "unix:path=/nonexistent/vigil-tests/session_bus")", binary, "--virtual",
                "--socket", "wayland-vigil", "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities",
            ],
            output: log)
        try waitUntilAnswering(process, waylandDisplay, log: log, "kwin_wayland")
    }

    /// The Wayland socket's full path, for $WAYLAND_DISPLAY.
    public var waylandDisplay: String { runtime + "/wayland-vigil" }

    /// Starts a client of this compositor (a window: `Tests/DesktopDetectorTests/Data/wayland-window.py`).
    public func launch(_ path: String, _ arguments: [String], name: String) throws -> ChildProcess {
        try launchClient(path, arguments, directory: directory, runtime: runtime, display: waylandDisplay, name: name)
    }

    /// Makes the window of `resourceClass` the active one, as a click would, through a KWin script
    /// of the test's own (KWin 5.27: `workspace.activeClient`); whether KWin has such a window.
    /// Needs `sessionBus`.
    public func activate(_ resourceClass: String) throws -> Bool {
        try evaluate(
            """
            (function () { const w = workspace.clientList().find(c => String(c.resourceClass) === "\(resourceClass)");
            if (w) { workspace.activeClient = w; } return w ? "found" : "missing"; })()
            """) == "found"
    }

    /// The window of `resourceClass` as KWin's scripting sees it, read by a script of the test's
    /// own: "minimized", "active" or "shown"; nil when KWin has none.
    public func state(_ resourceClass: String) throws -> String? {
        let said = try evaluate(
            """
            (function () { const w = workspace.clientList().find(c => String(c.resourceClass) === "\(resourceClass)");
            return !w ? "none" : w.minimized ? "minimized" : w === workspace.activeClient ? "active" : "shown"; })()
            """)
        return said == "none" ? nil : said
    }

    /// Runs a KWin script of the test's own that evaluates `expression` and prints it to KWin's log
    /// (`print`), and returns what it printed. Needs `sessionBus`.
    public func evaluate(_ expression: String) throws -> String {
        guard let bus = sessionBus else { throw TestFailure("KWin was started without a session bus") }
        let token = "vigil-test-\(UUID().uuidString.prefix(8))"
        let file = directory + "/\(token).js"
        try "print(\"\(token) \" + (\(expression)));\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        func call(_ path: String, _ method: String, _ arguments: [String] = []) -> (status: Int32, output: String) {
            runTool(
                "/usr/bin/gdbus",
                ["call", "--address", bus.address, "--dest", "org.kde.KWin", "--object-path", path, "--method", method] + arguments,
                environment: ["PATH": "/usr/bin:/bin"])
        }
        let loaded = call("/Scripting", "org.kde.kwin.Scripting.loadScript", [file, token])
        defer { _ = call("/Scripting", "org.kde.kwin.Scripting.unloadScript", [token]) }
        guard loaded.status == 0, let id = loaded.output.split(whereSeparator: { !$0.isNumber }).first else {
            throw TestFailure("KWin did not load the test's script: \(loaded.output)")
        }
        let ran = call("/\(id)", "org.kde.kwin.Script.run")
        guard ran.status == 0 else { throw TestFailure("KWin did not run the test's script: \(ran.output)") }
        for _ in 0..<100 {
            let log = (try? String(contentsOfFile: directory + "/kwin.log", encoding: .utf8)) ?? ""
            if let line = log.split(separator: "\n").last(where: { $0.contains(token + " ") }),
                let said = line.components(separatedBy: token + " ").last
            {
                return said
            }
            usleep(50_000)
        }
        throw TestFailure("KWin ran the test's script but it said nothing within 5 s")
    }

    /// The globals wayland-info lists (`ext_idle_notifier_v1`…).
    public var globals: [String] {
        runTool("/usr/bin/wayland-info", [], environment: ["WAYLAND_DISPLAY": waylandDisplay]).output.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "interface: '") else { return nil }
            return line[start.upperBound...].split(separator: "'").first.map(String.init)
        }
    }

    deinit {
        process.kill(SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// phoc (Phosh's compositor, Debian 12's 0.24, on wlroots), headless with pixman rendering, for
/// one test: a wlroots compositor other than sway that offers `zwlr_foreign_toplevel_manager_v1`
/// (phosh's app switcher uses it). It stands in for wayfire, which the issue names: Debian 12's
/// wayfire 0.7 renders only through OpenGL ES on a DRM device and refuses to start without one
/// ("Failed to get DRM file descriptor"), and this machine, like CI's, has no GPU.
public final class PhocCompositor {
    public let directory: String
    public let runtime: String
    private let process: ChildProcess

    public init() throws {
        directory = try temporaryDirectory("vigil-phoc")
        runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        guard chmod(runtime, 0o700) == 0 else { throw TestFailure("cannot make \(runtime) private: \(String(cString: strerror(errno)))") }
        let log = directory + "/phoc.log"
        process = try ChildProcess(
            "/usr/bin/env",
            [
                "-i", "PATH=/usr/bin:/bin", "HOME=\(directory)", "XDG_RUNTIME_DIR=\(runtime)", "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1",
                "WLR_RENDERER=pixman", "/usr/bin/phoc",
            ],
            output: log)
        try waitUntilAnswering(process, waylandDisplay, log: log, "phoc")
    }

    /// The Wayland socket's full path, for $WAYLAND_DISPLAY.
    public var waylandDisplay: String { runtime + "/wayland-0" }

    /// Starts a client of this compositor (a window: `Tests/DesktopDetectorTests/Data/wayland-window.py`).
    public func launch(_ path: String, _ arguments: [String], name: String) throws -> ChildProcess {
        try launchClient(path, arguments, directory: directory, runtime: runtime, display: waylandDisplay, name: name)
    }

    deinit {
        process.kill(SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Weston 10 (Debian 12) on an `XServer`, as a window of it: a Wayland compositor with a seat (the
/// X11 backend's keyboard and pointer) and no idle protocol at all, for the tests of what Vigil
/// says about such a compositor. Pixman rendering, no config file, its socket in a private runtime
/// directory.
public final class WestonCompositor {
    public let runtime: String
    private let process: ChildProcess

    public init(on server: XServer) throws {
        runtime = server.directory + "/weston-run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        guard chmod(runtime, 0o700) == 0 else { throw TestFailure("cannot make \(runtime) private: \(String(cString: strerror(errno)))") }
        let log = server.directory + "/weston.log"
        process = try ChildProcess(
            "/usr/bin/env",
            [
                "-i", "PATH=/usr/bin:/bin", "HOME=\(server.directory)", "DISPLAY=\(server.display)", "XDG_RUNTIME_DIR=\(runtime)",
                "/usr/bin/weston", "--backend=x11-backend.so", "--use-pixman", "--socket=wayland-vigil", "--no-config",
            ],
            output: log)
        try waitUntilAnswering(process, waylandDisplay, log: log, "weston on \(server.display)")
    }

    /// The Wayland socket's full path, for $WAYLAND_DISPLAY.
    public var waylandDisplay: String { runtime + "/wayland-vigil" }

    deinit { process.kill(SIGTERM) }
}

/// Starts a client of a compositor: an environment of its own (the compositor's runtime folder and
/// display, `directory` as its home), its output in `directory/name.log`.
private func launchClient(_ path: String, _ arguments: [String], directory: String, runtime: String, display: String, name: String) throws
    -> ChildProcess
{
    try ChildProcess(
        "/usr/bin/env",
        ["-i", "PATH=/usr/bin:/bin", "HOME=\(directory)", "XDG_RUNTIME_DIR=\(runtime)", "WAYLAND_DISPLAY=\(display)", path] + arguments,
        output: directory + "/\(name).log")
}

/// Waits (up to 30 s) until a compositor's socket exists and a client's round trip there is
/// answered (wayland-info lists the globals and exits); kills it and throws with its log if it
/// exits or does not answer.
private func waitUntilAnswering(_ process: ChildProcess, _ socket: String, log: String, _ name: String) throws {
    for _ in 0..<600 {
        if FileManager.default.fileExists(atPath: socket), runTool("/usr/bin/wayland-info", [], environment: ["WAYLAND_DISPLAY": socket]).status == 0
        {
            return
        }
        guard process.isRunning else { break }
        usleep(50_000)
    }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    process.kill()
    throw TestFailure("\(name) did not start:\n\(text)")
}
