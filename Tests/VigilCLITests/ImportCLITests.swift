import Foundation
import TestSupport
import Testing

/// `vigil import` on exports made by the real tools: Taskwarrior's `task` and Timewarrior's `timew`
/// (Debian's taskwarrior and timewarrior, which `scripts/setup.sh --tests` installs), each run with
/// a private configuration and data folder in the test's home; Loop Habit Tracker (an Android app)
/// on files written to its documented layout (see LoopParsingTests).
@Suite struct ImportCLITests {
    static let toolsThere =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/task") && FileManager.default.isExecutableFile(atPath: "/usr/bin/timew")

    /// Runs a shell command line with the tools' private settings; its standard output goes to `output`.
    static func tool(_ command: String, home: String, output: String? = nil) async throws -> String {
        let env = [
            "HOME": home, "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus, "TZ": "UTC", "TASKRC": home + "/taskrc",
            "TASKDATA": home + "/task",
            "TIMEWARRIORDB": home + "/timew",
        ]
        let line = output.map { "\(command) > '\($0)'" } ?? command
        let r = await runProcess("/bin/sh", ["-c", line], environment: env)
        try #require(r.status == 0, "\(command): \(r.output)")
        return r.output
    }

    static func exported(_ home: String, data: String) async throws -> [String: [[String: Any]]] {
        let r = try await vigil(["export", "--all", "-o", home + "/vigil-export.json", "--data-dir", data], home: home)
        try #require(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home + "/vigil-export.json"))) as? [String: Any]
        return try #require(json?["tables"] as? [String: [[String: Any]]])
    }

    static func ms(_ exportTime: String) -> Int64? {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        f.timeZone = TimeZone(identifier: "UTC")
        return f.date(from: exportTime).map { Int64($0.timeIntervalSince1970 * 1000) }
    }

    @Test(.enabled(if: toolsThere, "needs taskwarrior (scripts/setup.sh --tests)"))
    func taskwarriorsExportRoundTrips() async throws {
        let home = freshHome()
        write("data.location=\(home)/task\nconfirmation=off\nverbose=nothing\n", to: home + "/taskrc")
        _ = try await Self.tool("task add 'Write chapter 3' due:2026-12-01 priority:H project:Thesis +writing", home: home)
        _ = try await Self.tool("task add 'Send invoice' due:2026-11-27T17:00 priority:L", home: home)
        _ = try await Self.tool("task add 'Throw away'", home: home)
        _ = try await Self.tool("task description:Send annotate 'ask Bob first'", home: home)
        _ = try await Self.tool("task description:Send done", home: home)
        _ = try await Self.tool("task description:Throw delete", home: home)
        let file = home + "/tasks.json"
        _ = try await Self.tool("task export", home: home, output: file)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        let end = try #require(records.first { $0["description"] as? String == "Send invoice" }?["end"] as? String)

        // A dry run says what it would do and creates nothing.
        let dry = try await vigil(["import", "taskwarrior", file, "--dry-run", "--data-dir", home + "/d"], home: home)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("  Write chapter 3 (due 2026-12-01, high priority, tags writing,thesis)"), "\(dry.stdout)")
        #expect(dry.stdout.contains("Would import 2 tasks (1 skipped: deleted) from \(file); nothing was written (--dry-run)."), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: home + "/d/vigil.sqlite3"))

