import Foundation
import RecordingFormats
import Testing
import VigilCore

/// The help describes the product as it is: a command's `--help` (and the manual page made from
/// it) that says what Vigil watches names every sensor the registry has (`SensorKind.builtIn`),
/// never the three there once were, and one that says what recordings Vigil reads names every
/// format it reads (`RecordingFileFormat`). Every command the binary has is read, the root first.
@Suite struct HelpTextTests {
    /// How help texts name each built-in sensor. A passage that lists sensors must hold every one
    /// of each sensor's `names`; any of `names` or `clues` (its library, a reading of it) shows a
    /// passage means that sensor.
    static let words: [SensorKind: (names: [String], clues: [String])] = [
        .desktop: (["idle", "screen lock"], ["logind"]),
        .input: (["input activity"], ["libinput", "input counts", "key presses"]),
        .app: (["application in front"], ["i3/sway", "window manager"]),
        .audio: (["microphone"], ["PulseAudio", "loudness"]),
        .media: (["calls"], ["playback"]),
        .location: (["location"], ["gpsd"]),
    ]

    /// How help texts name each recording format other than Vigil's own (every help names Vigil).
    static let formats: [RecordingFileFormat: String] = [
        .libinputRecord: "libinput record", .gpsdJSON: "gpsd JSON", .wav: "WAV", .activityWatch: "ActivityWatch",
    ]

    /// The root and every command, with its help.
    static func helps(columns: Int = 80) async throws -> [(command: String, text: String)] {
        var helps: [(command: String, text: String)] = []
        for command in [""] + CLIConformanceTests.groups + CLIConformanceTests.commands {
            let words = command.split(separator: " ").map(String.init)
            helps.append((command, try await vigil(words + ["--help"], env: ["COLUMNS": String(columns)]).stdout))
        }
        return helps
    }

    /// The help's paragraphs and option entries, each on one line with its whitespace collapsed,
    /// so that a name the help wrapped across two lines is still found.
    static func passages(_ help: String) -> [String] {
        var out: [[Substring]] = [[]]
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let isEntry = line.hasPrefix("  -") || line.hasPrefix("  <")
            if line.allSatisfy(\.isWhitespace) || isEntry { out.append([]) }
            out[out.count - 1].append(line)
        }
        return out.map { $0.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    @Test func everyBuiltInSensorAndFormatHasItsWords() async {
        let missing = SensorKind.builtIn.filter { Self.words[$0] == nil }
        #expect(missing.isEmpty, "say how help texts name \(missing) in HelpTextTests.words")
        let formats = RecordingFileFormat.allCases.filter { $0 != .vigil && Self.formats[$0] == nil }
        #expect(formats.isEmpty, "say how help texts name \(formats) in HelpTextTests.formats")
    }

    /// A passage that names two sensors or more is a list of what Vigil watches (or records, or
    /// reads from a recording): it names them all. A list of recording formats names them all
    /// too, and its `libinput record` and gpsd JSON are formats there, not sensors.
    @Test func helpNamesEverySensorOrNone() async throws {
        let words = Self.words
        let formatNames = Self.formats.values.map { $0.lowercased() }
        for (command, help) in try await Self.helps() {
            for passage in Self.passages(help) {
                var text = passage.lowercased()
                let formats = formatNames.filter { text.contains($0) }
                if formats.count >= 2 {
                    let unnamed = formatNames.filter { !text.contains($0) }
                    #expect(unnamed.isEmpty, "vigil \(command) --help names the formats \(formats) but not \(unnamed): \(passage)")
                }
                for name in formatNames { text = text.replacingOccurrences(of: name, with: "") }
                let meant = SensorKind.builtIn.filter { sensor in
                    guard let w = words[sensor] else { return false }
                    return (w.names + w.clues).contains { text.contains($0.lowercased()) }
                }
                guard meant.count >= 2 else { continue }
                let unnamed = SensorKind.builtIn.filter { sensor in
                    !(words[sensor]?.names ?? [sensor.rawValue]).allSatisfy { text.contains($0.lowercased()) }
                }
                #expect(
                    unnamed.isEmpty,
                    "vigil \(command) --help names \(meant.map(\.rawValue)) but not \(unnamed.map(\.rawValue)): \(passage)")
            }
        }
    }

    /// At 80 columns an example stays indented: a line too long for the terminal is wrapped by
    /// the argument parser to column 0, where it reads as prose and cannot be copied.
    @Test func examplesFitEightyColumns() async throws {
        for (command, help) in try await Self.helps() {
            var inExamples = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasSuffix("Examples:") || line.hasSuffix("Example:") {
                    inExamples = true
                } else if line.isEmpty {
                    inExamples = false
                } else if inExamples {
                    #expect(line.hasPrefix("  "), "vigil \(command) --help: an example wraps: \(line)")
                }
            }
        }
    }

    /// A paragraph is one line on a wide terminal: a newline left in the middle of a sentence of a
    /// help text breaks the line there at any width. Indented lines (examples, lists) and the
    /// lines under a heading ending in a colon are meant.
    @Test func paragraphsFlow() async throws {
        for (command, help) in try await Self.helps(columns: 1000) {
            var previous = ""
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("USAGE:") { break }
                #expect(
                    line.isEmpty || line.hasPrefix(" ") || previous.isEmpty || previous.hasSuffix(":"),
                    "vigil \(command) --help breaks a sentence: \(previous) ⏎ \(line)")
                previous = String(line)
            }
        }
    }
}
