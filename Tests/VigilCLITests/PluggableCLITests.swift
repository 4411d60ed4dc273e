import Foundation
import TestSupport
import Testing

/// `vigil` composed with the tests' plug-ins (Tests/Fixtures: a phone signal with its own config
/// section, and a journal action) the way the product's main composes its own, one line each: the
/// plug-ins reach every command through the same registry as the built-in ones.
let pluggedBinary = (vigilBinary as NSString).deletingLastPathComponent + "/vigil-with-test-plugins"

@Suite struct PluggableCLITests {
    /// A config that uses both plug-ins, with a phone that scores after a second in hand.
    static let config = """
        phone:
          grace: 1s
          full: 2s
        scoring:
          distract_confirm: 1s
        alarms:
          escalation: [1s]
          channels: [[terminal, journal]]

        """

    func writeConfig(_ home: String, _ text: String = config) throws -> String {
        let file = home + "/vigil.yaml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func thePlugInsSectionIsCheckedShownAndWrittenFromItsDeclaration() async throws {
        let home = freshHome()
        let file = try writeConfig(home)
        let ok = try await vigil(["config", "check", "--config", file], home: home, binary: pluggedBinary)
        #expect(ok.status == 0 && ok.stdout.contains("OK"), "\(ok.stderr)")
        // The product, without the plug-ins, knows neither.
        let product = try await vigil(["config", "check", "--config", file], home: home)
        #expect(product.status == 65)
        #expect(product.stderr.contains("vigil.yaml:1: phone: unknown section"), "\(product.stderr)")
        #expect(product.stderr.contains("level 1: unknown channel 'journal'"), "\(product.stderr)")

        // A value out of the declared range is named with its line, as a built-in key's is.
        let bad = try writeConfig(home, "phone:\n  grace: 1s\n  full: 3h\n  enabled: perhaps\n")
        let refused = try await vigil(["config", "check", "--config", bad], home: home, binary: pluggedBinary)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("vigil.yaml:3: phone.full: must be from 1s to 2h, got 3h"), "\(refused.stderr)")
        #expect(refused.stderr.contains("vigil.yaml:4: phone.enabled: expected true or false, got 'perhaps'"), "\(refused.stderr)")

        // config show: each key of the section, from the file or its declared default.
        _ = try writeConfig(home)
        let shown = try await vigil(["config", "show", "--config", file], home: home, binary: pluggedBinary)
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: "  +", with: " ", options: .regularExpression) }
        #expect(lines.contains("phone:"))
        #expect(lines.contains(" grace: 1s # \(file):2"), "\(shown.stdout)")
        #expect(lines.contains(" enabled: true # default"), "\(shown.stdout)")

        // config init: the section documented and commented out; the file it writes loads.
        let fresh = home + "/new.yaml"
        let written = try await vigil(["config", "init", "--config", fresh], home: home, binary: pluggedBinary)
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: fresh, encoding: .utf8)
        #expect(
            text.contains("# The phone in hand (the tests' plug-in signal).\nphone:\n  # Time in hand that scores nothing: a glance.\n  #grace: 30s"))
        let reloaded = try await vigil(["config", "check", "--config", fresh], home: home, binary: pluggedBinary)
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
    }

    /// The live screen shows the plug-in's reading in its sensors' rows, in the words its
    /// definition gives, and the episode's reason in the scorer's.
    @Test func theLiveScreenShowsThePlugInsReading() async throws {
        let home = freshHome()
        let file = try writeConfig(home)
        let (status, screen) = try await inPseudoTerminal(
            "stty cols 100 rows 30; \(pluggedBinary) start --minutes 0.1 --config \(file) --data-dir \(home)/d", home: home)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("Phone     unlocked"), "\(screen)")
        #expect(screen.contains("phone in hand for"), "\(screen)")
    }

    /// A live session runs the phone's detector and scores it; the journal action gets the alarm
    /// at the level the config names it for; the recording replays and inspects through the
    /// plug-in; `vigil sensors` lists it.
    @Test func theSignalRunsLiveRecordsReplaysAndInspectsAndTheActionIsReached() async throws {
        let home = freshHome()
        let file = try writeConfig(home)
        let journal = home + "/journal"
        let sensors = try await vigil(["sensors", "--config", file], home: home, binary: pluggedBinary)
        #expect(sensors.stdout.contains("phone") && sensors.stdout.contains("the tests' phone"), "\(sensors.stdout)\(sensors.stderr)")

        let recording = home + "/live.jsonl"
        let session = try background(
            pluggedBinary, ["start", "--minutes", "5", "--task", "essay", "--config", file, "--data-dir", home + "/d", "--record", recording],
            home: home, env: ["VIGIL_TEST_JOURNAL": journal])
        // Stopped as soon as the journal has the alarm, watched from a thread of its own; the
        // session's five minutes are only a fail-safe.
        let reached = await offPool { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(300)
            while session.process.isRunning, ContinuousClock.now < deadline {
                if ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").contains("fired") { return true }
                usleep(50_000)
            }
            return false
        }
        #expect(reached, "the journal got no alarm: \(session.said)")
        let stop = try await vigil(["stop", "--data-dir", home + "/d"], home: home, binary: pluggedBinary)
        #expect(stop.status == 0, "\(stop.stderr)")
        await session.process.exited()
        let noted = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
        #expect(noted.hasPrefix("fired level 1 episode 1 cause phone: phone in hand for"), "\(noted)")
        #expect(noted.contains("cleared episode 1"), "\(noted)")

        let log = try await vigil(["log", "--json", "--data-dir", home + "/d"], home: home, binary: pluggedBinary)
        #expect(log.stdout.contains(#""cause":"phone""#), "\(log.stdout)\(log.stderr)")

        // The recording holds the phone's readings as any plug-in's lines; replayed and inspected
        // through the plug-in, and skipped, said so, by the product without it.
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""kind":"phone","label":"unlocked""#), "\(text)")
        let replay = try await vigil(["replay", recording, "--config", file], home: home, binary: pluggedBinary)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("phone in hand for"), "\(replay.stdout)")
        let plain = try await vigil(["replay", recording], home: home)
        #expect(plain.status == 0 && !plain.stdout.contains("phone in hand"), "\(plain.stdout)\(plain.stderr)")
        // Its status line and its reading.
        #expect(plain.stderr.contains("note: skipped 2 line(s) of kinds or sensors this Vigil does not know"), "\(plain.stderr)")
        let inspect = try await vigil(["inspect", recording], home: home, binary: pluggedBinary)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("\n  phone     1 reading: unlocked "), "\(inspect.stdout)")
        let json = try await vigil(["inspect", "--json", recording], home: home, binary: pluggedBinary)
        #expect(json.stdout.contains(#""readings":[{"readings":1,"seconds_by_label":{"unlocked":"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""sensor":"phone"}]"#), "\(json.stdout)")
    }
}
