import Foundation
import TestSupport
import Testing

/// Sessions that outlive their terminal (issue 37), through the real binary: `vigil start
/// --background` from a shell that exits at once; the session, in a session of its own with no
/// controlling terminal, is then driven entirely from other processes (status, pause, resume,
/// break, snooze, attach and detach, stop), and asks its questions by desktop notification: a
/// private D-Bus with the test notification service, which clicks the buttons a person would.
///
/// This machine has no systemd user manager (a container's), so the session runs as Vigil's own
/// daemon; where one runs, `systemd-run --user` starts it instead, with the arguments
/// `theTransientUnitCarriesTheDesktopsVariables` checks (there is no user manager here to run it).
@Suite struct BackgroundSessionCLITests {
    static let coffeeBreak = repo + "/Samples/coffee-break/session.jsonl"

    /// /proc/PID/stat's session id and controlling terminal (fields 6 and 7).
    static func sessionAndTerminal(_ pid: Int32) -> (session: Int, tty: Int)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 5, let session = Int(fields[3]), let tty = Int(fields[4]) else { return nil }
        return (session, tty)
    }

    @Test func aBackgroundSessionOutlivesItsShellAndIsDrivenFromOtherProcesses() async throws {
        let home = freshHome()
        let data = home + "/d"
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService(capabilities: ["body", "actions"], clicks: ["done"])
        defer { service.kill(SIGKILL) }
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        // Started by a shell that exits at once, in a pseudo-terminal that closes with it.
        let (status, said) = try await inPseudoTerminal(
            "\(vigilBinary) start --background --task slides --minutes 60 --intent 'finish the slides' --data-dir \(data); exit",
            home: home, env: env)
        #expect(status == 0, "\(said)")
        #expect(said.contains("Started a focus session in the background on \"slides\""), "\(said)")
        let running = try await vigil(["status", "--json", "--data-dir", data], home: home, env: env)
        let s = try #require(try JSONSerialization.jsonObject(with: Data(running.stdout.utf8)) as? [String: Any], "\(running)")
        let pid = try #require(s["pid"] as? Int)
        defer { kill(Int32(pid), SIGKILL) }
        let own = try #require(Self.sessionAndTerminal(Int32(pid)))
        #expect(own.session == pid && own.tty == 0, "a session of its own, no controlling terminal: \(own)")

        // From other processes: each command, and the state it leaves.
        for (command, state) in [("pause", "paused"), ("resume", "focused"), ("break", "on break"), ("resume", "focused")] {
            let run = try await vigil([command, "--data-dir", data], home: home, env: env)
            #expect(run.status == 0, "\(command): \(run)")
            #expect(try await eventually(120) { SessionStatusProbe.state(data) == state }, "\(command): \(SessionStatusProbe.state(data) ?? "none")")
        }
        let snooze = try await vigil(["snooze", "--data-dir", data], home: home, env: env)
        #expect(snooze.status == 0, "\(snooze)")

        // Attached in a terminal, paused from there, detached with q: the session goes on.
        let capture = home + "/attach.out"
        let steps = #"[{"wait": "attached ·", "send": "p", "timeout": 300}, {"wait": "State +PAUSED", "send": "q", "timeout": 300}]"#
        let attach = await runProcess(
            "/usr/bin/python3",
            [
                LiveViewTests.driver, "120", "40", capture, steps, "--", "env", "TERM=xterm-256color", "HOME=\(home)", vigilBinary, "attach",
                "--data-dir", data,
            ])
        let screen = LiveViewTests.plain(String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self))
        #expect(attach.status == 0, "\(screen.suffix(2000))")
        #expect(screen.contains("Vigil · \"slides\"") && screen.contains("Intent    finish the slides"), "its live screen: \(screen.suffix(2000))")
        #expect(screen.contains("Detached: the session goes on."), "\(screen.suffix(500))")
        #expect(SessionStatusProbe.running(data), "still running after the detach")

        // Stopped from here; its question at the end came as a notification, answered by a button.
        let stop = try await vigil(["stop", "--data-dir", data], home: home, env: env)
        #expect(stop.status == 0, "\(stop)")
        #expect(
            try await eventually(300) { (try? String(contentsOfFile: data + "/session.log", encoding: .utf8))?.contains("saved as session") == true })
        let lines = try String(contentsOfFile: data + "/session.log", encoding: .utf8)
        #expect(lines.contains("paused by you") && lines.contains("planned break") && lines.contains("no snooze"), "\(lines)")
        #expect(lines.contains("noted: your intention done"), "\(lines)")
        let asked = SessionBus.notifications(log).compactMap { $0["summary"] as? String }
        #expect(asked.contains("Did you do it?"), "\(asked)")
        let show = try await vigil(["session", "show", "1", "--json", "--data-dir", data], home: home)
        let session = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any], "\(show)")
        #expect(session["intent_kept"] as? String == "done", "\(session)")
    }

    /// The question on return, in a session without a terminal: a notification whose buttons are
    /// the answers (the coffee break rehearsed; the service clicks "a meeting or call").
    @Test func aBackgroundSessionAsksAboutATimeAwayByNotification() async throws {
        let home = freshHome()
        let data = home + "/d"
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService(capabilities: ["body", "actions"], clicks: ["meeting"])
        defer { service.kill(SIGKILL) }
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let start = try await vigil(
            ["start", "--background", "--replay", Self.coffeeBreak, "--pace", "60", "--log", "--data-dir", data], home: home, env: env)
        #expect(start.status == 0, "\(start)")
        #expect(
            try await eventually(600) { (try? String(contentsOfFile: data + "/session.log", encoding: .utf8))?.contains("saved as session") == true })
        let lines = try String(contentsOfFile: data + "/session.log", encoding: .utf8)
        #expect(lines.contains("noted: episode 1 was a meeting or a call"), "\(lines)")
        let question = SessionBus.notifications(log).first { ($0["summary"] as? String)?.hasPrefix("Welcome back") == true }
        #expect(question?["summary"] as? String == "Welcome back: away 8 min 35 s", "\(SessionBus.notifications(log))")
        #expect((question?["actions"] as? [String])?.contains("offline_work") == true, "\(String(describing: question))")
        let show = try await vigil(["session", "show", "1", "--json", "--data-dir", data], home: home)
        let session = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any], "\(show)")
        #expect((session["episodes"] as? [[String: Any]])?.first?["label"] as? String == "meeting", "\(session)")
    }

    /// Nothing runs: each command says so (exit 1); attach wants a terminal.
    @Test func commandsForNoSessionSaySoAndAttachWantsATerminal() async throws {
        let home = freshHome()
        for command in ["pause", "resume", "break", "snooze"] {
            let run = try await vigil([command, "--data-dir", home + "/d"], home: home)
            #expect(run.status == 1 && run.stdout.contains("No focus session is running"), "\(command): \(run)")
        }
        let attach = try await vigil(["attach", "--data-dir", home + "/d"], home: home, stdin: "")
        #expect(attach.status == 64 && attach.stderr.contains("run it in a terminal"), "\(attach)")
        let both = try await vigil(["start", "--background", "--plain", "--data-dir", home + "/d"], home: home)
        #expect(both.status == 64 && both.stderr.contains("--background has no output here"), "\(both)")
    }

    /// A session of an older Vigil (its status file says nothing of commands) would be ended by
    /// SIGUSR2: it is never sent one. The stand-in holds the session lock as a session does.
    @Test func aSessionOfAnOlderVigilIsNotSignalled() async throws {
        let home = freshHome()
        let data = home + "/d"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let older = try ChildProcess("/usr/bin/flock", [data + "/session.lock", "/bin/sleep", "300"], output: home + "/older.log")
        defer { older.kill(SIGKILL) }
        #expect(try await eventually(30) { (try? String(contentsOfFile: "/proc/\(older.pid)/cmdline", encoding: .utf8))?.contains("flock") == true })
        // flock runs sleep as its child: the pid that holds the lock's process is flock's own.
        write(
            #"{"alarms":0,"elapsed_s":60,"episodes":0,"pid":\#(older.pid),"planned_s":1500,"score":0,"started":"2026-11-29T10:00:00Z","state":"focused","updated":0}"#,
            to: data + "/running-session.json")
        #expect(try await eventually(30) { SessionStatusProbe.running(data) })
        for command in ["pause", "snooze"] {
            let run = try await vigil([command, "--data-dir", data], home: home)
            #expect(run.status == 1 && run.stderr.contains("was started by an older Vigil, which takes no commands"), "\(command): \(run)")
        }
        #expect(older.isRunning, "not signalled")
    }

    /// A strict session in the background: pause, break and snooze are refused from outside too.
    @Test func aStrictBackgroundSessionRefusesWhatItRefusesOnItsScreen() async throws {
        let home = freshHome()
        let data = home + "/d"
        let start = try await vigil(["start", "--background", "--strict", "--minutes", "30", "--data-dir", data], home: home)
        #expect(start.status == 0, "\(start)")
        let pid = try #require(
            try await vigil(["status", "--json", "--data-dir", data], home: home).stdout.split(separator: ",").first {
                $0.contains("\"pid\"")
            }.flatMap { Int($0.split(separator: ":").last ?? "") })
        defer { kill(Int32(pid), SIGKILL) }
        let pause = try await vigil(["pause", "--data-dir", data], home: home)
        #expect(pause.status == 1 && pause.stderr.contains("the running session is strict: it cannot be paused"), "\(pause)")
        let stop = try await vigil(["stop", "--early", "--data-dir", data], home: home)
        #expect(stop.status == 0, "\(stop)")
    }
}

