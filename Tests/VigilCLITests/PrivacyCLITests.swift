import Foundation
import Testing

/// `vigil export --all` gives everything stored; `vigil forget` deletes a period without a trace.
@Suite struct PrivacyCLITests {
    func logged(_ home: String) async throws {
        // Two recorded sessions on two days, and a task and a habit.
        for (sample, task) in [("coffee-break", "secret-project-7"), ("loud-room", "public-work")] {
            let r = try await vigil(["replay", "--log", "--task", task, "--data-dir", home + "/d", repo + "/Samples/\(sample)/session.jsonl"], home: home)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try await vigil(["task", "add", "Slides", "--data-dir", home + "/d"], home: home).status == 0)
        #expect(try await vigil(["habit", "add", "Walk", "--data-dir", home + "/d"], home: home).status == 0)
    }

    @Test func exportGivesEveryTable() async throws {
        let home = freshHome()
        try await logged(home)
        let r = try await vigil(["export", "--all", "-o", home + "/export.json", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        let mode = (try FileManager.default.attributesOfItem(atPath: home + "/export.json")[.posixPermissions] as! NSNumber).intValue
        #expect(mode == 0o600)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home + "/export.json"))) as? [String: Any])
        let tables = try #require(json["tables"] as? [String: [[String: Any]]])
        #expect(tables.keys.count == 13)
        #expect(tables["sessions"]?.count == 2)
        #expect(tables["sessions"]?.map { $0["task"] as? String } == ["secret-project-7", "public-work"])
        #expect((tables["state_changes"]?.count ?? 0) >= 4)
        #expect(tables["episodes"]?.count == 2)
        #expect(tables["alarms"]?.isEmpty == false)
        #expect(tables["tasks"]?.first?["title"] as? String == "Slides")
        #expect(tables["habits"]?.first?["name"] as? String == "Walk")
        // Everything the log holds is in it: the row counts match the log's own.
        let stats = try await vigil(["log", "--json", "--limit", "10", "--data-dir", home + "/d"], home: home).stdout
        #expect(stats.split(separator: "\n").count == tables["sessions"]?.count)
        let bad = try await vigil(["export", "--data-dir", home + "/d"], home: home)
        #expect(bad.status == 64 && bad.stderr.contains("say --all"))
    }

    @Test func forgetDeletesAPeriodWithoutATrace() async throws {
        let home = freshHome()
        try await logged(home)
        let db = home + "/d/vigil.sqlite3"
        func fileBytes() -> Data {
            var all = FileManager.default.contents(atPath: db) ?? Data()
            all.append(FileManager.default.contents(atPath: db + "-wal") ?? Data())
            return all
        }
        #expect(fileBytes().range(of: Data("secret-project-7".utf8)) != nil, "the name is in the file before")
        // Not in a terminal, it needs --yes, and nothing is deleted without it.
        var r = try await vigil(["forget", "--from", "2026-03-03", "--to", "2026-03-03", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 1 && r.stderr.contains("add --yes to delete 1 session"), "\(r.stderr)")
        r = try await vigil(["forget", "--from", "2026-03-03", "--to", "2026-03-03", "--yes", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Forgot 1 session with "), "\(r.stdout)")
        let log = try await vigil(["log", "--json", "--data-dir", home + "/d"], home: home).stdout
        #expect(!log.contains("secret-project-7") && log.contains("public-work"))
        // Overwritten, not just unlinked: the name is nowhere in the database or its WAL.
        #expect(fileBytes().range(of: Data("secret-project-7".utf8)) == nil)
        r = try await vigil(["forget", "--from", "2026-03-09", "--to", "2026-03-03", "--yes", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 64 && r.stderr.contains("--from 2026-03-09 is after --to 2026-03-03"))
    }
}
