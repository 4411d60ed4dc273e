import Foundation
import Testing
import VigilPlanner

@testable import VigilConfig

@Suite struct MotivationTests {
    /// The built-in collection is config/motivation.yaml, entry for entry.
    @Test func theShippedFileIsTheBuiltInCollection() throws {
        let text = try String(contentsOfFile: repoRoot + "/config/motivation.yaml", encoding: .utf8)
        #expect(try MotivationCollection.parse(yaml: text, file: "motivation.yaml") == MotivationCollection.builtIn)
        #expect(Set(MotivationCollection.builtIn.map(\.category)) == Set(Motivation.Category.allCases))
        // Every quote says where it is from.
        #expect(MotivationCollection.builtIn.allSatisfy { $0.author == nil || $0.source != nil })
    }

    @Test func aQuoteIsShownWithItsAttribution() {
        let m = Motivation(
            text: "Lost time is never found again.", author: "Benjamin Franklin", source: "Poor Richard's Almanack, 1748", category: .focus)
        #expect(m.line == "“Lost time is never found again.” — Benjamin Franklin, Poor Richard's Almanack, 1748")
        #expect(Motivation(text: "Open the file.", category: .focus).line == "Open the file.")
    }

    @Test func thePersonsOwnLinesAreAddedAndCheckedWithTheirLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-motivation-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "- text: One page, then coffee.\n  category: study\n".write(toFile: dir + "/m.yaml", atomically: true, encoding: .utf8)
        let c = try MotivationCollection.load(userFile: dir + "/m.yaml")
        #expect(c.entries.count == MotivationCollection.builtIn.count + 1)
        #expect(c.entries.last == Motivation(text: "One page, then coffee.", category: .study))

        try "- text: fine\n  category: focus\n- text: no\n  categroy: study\n- category: health\n".write(
            toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try MotivationCollection.load(userFile: dir + "/bad.yaml")
            Issue.record("accepted a bad file")
        } catch {
            #expect(error.errors.map(\.line) == [4, 5])
            #expect(error.errors.first?.message == "unknown key (did you mean 'category'?)")
            #expect(error.errors.last?.message == "an entry needs a text")
        }
    }

    @Test func aPickAvoidsTheLineJustShown() {
        let c = MotivationCollection(entries: [
            Motivation(text: "a", category: .focus), Motivation(text: "b", category: .focus),
            Motivation(text: "c", category: .health),
        ])
        var rng = SystemRandomNumberGenerator()
        var last: Motivation?
        for _ in 0..<50 {
            let next = c.pick(category: .focus, avoiding: last, using: &rng)
            #expect(next != last && next?.category == .focus)
            last = next
        }
        #expect(c.pick(category: .health, avoiding: Motivation(text: "c", category: .health), using: &rng)?.text == "c")
    }
}