/// Whether a session holds the data directory: its status file names a live process.
enum SessionStatusProbe {
    static func status(_ data: String) -> [String: Any]? {
        guard let text = try? String(contentsOfFile: data + "/running-session.json", encoding: .utf8) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    static func running(_ data: String) -> Bool {
        guard let pid = status(data)?["pid"] as? Int else { return false }
        return kill(Int32(pid), 0) == 0
    }

    static func state(_ data: String) -> String? { status(data)?["state"] as? String }
}

/// A background session on a desktop: Xvfb with i3, the distracting window in front. The session
/// started with `--background` carries the desktop's variables, sees the application in front,
/// rings by desktop notification, and shows in the status bar's line and the attached screen.
@Suite struct BackgroundSessionOnI3Tests {
    @Test func aBackgroundSessionOnI3SeesTheWindowRingsAndShowsInTheBar() async throws {
        let x = try XServer()
        defer { x.kill() }
        let wm = try I3WindowManager(on: x)
        defer { withExtendedLifetime(wm) {} }
        let videos = try x.start("/usr/bin/xterm", ["-class", "Videos", "-T", "Cats"])
        defer { videos.kill() }
        #expect(try await eventually(30) { ActionsCLITests.place(wm, "Videos") != nil })
        let home = freshHome()
        write(
            "apps:\n  grace: 2s\n  full: 4s\n  rules:\n    - {name: videos, class: Videos, category: distracting}\n"
                + "scoring:\n  distract_confirm: 1s\nalarms:\n  escalation: [2s]\n  channels: [[desktop]]\n",
            to: home + "/config/vigil/config.yaml")
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        var env = sessionEnvironment(on: x, home: home)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let start = try await vigil(["start", "--background", "--task", "essay", "--minutes", "30"], home: home, env: env)
        #expect(start.status == 0, "\(start)")
        let data = home + "/data/vigil"
        defer { _ = SessionStatusProbe.status(data).flatMap { $0["pid"] as? Int }.map { kill(Int32($0), SIGKILL) } }
        // It rings by notification, and the bar says so.
        #expect(try await eventually(120) { !SessionBus.notifications(log).isEmpty }, "\(String(describing: SessionStatusProbe.status(data)))")
        let bar = try await vigil(["status", "--format", "waybar"], home: home, env: env)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(bar.stdout.utf8)) as? [String: Any], "\(bar)")
        #expect(["alarm", "distracted"].contains(line["class"] as? String ?? ""), "\(line)")
        // Its screen, attached here, shows the window in front (its class, never its title).
        let capture = home + "/attach.out"
        let steps = #"[{"wait": "Videos", "send": "q", "timeout": 300}]"#
        let attach = await runProcess(
            "/usr/bin/python3",
            [
                LiveViewTests.driver, "120", "40", capture, steps, "--", "env", "TERM=xterm-256color", "HOME=\(home)", "XDG_DATA_HOME=\(home)/data",
                vigilBinary, "attach",
            ])
        let screen = LiveViewTests.plain(String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self))
        #expect(attach.status == 0 && screen.contains("Videos") && !screen.contains("Cats"), "\(screen.suffix(2000))")
        let stop = try await vigil(["stop"], home: home, env: env)
        #expect(stop.status == 0, "\(stop)")
        #expect(videos.isRunning, "nothing of the person's was closed")
    }
}

