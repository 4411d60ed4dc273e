import Foundation
import TestSupport
import Testing

/// `vigil export --ics`: tasks with deadlines and sessions as an iCalendar file written by libical,
/// read back by a second implementation (Python's icalendar, Data/ics_read.py), as GNOME Calendar,
/// Thunderbird or khal would read it.
@Suite struct CalendarExportCLITests {
    static let reader = repo + "/Tests/VigilCLITests/Data/ics_read.py"

    /// The export read by Python's icalendar.
    func read(_ path: String) async throws -> [String: Any] {
        let r = await runProcess("/usr/bin/python3", [Self.reader, path])
        #expect(r.status == 0, "icalendar could not read the export: \(r.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any])
    }

    /// A simulated history in Berlin and tasks of every shape.
    func history(_ home: String) async throws -> String {
        let data = home + "/d"
        let zone = ["--data-dir", data, "--time-zone", "Europe/Berlin"]
        let sim = try await vigil(["simulate", "--days", "3", "--until", "2026-11-20"] + zone, home: home)
        #expect(sim.status == 0, "\(sim.stderr)")
        for args in [
            ["Write chapter 3; intro, outline \\ appendix", "--due", "2026-12-03", "--priority", "high", "--tag", "thesis,writing"],
            ["Call the dentist", "--due", "2026-12-01 17:30", "--note", "private: the molar"],
            ["Summer plan", "--due", "2026-07-01 09:00", "--priority", "low"],
            ["Bell\u{7} in the title and a long one " + String(repeating: "é", count: 120), "--due", "2026-12-24"],
            ["No deadline at all"],
        ] {
            let r = try await vigil(["task", "add"] + args + zone, home: home)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try await vigil(["task", "done", "3"] + zone, home: home).status == 0)
        let added = try await vigil(
            [
                "session", "add", "--task", "Thesis", "--start", "2026-11-28 09:00", "--end", "2026-11-28 10:30", "--tag", "thesis", "--note",
                "my own words",
            ] + zone, home: home)
        #expect(added.status == 0, "\(added.stderr)")
        return data
    }

    @Test func tasksAndSessionsReadBackByASecondImplementation() async throws {
        let home = freshHome()
        let data = try await history(home)
        let zone = ["--data-dir", data, "--time-zone", "Europe/Berlin"]
        let r = try await vigil(["export", "--ics", "-o", home + "/vigil.ics"] + zone, home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("exported 4 tasks and"), "\(r.stderr)")
        let mode = (try FileManager.default.attributesOfItem(atPath: home + "/vigil.ics")[.posixPermissions] as! NSNumber).intValue
        #expect(mode == 0o600)
        let raw = try String(contentsOfFile: home + "/vigil.ics", encoding: .utf8)
        // RFC 5545's shape as libical writes it: CRLF line ends, no line over 75 octets.
        #expect(raw.hasPrefix("BEGIN:VCALENDAR\r\n") && raw.hasSuffix("END:VCALENDAR\r\n"))
        #expect(raw.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "a line is not folded")
        #expect(!raw.contains("\u{7}"), "a control character reached the file")

        let calendar = try await read(home + "/vigil.ics")
        #expect(calendar["version"] as? String == "2.0")
        let todos = try #require(calendar["todos"] as? [[String: Any]])
        let byTitle = Dictionary(uniqueKeysWithValues: todos.map { (($0["summary"] as? String) ?? "", $0) })
        #expect(todos.count == 4, "the task without a deadline is no to-do: \(byTitle.keys)")
        let chapter = try #require(byTitle["Write chapter 3; intro, outline \\ appendix"], "escaped text reads back as written")
        #expect(chapter["due"] as? [String: String] == ["date": "2026-12-03"])
        #expect(chapter["priority"] as? Int == 1)
        #expect(chapter["status"] as? String == "NEEDS-ACTION")
        #expect(chapter["categories"] as? [String] == ["thesis", "writing"])
        // 17:30 in Berlin in December is CET (UTC+1); 09:00 in July is CEST (UTC+2).
        let dentist = try #require(byTitle["Call the dentist"])
        #expect(dentist["due"] as? [String: String] == ["utc": "2026-12-01T16:30:00Z"])
        #expect(dentist["description"] is NSNull, "a task's note stays home without --with-notes")
        let summer = try #require(byTitle["Summer plan"])
        #expect(summer["due"] as? [String: String] == ["utc": "2026-07-01T07:00:00Z"])
        #expect(summer["priority"] as? Int == 9)
        #expect(summer["status"] as? String == "COMPLETED")
        #expect(summer["completed"] is [String: String])
        let long = try #require(todos.first { ($0["summary"] as? String)?.hasPrefix("Bell  in the title") == true })
        #expect((long["summary"] as? String)?.hasSuffix(String(repeating: "é", count: 120)) == true, "a folded line unfolds whole")

        // The sessions: every one of the person's, at the times the log has.
        let events = try #require(calendar["events"] as? [[String: Any]])
        let logged = jsonRecords(
            try await vigil(["log", "--json", "--limit", "100", "--source", "live,simulated,imported,added"] + zone, home: home).stdout)
        #expect(events.count == logged.count && logged.count >= 4)
        for session in logged {
            let start = try #require(session["start"] as? String)
            let event = try #require(events.first { ($0["start"] as? [String: String])?["utc"] == Self.utc(start) }, "no event at \(start)")
            #expect(event["end"] as? [String: String] == ["utc": Self.utc(try #require(session["end"] as? String))])
            #expect(event["summary"] as? String == (session["task"] as? String ?? "Focus session"))
            #expect(event["transp"] as? String == "OPAQUE")
        }
        let thesis = try #require(events.first { $0["summary"] as? String == "Thesis" })
        #expect(thesis["categories"] as? [String] == ["thesis"])
        #expect(thesis["description"] as? String == "Tracked time, added by hand (Vigil).", "the note stays home without --with-notes")
        let judged = try #require(events.first { ($0["description"] as? String)?.hasPrefix("Focused ") == true })
        #expect((judged["description"] as? String)?.hasSuffix("(Vigil).") == true)

        // Every UID is unique, and the same on the next export: a calendar updates, not doubles.
        let uids = (todos + events).compactMap { $0["uid"] as? String }
        #expect(Set(uids).count == todos.count + events.count)
        let again = try await vigil(["export", "--ics", "-o", home + "/again.ics"] + zone, home: home)
        #expect(again.status == 0)
        let second = try await read(home + "/again.ics")
        let uidsAgain = ((second["todos"] as? [[String: Any]] ?? []) + (second["events"] as? [[String: Any]] ?? [])).compactMap {
            $0["uid"] as? String
        }
        #expect(Set(uidsAgain) == Set(uids))
        // Nothing private unless asked.
        #expect(!raw.contains("molar") && !raw.contains("my own words"))
    }

