import Foundation
import SystemCalls
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
    @Test func agreesWithCoreutils() throws {
        for path in ["r", "a/b", "/a", "a/b/", "../x", "a//b//", "/tmp/report.html", "-"] {
            let dir = Process()
            dir.executableURL = URL(fileURLWithPath: "/usr/bin/dirname")
            dir.arguments = ["--", path]
            let out = Pipe()
            dir.standardOutput = out
            try dir.run()
            dir.waitUntilExit()
            let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
            #expect(FilePaths.directory(of: path) == expected, "dirname \(path)")
        }
    }
}
