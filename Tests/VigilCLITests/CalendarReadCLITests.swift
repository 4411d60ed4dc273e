import Foundation
import TestSupport
import Testing

/// Calendars read through libical (`vigil calendar`): real files as Thunderbird and khal write them
/// (Data/calendars: a VTIMEZONE, a weekly event with an EXDATE, a moved and a cancelled occurrence
/// named by their local time and, as GNOME Calendar writes them, by an instant in UTC,
/// an event in a zone the file does not define, all-day events, a time without a zone, a file that
/// is no calendar), each occurrence checked against a second implementation (Python's icalendar
/// with recurring_ical_events, Data/ics_expand.py) over three weeks across the night the clocks
/// went back.
@Suite struct CalendarReadCLITests {
    static let calendars = repo + "/Tests/VigilCLITests/Data/calendars/vdir"
    static let expand = repo + "/Tests/VigilCLITests/Data/ics_expand.py"

    func home() -> String {
        let home = freshHome()
        write("calendar:\n  files: [\(Self.calendars)]\n", to: home + "/config/vigil/config.yaml")
        return home
    }

    static func utc(_ iso: String) -> String {
        guard let d = ISO8601DateFormatter().date(from: iso) else { return iso }
        let out = ISO8601DateFormatter()
        out.timeZone = TimeZone(identifier: "UTC")
        return out.string(from: d)
    }

    @Test func everyOccurrenceAgreesWithASecondImplementation() async throws {
        let home = home()
        let r = try await vigil(["calendar", "--from", "2026-10-19", "--days", "21", "--json", "--time-zone", "Europe/Berlin"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("notes.ics: not an iCalendar file"), "the file that is no calendar is named: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let events = try #require(json["events"] as? [[String: Any]])
        let second = await runProcess("/usr/bin/python3", [Self.expand, "Europe/Berlin", "2026-10-19", "2026-11-09", Self.calendars])
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(second.output.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8))
                as? [[String: Any]], "\(second.output)")

        func key(_ uid: Any?, _ summary: Any?, _ start: String, _ end: String) -> String { "\(uid ?? "") | \(summary ?? "") | \(start) | \(end)" }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let mine = Set(
            events.map { e -> String in
                let start = e["start"] as? String ?? ""
                let end = e["end"] as? String ?? ""
                if e["all_day"] as? Bool == true {
                    // All day: the local date and the number of days.
                    let f = ISO8601DateFormatter()
                    let s = f.date(from: start) ?? Date()
                    let t = f.date(from: end) ?? Date()
                    var cal = Calendar(identifier: .gregorian)
                    cal.timeZone = berlin
                    let days = cal.dateComponents([.day], from: cal.startOfDay(for: s), to: cal.startOfDay(for: t)).day ?? 0
                    let date = cal.dateComponents([.year, .month, .day], from: s)
                    return key(e["uid"], e["summary"], String(format: "%04d-%02d-%02d", date.year!, date.month!, date.day!), "\(days)")
                }
                return key(e["uid"], e["summary"], Self.utc(start), Self.utc(end))
            })
        let theirs = Set(
            expected.map { e -> String in
                if let day = e["start"] as? [String: Any] { return key(e["uid"], e["summary"], day["date"] as? String ?? "", "\(day["days"] ?? "")") }
                return key(e["uid"], e["summary"], e["start"] as? String ?? "", e["end"] as? String ?? "")
            })
        #expect(mine == theirs, "only libical's: \(mine.subtracting(theirs).sorted())\nonly the second's: \(theirs.subtracting(mine).sorted())")
        #expect(events.count == expected.count && events.count > 25)

        // What the files say, spelled out. The standup at 09:30 Berlin: 07:30 UTC before the clocks
        // went back (2026-10-25), 08:30 after; not on 10-28 (EXDATE) nor on 11-04 (cancelled), and
        // on 10-30 at 14:00 (moved).
        #expect(mine.contains(key("6f1b2c3d-standup@example.org", "Team standup", "2026-10-23T07:30:00Z", "2026-10-23T07:45:00Z")))
        #expect(mine.contains(key("6f1b2c3d-standup@example.org", "Team standup", "2026-10-26T08:30:00Z", "2026-10-26T08:45:00Z")))
        #expect(mine.contains(key("6f1b2c3d-standup@example.org", "Team standup (moved)", "2026-10-30T13:00:00Z", "2026-10-30T13:15:00Z")))
        for gone in ["2026-10-28T08:30:00Z", "2026-10-30T08:30:00Z", "2026-11-04T08:30:00Z"] {
            #expect(!mine.contains { $0.contains("| \(gone) |") }, "\(gone)")
        }
        // 11:00 in New York (a zone the file names without defining it) is 15:00 UTC before the US
        // clocks go back (2026-11-01).
        #expect(mine.contains(key("3T5XGKOCU5HQBRZDW2BY45P1AXQ0DCF7JPQA", "Call with New York", "2026-10-26T15:00:00Z", "2026-10-26T16:00:00Z")))
        // Focus blocks: by the summary and by the category.
        let kinds = Dictionary(grouping: events, by: { $0["kind"] as? String ?? "" })
        #expect(Set((kinds["focus_block"] ?? []).compactMap { $0["focus_subject"] as? String }) == ["thesis"])
        #expect(Set((kinds["focus_block"] ?? []).compactMap { $0["summary"] as? String }) == ["focus: thesis", "Writing"])
        #expect((kinds["free"] ?? []).map { $0["summary"] as? String } == ["Reformation Day"])
        #expect((kinds["all_day"] ?? []).map { $0["summary"] as? String } == ["Conference"])
        #expect(
            Set((kinds["meeting"] ?? []).compactMap { $0["summary"] as? String }) == [
                "Team standup", "Team standup (moved)", "Call with New York", "Code review with Sam", "Lunch", "Planning", "Planning (later)",
            ])
        // GNOME's file names its moved and cancelled occurrences by an instant in UTC.
        #expect(mine.contains(key("planning-2026@example.org", "Planning (later)", "2026-10-27T10:30:00Z", "2026-10-27T11:30:00Z")))
        #expect(!mine.contains { $0.hasPrefix("planning-2026@example.org | Planning | 2026-10-27") || $0.contains("| 2026-11-03T09:00:00Z |") })

