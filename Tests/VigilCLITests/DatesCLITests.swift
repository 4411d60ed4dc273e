import Foundation
import TestSupport
import Testing

/// The one date grammar on the options that take dates (docs/dates.md), at a fixed instant
/// (`--now`, Tuesday 2026-11-24 10:00 UTC) and time zone (TZ, set per child).
@Suite struct DatesCLITests {
    static let now = "2026-11-24T10:00:00Z"

    func run(_ args: [String], _ home: String, at now: String = now, env: [String: String] = [:]) async throws -> Run {
        try await vigil(args + ["--data-dir", home + "/d", "--now", now], home: home, env: env)
    }

    /// The period a text report names in its first line.
    func period(_ args: [String], _ home: String) async throws -> String {
        let r = try await run(["report"] + args, home)
        return String(r.stdout.split(separator: "\n").first ?? "")
    }

    /// Every local time a command prints follows `--time-zone` (else TZ): listings, JSON times,
    /// and the day "today" is, as reports and the date options already did.
    @Test func localTimesFollowTheTimeZoneOption() async throws {
        let home = freshHome()
        let added = try await run(["session", "add", "--start", "2026-11-24 08:00", "--end", "2026-11-24 09:00"], home)
        try #require(added.status == 0, "\(added.stderr)")
        // TZ is UTC for the child: the session is 08:00 to 09:00 UTC.
        let utc = try await run(["log", "--source", "all"], home)
        #expect(utc.stdout.contains("#1  2026-11-24 08:00"), "\(utc.stdout)")
        let tokyo = try await run(["log", "--source", "all", "--time-zone", "Asia/Tokyo"], home)
        #expect(tokyo.stdout.contains("#1  2026-11-24 17:00"), "\(tokyo.stdout)")
        let json = try await run(["session", "show", "1", "--json", "--time-zone", "America/New_York"], home)
        #expect(json.stdout.contains(#""start":"2026-11-24T03:00:00-05:00""#), "\(json.stdout)")
        let shown = try await run(["session", "show", "1", "--time-zone", "Asia/Kolkata"], home)
        #expect(shown.stdout.contains("2026-11-24 13:30"), "\(shown.stdout)")
        // The day: at 10:00 UTC it is already the 25th on Kiritimati (UTC+14).
        let today = try await run(["today", "--json", "--time-zone", "Pacific/Kiritimati"], home)
        #expect(today.stdout.contains(#""date":"2026-11-25""#), "\(today.stdout)")
        let bad = try await run(["log", "--time-zone", "Mars/Olympus"], home)
        #expect(bad.status == 64 && bad.stderr.contains("--time-zone: 'Mars/Olympus' is not an IANA time zone"), "\(bad.stderr)")
    }

    @Test func reportPeriods() async throws {
        let home = freshHome()
        #expect(try await period(["--from", "monday"], home) == "Vigil report · 2026-11-23 to 2026-11-24 · GMT")
        #expect(try await period(["--from", "2w"], home) == "Vigil report · 2026-11-10 to 2026-11-24 · GMT")
        #expect(try await period(["--last", "2w"], home) == "Vigil report · 2026-11-11 to 2026-11-24 · GMT")
        #expect(try await period(["--period", ":lastweek"], home) == "Vigil report · 2026-11-16 to 2026-11-22 · GMT")
        #expect(try await period(["--period", ":week"], home) == "Vigil report · 2026-11-23 to 2026-11-24 · GMT", "up to today")
        #expect(try await period(["--from", ":lastmonth", "--to", ":lastmonth"], home) == "Vigil report · 2026-10-01 to 2026-10-31 · GMT")
        // Weeks from Sunday by the config.
        write("calendar:\n  week_starts: sunday\n", to: home + "/config/vigil/config.yaml")
        #expect(try await period(["--period", ":lastweek"], home) == "Vigil report · 2026-11-15 to 2026-11-21 · GMT")
        // Bad values: 64, naming the option, what was typed and what is taken.
        var r = try await run(["report", "--from", "lundi"], home)
        #expect(r.status == 64 && r.stderr.contains("--from: 'lundi' is not a date; use YYYY-MM-DD, today, yesterday"), "\(r.stderr)")
        r = try await run(["report", "--period", ":week", "--last", "7d"], home)
        #expect(r.status == 64 && r.stderr.contains("use either --period or --from/--to or --last"), "\(r.stderr)")
        r = try await run(["report", "--from", "tomorrow"], home)
        #expect(r.status == 64 && r.stderr.contains("--from tomorrow (2026-11-25) is after the period's last day (2026-11-24, today)"), "\(r.stderr)")
    }

    /// Without `calendar.week_starts`, weeks start on the locale's first weekday (LC_TIME): Sunday
    /// in the United States, Monday in Germany and where the locale says nothing (C).
    @Test func theLocaleSaysWhereAWeekStarts() async throws {
        let home = freshHome()
        let locales = home + "/locales"
        try FileManager.default.createDirectory(atPath: locales, withIntermediateDirectories: true)
        for name in ["en_US", "de_DE"] {
            let made = await runProcess("/usr/bin/localedef", ["-i", name, "-f", "UTF-8", "\(locales)/\(name).UTF-8"])
            // 1: written, with warnings (en_US has some).
            try #require(made.status == 0 || made.status == 1, "localedef \(name) (the locales package): \(made.output)")
        }
        func lastWeek(_ locale: String) async throws -> String {
            let r = try await run(["report", "--period", ":lastweek"], home, env: ["LOCPATH": locales, "LC_ALL": locale])
            return String(r.stdout.split(separator: "\n").first ?? "") + r.stderr
        }
        #expect(try await lastWeek("en_US.UTF-8") == "Vigil report · 2026-11-15 to 2026-11-21 · GMT")
        #expect(try await lastWeek("de_DE.UTF-8") == "Vigil report · 2026-11-16 to 2026-11-22 · GMT")
        #expect(try await lastWeek("C.UTF-8") == "Vigil report · 2026-11-16 to 2026-11-22 · GMT")
        // The config key wins over the locale.
        write("calendar:\n  week_starts: saturday\n", to: home + "/config/vigil/config.yaml")
        #expect(try await lastWeek("en_US.UTF-8") == "Vigil report · 2026-11-14 to 2026-11-20 · GMT")
    }

