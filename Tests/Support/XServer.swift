import Foundation
import Synchronization

/// A private X server (Xvfb) for one test, on a display number no other X server uses, with a
/// directory of its own for what the test writes next to it (a window manager's config and socket).
///
/// `-noreset`: without it Xvfb resets when its last client disconnects, and a reset also resets
/// the idle time, so a test that connects and disconnects would see idle drop for no reason.
/// `-nolisten tcp`: only the Unix socket in /tmp/.X11-unix.
public final class XServer {
    public let number: Int
    public let directory: String
    public private(set) var process: ChildProcess?
    private let extraArguments: [String]

    /// Display numbers this process has tried, so parallel tests in it never pick the same one.
    private static let next = Atomic<Int>(0)

    /// Starts Xvfb on a free display and waits until it answers (`xdpyinfo`). `arguments` are
    /// added to Xvfb's (`-extension MIT-SCREEN-SAVER` to start one without the extension).
    public init(arguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-x11-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        extraArguments = arguments
        // Numbers from the pid, far above the :0–:10 of real sessions; other test processes on the
        // machine start elsewhere, and a number whose lock file or socket exists is skipped.
        let base = 200 + Int(getpid() % 1000) * 8
        var tried: [String] = []
        for _ in 0..<50 where tried.count < 10 {
            let n = base + Self.next.add(1, ordering: .relaxed).oldValue
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock"), !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") else {
                continue
            }
            if let started = try? Self.start(number: n, arguments: arguments, log: "\(directory)/xvfb.log") {
                process = started
                number = n
                return
            }
            tried.append(":\(n)")
        }
        let log = (try? String(contentsOfFile: "\(directory)/xvfb.log", encoding: .utf8)) ?? ""
        throw TestFailure("Xvfb did not start on any of \(tried):\n\(log)")
    }

    /// Starts Xvfb on display `number` and waits until its socket exists and it answers.
    private static func start(number: Int, arguments: [String], log: String) throws -> ChildProcess {
        let p = try ChildProcess(
            "/usr/bin/Xvfb", [":\(number)", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"] + arguments, output: log)
        for _ in 0..<400 {
            guard p.isRunning else { throw TestFailure("Xvfb :\(number) exited") }
            if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"),
                runTool("/usr/bin/xdpyinfo", ["-display", ":\(number)"]).status == 0
            {
                return p
            }
            usleep(50_000)
        }
        p.kill()
        throw TestFailure("Xvfb :\(number) did not answer within 20 s")
    }

    public var display: String { ":\(number)" }

    /// The test's environment with DISPLAY set to this server.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env.removeValue(forKey: "I3SOCK")
        env.removeValue(forKey: "SWAYSOCK")
        return env
    }

    /// Runs an X client to completion (`xdotool`, `xprop`) on this display.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        runTool(tool, arguments, environment: environment)
    }

    /// Starts an X client (a window) on this display and returns at once.
    public func start(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(tool, arguments, environment: environment)
    }

    /// Kills the server without warning, as a crash would. The lock file and socket a killed Xvfb
    /// leaves behind are removed, so the display is free again and /tmp keeps no litter.
    public func kill() {
        guard let process else { return }
        process.kill(SIGKILL)
        self.process = nil
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    /// Starts the server again on the same display (after `kill`).
    public func restart() throws {
        kill()
        process = try Self.start(number: number, arguments: extraArguments, log: "\(directory)/xvfb-2.log")
    }

    /// The window ids `xdotool search` finds for a class (WM_CLASS's second string).
    public func windows(ofClass cls: String) -> [String] {
        run("/usr/bin/xdotool", ["search", "--class", "^\(cls)$"]).output.split(separator: "\n").map(String.init).filter { Int($0) != nil }
    }

    /// Forces the X screen saver on at once (XForceScreenSaver(ScreenSaverActive)), through libX11
    /// from Python, so the blanking the detector sees comes from a client other than Vigil.
    public func blankScreen() -> (status: Int32, output: String) {
        let script = """
            import ctypes
            x = ctypes.CDLL("libX11.so.6")
            x.XOpenDisplay.restype = ctypes.c_void_p
            d = ctypes.c_void_p(x.XOpenDisplay(None))
            assert d.value, "no display"
            x.XForceScreenSaver(d, 1)
            x.XFlush(d)
            x.XCloseDisplay(d)
            """
        return run("/usr/bin/python3", ["-c", script])
    }

    deinit {
        // SIGTERM: Xvfb then removes its lock file and socket itself.
        process?.kill(SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// i3 on an `XServer`, with a minimal config: no bar, no autostart (Debian's /etc/i3/config would
/// start dex, xss-lock, nm-applet and i3bar), and its IPC socket at a known path.
public final class I3WindowManager {
    public let server: XServer
    public let socket: String
    private let process: ChildProcess

    public init(on server: XServer) throws {
        self.server = server
        socket = "\(server.directory)/i3-ipc.sock"
        let config = "\(server.directory)/i3.conf"
        // The first line must be this, or i3 takes the file for a v3 config and runs
        // i3-migrate-config-to-v4 on it.
        try "# i3 config file (v4)\nfont pango:monospace 8\nipc-socket \(socket)\n".write(toFile: config, atomically: true, encoding: .utf8)
        var env = server.environment
        env["XDG_RUNTIME_DIR"] = server.directory
        process = try ChildProcess("/usr/bin/i3", ["-c", config], environment: env, output: "\(server.directory)/i3.log")
        for _ in 0..<400 {
            if FileManager.default.fileExists(atPath: socket), msg(type: "get_version").status == 0 { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: "\(server.directory)/i3.log", encoding: .utf8)) ?? ""
        process.kill()
        throw TestFailure("i3 did not start on \(server.display):\n\(log)")
    }

    /// Runs `i3-msg` against this i3: a command (`[class="Editor"] focus`), or a message type.
    @discardableResult
    public func msg(_ command: String = "", type: String = "command") -> (status: Int32, output: String) {
        runTool("/usr/bin/i3-msg", ["-s", socket, "-t", type] + (command.isEmpty ? [] : [command]), environment: server.environment)
    }

    deinit { process.kill() }
}

/// Openbox on an `XServer`, a stacking EWMH window manager (as xfwm4, Mutter and KWin on X11 are):
/// what the X11 window actions are tested against. Its own empty config directory, so no
/// autostart and no session.
public final class OpenboxWindowManager {
    public let server: XServer
    private let process: ChildProcess

    public init(on server: XServer) throws {
        self.server = server
        var env = server.environment
        env["XDG_CONFIG_HOME"] = server.directory + "/config"
        env["XDG_CONFIG_DIRS"] = server.directory + "/config"
        process = try ChildProcess("/usr/bin/openbox", ["--sm-disable"], environment: env, output: "\(server.directory)/openbox.log")
        // Ready once it announces itself on the root window (EWMH's _NET_SUPPORTING_WM_CHECK).
        for _ in 0..<400 {
            if server.run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"]).output.contains("window id #") { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: "\(server.directory)/openbox.log", encoding: .utf8)) ?? ""
        process.kill()
        throw TestFailure("openbox did not start on \(server.display):\n\(log)")
    }

    /// The class of the window in front (`_NET_ACTIVE_WINDOW`, read with xprop).
    public var activeClass: String? {
        let root = server.run("/usr/bin/xprop", ["-root", "_NET_ACTIVE_WINDOW"]).output
        guard let id = root.split(separator: " ").last.map(String.init), id.hasPrefix("0x"), id != "0x0" else { return nil }
        return Self.className(server.run("/usr/bin/xprop", ["-id", id, "WM_CLASS"]).output)
    }

    /// ICCCM's state of the window of `cls` as xprop reads it: "Normal", "Iconic"; nil without one.
    public func state(_ cls: String) -> String? {
        guard let id = server.windows(ofClass: cls).first else { return nil }
        let out = server.run("/usr/bin/xprop", ["-id", id, "WM_STATE"]).output
        guard let line = out.split(separator: "\n").first(where: { $0.contains("window state:") }) else { return nil }
        return line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The classes of the managed windows, bottom of the stack first (`_NET_CLIENT_LIST_STACKING`).
    public var stacking: [String] {
        let out = server.run("/usr/bin/xprop", ["-root", "_NET_CLIENT_LIST_STACKING"]).output
        guard let list = out.split(separator: "#").last else { return [] }
        return list.split(separator: ",").compactMap { id in
            Self.className(server.run("/usr/bin/xprop", ["-id", id.trimmingCharacters(in: .whitespacesAndNewlines), "WM_CLASS"]).output)
        }
    }

    /// `WM_CLASS(STRING) = "xterm", "Editor"` → Editor.
    private static func className(_ xprop: String) -> String? {
        let quoted = xprop.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return quoted.count > 1 ? quoted[1] : nil
    }

    deinit { process.kill() }
}

/// sway, headless, for one test: its own runtime directory, no outputs but a virtual one (wlroots'
/// headless backend, pixman rendering: no GPU, no DRM), no Xwayland.
///
/// sway refuses to run as root ("Unable to drop root"), so it runs as nobody (uid 65534) through
/// setpriv, in a runtime directory that user owns. The test, as root, still reaches its sockets.
public final class SwayCompositor {
    public let directory: String
    public let runtime: String
    private var process: ChildProcess?
    private var starts = 0

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-sway-\(UUID().uuidString.prefix(8))").path
        runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        guard chown(runtime, 65534, 65534) == 0, chmod(runtime, 0o700) == 0, chmod(directory, 0o755) == 0 else {
            throw TestFailure("cannot give \(runtime) to uid 65534: \(String(cString: strerror(errno)))")
        }
        try "xwayland disable\n".write(toFile: directory + "/sway.conf", atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts sway and waits until it answers on its IPC socket and has made its Wayland socket.
    private func start() throws {
        starts += 1
        let log = directory + "/sway-\(starts).log"
        let process = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(runtime)",
                "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman", "/usr/bin/sway", "-c", directory + "/sway.conf",
            ],
            output: log)
        self.process = process
        for _ in 0..<400 {
            if let socket, runTool("/usr/bin/swaymsg", ["-s", socket, "-t", "get_version"]).status == 0,
                FileManager.default.fileExists(atPath: waylandDisplay)
            {
                return
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        process.kill()
        throw TestFailure("sway did not start:\n\(text)")
    }

    /// The Wayland socket's full path, for $WAYLAND_DISPLAY (sway skips wayland-0, so in a runtime
    /// directory of its own it is wayland-1).
    public var waylandDisplay: String { runtime + "/wayland-1" }

    /// Stops sway as a person's logout would (SIGTERM: it removes its sockets) and waits for it.
    public func stop() {
        process?.kill(SIGTERM)
        process = nil
    }

    /// Starts sway again in the same runtime directory (after `stop`), on the same socket.
    public func restart() throws {
        stop()
        try start()
    }

    /// sway-ipc.65534.<pid>.sock in the runtime directory, once sway has made it.
    public var socket: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.map { runtime + "/" + $0 }
    }

    /// Runs `swaymsg` with a command (`[app_id="x"] focus`, `workspace 2`).
    @discardableResult
    public func msg(_ command: String) -> (status: Int32, output: String) {
        runTool("/usr/bin/swaymsg", ["-s", socket ?? "", command])
    }

    /// Starts a Wayland client on this compositor with the given environment additions.
    public func start(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["XDG_RUNTIME_DIR"] = runtime
        env["GDK_BACKEND"] = "wayland"
        env.removeValue(forKey: "DISPLAY")
        return try ChildProcess(tool, arguments, environment: env, output: directory + "/client-\(UUID().uuidString.prefix(4)).log")
    }

    deinit {
        process?.kill(SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
