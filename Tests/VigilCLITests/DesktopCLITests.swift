import Foundation
import TestSupport
import Testing

/// `vigil start` on a real X11 desktop (Xvfb with i3), as a person without the `input` group runs
/// it: the screen is blanked by another client (idle time, not a lock); the recording it made
/// replays to the same timeline.
@Suite struct DesktopCLITests {
    /// The JSON events printed so far.
    func events(_ file: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func waitFor(_ file: String, timeout: Double = 60, _ condition: ([[String: Any]]) -> Bool) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let e = events(file)
            if condition(e) { return e }
            usleep(100_000)
        }
        return events(file)
    }

    /// `vigil start --json --record` for half a minute on the X server, with a private home: the
    /// process, its output file and its recording.
    func startSession(on x: XServer, home: String) throws -> (ChildProcess, String, String) {
        let out = home + "/live.jsonl"
        let recording = home + "/session.jsonl"
        let env = sessionEnvironment(on: x, home: home)
        let live = try ChildProcess(
            vigilBinary, ["start", "--task", "t", "--minutes", "0.5", "--json", "--record", recording], environment: env, output: out)
        return (live, out, recording)
    }

    /// Issue 32: a blanked X screen was reported as "screen locked". It is idle time, not a lock
    /// (a lock comes from logind, tested with a mock logind in DesktopPresenceTests): the session
    /// goes on judging the idle time, and no reason says "locked".
    @Test func aBlankedScreenIsNoLockAndTheRecordingReplaysTheSame() async throws {
        let x = try XServer()
        defer { x.kill() }
        let wm = try I3WindowManager(on: x)
        defer { withExtendedLifetime(wm) {} }
        let home = freshHome()
        let (live, out, recording) = try startSession(on: x, home: home)
        defer { live.kill(SIGKILL) }
        // The desktop sensor is up (the X11 screen saver), then the screen is blanked.
        let up = waitFor(out) { e in e.contains { $0["event"] as? String == "sensor" && $0["sensor"] as? String == "desktop" } }
        let desktop = try #require(up.first { $0["sensor"] as? String == "desktop" })
        #expect(desktop["state"] as? String == "available", "\(desktop)")
        #expect(x.blankScreen().status == 0)
        #expect(live.wait() == 0)

        // The recording has the desktop's readings and replays to the same timeline.
        let lines = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(!lines.contains(#""state":"locked""#), "a blank is recorded as no lock")
        #expect(!events(out).contains { ($0["reason"] as? String)?.contains("locked") == true })
        #expect(lines.contains(#""kind":"desktop","idle":"#))
        let replayed = try await vigil(["replay", "--json", recording], home: home)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let liveLines = (try String(contentsOfFile: out, encoding: .utf8)).split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(replayed.stdout.split(separator: "\n") == liveLines)
    }

    /// Time in a window the rules call distracting opens an `app` episode within the configured
    /// time, and the window's title (with a marker) is nowhere in what Vigil keeps: the log and
    /// its WAL, the recording, the report.
    @Test func aDistractingWindowIsAnAppEpisodeAndItsTitleStaysPrivate() async throws {
        let x = try XServer()
        defer { x.kill() }
        let wm = try I3WindowManager(on: x)
        defer { withExtendedLifetime(wm) {} }
        let marker = "Zq7MarkerLecture"
        let browser = try x.start("/usr/bin/xterm", ["-class", "Firefox", "-T", "\(marker) - YouTube"])
        defer { browser.kill() }
        let home = freshHome()
        write("apps:\n  grace: 5s\n  full: 10s\nscoring:\n  distract_confirm: 2s\n", to: home + "/config/vigil/config.yaml")
        let (live, out, recording) = try startSession(on: x, home: home)
        defer { live.kill(SIGKILL) }
        #expect(live.wait() == 0)
        let all = events(out)
        let episode = try #require(all.first { $0["event"] as? String == "episode_started" }, "\(all)")
        #expect(episode["cause"] as? String == "app")
        #expect((episode["reason"] as? String)?.hasSuffix("in Firefox — youtube (distracting)") == true, "\(episode)")
        // Grace 5 s, full 10 s, weight 0.9: 0.6 combined at 5 + 5 × 0.6 / 0.9 s, then 2 s to confirm.
        let opened = try #require(episode["elapsed"] as? Double)
        let since = try #require(episode["since_elapsed"] as? Double)
        #expect(opened - since >= 5 && opened - since <= 12, "\(episode)")

        let report = try await vigil(["report", "--format", "json", "--last", "all"], home: home)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("\"app\""))
        for file in [recording, out]
            + ((try? FileManager.default.contentsOfDirectory(atPath: home + "/data/vigil")) ?? []).map({
                home + "/data/vigil/" + $0
            })
        {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the window title")
        }
        #expect(!report.stdout.contains(marker))
        #expect(FileManager.default.fileExists(atPath: home + "/data/vigil/vigil.sqlite3"), "the log the search covered")
    }

    /// Under Hyprland (a stand-in speaking its IPC; Hyprland is not in Debian 12): a distracting
    /// window brought to the front during a live session opens an `app` episode naming it; the
    /// editor back in front ends it; the title stays out of everything written.
    @Test func underHyprlandADistractingWindowIsAnAppEpisodeUntilWorkIsBackInFront() async throws {
        let home = freshHome()
        let marker = "Zq7MarkerHypr"
        let hyprland = try FakeHyprland(active: ("org.example.Editor", "notes \(marker)"), directory: home + "/run/hypr/test_sig")
        defer { hyprland.stop() }
        let env = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
            "HYPRLAND_INSTANCE_SIGNATURE": "test_sig", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus, "PATH": "/usr/bin:/bin", "TZ": "UTC",
        ]
        try await liveAppEpisode(
            environment: env, marker: marker, reason: "in firefox — youtube (distracting)", ready: { hyprland.hasSubscriber },
            distract: { hyprland.event("activewindow>>firefox,Cats - YouTube \(marker) — Mozilla Firefox") },
            backToWork: { hyprland.event("activewindow>>org.example.Editor,notes \(marker)") })
    }

    /// Under GNOME on Wayland (a real GNOME Shell 43, headless), as a new user meets it: `vigil
    /// desktop` says the extension is missing, `vigil desktop install` installs and enables it,
    /// GNOME Shell loads it when it starts (the next login), `vigil sensors` and `vigil desktop`
    /// then see the application in front through it, and a live session opens an `app` episode
    /// for a distracting window until the editor is back. The title stays out of everything
    /// written. `vigil desktop uninstall` takes it away again.
    @Test func underGnomeOnWaylandTheExtensionInstalledByVigilShowsTheApplicationInFront() async throws {
        let shell = try GnomeShell()
        let marker = "Zq7MarkerGnome"
        var env = shell.environment
        env["TZ"] = "UTC"
        let before = try await vigil(["desktop"], home: shell.home, env: env)
        #expect(before.stdout.contains("Desktop: GNOME (wayland session)"), "\(before.stdout)\(before.stderr)")
        #expect(before.stdout.contains("GNOME Shell 43.9: Vigil's extension is not installed: run `vigil desktop install`"), "\(before.stdout)")

        let install = try await vigil(["desktop", "install"], home: shell.home, env: env)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        #expect(install.stdout.contains("for GNOME Shell 43 and 44"), "\(install.stdout)")
        #expect(install.stdout.contains("Enabled it") && install.stdout.contains("log out and in again"), "\(install.stdout)")
        let extensionFolder = shell.home + "/.local/share/gnome-shell/extensions/vigil@vigil.dev"
        #expect(FileManager.default.fileExists(atPath: extensionFolder + "/extension.js"))
        let again = try await vigil(["desktop", "install"], home: shell.home, env: env)
        #expect(again.stdout.contains("It was already enabled."), "\(again.stdout)")

        try shell.start()
        let shown = try await vigil(["desktop"], home: shell.home, env: env)
        #expect(shown.stdout.contains("Vigil's extension is running."), "\(shown.stdout)")
        #expect(shown.stdout.contains("app       Vigil's GNOME Shell extension"), "\(shown.stdout)")
        let sensors = try await vigil(["sensors", "--json", "--timeout", "10"], home: shell.home, env: env)
        let app = try #require(jsonRecords(sensors.stdout).first { $0["sensor"] as? String == "app" }, "\(sensors.stdout)")
        #expect(app["use"] as? String == "in_use", "\(app)")
        #expect((app["source"] as? String)?.hasPrefix("Vigil's GNOME Shell extension") == true, "\(app)")

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DesktopDetectorTests/Data/wayland-window.py").path
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for (id, title) in [("org.example.Editor", "notes \(marker)"), ("org.example.Browser", "Cats - YouTube \(marker)")] {
            try title.write(toFile: shell.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try shell.launch("/usr/bin/python3", [script, id, shell.directory + "/\(id).title"], name: id))
        }
        // Both shown (Activate finds only shown windows), then each brought to the front in turn,
        // the editor last: mutter decides whether a new window takes the focus a moment after it
        // is shown, so a window is activated again until it is in front (see GnomeFocusDetectorTests).
        for id in ["org.example.Browser", "org.example.Editor"] { try shell.activate(id) }
        for id in ["org.example.Browser", "org.example.Editor"] {
            #expect(
                try await eventually(30) {
                    if !shell.current.contains(id) { try shell.activate(id) }
                    return shell.current.contains(id)
                }, "\(shell.current)")
        }

        try await liveAppEpisode(
            environment: env, marker: marker, reason: "in org.example.Browser — youtube (distracting)",
            distract: { try shell.activate("org.example.Browser") }, backToWork: { try shell.activate("org.example.Editor") })

        let uninstall = try await vigil(["desktop", "uninstall"], home: shell.home, env: env)
        #expect(uninstall.stdout.contains("Removed Vigil's GNOME Shell extension and disabled it"), "\(uninstall.stdout)")
        #expect(!FileManager.default.fileExists(atPath: extensionFolder))
        let keyfile = (try? String(contentsOfFile: shell.home + "/.config/glib-2.0/settings/keyfile", encoding: .utf8)) ?? ""
        #expect(!keyfile.contains("vigil@vigil.dev"), "\(keyfile)")
    }

    /// Under KDE Plasma on Wayland (a real KWin 5.27 on its virtual backend, with a session bus):
    /// nothing to install; `vigil sensors` and `vigil desktop` name the KWin script, and a live
    /// session opens an `app` episode for a distracting window until the editor is back. The title
    /// stays out of everything written, and the script is gone from KWin after the session.
    @Test func underKDEOnWaylandAKWinScriptShowsTheApplicationInFront() async throws {
        let bus = try SessionBus()
        let kwin = try KWinCompositor(sessionBus: bus)
        let home = freshHome()
        let marker = "Zq7MarkerKWin"
        let env = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": kwin.waylandDisplay, "XDG_SESSION_TYPE": "wayland",
            "XDG_CURRENT_DESKTOP": "KDE",
        ]
        let shown = try await vigil(["desktop"], home: home, env: env)
        #expect(shown.stdout.contains("Desktop: KDE (wayland session)"), "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("app       a KWin script (loaded into KWin over the session bus)"), "\(shown.stdout)")
        let sensors = try await vigil(["sensors", "--json", "--timeout", "10"], home: home, env: env)
        let app = try #require(jsonRecords(sensors.stdout).first { $0["sensor"] as? String == "app" }, "\(sensors.stdout)")
        #expect(app["use"] as? String == "in_use", "\(app)")

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DesktopDetectorTests/Data/wayland-window.py").path
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for (id, title) in [("org.example.Editor", "notes \(marker)"), ("org.example.Browser", "Cats - YouTube \(marker)")] {
            try title.write(toFile: kwin.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try kwin.launch("/usr/bin/python3", [script, id, kwin.directory + "/\(id).title"], name: id))
        }
        for id in ["org.example.Browser", "org.example.Editor"] {
            #expect(try await eventually(30) { (try? kwin.activate(id)) == true }, "no \(id) in KWin")
        }
        var environment = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus,
            "PATH": "/usr/bin:/bin", "TZ": "UTC",
        ]
        environment.merge(env) { $1 }
        func activate(_ id: String) throws { guard try kwin.activate(id) else { throw TestFailure("no \(id) in KWin") } }
        try await liveAppEpisode(
            environment: environment, marker: marker, reason: "in org.example.Browser — youtube (distracting)",
            distract: { try activate("org.example.Browser") }, backToWork: { try activate("org.example.Editor") })
    }

    /// On wlroots compositors: phoc (no IPC of its own) is seen through its window list without
    /// any setting, and on sway `apps.backend: wlroots` takes the window list rather than sway's
    /// IPC, in a live session that opens an `app` episode for a distracting window.
    @Test func onWlrootsCompositorsTheWindowListShowsTheApplicationInFront() async throws {
        let phoc = try PhocCompositor()
        let home = freshHome()
        let phocEnv = ["WAYLAND_DISPLAY": phoc.waylandDisplay, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "Phosh:GNOME"]
        let shown = try await vigil(["desktop"], home: home, env: phocEnv)
        #expect(
            shown.stdout.contains("app       the Wayland compositor's window list (wlr-foreign-toplevel-management) on \(phoc.waylandDisplay)"),
            "\(shown.stdout)\(shown.stderr)")
        let sensors = try await vigil(["sensors", "--json", "--timeout", "10"], home: home, env: phocEnv)
        let app = try #require(jsonRecords(sensors.stdout).first { $0["sensor"] as? String == "app" }, "\(sensors.stdout)")
        #expect(app["use"] as? String == "in_use", "\(app)")

        let sway = try SwayCompositor()
        let marker = "Zq7MarkerWlr"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DesktopDetectorTests/Data/wayland-window.py").path
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for (id, title) in [("org.example.Browser", "Cats - YouTube \(marker)"), ("org.example.Editor", "notes \(marker)")] {
            try title.write(toFile: sway.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try sway.start("/usr/bin/python3", [script, id, sway.directory + "/\(id).title"]))
        }
        // Both windows there, the editor (opened last) in front.
        #expect(try await eventually(30) { sway.msg("[app_id=\"org.example.Browser\"] focus").status == 0 })
        #expect(try await eventually(30) { sway.msg("[app_id=\"org.example.Editor\"] focus").status == 0 })
        let env = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": sway.runtime,
            "WAYLAND_DISPLAY": sway.waylandDisplay, "SWAYSOCK": sway.socket ?? "", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus,
            "PATH": "/usr/bin:/bin", "TZ": "UTC",
        ]
        func focus(_ id: String) throws {
            let r = sway.msg("[app_id=\"\(id)\"] focus")
            guard r.status == 0 else { throw TestFailure("swaymsg: \(r.output)") }
        }
        try await liveAppEpisode(
            environment: env, marker: marker, reason: "in org.example.Browser — youtube (distracting)", backend: "wlroots",
            distract: { try focus("org.example.Browser") }, backToWork: { try focus("org.example.Editor") })
        // The session's config forced the window list over sway's IPC.
        let forced = try await vigil(["sensors", "--json", "--timeout", "10"], home: home, env: env)
        let source = jsonRecords(forced.stdout).first { $0["sensor"] as? String == "app" }?["source"] as? String
        #expect(source?.hasPrefix("the Wayland compositor's window list") == true, "\(forced.stdout)")
    }

    /// A live `vigil start` in `environment` (its HOME, XDG folders and desktop), with an editor as
    /// work and a title rule for video sites as distracting: once `ready` holds, `distract` brings
    /// a distracting window to the front, which must open an `app` episode whose reason ends with
    /// `reason`; `backToWork` must end it. Then `vigil stop`, and `marker` (in every title) must be
    /// in no file written (the output, the log and its WAL).
    func liveAppEpisode(
        environment: [String: String], marker: String, reason: String, backend: String = "auto", ready: () -> Bool = { true },
        distract: () throws -> Void, backToWork: () throws -> Void
    ) async throws {
        let home = try #require(environment["HOME"])
        let config = (environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/vigil/config.yaml"
        let data = (environment["XDG_DATA_HOME"] ?? home + "/.local/share") + "/vigil"
        write(
            "apps:\n  backend: \(backend)\n  grace: 5s\n  full: 10s\n  rules:\n    - {name: editor, class: [org.example.editor], category: work}\n"
                + "    - {name: youtube, title: youtube, category: distracting}\nscoring:\n  distract_confirm: 2s\n",
            to: config)
        let out = home + "/live.jsonl"
        let live = try ChildProcess(vigilBinary, ["start", "--task", "t", "--minutes", "10", "--json"], environment: environment, output: out)
        defer { live.kill(SIGKILL) }
        func said(_ event: String) -> Bool { events(out).contains { $0["event"] as? String == event } }
        #expect(try await eventually(120) { (said("session_started") && ready()) || !live.isRunning }, "\(events(out))")
        try #require(live.isRunning, "\((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
        try distract()
        #expect(try await eventually(120) { said("episode_started") }, "\(events(out))")
        let episode = try #require(events(out).first { $0["event"] as? String == "episode_started" }, "\(events(out))")
        #expect(episode["cause"] as? String == "app")
        #expect((episode["reason"] as? String)?.hasSuffix(reason) == true, "\(episode)")
        try backToWork()
        #expect(try await eventually(120) { said("episode_ended") }, "\(events(out))")
        let stop = try await vigil(["stop"], home: home, env: environment)
        #expect(stop.status == 0, "\(stop.stdout)\(stop.stderr)")
        #expect(await live.exited() == 0)
        for file in [out] + ((try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []).map({ data + "/" + $0 }) {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the window title")
        }
    }
}

/// A live session's environment on an X server: its display, a home of its own, no system bus.
func sessionEnvironment(on x: XServer, home: String) -> [String: String] {
    var env = x.environment
    env["HOME"] = home
    env["XDG_CONFIG_HOME"] = home + "/config"
    env["XDG_DATA_HOME"] = home + "/data"
    env["DBUS_SYSTEM_BUS_ADDRESS"] = noSystemBus
    return env
}