        let text = try await vigil(["calendar", "--from", "2026-10-30", "--days", "1", "--time-zone", "Europe/Berlin"], home: home)
        #expect(text.stdout.contains("14:00–14:15  Team standup (moved)  (meeting)"), "\(text.stdout)")
        #expect(text.stdout.contains("14:00–16:00  focus: thesis  (focus block: thesis)"), "\(text.stdout)")
    }

    @Test func missingCalendarsAreNamed() async throws {
        let home = freshHome()
        var r = try await vigil(["calendar"], home: home)
        #expect(r.status == 0 && r.stderr.contains("no calendars: list your .ics files") && r.stdout.contains("No events"), "\(r)")
        write("calendar:\n  files: [\(home)/nowhere.ics, \(Self.calendars)]\n", to: home + "/config/vigil/config.yaml")
        r = try await vigil(["calendar", "--from", "2026-10-26", "--days", "1", "--time-zone", "Europe/Berlin"], home: home)
        #expect(r.status == 0 && r.stderr.contains("\(home)/nowhere.ics: no such file or directory") && r.stdout.contains("Team standup"), "\(r)")
        // A file cut off in the middle of an event: what libical could read is listed, the rest named.
        let cut = String(try String(contentsOfFile: Self.calendars + "/work/thunderbird.ics", encoding: .utf8).prefix(1500))
        write(cut, to: home + "/cut.ics")
        write("calendar:\n  files: [\(home)/cut.ics]\n", to: home + "/config/vigil/config.yaml")
        r = try await vigil(["calendar", "--from", "2026-10-19", "--days", "3", "--time-zone", "Europe/Berlin"], home: home)
        #expect(r.status == 0, "\(r)")
        // Hostile and broken calendars: an event every second (millions a month) is left out and
        // said; dates Vigil's instants cannot hold (year 1, 9999) are cut or left out, never a crash;
        // random bytes are named.
        let hostile = [
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:spam", "DTSTART:20261101T000000Z", "DTEND:20261101T000001Z", "RRULE:FREQ=SECONDLY",
            "SUMMARY:spam", "END:VEVENT", "BEGIN:VEVENT", "UID:forever", "DTSTART:20261102T100000Z", "DTEND:99991231T000000Z",
            "SUMMARY:forever", "END:VEVENT", "BEGIN:VEVENT", "UID:ancient", "DTSTART:00010101T100000Z", "DTEND:00010101T110000Z",
            "RRULE:FREQ=DAILY", "SUMMARY:ancient", "END:VEVENT", "BEGIN:VEVENT", "UID:eternal", "DTSTART;VALUE=DATE:00010101",
            "DTEND;VALUE=DATE:99991231", "SUMMARY:eternal", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        write(hostile, to: home + "/hostile.ics")
        FileManager.default.createFile(atPath: home + "/random.ics", contents: Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        write("calendar:\n  files: [\(home)/hostile.ics, \(home)/random.ics]\n", to: home + "/config/vigil/config.yaml")
        r = try await vigil(["calendar", "--from", "2026-11-01", "--days", "3", "--json", "--time-zone", "UTC"], home: home)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("hostile.ics: the event spam repeats every second or minute; left out"), "\(r.stderr)")
        #expect(r.stderr.contains("random.ics"), "\(r.stderr)")
        let listed = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["events"] as? [[String: Any]] ?? []
        #expect(Set(listed.compactMap { $0["summary"] as? String }) == ["forever", "ancient"], "\(listed)")
    }

    /// Scheduled focus blocks against the sessions that started for them. The blocks are the
    /// fixture's: "focus: thesis" 14:00 to 16:00 every weekday from 2026-10-22, and "Writing"
    /// (CATEGORIES FOCUS,thesis) on Tuesdays 08:00 to 10:00 from 2026-10-27. Sessions: 10 min late;
    /// ten minutes early, tagged thesis (on time); an hour late, the task written Thesis; half an
    /// hour into the Tuesday morning block; one for email in a block (it starts nothing).
    @Test func blocksScheduledAndStartedLateOrNever() async throws {
        let home = home()
        for (start, end, extra) in [
            ("2026-10-22 14:10", "2026-10-22 15:30", ["--task", "thesis"]), ("2026-10-23 13:50", "2026-10-23 15:30", ["--tag", "thesis"]),
            ("2026-10-26 15:00", "2026-10-26 16:00", ["--task", "Thesis"]), ("2026-10-27 08:30", "2026-10-27 09:30", ["--task", "thesis"]),
            ("2026-10-28 14:05", "2026-10-28 15:00", ["--task", "email"]),
        ] {
            let r = try await vigil(["session", "add", "--start", start, "--end", end, "--time-zone", "Europe/Berlin"] + extra, home: home)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let args = ["report", "--from", "2026-10-22", "--to", "2026-10-30", "--now", "2026-11-10T12:00:00Z", "--time-zone", "Europe/Berlin"]
        let r = try await vigil(args + ["--format", "json"], home: home)
        #expect(r.status == 0 && r.stderr.contains("notes.ics"), "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let b = try #require(json["scheduled_blocks"] as? [String: Any])
        #expect(b["scheduled"] as? Int == 8 && b["started"] as? Int == 4 && b["missed"] as? Int == 4, "\(b)")
        #expect(b["median_late_minutes"] as? Double == 20, "late 0, 10, 30 and 60 min: \(b)")
        let blocks = (b["blocks"] as? [[String: Any]] ?? []).map { "\($0["date"] ?? "") \($0["time"] ?? "") \($0["late_minutes"] ?? "never")" }
        #expect(
            blocks == [
                "2026-10-22 14:00 10", "2026-10-23 14:00 0", "2026-10-26 14:00 60", "2026-10-27 08:00 30", "2026-10-27 14:00 <null>",
                "2026-10-28 14:00 <null>", "2026-10-29 14:00 <null>", "2026-10-30 14:00 <null>",
            ], "\(blocks)")
        let text = try await vigil(args, home: home)
        #expect(text.stdout.contains("4 of 8 started, 4 never; started 20 min late (median)"), "\(text.stdout)")
    }

    /// The daemon tells a focus block as it begins, once, through a private notification service.
    @Test func theDaemonTellsABlockAsItBegins() async throws {
        let home = freshHome()
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.up))  // whole seconds, as the file has it
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let ics =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:essay-block@example.org", "DTSTAMP:20261101T000000Z",
                "DTSTART:\(f.string(from: start))", "DTEND:\(f.string(from: start.addingTimeInterval(3600)))", "SUMMARY:focus: essay", "END:VEVENT",
                "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        write(ics, to: home + "/cal/essay.ics")
        write(
            "calendar:\n  files: [\(home)/cal]\nreminders:\n  check: 1s\n  quiet_from: \"00:00\"\n  quiet_to: \"00:00\"\n",
            to: home + "/config/vigil/config.yaml")
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        let daemon = try ChildProcess(
            vigilBinary, ["daemon"],
            environment: [
                "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "PATH": "/usr/bin:/bin",
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus,
            ], output: home + "/daemon.log")
        defer { daemon.kill(SIGKILL) }
        #expect(
            try await eventually(60) { !SessionBus.notifications(log).isEmpty },
            "\((try? String(contentsOfFile: home + "/daemon.log", encoding: .utf8)) ?? "")")
        let first = SessionBus.notifications(log).first
        #expect(first?["summary"] as? String == "essay is scheduled now", "\(String(describing: first))")
        #expect((first?["body"] as? String)?.contains("Start it: vigil start --task \"essay\"") == true, "\(String(describing: first))")
        #expect(Date() >= start, "not before it begins")
        try await Task.sleep(for: .seconds(3))
        #expect(SessionBus.notifications(log).count == 1, "once")
    }

    /// A meeting holds the away alarm, as a call does: the same 21 minutes without input replay
    /// with an alarm after 4 minutes, or, with a meeting in the calendar for the first 15, with
    /// none in the meeting and the idle clock from its end. The calendar's readings are recorded as
    /// the live detector gives them (`{"kind":"calendar","value":1}`).
    @Test func aMeetingHoldsTheAwayAlarmInAReplayedSession() async throws {
        let home = freshHome()
        var lines = [#"{"vigil":"recording","version":1,"start":"2026-11-20T10:00:00Z","source":"a test","task":"report"}"#]
        for t in stride(from: 5, through: 1300, by: 5) { lines.append(#"{"t":\#(t),"kind":"desktop","idle":\#(t)}"#) }
        write(lines.joined(separator: "\n") + "\n", to: home + "/alone.jsonl")
        lines.insert(#"{"t":1,"kind":"calendar","value":1}"#, at: 1)
        lines.insert(#"{"t":901,"kind":"calendar","value":0}"#, at: lines.firstIndex { $0.contains(#""t":905,"#) } ?? lines.count)
        write(lines.joined(separator: "\n") + "\n", to: home + "/meeting.jsonl")
        let alone = try await vigil(["replay", "--json", home + "/alone.jsonl"], home: home)
        let meeting = try await vigil(["replay", "--json", home + "/meeting.jsonl"], home: home)
        #expect(alone.status == 0 && meeting.status == 0, "\(alone.stderr) \(meeting.stderr)")
        #expect(!meeting.stderr.contains("skipped"), "the calendar's lines are read: \(meeting.stderr)")
        func episodes(_ out: String) -> [[String: Any]] {
            out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == "episode_started" }
        }
        #expect(episodes(alone.stdout).first?["since_elapsed"] as? Double == 0, "\(episodes(alone.stdout))")
        let first = try #require(episodes(meeting.stdout).first, "\(meeting.stdout.suffix(2000))")
        #expect(first["since_elapsed"] as? Double == 901, "away from the meeting's end, none in it: \(first)")
    }
}
