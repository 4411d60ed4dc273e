import Foundation
import Testing

/// `vigil config init` and `vigil config show`, run as a person would.
@Suite struct ConfigCLITests {
    @Test func initWritesACommentedFileThatChangesNothingAndNeverOverwrites() async throws {
        let home = freshHome()
        let path = home + "/config/vigil/config.yaml"
        let first = try await vigil(["config", "init"], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(path))
        // The first run says that alarms can act, which actions are on, and what a strict session is.
        #expect(first.stdout.contains("pause_media") && first.stdout.contains("never closing it") && first.stdout.contains("session.strict"))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("  #idle_grace: 2m"))
        #expect(written.contains("man vigil.yaml"))
        let check = try await vigil(["config", "check"], home: home)
        #expect(check.status == 0 && check.stdout == "\(path): OK\n", "\(check.stdout)\(check.stderr)")
        // Every value shown comes from the defaults.
        let show = try await vigil(["config", "show"], home: home)
        #expect(show.status == 0)
        #expect(!show.stdout.contains(path), "nothing is set by the commented file")
        // A second init leaves the person's edits alone.
        try (written.replacingOccurrences(of: "  #idle_grace: 2m", with: "  idle_grace: 3m")).write(toFile: path, atomically: true, encoding: .utf8)
        let second = try await vigil(["config", "init"], home: home)
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("vigil: error: \(path) already exists and is left as it is."))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("  idle_grace: 3m"))
    }

    /// A password written into sync.url or sync.group_url is never printed: not by `config show`
    /// (text or JSON), not by a problem that quotes the value or a YAML error near it; and a
    /// value of megabytes is named with its length, not printed.
    @Test func passwordsAreMaskedAndHugeValuesCut() async throws {
        let home = freshHome()
        let path = home + "/mine.yaml"
        let secret = "s3cr3t-Pa55"
        func run(_ yaml: String, _ args: [String]) async throws -> Run {
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            return try await vigil(["config"] + args + ["--config", path], home: home)
        }
        let good =
            "sync:\n  url: postgres://me:\(secret)@db.example.org/vigil?sslmode=require\n  group_url: postgres://db.example.org/g?user=me&password=\(secret)\n"
        for args in [["show"], ["show", "--json"], ["check"]] {
            let r = try await run(good, args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(!(r.stdout + r.stderr).contains(secret), "\(args): \(r.stdout)")
        }
        let shown = try await run(good, ["show"]).stdout
        #expect(shown.contains("url: postgres://me:***@db.example.org/vigil?sslmode=require"), "\(shown)")
        #expect(shown.contains("group_url: postgres://db.example.org/g?user=me&password=***"), "\(shown)")
        for bad in [
            "sync:\n  url: http://me:\(secret)@db.example.org/vigil\n",
            "sync:\n  group_url: [postgres://me:\(secret)@h/x]\n",
            "sync:\n  url: \"postgres://me:\(secret)@db.example.org/vigil\n  every: 5m\n",
            "sync:\n  url: postgres://me:\(secret)@db.example.org/vigil: x\n",
        ] {
            let r = try await run(bad, ["check"])
            #expect(r.status != 0, "\(bad)")
            #expect(!r.stderr.isEmpty && !(r.stdout + r.stderr).contains(secret), "\(r.stderr)")
            let shown = try await run(bad, ["show"])
            #expect(shown.status != 0 && !(shown.stdout + shown.stderr).contains(secret), "\(shown.stderr)")
        }
        // A value of 2 MB in an error: its start and its length.
        let huge = String(repeating: "x", count: 2_000_000)
        let r = try await run("sync:\n  group: \(huge)\n", ["check"])
        #expect(r.status != 0)
        #expect(r.stderr.count < 2_000, "\(r.stderr.count) bytes")
        #expect(r.stderr.contains("(2000000 characters)"), "\(r.stderr.prefix(600))")
    }

    /// `config check` holds sync.url to the rules `vigil sync` does: what one refuses, the other
    /// refuses with the same words (a config with a problem stops every command, exit 65); what
    /// the check passes, sync takes (and here fails to reach: exit 75, nothing listens on port 1).
    @Test func configCheckRefusesTheSyncURLsSyncRefuses() async throws {
        let home = freshHome()
        let path = home + "/mine.yaml"
        let base = "postgres://me@127.0.0.1:1/vigil"
        for (url, refused) in [
            (base + "?sslmode=disable", false), (base + "?sslmode=bogus", true), (base + "?colour=blue", true),
            ("postgres://me@127.0.0.1:99999/vigil?sslmode=disable", true), (base + "?sslmode=disable&connect_timeout=0", true),
            (base + "?sslmode=disable&port=0", true), ("mysql://me@127.0.0.1/vigil", true),
        ] {
            try "sync:\n  url: \(url)\n".write(toFile: path, atomically: true, encoding: .utf8)
            let check = try await vigil(["config", "check", "--config", path], home: home)
            let sync = try await vigil(["sync", "--config", path, "--data-dir", home + "/d"], home: home, env: ["PGPASSWORD": "x"])
            #expect((check.status != 0) == refused, "\(url): config check \(check.status) \(check.stderr)")
            #expect(sync.status == (refused ? 65 : 75), "\(url): sync \(sync.status) \(sync.stderr)")
            if refused {
                let problem = check.stderr.split(separator: "\n").first ?? ""
                #expect(problem.contains("sync.url: ") && sync.stderr.contains(problem), "\(check.stderr) / \(sync.stderr)")
            }
        }
    }

    @Test func showSaysWhereEachValueComesFrom() async throws {
        let home = freshHome()
        let path = home + "/mine.yaml"
        try "input:\n  idle_grace: 3m\nreminders:\n  quiet_from: \"23:00\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let show = try await vigil(["config", "show", "--config", path], home: home)
        #expect(show.status == 0, "\(show.stderr)")
        let lines = show.stdout.split(separator: "\n").map(String.init)
        let grace = lines.first { $0.hasPrefix("  idle_grace:") } ?? ""
        #expect(grace.hasPrefix("  idle_grace: 3m ") && grace.hasSuffix("# \(path):2"), "\(grace)")
        let full = lines.first { $0.hasPrefix("  idle_full:") } ?? ""
        #expect(full.hasPrefix("  idle_full: 5m ") && full.hasSuffix("# default"), "\(full)")
        let quiet = lines.first { $0.hasPrefix("  quiet_from:") } ?? ""
        #expect(quiet.contains("\"23:00\"") && quiet.hasSuffix("# \(path):4"), "\(quiet)")
        let json = try await vigil(["config", "show", "--config", path, "--json"], home: home)
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
    @Test func configPathsFindsTheDocumentationAndHelpTextsNameNoRepositoryPath() async throws {
        let paths = try await vigil(["config", "paths", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(paths.stdout.utf8)) as? [String: Any]
        let docs = try #require(object?["documentation"] as? String)
        #expect(FileManager.default.fileExists(atPath: docs + "/timeline-json.md"), "\(docs)")
        for command in ["replay", "inspect", "record", "report", "export", "session"] {
            let help = try await vigil([command, "--help"]).stdout
            #expect(!help.contains("docs/") && !help.contains("config/vigil.yaml"), "\(command) --help: \(help)")
        }
    }
}