        let r = try await vigil(["import", "taskwarrior", file, "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Imported 2 tasks (1 skipped: deleted) from \(file).\n", "\(r.stdout)")
        let tasks = try await Self.exported(home, data: home + "/d")["tasks"] ?? []
        let titles = tasks.map { $0["title"] as? String }
        #expect(titles == ["Write chapter 3", "Send invoice"])
        let chapter = tasks[0]
        #expect(chapter["due_day"] as? Int == 20_788, "2026-12-01")
        #expect(chapter["due_minute"] is NSNull)
        #expect(chapter["priority"] as? String == "high")
        #expect(chapter["tags"] as? String == "writing,thesis")
        #expect(chapter["done_ms"] is NSNull)
        let invoice = tasks[1]
        #expect(invoice["due_day"] as? Int == 20_784, "2026-11-27")
        #expect(invoice["due_minute"] as? Int == 17 * 60)
        #expect(invoice["priority"] as? String == "low")
        let doneMs = (invoice["done_ms"] as? NSNumber)?.int64Value
        #expect(doneMs != nil && doneMs == Self.ms(end), "done when Taskwarrior says: \(end)")
        #expect((invoice["note"] as? String)?.hasSuffix(": ask Bob first") == true)
        let shown = try await vigil(["task", "list", "--all", "--data-dir", home + "/d"], home: home)
        #expect(shown.stdout.contains("Write chapter 3") && shown.stdout.contains("Send invoice"))

        // Again: nothing new, and the file from standard input is the same file.
        let again = try await vigil(
            ["import", "taskwarrior", "-", "--data-dir", home + "/d"], home: home, stdin: try String(contentsOfFile: file, encoding: .utf8))
        #expect(again.stdout == "Imported 0 tasks (2 already imported; 1 skipped: deleted) from standard input.\n", "\(again.stdout)")
        let after = try await Self.exported(home, data: home + "/d")["tasks"]?.count
        #expect(after == 2)
    }