/// The same on GNOME Shell 43 headless (Wayland): a background session sees the window in front
/// through Vigil's extension and rings through GNOME Shell's own notification service, which
/// `dbus-monitor` on the session bus sees it call; the bar's line and the attached screen say so.
@Suite struct BackgroundSessionOnGnomeTests {
    @Test func aBackgroundSessionOnGnomeSeesTheWindowAndRingsThroughTheShell() async throws {
        let shell = try GnomeShell()
        var env = shell.environment
        env["TZ"] = "UTC"
        let install = try await vigil(["desktop", "install"], home: shell.home, env: env)
        #expect(install.status == 0, "\(install)")
        try shell.start()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DesktopDetectorTests/Data/wayland-window.py").path
        try "Cats - YouTube".write(toFile: shell.directory + "/org.example.Browser.title", atomically: true, encoding: .utf8)
        let browser = try shell.launch(
            "/usr/bin/python3", [script, "org.example.Browser", shell.directory + "/org.example.Browser.title"], name: "browser")
        defer { browser.kill() }
        #expect(
            try await eventually(60) {
                if !shell.current.contains("org.example.Browser") { try shell.activate("org.example.Browser") }
                return shell.current.contains("org.example.Browser")
            }, "\(shell.current)")
        write(
            "apps:\n  grace: 2s\n  full: 4s\nscoring:\n  distract_confirm: 1s\nalarms:\n  escalation: [2s]\n  channels: [[desktop]]\n",
            to: shell.home + "/.config/vigil/config.yaml")
        let monitorLog = shell.directory + "/notify-monitor.log"
        let monitor = try ChildProcess(
            "/usr/bin/dbus-monitor", ["--address", shell.session.address, "interface='org.freedesktop.Notifications',member='Notify'"],
            output: monitorLog)
        defer { monitor.kill() }
        let start = try await vigil(["start", "--background", "--task", "essay", "--minutes", "30"], home: shell.home, env: env)
        #expect(start.status == 0, "\(start)")
        let data = shell.home + "/.local/share/vigil"
        defer { _ = SessionStatusProbe.status(data).flatMap { $0["pid"] as? Int }.map { kill(Int32($0), SIGKILL) } }
        #expect(
            try await eventually(120) { (try? String(contentsOfFile: monitorLog, encoding: .utf8))?.contains("string \"Vigil\"") == true },
            "\(String(describing: SessionStatusProbe.status(data)))")
        let bar = try await vigil(["status", "--format", "waybar"], home: shell.home, env: env)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(bar.stdout.utf8)) as? [String: Any], "\(bar)")
        #expect(["alarm", "distracted"].contains(line["class"] as? String ?? ""), "\(line)")
        let capture = shell.directory + "/attach.out"
        let steps = #"[{"wait": "org.example.Browser", "send": "q", "timeout": 300}]"#
        let attach = await runProcess(
            "/usr/bin/python3",
            [LiveViewTests.driver, "120", "40", capture, steps, "--", "env", "TERM=xterm-256color", "HOME=\(shell.home)", vigilBinary, "attach"])
        let screen = LiveViewTests.plain(String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self))
        #expect(attach.status == 0 && !screen.contains("Cats"), "\(screen.suffix(2000))")
        let stop = try await vigil(["stop"], home: shell.home, env: env)
        #expect(stop.status == 0, "\(stop)")
        #expect(browser.isRunning)
    }
}
