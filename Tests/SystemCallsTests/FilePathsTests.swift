import Foundation
import SystemCalls
import TestSupport
import Testing

/// dirname(1) and basename(1) as coreutils give them, for the paths people type.
@Suite struct FilePathsTests {
    @Test(arguments: [
        ("r", ".", "r"), ("rr", ".", "rr"), ("r/x", "r", "x"), ("/x", "/", "x"), ("/", "/", "/"), ("a/b/", "a", "b"),
        ("a//b", "a", "b"), ("./r", ".", "r"), ("//x", "/", "x"), ("x/", ".", "x"), ("/a/b/c.txt", "/a/b", "c.txt"), ("é/ü", "é", "ü"),
    ])
    func directoryAndLastComponent(_ path: String, _ directory: String, _ last: String) {
        #expect(FilePaths.directory(of: path) == directory, "dirname \(path)")
        #expect(FilePaths.lastComponent(of: path) == last, "basename \(path)")
    }

    /// The same answers as coreutils, for a spread of paths.
    @Test func agreesWithCoreutils() {
        for path in ["r", "a/b", "/a", "a/b/", "../x", "a//b//", "/tmp/report.html", "-"] {
            let dir = runTool("/usr/bin/dirname", ["--", path])
            #expect(dir.status == 0, "\(dir.output)")
            let expected = dir.output.trimmingCharacters(in: .newlines)
            #expect(FilePaths.directory(of: path) == expected, "dirname \(path)")
        }
    }
}
