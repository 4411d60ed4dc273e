import Foundation
import TestSupport
import Testing

/// `vigil sensors`, `vigil record`, `vigil inspect` and replays of the sensors' own formats, run as
/// a person would run them.
@Suite struct SensorFormatsCLITests {
    static let input = repo + "/Tests/InputDetectorTests/Data/keyboard-alt-tab.yml"
    static let gps = repo + "/Tests/LocationDetectorTests/Data/haicom-305N.log.chk"
    static let wav = repo + "/Tests/VigilAudioTests/Data/piano.wav"

    /// `apps.backend` forces a backend where the desktop's own would not be picked: GNOME's, with
    /// no session bus here, says it cannot reach it and what to run; an X11 one names the display.
    @Test func appsBackendForcesOneAndItSaysWhyItCannotWork() async throws {
        let home = freshHome()
        write("apps:\n  backend: gnome\n", to: home + "/config/vigil/config.yaml")
        let gnome = try await vigil(["sensors", "--json", "--timeout", "3"], home: home)
        let app = try #require(jsonRecords(gnome.stdout).first { $0["sensor"] as? String == "app" }, "\(gnome.stdout)")
        #expect(app["source"] as? String == "Vigil's GNOME Shell extension (org.vigil.Focus1 on the session bus)", "\(app)")
        #expect(app["use"] as? String == "not_in_use", "\(app)")
        #expect((app["detail"] as? String)?.contains("cannot reach the session D-Bus") == true, "\(app)")
        #expect((app["detail"] as? String)?.contains("vigil desktop install") == true, "\(app)")
        write("apps:\n  backend: x11\n", to: home + "/config/vigil/config.yaml")
        let x11 = try await vigil(["desktop", "--json"], home: home, env: ["DISPLAY": ":97"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(x11.stdout.utf8)) as? [String: Any], "\(x11.stdout)\(x11.stderr)")
        let sensors = try #require(object["sensors"] as? [[String: String]])
        #expect(sensors.first { $0["sensor"] == "app" }?["source"] == "X11 window manager on :97", "\(sensors)")
        #expect(object["session_type"] as? String == "x11")
    }