    @Test func dueDatesLookAhead() async throws {
        let home = freshHome()
        var r = try await run(["task", "add", "Invoice", "--due", "tomorrow"], home)
        #expect(r.stdout == "Added task #1: Invoice (due 2026-11-25). Start it with `vigil start --task 1`.\n", "\(r.stderr)")
        r = try await run(["task", "add", "Slides", "--due", "tuesday"], home)
        #expect(r.stdout.contains("(due 2026-12-01)"), "the next Tuesday, not today: \(r.stdout)")
        r = try await run(["task", "add", "Call", "--due", "2026-11-24T17:00:00+01:00"], home)
        #expect(r.stdout.contains("(due 2026-11-24 16:00)"), "an instant, in local time: \(r.stdout)")
        r = try await run(["task", "edit", "1", "--due", "3d"], home)
        let shown = try await run(["task", "show", "1"], home).stdout
        #expect(r.status == 0 && shown.contains("due       2026-11-27"), "\(shown)")
        // The local day decides: 03:00 UTC is still Monday evening in New York.
        r = try await run(["task", "add", "Late", "--due", "tomorrow"], home, at: "2026-11-24T03:00:00Z", env: ["TZ": "America/New_York"])
        #expect(r.stdout.contains("(due 2026-11-24)"), "\(r.stdout)")
        r = try await run(["task", "add", "X", "--due", "next week"], home)
        #expect(r.status == 64 && r.stderr.contains("--due: 'next week' is not a date") && r.stderr.contains("friday: the next one"), "\(r.stderr)")
    }

    /// `habit add --since` and `habit edit --since`: days from the start can be marked, earlier
    /// ones are refused with the remedy.
    @Test func habitsFromAChosenStart() async throws {
        let home = freshHome()
        var r = try await run(["habit", "add", "Walk", "--since", "2026-11-20"], home)
        #expect(r.status == 0 && r.stdout.contains("It starts on 2026-11-20"), "\(r.stderr)")
        r = try await run(["habit", "check", "Walk", "--date", "3d"], home)
        #expect(r.status == 0 && r.stdout.contains("Completed: Walk on 2026-11-21."), "\(r.stderr)")
        r = try await run(["habit", "check", "Walk", "--date", "monday"], home)
        #expect(r.status == 0 && r.stdout.contains("on 2026-11-23."), "\(r.stderr)")
        r = try await run(["habit", "check", "Walk", "--date", "1w"], home)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("Walk starts on 2026-11-20; mark an earlier day after `vigil habit edit 1 --since 2026-11-17`."), "\(r.stderr)")
        r = try await run(["habit", "edit", "Walk", "--since", "2026-11-17"], home)
        #expect(r.status == 0, "\(r.stderr)")
        r = try await run(["habit", "check", "Walk", "--date", "1w"], home)
        #expect(r.status == 0 && r.stdout.contains("on 2026-11-17."), "\(r.stderr)")
        // The day a habit is added: yesterday is before it, and the message says what to do.
        #expect(try await run(["habit", "add", "Read"], home).status == 0)
        r = try await run(["habit", "check", "Read", "--date", "yesterday"], home)
        #expect(r.status == 65 && r.stderr.contains("Read starts on 2026-11-24; mark an earlier day after `vigil habit edit 2 --since 2026-11-23`."))
        r = try await run(["habit", "add", "Run", "--since", "tomorrow"], home)
        #expect(r.status == 64 && r.stderr.contains("--since: 2026-11-25 is in the future"), "\(r.stderr)")
        // A note's week: an ISO week, or the week of a day.
        r = try await run(["habit", "note", "Walk", "A good start.", "--week", "1w"], home)
        #expect(r.stdout == "Noted for Walk, week 2026-W47.\n", "\(r.stderr)")
        r = try await run(["habit", "note", "Walk", "On.", "--week", "2026-W48"], home)
        #expect(r.stdout == "Noted for Walk, week 2026-W48.\n", "\(r.stderr)")
        r = try await run(["habit", "check", "Walk", "--date", ":week"], home)
        #expect(r.status == 64 && r.stderr.contains("--date: ':week' is not a date"), "\(r.stderr)")
    }

    @Test func forgetAndSimulateTakeTheGrammar() async throws {
        let home = freshHome()
        #expect(try await run(["habit", "add", "Walk", "--since", "2w"], home).status == 0)
        #expect(try await run(["habit", "check", "Walk", "--date", "2026-11-18"], home).status == 0)
        var r = try await run(["forget", "--period", ":lastweek", "--yes"], home)
        #expect(r.status == 0 && r.stdout.contains("from 2026-11-16 to 2026-11-22"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("7 habit days"), "the check and six failed days: \(r.stdout)")
        r = try await run(["forget", "--from", "monday", "--to", "3d", "--yes"], home)
        #expect(r.status == 64 && r.stderr.contains("--from monday (2026-11-23) is after --to 3d (2026-11-21)."), "\(r.stderr)")
        r = try await run(["simulate", "--days", "2", "--until", "sunday", "--time-zone", "UTC"], freshHome())
        #expect(r.status == 0 && r.stdout.contains("Simulated 2 days ending 2026-11-22"), "\(r.stdout)\(r.stderr)")
    }
}
