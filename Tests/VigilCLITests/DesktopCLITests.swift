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
        var env = x.environment
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/config"
        env["XDG_DATA_HOME"] = home + "/data"
        env["DBUS_SYSTEM_BUS_ADDRESS"] = noSystemBus
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
        write(
            "apps:\n  grace: 5s\n  full: 10s\n  rules:\n    - {name: editor, class: [org.example.editor], category: work}\n"
                + "    - {name: youtube, title: youtube, category: distracting}\nscoring:\n  distract_confirm: 2s\n",
            to: home + "/config/vigil/config.yaml")
        let out = home + "/live.jsonl"
        let env = [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
            "HYPRLAND_INSTANCE_SIGNATURE": "test_sig", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus, "PATH": "/usr/bin:/bin", "TZ": "UTC",
        ]
        let live = try ChildProcess(vigilBinary, ["start", "--task", "t", "--minutes", "10", "--json"], environment: env, output: out)
        defer { live.kill(SIGKILL) }
        #expect(try await eventually(120) { hyprland.hasSubscriber || !live.isRunning }, "\(events(out))")
        try #require(live.isRunning, "\((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
        hyprland.event("activewindow>>firefox,Cats - YouTube \(marker) — Mozilla Firefox")
        func said(_ event: String) -> Bool { events(out).contains { $0["event"] as? String == event } }
        #expect(try await eventually(120) { said("episode_started") }, "\(events(out))")
        let episode = try #require(events(out).first { $0["event"] as? String == "episode_started" }, "\(events(out))")
        #expect(episode["cause"] as? String == "app")
        #expect((episode["reason"] as? String)?.hasSuffix("in firefox — youtube (distracting)") == true, "\(episode)")
        hyprland.event("activewindow>>org.example.Editor,notes \(marker)")
        #expect(try await eventually(120) { said("episode_ended") }, "\(events(out))")
        let stop = try await vigil(["stop"], home: home, env: ["XDG_DATA_HOME": home + "/data"])
        #expect(stop.status == 0, "\(stop.stdout)\(stop.stderr)")
        #expect(await live.exited() == 0)
        for file in [out] + ((try? FileManager.default.contentsOfDirectory(atPath: home + "/data/vigil")) ?? []).map({ home + "/data/vigil/" + $0 }) {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the window title")
        }
    }
}
