import Foundation
import Testing

/// `vigil config init` and `vigil config show`, run as a person would.
@Suite struct ConfigCLITests {
    @Test func initWritesACommentedFileThatChangesNothingAndNeverOverwrites() throws {
        let home = freshHome()
        let path = home + "/config/vigil/config.yaml"
        let first = try vigil(["config", "init"], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(path))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("  #idle_grace: 2m"))
        #expect(written.contains("man vigil.yaml"))
        let check = try vigil(["config", "check"], home: home)
        #expect(check.status == 0 && check.stdout == "\(path): OK\n", "\(check.stdout)\(check.stderr)")
        // Every value shown comes from the defaults.
        let show = try vigil(["config", "show"], home: home)
        #expect(show.status == 0)
        #expect(!show.stdout.contains(path), "nothing is set by the commented file")
        // A second init leaves the person's edits alone.
        try (written.replacingOccurrences(of: "  #idle_grace: 2m", with: "  idle_grace: 3m")).write(toFile: path, atomically: true, encoding: .utf8)
        let second = try vigil(["config", "init"], home: home)
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("vigil: error: \(path) already exists and is left as it is."))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("  idle_grace: 3m"))
    }

    @Test func showSaysWhereEachValueComesFrom() throws {
        let home = freshHome()
        let path = home + "/mine.yaml"
        try "input:\n  idle_grace: 3m\nreminders:\n  quiet_from: \"23:00\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let show = try vigil(["config", "show", "--config", path], home: home)
        #expect(show.status == 0, "\(show.stderr)")
        let lines = show.stdout.split(separator: "\n").map(String.init)
        let grace = lines.first { $0.hasPrefix("  idle_grace:") } ?? ""
        #expect(grace.hasPrefix("  idle_grace: 3m ") && grace.hasSuffix("# \(path):2"), "\(grace)")
        let full = lines.first { $0.hasPrefix("  idle_full:") } ?? ""
        #expect(full.hasPrefix("  idle_full: 5m ") && full.hasSuffix("# default"), "\(full)")
        let quiet = lines.first { $0.hasPrefix("  quiet_from:") } ?? ""
        #expect(quiet.contains("\"23:00\"") && quiet.hasSuffix("# \(path):4"), "\(quiet)")
        let json = try vigil(["config", "show", "--config", path, "--json"], home: home)
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        let row = rows.first { $0["key"] as? String == "input.idle_grace" }
        #expect(row?["value"] as? String == "3m")
        #expect(row?["source"] as? String == path)
        #expect(row?["line"] as? Int == 2)
        #expect(rows.count > 60)
    }
}

/// Help texts name a document; `vigil config paths` says where the documentation is, installed
/// or in the repository (issue 20: messages pointed to config/vigil.yaml and docs/, not installed).
@Suite struct DocumentationCLITests {
    @Test func configPathsFindsTheDocumentationAndHelpTextsNameNoRepositoryPath() throws {
        let paths = try vigil(["config", "paths", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(paths.stdout.utf8)) as? [String: Any]
        let docs = try #require(object?["documentation"] as? String)
        #expect(FileManager.default.fileExists(atPath: docs + "/timeline-json.md"), "\(docs)")
        for command in ["replay", "inspect", "record", "report", "export", "session"] {
            let help = try vigil([command, "--help"]).stdout
            #expect(!help.contains("docs/") && !help.contains("config/vigil.yaml"), "\(command) --help: \(help)")
        }
    }
}