    /// No desktop, input devices, sound server or gpsd here: every sensor is listed with what to
    /// do, and the exit status says a session could not tell whether anyone is at the computer.
    @Test func sensorsListsEachDetectorWithTheRemedy() async throws {
        let r = try await vigil(["sensors", "--timeout", "3"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("input     not working  libinput, seat \"seat0\""), "\(r.stdout)")
        #expect(r.stdout.contains("audio     not in use   PulseAudio, default source"))
        #expect(r.stdout.contains("location  not in use   gpsd at localhost:2947"))
        #expect(r.stdout.contains("systemctl start gpsd"))
        #expect(r.stdout.contains("media     not in use   PulseAudio streams"))
        // No session bus and no system bus here: no idle interface, and logind says what is missing.
        #expect(r.stdout.contains("desktop   not working  no idle interface + logind"))
        #expect(r.stdout.contains("logind: cannot reach the system D-Bus"))
        #expect(r.stdout.contains("no desktop idle interface: no GNOME idle monitor or org.freedesktop.ScreenSaver"))
        #expect(r.stdout.contains("app       not in use   no window manager found"), "\(r.stdout)")
        #expect(r.stdout.contains("no way to see the application in front"))
        // A one-shot check does not retry, so it does not say it does.
        #expect(!r.stdout.contains("Retrying"), "\(r.stdout)")
        let json = try await vigil(["sensors", "--json", "--timeout", "3"])
        let sensors = jsonRecords(json.stdout)
        #expect(sensors.count == 7, "the six and the calendar")
        #expect(sensors.last?["sensor"] as? String == "calendar" && sensors.last?["use"] as? String == "not_in_use", "\(sensors)")
        for o in sensors {
            #expect(Set(o.keys) == ["sensor", "use", "source", "state", "detail"] && o.values.allSatisfy { $0 is String }, "\(o)")
        }
    }

    /// A desktop without the `input` group: a real X server with a real window manager (Xvfb and
    /// i3). Idle comes from the X11 screen saver and the window in front from i3's IPC, with no
    /// special permission; logind (no system bus here) is named as missing, and does not hide them.
    @Test func onAnX11DesktopIdleAndTheWindowInFrontNeedNoGroup() async throws {
        let x = try XServer()
        defer { x.kill() }
        let wm = try I3WindowManager(on: x)
        defer { withExtendedLifetime(wm) {} }
        let r = try await vigil(["sensors", "--json", "--timeout", "5"], env: ["DISPLAY": x.display])
        let sensors = jsonRecords(r.stdout).map { $0.compactMapValues { $0 as? String } }
        let desktop = try #require(sensors.first { $0["sensor"] == "desktop" })
        #expect(desktop["state"] == "available", "\(desktop)")
        #expect(desktop["source"] == "X11 screen saver on \(x.display) + logind")
        #expect(desktop["detail"]?.contains("logind: cannot reach the system D-Bus") == true)
        let app = try #require(sensors.first { $0["sensor"] == "app" })
        #expect(app["state"] == "available", "\(app)")
        #expect(app["source"] == "i3/sway IPC at \(wm.socket)")
        #expect(sensors.first { $0["sensor"] == "input" }?["state"] == "unavailable", "no /dev/input here: the desktop is enough")
        #expect(sensors.first { $0["sensor"] == "input" }?["use"] == "not_in_use")

        // Issue 32: a new user's first check on such a desktop, without gpsd or a sound server,
        // reads as working, and exits 0.
        let text = try await vigil(["sensors", "--timeout", "5"], env: ["DISPLAY": x.display])
        #expect(text.status == 0, "\(text.stdout)")
        #expect(text.stdout.contains("desktop   in use       X11 screen saver on \(x.display) + logind"), "\(text.stdout)")
        #expect(text.stdout.contains("app       in use       i3/sway IPC at \(wm.socket)"))
        #expect(text.stdout.contains("location  not in use   gpsd at localhost:2947"))
        #expect(!text.stdout.contains("unavailable") && !text.stdout.contains("not working"), "\(text.stdout)")
    }

    /// A sway session as sway 1.7 makes one: a session bus with no idle interface on it (sway has
    /// none), an X display (Xwayland's; Xvfb here) and sway's Wayland socket (headless sway). Idle
    /// comes from the compositor's idle protocol, before the X11 screen saver, which would see only
    /// X clients' input; the window in front from sway's IPC. Without $WAYLAND_DISPLAY it is X11
    /// again, and `desktop.backend: wayland` there says what is missing.
    @Test func onSwayIdleComesFromTheCompositorBeforeX11() async throws {
        let sway = try SwayCompositor()
        let socket = try #require(sway.socket)
        let bus = try SessionBus()
        let x = try XServer()
        defer { x.kill() }
        func sensors(_ env: [String: String], home: String? = nil) async throws -> [String: [String: String]] {
            let r = try await vigil(["sensors", "--json", "--timeout", "5"], home: home, env: env)
            let lines = jsonRecords(r.stdout).map { $0.compactMapValues { $0 as? String } }
            return Dictionary(lines.map { ($0["sensor"] ?? "", $0) }) { a, _ in a }
        }
        let session = ["WAYLAND_DISPLAY": sway.waylandDisplay, "SWAYSOCK": socket, "DISPLAY": x.display, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        let onSway = try await sensors(session)
        let desktop = try #require(onSway["desktop"])
        #expect(desktop["source"] == "Wayland org_kde_kwin_idle on \(sway.waylandDisplay) + logind", "\(desktop)")
        #expect(desktop["state"] == "available", "\(desktop)")
        #expect(desktop["detail"]?.contains("idle time from the Wayland compositor at \(sway.waylandDisplay) (org_kde_kwin_idle") == true)
        #expect(onSway["app"]?["source"] == "i3/sway IPC at \(socket)")
        #expect(onSway["app"]?["state"] == "available")

        var outside = session
        outside.removeValue(forKey: "WAYLAND_DISPLAY")
        let outsideSway = try await sensors(outside)
        #expect(outsideSway["desktop"]?["source"] == "X11 screen saver on \(x.display) + logind")
        let home = freshHome()
        write("desktop:\n  backend: wayland\n", to: home + "/config/vigil/config.yaml")
        let chosen = try #require(try await sensors(outside, home: home)["desktop"])
        #expect(chosen["source"] == "Wayland idle protocol on $WAYLAND_DISPLAY + logind", "\(chosen)")
        #expect(chosen["state"] == "unavailable")
        #expect(chosen["detail"]?.contains("no Wayland display: $WAYLAND_DISPLAY is not set") == true, "\(chosen)")
    }

    /// Under Hyprland (a stand-in speaking its IPC: Hyprland is not in Debian 12), the application
    /// in front comes from its event socket, found from $HYPRLAND_INSTANCE_SIGNATURE, before any
    /// X display or i3 socket.
    @Test func onHyprlandTheAppComesFromItsEventSocket() async throws {
        let runtime = freshHome() + "/run"
        let hyprland = try FakeHyprland(active: ("org.example.Editor", "notes"), directory: runtime + "/hypr/v0.45_1732800000_abc")
        defer { hyprland.stop() }
        let r = try await vigil(
            ["sensors", "--json", "--timeout", "5"],
            env: ["HYPRLAND_INSTANCE_SIGNATURE": "v0.45_1732800000_abc", "XDG_RUNTIME_DIR": runtime, "I3SOCK": runtime + "/i3.sock"])
        let app = try #require(jsonRecords(r.stdout).first { $0["sensor"] as? String == "app" }, "\(r.stdout)\(r.stderr)")
        #expect(app["source"] as? String == "Hyprland's event socket in \(hyprland.directory)", "\(app)")
        #expect(app["state"] as? String == "available", "\(app)")
        #expect((app["detail"] as? String)?.contains("the window in front from Hyprland's event socket") == true, "\(app)")
    }

    @Test func aDisabledSensorIsSaidToBeDisabled() async throws {
        let home = freshHome()
        write(
            "input:\n  enabled: false\naudio:\n  enabled: false\nlocation:\n  enabled: false\ndesktop:\n  enabled: false\nmedia:\n  enabled: false\n"
                + "apps:\n  enabled: false\n",
            to: home + "/config/vigil/config.yaml")
        let r = try await vigil(["sensors"], home: home)
        #expect(r.status == 0, "nothing enabled is unavailable")
        #expect(r.stdout.contains("disabled in the config (input.enabled: false)"))
    }

    @Test func inspectSummarisesEachFormatWithoutKeysAudioOrCoordinates() async throws {
        let r = try await vigil(["inspect", "--json", Self.input, Self.gps, Self.wav])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 3)
        #expect(objects.map { $0["format"] as? String } == ["libinput-record", "gpsd-json", "wav"])
        let input = try #require(objects[0]["input"] as? [String: Any])
        #expect(input["key_presses"] as? Int == 13)
        #expect(input["alt_tab"] as? Int == 3)
        let location = try #require(objects[1]["location"] as? [String: Any])
        #expect(location["fixes"] as? Int == 248)
        let audio = try #require(objects[2]["audio"] as? [String: Any])
        #expect(abs((audio["integrated_lufs"] as? Double ?? 0) - (-31.046)) < 0.1)
        // Privacy: no coordinate of the drive (55.7..., 37.4... are in the log) is printed.
        #expect(!r.stdout.contains("37.41") && !r.stdout.contains("55.71"))
        let text = try await vigil(["inspect", Self.input])
        #expect(text.stdout.contains("13 key presses (autorepeat excluded)"))
        #expect(text.stdout.contains("Alt+Tab 3"))
    }

    @Test func inspectOfAFileItCannotReadSaysWhatItReads() async throws {
        let home = freshHome()
        write("just some notes\n", to: home + "/notes.txt")
        let r = try await vigil(["inspect", home + "/notes.txt"], home: home)
        #expect(r.status == 65)
        #expect(r.stderr.contains("notes.txt: not a recording Vigil reads: expected Vigil JSON Lines, `libinput record` YAML, gpsd JSON"))
        #expect(r.stdout.isEmpty)
    }

    @Test func replayTakesTheSensorsOwnFormats() async throws {
        let r = try await vigil(["replay", "--json", Self.gps])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"event\":\"session_started\""))
        #expect(r.stdout.contains("\"event\":\"session_ended\""))
        #expect(r.stdout.contains("\"sensor\":\"location\""))
    }

    /// With no sensor to read, a recording still says so, and reads back.
    @Test func recordWritesARecordingThatInspectAndReplayRead() async throws {
        let home = freshHome()
        let file = home + "/rec.jsonl"
        let r = try await vigil(["record", "-o", file, "--minutes", "0.03"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("wrote"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "recordings are private")
        let inspected = try await vigil(["inspect", "--json", file], home: home)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("input: unavailable"))
        #expect(inspected.stdout.contains("audio: unavailable"))
        #expect(inspected.stdout.contains("location: unavailable"))
        let replayed = try await vigil(["replay", file], home: home)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("sensor        input unavailable"))
    }

    /// `vigil start --record` then `vigil replay` of that file: the same timeline.
    @Test func aRecordedStartReplaysToTheSameTimeline() async throws {
        let home = freshHome()
        let file = home + "/session.jsonl"
        let live = try await vigil(["start", "--task", "t", "--minutes", "0.05", "--json", "--record", file], home: home)
        #expect(live.status == 0, "\(live.stderr)")
        let replayed = try await vigil(["replay", "--json", file], home: home)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == live.stdout)
        #expect(live.stdout.contains("\"outcome\":\"completed\""))
    }
}
