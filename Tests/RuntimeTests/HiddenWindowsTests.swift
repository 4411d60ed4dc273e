import Foundation
import SessionRuntime
import Testing

/// The journal of hidden and dimmed windows: a list Vigil cannot read (damaged, written by hand)
/// is said, lists nothing, and is set aside (never written over) before the next list is written.
@Suite struct HiddenWindowsTests {
    @Test func aListThatCannotBeReadIsSaidAndKeptAside() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = HiddenWindows(dataDirectory: directory)
        #expect(journal.problem() == nil, "no file: nothing to say")
        for damaged in ["[{\"pid\": 12, \"desktop\": \"i3\"", "not json at all", "{\"pid\": 1}", "[{\"pid\": \"x\"}]"] {
            try damaged.write(toFile: journal.path, atomically: true, encoding: .utf8)
            #expect(journal.entries().isEmpty)
            let problem = try #require(journal.problem(), "\(damaged)")
            #expect(problem.contains(journal.path) && problem.contains("window list"), "\(problem)")
            try journal.add(.init(pid: 1, desktop: "i3", token: "t", appClass: "Videos"))
            #expect(try String(contentsOfFile: journal.damagedPath, encoding: .utf8) == damaged, "kept for the person to read")
            #expect(journal.problem() == nil && journal.entries().map(\.appClass) == ["Videos"])
            journal.remove(token: "t")
            #expect(!FileManager.default.fileExists(atPath: journal.path), "an empty list is no file")
        }
    }
}