    /// Timewarrior's intervals are tracked time with their tags as the session's tags: found by
    /// `session list --tag` and `report --tag`, shown as not judged, never focused time (not even with
    /// --source imported), and a report over them names no best or worst hour.
    @Test(.enabled(if: toolsThere, "needs timewarrior (scripts/setup.sh --tests)"))
    func timewarriorsExportRoundTripsAsImportedSessions() async throws {
        let home = freshHome()
        let data = ["--data-dir", home + "/d", "--now", "2024-03-06T12:00:00Z"]
        try FileManager.default.createDirectory(atPath: home + "/timew/data", withIntermediateDirectories: true)
        write("", to: home + "/timew/timewarrior.cfg")
        _ = try await Self.tool("timew track 2024-03-04T09:00 - 2024-03-04T10:30 thesis", home: home)
        _ = try await Self.tool("timew track 2024-03-04T11:00 - 2024-03-04T11:45 thesis Writing", home: home)
        // As Timewarrior's hook for Taskwarrior tags an interval: with its task's description.
        _ = try await Self.tool("timew track 2024-03-05T11:00 - 2024-03-05T12:30 'Write chapter 3' thesis", home: home)
        _ = try await Self.tool("timew start reading", home: home)
        let file = home + "/time.json"
        _ = try await Self.tool("timew export", home: home, output: file)
        #expect(try await vigil(["task", "add", "Write chapter 3"] + data, home: home).status == 0)

        let r = try await vigil(["import", "timewarrior", file] + data, home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Imported 3 sessions (3 h 45 min; 1 skipped: still being tracked) from \(file)."), "\(r.stdout)")

        // Listed as the person's own time, with their tags (lower case, as `session tag` keeps them),
        // without focused time; a task only where a tag is a task's title.
        var list = try await vigil(["session", "list", "--last", "all", "--tag", "thesis"] + data, home: home)
        #expect(list.stdout.contains("1 h 30  imported         –           –  (no task)  [thesis]"), "\(list.stdout)")
        // (Timewarrior keeps an interval's tags sorted: "Writing" before "thesis".)
        #expect(list.stdout.contains("(no task)  [writing, thesis]"), "\(list.stdout)")
        #expect(list.stdout.contains("\"Write chapter 3\"  [write chapter 3, thesis]"), "\(list.stdout)")
        list = try await vigil(["session", "list", "--last", "all", "--tag", "writing", "--json"] + data, home: home)
        let tagged = jsonRecords(list.stdout)
        #expect(tagged.count == 1, "\(list.stdout)")
        #expect(tagged.first?["tags"] as? [String] == ["writing", "thesis"])
        #expect(tagged.first?["task"] is NSNull && tagged.first?["focused_s"] is NSNull, "\(list.stdout)")
        let id = try #require(tagged.first?["id"] as? Int)
        let show = try await vigil(["session", "show", String(id)] + data, home: home)
        #expect(show.stdout.contains("judged    no: time another tool tracked (imported), not counted as focused"), "\(show.stdout)")
        #expect(!show.stdout.contains("focused 45 min"), "\(show.stdout)")
        // Nobody judged its times either: they can be corrected, as an added session's.
        let edit = try await vigil(["session", "edit", String(id), "--end", "11:40"] + data, home: home)
        #expect(edit.status == 0, "\(edit.stderr)")

        // `vigil log` lists them when asked, as sessions nobody judged.
        let plain = try await vigil(["log", "--json"] + data, home: home)
        #expect(plain.stdout == "[]\n", "\(plain.stdout)")
        let log = try await vigil(["log", "--json", "--source", "imported"] + data, home: home)
        let sessions = jsonRecords(log.stdout)
        #expect(sessions.count == 3)
        let first = try #require(sessions.first { ($0["start"] as? String)?.hasPrefix("2024-03-04T09:00:00") == true })
        #expect((first["end"] as? String)?.hasPrefix("2024-03-04T10:30:00") == true, "\(first)")
        #expect(first["focused_s"] is NSNull && first["source"] as? String == "imported", "\(first)")

        // Reports show them as tracked time, by tag too, and never as focused time: not even with
        // --source imported, which names no hour best and worst.
        for source in [[], ["--source", "imported"]] {
            let report = try await vigil(
                ["report", "--format", "json", "--tag", "thesis", "--from", "2024-03-04", "--to", "2024-03-05"] + source + data, home: home)
            #expect(report.status == 0, "\(report.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
            let totals = json["totals"] as? [String: Any]
            #expect(totals?["tracked_sessions"] as? Int == 3, "\(report.stdout)")
            #expect(totals?["tracked_minutes"] as? Double == 220, "\(report.stdout)")
            #expect(totals?["focused_minutes"] as? Double == 0 && totals?["sessions"] as? Int == 0, "\(report.stdout)")
            let highlights = json["highlights"] as? [String: Any]
            #expect(highlights?["most_productive_hour"] is NSNull && highlights?["least_productive_hour"] is NSNull, "\(report.stdout)")
            #expect((json["sources"] as? [String: Any])?["tracked"] as? [String] == (source.isEmpty ? ["imported", "added"] : ["imported"]))
        }
        let text = try await vigil(["report", "--tag", "writing", "--from", "2024-03-04", "--to", "2024-03-05"] + data, home: home)
        let words = text.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Tracked 40 min in 1 session nobody judged (imported, added): never counted as focused"), "\(text.stdout)")
        #expect(words.contains("tracked, not judged: imported 3"), "\(text.stdout)")

        // Once the open interval is stopped it comes in; the others are not imported twice.
        _ = try await Self.tool("timew stop", home: home)
        _ = try await Self.tool("timew export", home: home, output: file)
        let again = try await vigil(["import", "timewarrior", file, "--data-dir", home + "/d"], home: home)
        #expect(again.stdout.hasPrefix("Imported 1 session ("), "\(again.stdout)")
        #expect(again.stdout.contains("; 3 already imported) from"), "\(again.stdout)")
        let count = try await Self.exported(home, data: home + "/d")["sessions"]?.count
        #expect(count == 4)
    }

    /// Loop Habit Tracker 2.3's layout (Habits.csv and Checkmarks.csv as Loop's HabitsCSVExporter
    /// writes them, from its source at github.com/iSoron/uhabits; written here, not copied).
    @Test func loopsCSVExportBecomesHabitsAndDays() async throws {
        let home = freshHome()
        let loop = home + "/loop"
        try FileManager.default.createDirectory(atPath: loop, withIntermediateDirectories: true)
        write(
            """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Meditate,YES_NO,Did you meditate this morning?,,1,1,#FF8F00,,,,false
            002,Gym,YES_NO,Did you go?,,3,7,#00897B,,,,false
            003,Run,NUMERICAL,How far?,,1,1,#3949AB,km,AT_LEAST,5.0,false

            """, to: loop + "/Habits.csv")
        write(
            """
            Date,Meditate,Gym,Run,
            2026-11-20,YES_MANUAL,SKIP,5000,
            2026-11-19,NO,YES_MANUAL,0,
            2026-11-18,YES_MANUAL,YES_AUTO,0,

            """, to: loop + "/Checkmarks.csv")
        let now = ["--now", "2026-11-21T12:00:00Z"]
        let r = try await vigil(["import", "loop", loop, "--data-dir", home + "/d"] + now, home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Imported 2 habits and 4 days (1 skipped: numerical (Run)) from \(loop).\n", "\(r.stdout)")
        let tables = try await Self.exported(home, data: home + "/d")
        let habits = tables["habits"] ?? []
        #expect(habits.map { $0["name"] as? String } == ["Meditate", "Gym"])
        #expect(habits.map { $0["schedule"] as? String } == ["day", "3/week"])
        #expect(habits.first?["created_day"] as? Int == 20_775, "2026-11-18, the first day Loop judged")
        let days = (tables["habit_days"] ?? []).map { "\($0["habit_id"] ?? "") \($0["day"] ?? "") \($0["status"] ?? "")" }.sorted()
        #expect(days == ["1 20775 completed", "1 20777 completed", "2 20776 completed", "2 20777 skipped"], "\(days)")
        let shown = try await vigil(["habit", "list", "--data-dir", home + "/d"] + now, home: home)
        #expect(shown.stdout.contains("Meditate") && shown.stdout.contains("Gym"), "\(shown.stdout)")

        // Again, through Habits.csv itself: nothing new.
        let again = try await vigil(["import", "loop", loop + "/Habits.csv", "--data-dir", home + "/d"] + now, home: home)
        #expect(again.stdout.hasPrefix("Imported 0 habits and 0 days (2 into habits already here;"), "\(again.stdout)")

        // `vigil undo` takes the import back (the second added nothing, so the first is the last
        // change), and it can be imported again.
        let undo = try await vigil(["undo", "--data-dir", home + "/d"], home: home)
        #expect(undo.status == 0 && undo.stdout == "Undid: import of 2 habits and 4 days from \(loop).\n", "\(undo.stdout)\(undo.stderr)")
        #expect(try await Self.exported(home, data: home + "/d")["habits"]?.isEmpty ?? true)
        let back = try await vigil(["import", "loop", loop, "--data-dir", home + "/d"] + now, home: home)
        #expect(back.stdout.hasPrefix("Imported 2 habits and 4 days"), "\(back.stdout)")

        // Loop's zip, and standard input, are said to need unpacking.
        write("PK", to: home + "/Loop Habits CSV 2026-11-21.zip")
        let zip = try await vigil(["import", "loop", home + "/Loop Habits CSV 2026-11-21.zip", "--data-dir", home + "/d"], home: home)
        #expect(zip.status == 65 && zip.stderr.contains("unzip it first"), "\(zip.stderr)")
        let stdin = try await vigil(["import", "loop", "-", "--data-dir", home + "/d"], home: home)
        #expect(stdin.status == 64, "\(stdin.stderr)")
    }

    /// One bad record anywhere: exit 65 with the file, the record and the field, and nothing written.
    @Test func aBadRecordImportsNothing() async throws {
        let home = freshHome()
        let file = home + "/tasks.json"
        write(
            #"[{"description":"fine","status":"pending","uuid":"u1"},{"description":"bad","status":"pending","uuid":"u2","due":"soon"}]"#,
            to: file)
        _ = try await vigil(["task", "add", "Mine", "--data-dir", home + "/d"], home: home)
        let r = try await vigil(["import", "taskwarrior", file, "--data-dir", home + "/d"], home: home)
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(file), record 2, field 'due': 'soon' is not a time"), "\(r.stderr)")
        #expect(r.stderr.contains("Nothing was imported."))
        let tasks = try await Self.exported(home, data: home + "/d")["tasks"]?.map { $0["title"] as? String }
        #expect(tasks == ["Mine"])
        let missing = try await vigil(["import", "timewarrior", home + "/nope.json", "--data-dir", home + "/d"], home: home)
        #expect(missing.status == 74 && missing.stderr.contains("nope.json: cannot read"), "\(missing.stderr)")
    }
}
