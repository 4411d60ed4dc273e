import Foundation

/// A private PulseAudio server for one test: its own runtime directory and socket, one null sink
/// whose monitor is the default source, so what `paplay` plays into the sink is what the detector
/// records. Nothing touches the machine's own sound server.
///
/// With `microphone`, a null source `vigilmic` stands for a microphone and is the default source
/// instead (the server prefers a source that is not a monitor): what a call records.
public final class PulseServer {
    public let directory: String
    public var process: ChildProcess?
    public let microphone: Bool

    public init(microphone: Bool = false) throws {
        self.microphone = microphone
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-pulse-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    public var socket: String { "\(directory)/native" }
    public var address: String { "unix:\(socket)" }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try? FileManager.default.removeItem(atPath: socket)
        var env = ProcessInfo.processInfo.environment
        for key in ["PULSE_RUNTIME_PATH", "XDG_RUNTIME_DIR", "HOME", "XDG_CONFIG_HOME"] { env[key] = directory }
        env.removeValue(forKey: "PULSE_SERVER")
        // -n: no default.pa, so only these modules load; no idle exit; its log goes to a file.
        process = try ChildProcess(
            "/usr/bin/pulseaudio",
            [
                "-n", "--daemonize=no", "--use-pid-file=false", "--exit-idle-time=-1", "--log-target=stderr",
                "-L", "module-null-sink sink_name=vigiltest rate=48000",
            ] + (microphone ? ["-L", "module-null-source source_name=vigilmic"] : []) + [
                "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            ],
            environment: env, output: "\(directory)/server.log")
        for _ in 0..<200 {
            if runTool("/usr/bin/pactl", ["--server", address, "info"]).status == 0 { return }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
        throw TestFailure("PulseAudio did not start (socket \(socket)):\n\(log)")
    }

    /// Kills the server without warning, as a crash would.
    public func kill() {
        process?.kill(SIGKILL)
        process = nil
    }

    /// Plays a WAV file into the null sink; returns when it has been played.
    public func play(_ wav: String) {
        _ = runTool("/usr/bin/paplay", ["--server", address, "-d", "vigiltest", wav])
    }

    /// Starts `parec` recording from a source (the default one when nil), its audio thrown away, as
    /// a call or a meeting would; `arguments` are added (`--client-name`, `--property=…`).
    public func startRecording(source: String? = nil, _ arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess("/usr/bin/parec", ["--server", address, "--raw"] + (source.map { ["-d", $0] } ?? []) + arguments)
    }

    /// Starts playing a WAV file into the null sink and returns at once.
    public func startPlaying(_ wav: String) throws -> ChildProcess {
        try ChildProcess("/usr/bin/paplay", ["--server", address, "-d", "vigiltest", wav])
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// gpsfake (which starts its own gpsd) playing one log once, in pipe mode: gpsfake is then itself a
/// client of that gpsd and prints every report gpsd makes, which is what the detector is checked
/// against. `-S` paces the log as a receiver would, which gpsfake's manual recommends against
/// pty races (without it, this gpsd drops reports under load).
public final class GPSFake {
    public let process: ChildProcess
    public let output: String

    /// - Parameter once: play the log once (`-1`); otherwise gpsfake plays it over and over, for a
    ///   test that needs fixes for longer than the log lasts (about 8 s for haicom-305N at `-S`).
    public init(log: String, port: Int, once: Bool = true) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).json").path
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
        // gpsfake is Python: without this its reports sit in a buffer that is lost when it is stopped.
        env["PYTHONUNBUFFERED"] = "1"
        let arguments = (once ? ["-1"] : []) + ["-p", "-S", "-s", "38400", "-P", String(port), log]
        // In a process group of its own, so stopping the group also stops the gpsd it started.
        var started = try ChildProcess("/usr/bin/gpsfake", arguments, environment: env, stdout: output, stderr: output + ".log", ownGroup: true)
        // gpsfake gives its gpsd a fixed time to open the control socket; on a machine with every
        // core busy gpsd can be later, and gpsfake ends with "socket error: Connection refused"
        // before playing anything. Started again then: that is the fake's timing, not the test's.
        for _ in 0..<3 {
            let deadline = ContinuousClock.now + .seconds(30)
            while started.isRunning, (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0 == 0,
                ContinuousClock.now < deadline
            {
                usleep(50_000)
            }
            let said = (try? String(contentsOfFile: output + ".log", encoding: .utf8)) ?? ""
            guard !started.isRunning, said.contains("socket error") else { break }
            _ = started.wait()
            started = try ChildProcess("/usr/bin/gpsfake", arguments, environment: env, stdout: output, stderr: output + ".log", ownGroup: true)
        }
        process = started
    }

    /// What gpsfake and its gpsd said on standard error (for a failing test's message).
    public var log: String { (try? String(contentsOfFile: output + ".log", encoding: .utf8)) ?? "" }

    /// The fixes (TPV reports with mode 2 or 3) gpsd reported so far.
    public var reportedFixes: [(lat: Double, lon: Double, mode: Int)] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // gpsd ends its lines with CR LF, which Swift reads as one Character: split on any newline.
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{\"class\":\"TPV\""),
                let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let mode = o["mode"] as? Int, mode >= 2, let lat = o["lat"] as? Double, let lon = o["lon"] as? Double
            else { return nil }
            return (lat, lon, mode)
        }
    }

    /// Stops gpsfake and its gpsd (the whole process group).
    public func stop() {
        guard process.isRunning else { return }
        kill(-process.pid, SIGKILL)
        process.wait()
    }

    /// Waits until gpsd has reported the whole log: its output has not grown for a second and a
    /// half. (gpsfake itself does not exit while another client is connected to its gpsd.)
    public func waitUntilDone(timeout: Double) async {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var size = -1
        var quietSince = ContinuousClock.now
        while process.isRunning, ContinuousClock.now < deadline {
            let now = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            if now != size {
                size = now
                quietSince = ContinuousClock.now
            } else if now > 0, ContinuousClock.now - quietSince > .milliseconds(1500) {
                break
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        stop()
    }

    deinit { stop() }
}

/// The system bus as a test's children see it unless the test starts one (a `SessionBus` standing
/// in for it): none. The machine's own (/run/dbus/system_bus_socket on a desktop, with logind on
/// it) would make what a test sees depend on the machine; a test that needs logind starts
/// python-dbusmock's on a bus of its own.
public let noSystemBus = "unix:path=/nonexistent/vigil-tests/system_bus_socket"

/// A private D-Bus bus in a temporary directory, for one test, as a session bus or standing in for
/// the system bus.
///
/// Its configuration is its own, not the system's session.conf: that one activates the services
/// the machine has installed (/usr/share/dbus-1/services, ~/.local/share/dbus-1/services), so on a
/// desktop a bus meant to have no notification daemon started dunst or GNOME Shell's at the first
/// Notify (a developer's run failed that way). Here the only service directory is an empty one of
/// the bus's own: a test's services are the ones it starts.
public final class SessionBus {
    public let directory: String
    private let process: ChildProcess
    public var address: String { "unix:path=\(directory)/bus" }

    /// The configuration: a session bus's policy (anyone may own a name and send anything), no
    /// service directory but an empty one, no includes of the system's files.
    static func configuration(directory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>unix:path=\(directory)/bus</listen>
          <servicedir>\(directory)/services</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-dbus-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/services", withIntermediateDirectories: true)
        try Self.configuration(directory: directory).write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        // --print-address prints once the daemon is listening. The socket file alone is not enough:
        // it appears at bind(), before listen(), and a connection in between is refused (a CI run
        // failed that way).
        process = try ChildProcess(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile", "--print-address=1"],
            output: directory + "/daemon.log")
        for _ in 0..<500 {
            if (try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8))?.contains("unix:path=") == true { return }
            usleep(20_000)
        }
        let said = (try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)) ?? ""
        throw TestFailure("dbus-daemon did not start listening within 10 s: \(said)")
    }

    /// Starts the test notification service (Tests/DesktopNotifierTests/Data/notification-service.py,
    /// python3-dbus) on this bus, waits until it owns org.freedesktop.Notifications, and returns it
    /// with the file where it logs each Notify call as a JSON line (after a first line "ready").
    /// `clicks`: action keys the service clicks when a notification offers one (as a person would).
    public func startNotificationService(capabilities: [String] = ["body", "urgency"], clicks: [String] = []) throws -> (ChildProcess, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DesktopNotifierTests/Data/notification-service.py").path
        let log = directory + "/notifications.jsonl"
        let p = try ChildProcess(
            "/usr/bin/python3",
            [script, address, log, capabilities.joined(separator: ",")] + (clicks.isEmpty ? [] : [clicks.joined(separator: ",")]),
            output: directory + "/service.log")
        for _ in 0..<250 {
            if (try? String(contentsOfFile: log, encoding: .utf8))?.hasPrefix("ready") == true { return (p, log) }
            usleep(20_000)
        }
        let said = (try? String(contentsOfFile: directory + "/service.log", encoding: .utf8)) ?? ""
        throw TestFailure("the notification service did not start: \(said)")
    }

    /// The Notify calls the service logged, oldest first.
    public static func notifications(_ log: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Kills the daemon without warning, as a crash would: every connection to it drops.
    public func kill() { process.kill(SIGKILL) }

    deinit {
        process.kill(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A new empty directory under the system's temporary one, named `prefix-UUID`: a test's own.
public func temporaryDirectory(_ prefix: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