    @Test func notesOnlyWhenAskedAndSessionsOfAPeriod() async throws {
        let home = freshHome()
        let data = try await history(home)
        let zone = ["--data-dir", data, "--time-zone", "Europe/Berlin"]
        let r = try await vigil(["export", "--ics", "--with-notes", "--period", "2026-11-28"] + zone, home: home)
        #expect(r.status == 0, "\(r.stderr)")
        try r.stdout.write(toFile: home + "/day.ics", atomically: true, encoding: .utf8)
        let calendar = try await read(home + "/day.ics")
        let events = try #require(calendar["events"] as? [[String: Any]])
        #expect(events.count == 1, "only 2026-11-28's session")
        #expect(events.first?["description"] as? String == "Tracked time, added by hand (Vigil).\nmy own words")
        let dentist = (calendar["todos"] as? [[String: Any]])?.first { $0["summary"] as? String == "Call the dentist" }
        #expect(dentist?["description"] as? String == "private: the molar")
        let simulated = try await vigil(
            ["export", "--ics", "--from", "2026-11-18", "--to", "2026-11-20", "-o", home + "/sim.ics"] + zone, home: home)
        #expect(simulated.status == 0)
        let sim = try await read(home + "/sim.ics")
        #expect((sim["events"] as? [[String: Any]])?.contains { $0["summary"] as? String == "Thesis" } == false)
        #expect(((sim["events"] as? [[String: Any]])?.count ?? 0) >= 3)
    }

    @Test func wrongRequestsAreRefusedAndLibicalLoadsOnlyForTheCalendar() async throws {
        let home = freshHome()
        let data = try await history(home)
        for (args, words) in [
            (["export"], "say --all"), (["export", "--all", "--ics"], "say --all"),
            (["export", "--all", "--with-notes"], "go with --ics"),
            (["export", "--ics", "--period", ":week", "--from", "monday"], "not both"),
            (["export", "--ics", "--from", "2026-11-20", "--to", "2026-11-01"], "is after --to"),
            (["export", "--ics", "-o", home + "/no/such/dir/x.ics"], "x.ics"),
        ] {
            let r = try await vigil(args + ["--data-dir", data], home: home)
            #expect(r.status != 0 && r.stderr.contains(words), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home + "/no"))
        // libical (and the ICU it brings) is opened by the calendar's command, not at start.
        let run = try await vigil(["export", "--ics", "--data-dir", data], home: home, env: ["LD_DEBUG": "files"])
        #expect(run.status == 0)
        let loaded = SensorLibraryCLITests.loaded(run.stderr)
        #expect(!loaded.atStart.contains { $0.hasPrefix("libical") }, "\(loaded.atStart)")
        #expect(loaded.later.contains { $0.hasPrefix("libical.so") }, "\(loaded.later)")
    }

    /// "2026-11-20T18:18:00+00:00" as the reader writes UTC times.
    static func utc(_ iso: String) -> String {
        let f = ISO8601DateFormatter()
        guard let d = f.date(from: iso) else { return iso }
        let out = ISO8601DateFormatter()
        out.timeZone = TimeZone(identifier: "UTC")
        return out.string(from: d)
    }
}
