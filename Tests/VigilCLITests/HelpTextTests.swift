import Foundation
import Testing

/// The help reads right at any width: paragraphs flow, so the terminal's width decides where a
/// line ends, and examples stay whole. Every command the binary has is read, the root first.
@Suite struct HelpTextTests {
    /// The root and every command, with its help.
    static func helps(columns: Int = 80) throws -> [(command: String, text: String)] {
        try ([""] + CLIConformanceTests.groups + CLIConformanceTests.commands).map { command in
            let words = command.split(separator: " ").map(String.init)
            return (command, try vigil(words + ["--help"], env: ["COLUMNS": String(columns)]).stdout)
        }
    }

    /// At 80 columns an example stays indented: a line too long for the terminal is wrapped by
    /// the argument parser to column 0, where it reads as prose and cannot be copied.
    @Test func examplesFitEightyColumns() throws {
        for (command, help) in try Self.helps() {
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
    @Test func paragraphsFlow() throws {
        for (command, help) in try Self.helps(columns: 1000) {
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
