import Testing
import VigilCore

@testable import VigilConfig

/// A plug-in's section, declared once (`ConfigSection`): the loader reads and checks it from the
/// declaration, as it does the built-in sections, and only when the plug-in is registered.
@Suite struct PlugInSectionTests {
    static let pedals = ConfigSection(
        name: "pedals", comment: "A foot pedal under the desk.",
        keys: [
            ConfigKey("grace", .duration(0...3600), default: .number(30), comment: "Time off the pedal that scores nothing."),
            ConfigKey("presses", .integer(1...100), default: .integer(3), comment: "Presses that count as back."),
            ConfigKey("weight", .number(0...1), default: .number(0.5), comment: "Its weight."),
            ConfigKey("enabled", .boolean, default: .boolean(true), comment: "Watch the pedal."),
            ConfigKey("side", .word(["left", "right"]), default: .word("left"), comment: "Which pedal."),
        ])
    static let plugIns = ConfigPlugIns(channels: AlarmChannel.builtIn, sections: [pedals])

    @Test func aRegisteredSectionIsReadIntoItsValuesAndTheRestKeepTheirDefaults() throws {
        let c = try ConfigLoader.load(yaml: "pedals:\n  grace: 2m\n  side: right\n", file: "c.yaml", plugIns: Self.plugIns)
        #expect(Self.pedals.number("grace", in: c) == 120)
        #expect(Self.pedals.value("side", in: c) == .word("right"))
        // Unset keys read as their declared defaults, in the file and with no file.
        #expect(Self.pedals.number("presses", in: c) == 3)
        #expect(Self.pedals.flag("enabled", in: c))
        #expect(Self.pedals.number("weight", in: .default) == 0.5)
        #expect(c.plugIns == ["pedals": ["grace": .number(120), "side": .word("right")]])
    }

    @Test func everyBadValueIsNamedWithItsLineAndTheRange() {
        let yaml = "pedals:\n  grace: 2h\n  presses: 1.5\n  weight: 3\n  enabled: maybe\n  side: middle\n  colour: red\n"
        do {
            _ = try ConfigLoader.load(yaml: yaml, file: "c.yaml", plugIns: Self.plugIns)
            Issue.record("accepted")
        } catch {
            let said = error.errors.map(\.description)
            #expect(
                said == [
                    "c.yaml:2: pedals.grace: must be from 0s to 1h, got 2h",
                    "c.yaml:3: pedals.presses: expected a whole number, got '1.5'",
                    "c.yaml:4: pedals.weight: must be from 0 to 1, got 3",
                    "c.yaml:5: pedals.enabled: expected true or false, got 'maybe'",
                    "c.yaml:6: pedals.side: expected one of left, right, got 'middle'",
                    "c.yaml:7: pedals.colour: unknown key (known: enabled, grace, presses, side, weight)",
                ], "\(said)")
        }
    }

    @Test func anUnregisteredSectionIsUnknownAndARegisteredOneIsSuggested() {
        #expect(
            problems("pedals:\n  grace: 1m\n").map(\.description) == [
                "config.yaml:1: pedals: unknown section (known: alarms, apps, audio, calendar, daemon, desktop, input, location, media, reminders, scoring, session, switching, sync)"
            ])
        do {
            _ = try ConfigLoader.load(yaml: "pedal:\n  grace: 1m\n", file: "c.yaml", plugIns: Self.plugIns)
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.description) == ["c.yaml:1: pedal: unknown section (did you mean 'pedals'?)"])
        }
    }

    /// `config init` and `config show` document the section from the same declaration: the text
    /// loads back to the defaults, and every key is there with its comment above it.
    @Test func theDocumentedSectionIsTheDeclaration() throws {
        let text = Self.pedals.documentedYAML
        #expect(
            text == """
                # A foot pedal under the desk.
                pedals:
                  # Time off the pedal that scores nothing.
                  grace: 30s
                  # Presses that count as back.
                  presses: 3
                  # Its weight.
                  weight: 0.5
                  # Watch the pedal.
                  enabled: true
                  # Which pedal.
                  side: left
                """)
        let documented = ConfigLoader.documented(plugIns: Self.plugIns)
        let loaded = try ConfigLoader.load(yaml: documented, file: "doc.yaml", plugIns: Self.plugIns)
        for key in Self.pedals.keys { #expect(Self.pedals.value(key.name, in: loaded) == key.defaultValue) }
        #expect((ConfigLoader.settings(yaml: documented) ?? []).filter { $0.key.hasPrefix("pedals.") }.count == Self.pedals.keys.count)
        let commented = ConfigLoader.commentedOut(documented)
        #expect(commented.contains("pedals:\n  # Time off the pedal that scores nothing.\n  #grace: 30s"))
        #expect(try ConfigLoader.load(yaml: commented, file: "init.yaml", plugIns: Self.plugIns) == .default)
    }

    /// A plug-in section named like a built-in section, or like one registered before it, is
    /// left out: the built-in keys keep their meaning, and the documented file has each name once.
    @Test func aSectionNamedLikeAnotherIsLeftOut() throws {
        let input = ConfigSection(
            name: "input", comment: "A second input.", keys: [ConfigKey("grace", .boolean, default: .boolean(true), comment: "x")])
        let twice = ConfigSection(name: "pedals", comment: "Again.", keys: [])
        let plugIns = ConfigPlugIns(channels: AlarmChannel.builtIn, sections: [Self.pedals, input, twice])
        #expect(plugIns.sections.map(\.name) == ["pedals"])
        let documented = ConfigLoader.documented(plugIns: plugIns)
        #expect(ConfigLoader.settings(yaml: documented) != nil, "no section twice")
        #expect(try ConfigLoader.load(yaml: "input:\n  idle_grace: 90s\n", file: "c.yaml", plugIns: plugIns).input.idleGrace == 90)
    }

    /// Durations are written as a person writes them, and read back to the same seconds.
    @Test func durationsAreWrittenAsPeopleWriteThem() throws {
        let key = ConfigKey("wait", .duration(0...100_000), default: .number(0), comment: "")
        let written = [0.0, 45, 60, 90, 3600, 3690, 7200, 0.5, 3600.5].map { key.kind.yaml(.number($0)) }
        #expect(written == ["0s", "45s", "1m", "1m30s", "1h", "61m30s", "2h", "0.5", "3600.5"])
        let section = ConfigSection(name: "waits", comment: "", keys: [key])
        let plugIns = ConfigPlugIns(channels: AlarmChannel.builtIn, sections: [section])
        for (text, seconds) in zip(written, [0.0, 45, 60, 90, 3600, 3690, 7200, 0.5, 3600.5]) {
            let c = try ConfigLoader.load(yaml: "waits:\n  wait: \(text)\n", file: "c.yaml", plugIns: plugIns)
            #expect(section.number("wait", in: c) == seconds, "\(text)")
        }
    }
}
