import Foundation
import Testing
import VigilCore

@testable import VigilConfig

let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

func problems(_ yaml: String) -> [ConfigError] {
    do {
        _ = try ConfigLoader.load(yaml: yaml, file: "config.yaml")
        return []
    } catch {
        return error.errors
    }
}

@Suite struct ConfigTests {
    @Test func theShippedFileDocumentsExactlyTheDefaults() throws {
        let c = try ConfigLoader.load(path: repoRoot + "/config/vigil.yaml", onto: VigilConfiguration())
        #expect(c == .default)
        // And it sets every key the loader knows, each under its section with a comment above it.
        let lines = try String(contentsOfFile: repoRoot + "/config/vigil.yaml", encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var section = ""
        var documented: [String] = []
        for (i, line) in lines.enumerated() {
            if let c = line.first, c != " ", c != "#", line.hasSuffix(":") { section = String(line.dropLast()) }
            if line.hasPrefix("  "), !line.hasPrefix("   "), !line.dropFirst(2).hasPrefix("#"), let colon = line.firstIndex(of: ":") {
                let key = line.dropFirst(2)[..<colon]
                documented.append("\(section).\(key)")
                #expect(lines[i - 1].trimmingCharacters(in: .whitespaces).hasPrefix("#"), "\(section).\(key) has a comment above it")
            }
        }
        #expect(documented.sorted() == ConfigLoader.knownKeys)
    }

    /// The binary's copy of the documented config (config init, config show, vigil.yaml(5)) is the
    /// shipped file: `scripts/embed-config.py` after editing config/vigil.yaml.
    @Test func theEmbeddedDocumentationIsTheShippedFile() throws {
        let shipped = try String(contentsOfFile: repoRoot + "/config/vigil.yaml", encoding: .utf8)
        let embedded = DocumentedConfig.text + "\n"
        #expect(embedded == shipped, "run scripts/embed-config.py")
    }

    /// `config init`'s file: every key commented out, so it loads to the defaults, and each one
    /// still there to uncomment.
    @Test func theCommentedOutFileIsTheDefaults() throws {
        let text = ConfigLoader.commentedOut(DocumentedConfig.text)
        let loaded = try ConfigLoader.load(yaml: text, file: "init.yaml", onto: VigilConfiguration())
        #expect(loaded == .default)
        #expect(ConfigLoader.settings(yaml: text)?.isEmpty == true)
        // Keys were commented `  #key:` and their continuation lines `  #  - ...`; the
        // documentation stays `  # words`.
        let uncommented = text.replacingOccurrences(of: "\n  #(?! )|\n  #(?=  \\S|    \\S)", with: "\n  ", options: .regularExpression)
        let keys = Set((ConfigLoader.settings(yaml: uncommented) ?? []).map(\.key))
        #expect(keys == Set(ConfigLoader.knownKeys))
        #expect(try ConfigLoader.load(yaml: uncommented, file: "init.yaml", onto: VigilConfiguration()) == .default)
    }

    @Test func settingsSayTheLineAndTheValueAsWritten() {
        let text = "session:\n  gap: 2m\nreminders:\n  default_time: \"08:30\"\napps:\n  rules:\n    - {name: x, class: [a, b], category: work}\n"
        let settings = ConfigLoader.settings(yaml: text) ?? []
        #expect(settings.map(\.key) == ["session.gap", "reminders.default_time", "apps.rules"])
        #expect(settings.map(\.line) == [2, 4, 6])
        #expect(settings[1].value == ["\"08:30\""])
        #expect(settings[2].value == ["", "- {name: x, class: [a, b], category: work}"])
        #expect(ConfigLoader.settings(yaml: "- a\n- b\n") == nil)
    }

    @Test func siteRulesTakeOneSiteOrAListInAnyCase() throws {
        let c = try ConfigLoader.load(
            yaml: "apps:\n  rules:\n    - {name: video, class: firefox, site: [YouTube.com, twitch.tv], category: distracting}\n"
                + "    - {site: swift.org, category: work}\n",
            file: "c.yaml", onto: VigilConfiguration())
        #expect(
            c.apps.rules == [
                AppRule(name: "video", classes: ["firefox"], sites: ["youtube.com", "twitch.tv"], category: .distracting),
                AppRule(name: "swift.org", sites: ["swift.org"], category: .work),
            ])
    }

    /// The class of "a value config check accepts and the program cannot run with" (issue 17: a
    /// gap of 1e13 s, reminders.check 0, before_due 1e300 crashed or spun the daemon): every key the
    /// loader knows refuses numbers no person means, naming the key and the allowed range, except
    /// the six that take any name or path (a seat, a server, a source, gpsd's host, a password file, a media player).
    @Test func everyKeyRefusesValuesNoPersonMeans() {
        let names: Set<String> = ["input.seat", "audio.server", "audio.source", "location.gpsd", "sync.password_file", "session.music"]
        for key in ConfigLoader.knownKeys where !names.contains(key) {
            let parts = key.split(separator: ".")
            for value in ["1e13", "-1e13", "1e300"] {
                let yaml = "\(parts[0]):\n  \(parts[1]): \(value)\n"
                do {
                    _ = try ConfigLoader.load(yaml: yaml, file: "c.yaml")
                    Issue.record("\(key): \(value) was accepted")
                } catch {
                    #expect(error.errors.contains { $0.key.hasPrefix(key) }, "\(key): \(error)")
                }
            }
        }
        // The examples from the issue say what is allowed.
        let text = "session:\n  gap: 1e13\nreminders:\n  check: 0\n  before_due: 1e300\n"
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(yaml: text, file: "c.yaml") }
        do {
            _ = try ConfigLoader.load(yaml: text, file: "c.yaml")
        } catch {
            let said = error.errors.map(\.description).joined(separator: "\n")
            #expect(said.contains("session.gap: must be greater than 0 s and at most 1 day (86400 s)"), "\(said)")
            #expect(said.contains("reminders.check: must be from 1 s to 1 h 00 min (3600 s), got 0 s"), "\(said)")
            #expect(said.contains("reminders.before_due: must be from 0 s to 366 days"), "\(said)")
        }
    }

    /// `alarms.sound` takes a WAV file and nothing else: a FIFO made `vigil start` hang for ever,
    /// and any file (/etc/passwd) passed the check (issue 17).
    @Test func theAlarmSoundMustBeAWAVFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-sound-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let wav = repoRoot + "/Tests/VigilAudioTests/Data/1770-2_Comp_AbsGateTest.wav"
        for (path, says) in [
            (dir + "/fifo", "is not a regular file"), ("/etc/passwd", "is not a WAV file"), (dir, "is not a regular file"),
            (dir + "/none.wav", "no such file"),
        ] {
            do {
                _ = try ConfigLoader.load(yaml: "alarms:\n  sound: \(path)\n", file: "c.yaml")
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.description.contains("alarms.sound") && error.description.contains(says), "\(path): \(error)")
            }
        }
        #expect(try ConfigLoader.load(yaml: "alarms:\n  sound: \(wav)\n", file: "c.yaml").alarms.soundFile == wav)
    }

    @Test func aUserFileOverridesOnlyItsKeys() throws {
        let c = try ConfigLoader.load(yaml: "input:\n  idle_grace: 3m\nalarms:\n  escalation: [10s, 1m]\n", file: "u.yaml")
        #expect(c.input.idleGrace == 180)
        #expect(c.alarms.escalation == [10, 60])
        #expect(c.input.idleFull == VigilConfiguration.default.input.idleFull)
        #expect(c.audio == VigilConfiguration.default.audio)
    }

    @Test func anUnknownKeyIsNamedWithItsLineAndASuggestion() {
        let e = problems("session:\n  gap: 90s\ninput:\n  idel_grace: 2m\n")
        #expect(e.count == 1)
        #expect(e.first?.line == 4)
        #expect(e.first?.key == "input.idel_grace")
        #expect(e.first?.description == "config.yaml:4: input.idel_grace: unknown key (did you mean 'idle_grace'?)")
    }

    @Test func alarmChannelsAndSoundAreChecked() {
        let e = problems("alarms:\n  channels: [[terminal], [desktop, siren]]\n  sound: /nonexistent/chime.wav\n")
        #expect(e.map(\.key) == ["alarms.channels", "alarms.sound"])
        #expect(e.first?.message == "level 2: unknown channel 'siren' (known: desktop, dim, hide, pause_media, refocus, sound, terminal)")
        #expect(e.last?.line == 3)
        #expect(e.last?.message.contains("no such file: /nonexistent/chime.wav") == true)
        let c = try? ConfigLoader.load(yaml: "alarms:\n  channels: [[sound]]\n  sound: tone\n", file: "c.yaml")
        #expect(c?.alarms.channels(level: 3) == [.sound])
        #expect(c?.alarms.soundFile == nil)
    }

    @Test func anUnknownSectionIsNamed() {
        let e = problems("alarm:\n  repeat_every: 1m\n")
        #expect(e.first?.message == "unknown section (did you mean 'alarms'?)")
    }

    @Test func anOutOfRangeValueNamesTheKeyAndLine() {
        let e = problems("scoring:\n  drift_enter: 0.3\n  distract_enter: 1.5\n")
        #expect(e.map(\.key).contains("scoring.distract_enter"))
        #expect(e.first { $0.key == "scoring.distract_enter" }?.line == 3)
        #expect(e.first { $0.key == "scoring.distract_enter" }?.message == "must be between 0 and 1, got 1.5")
    }

    @Test func aRelationBetweenKeysPointsAtTheKeyItNames() {
        let e = problems("input:\n  idle_grace: 10m\n  idle_full: 5m\n")
        #expect(e.count == 1)
        #expect(e.first?.key == "input.idle_full")
        #expect(e.first?.line == 3)
    }

    @Test func badValuesAreExplained() {
        #expect(problems("session:\n  gap: soon\n").first?.message.contains("expected a duration") == true)
        #expect(problems("session:\n  gap: 5 parsecs\n").first?.line == 2)
        #expect(problems("input:\n  enabled: maybe\n").first?.message == "expected true or false, got 'maybe'")
        #expect(problems("input:\n  resume_events: 2.5\n").first?.message.contains("whole number") == true)
        #expect(problems("alarms:\n  escalation: 30s\n").first?.message.contains("list of durations") == true)
        #expect(problems("location:\n  workplace:\n    latitude: 52\n").first?.message.contains("longitude") == true)
        #expect(problems("location:\n  workplace:\n    lat: 52\n").first?.message.contains("did you mean 'latitude'") == true)
        #expect(
            problems("desktop:\n  backend: mir\n").first?.message == "unknown backend 'mir': expected one of auto, gnome, freedesktop, wayland, x11")
        #expect(
            problems("apps:\n  backend: kde\n").first?.message
                == "unknown backend 'kde': expected one of auto, hyprland, i3, gnome, kwin, wlroots, x11")
        #expect(problems("apps:\n  rules: 5\n").first?.message.contains("expected a list of rules") == true)
        #expect(
            problems("apps:\n  rules:\n    - {name: x, class: a, category: fun}\n").first?.message
                == "rule 1: expected work, neutral or distracting, got 'fun'")
        #expect(problems("apps:\n  rules:\n    - {name: x, category: work}\n").first?.message == "rule 1: needs a class, a title or a site to match")
        #expect(
            problems("apps:\n  rules:\n    - {name: x, site: [youtube.com, 'https://twitch.tv/'], category: distracting}\n").first?.message
                == "rule 1: 'https://twitch.tv/' is not a site's host name (like youtube.com)")
        #expect(problems("apps:\n  rules:\n    - {name: x, clas: a, category: work}\n").first?.message.contains("did you mean 'class'") == true)
    }

    @Test func yamlSyntaxErrorsHaveALine() {
        let e = problems("session:\n  gap: 90s\n input: [\n")
        #expect(e.count == 1)
        #expect(e.first?.line ?? 0 >= 3)
        #expect(e.first?.message.hasPrefix("not valid YAML") == true)
    }

    @Test func durations() throws {
        let c = try ConfigLoader.load(yaml: "session:\n  gap: 1m30s\n  tick: 500ms\ninput:\n  idle_grace: 1.5min\n  idle_full: 1h\n", file: "d")
        #expect(c.session.gap == 90)
        #expect(c.session.tick == 0.5)
        #expect(c.input.idleGrace == 90)
        #expect(c.input.idleFull == 3600)
    }

    @Test func aWorkplaceCanBeNamed() throws {
        let c = try ConfigLoader.load(
            yaml: "location:\n  workplace:\n    name: the library\n    latitude: 52.2053\n    longitude: 0.1218\n    radius: 120\n", file: "w")
        #expect(c.location.workplace == .init(name: "the library", latitude: 52.2053, longitude: 0.1218, radius: 120))
    }

    @Test func aMissingFileIsNamed() {
        do {
            _ = try ConfigLoader.load(path: "/nonexistent/vigil.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/vigil.yaml: no such file")
        }
    }
}
