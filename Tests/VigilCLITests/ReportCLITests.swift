import Foundation
import TestSupport
import Testing

/// `vigil report` as a person runs it, on logs that `vigil simulate` fills through the real state
/// machine, checked against an independent computation (Data/reference_report.py: Python's sqlite3
/// and zoneinfo, second by second) rather than against Vigil's own output.
@Suite struct ReportCLITests {
    static let reference = repo + "/Tests/VigilCLITests/Data/reference_report.py"

    struct Fixture: CustomStringConvertible, Sendable {
        var zone: String
        var simulate: [String]
        var report: [String]
        var from: String
        var to: String
        var task: String?
        /// The day still running (`--now`'s), which the report does not judge yet.
        var openDay: String?
        /// The person's word added to the simulated log: intentions with every kind of answer, and
        /// episodes with every label (docs/statistics.md, "The person's word").
        var personsWord = false
        var description: String {
            "\(zone) \(simulate.joined(separator: " ")) → \(report.joined(separator: " "))\(personsWord ? " with the person's word" : "")"
        }
    }

    static let fixtures: [Fixture] = [
        // Eleven weeks in Berlin; the period spans the night clocks went back (2026-10-25).
        Fixture(
            zone: "Europe/Berlin", simulate: ["--days", "75", "--until", "2026-11-10", "--seed", "7"],
            report: ["--from", "2026-10-01", "--to", "2026-11-10"], from: "2026-10-01", to: "2026-11-10"),
        // The same, with intentions answered and episodes labelled by the person.
        Fixture(
            zone: "Europe/Berlin", simulate: ["--days", "75", "--until", "2026-11-10", "--seed", "7"],
            report: ["--from", "2026-10-01", "--to", "2026-11-10"], from: "2026-10-01", to: "2026-11-10", personsWord: true),
        // New York's spring forward (2026-03-08), all history, busier days, up to a day still running.
        Fixture(
            zone: "America/New_York", simulate: ["--days", "40", "--until", "2026-03-21", "--seed", "3", "--sessions-per-day", "5-9"],
            report: ["--last", "all", "--now", "2026-03-21T16:00:00Z"], from: "all", to: "2026-03-21", openDay: "2026-03-21"),
        // Sessions around the clock, so some run through the repeated hour of the fall-back night.
        Fixture(
            zone: "Europe/Berlin", simulate: ["--days", "4", "--until", "2026-10-26", "--seed", "11", "--stress", "--sessions-per-day", "46-48"],
            report: ["--from", "2026-10-24", "--to", "2026-10-27"], from: "2026-10-24", to: "2026-10-27"),
        // One task only, a week that includes the fall-back night.
        Fixture(
            zone: "Europe/Berlin", simulate: ["--days", "75", "--until", "2026-11-10", "--seed", "7"],
            report: ["--from", "2026-10-20", "--to", "2026-10-31", "--task", "thesis"], from: "2026-10-20", to: "2026-10-31", task: "thesis"),
    ]

    func simulated(_ f: Fixture) async throws -> String {
        let home = freshHome()
        let run = try await vigil(["simulate", "--data-dir", home + "/d", "--time-zone", f.zone] + f.simulate, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        if f.personsWord {
            // Written as `vigil session intent` and `vigil episode --was` write them (their own
            // tests drive the commands), over the whole log at once.
            let label = await runProcess(
                "/usr/bin/python3",
                [
                    "-c",
                    """
                    import sqlite3, sys
                    db = sqlite3.connect(sys.argv[1])
                    db.execute("UPDATE sessions SET intent = 'the plan', intent_kept = CASE id % 4 WHEN 0 THEN 'done' WHEN 1 THEN 'partly' WHEN 2 THEN 'no' END WHERE id % 3 <> 0")
                    db.execute("UPDATE episodes SET label = CASE id % 7 WHEN 0 THEN 'break' WHEN 1 THEN 'meeting' WHEN 2 THEN 'offline_work' WHEN 3 THEN 'work' WHEN 4 THEN 'distracted' END")
                    db.commit()
                    """,
                    home + "/d/vigil.sqlite3",
                ])
            #expect(label.status == 0, "\(label.output)")
        }
        return home
    }

    @Test(arguments: fixtures)
    func everyFigureAgreesWithAnIndependentComputation(_ f: Fixture) async throws {
        let home = try await simulated(f)
        let run = try await vigil(
            ["report", "--data-dir", home + "/d", "--time-zone", f.zone, "--format", "json", "-o", home + "/r.json"] + f.report, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let check = await runProcess(
            "/usr/bin/python3",
            [Self.reference, home + "/d/vigil.sqlite3", home + "/r.json", f.zone, f.from, f.to] + (f.task.map { [$0] } ?? [])
                + (f.openDay.map { ["--open-day=\($0)"] } ?? []))
        #expect(check.status == 0, "\(check.output)")
        // The check must have compared something substantial: figures, sessions and episodes.
        let counts =
            check.output.split(separator: "\n").last.map { line in
                line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            } ?? []
        #expect(counts.count == 4 && counts[0] >= 500 && counts[1] == 0 && counts[2] >= 20 && counts[3] >= 3, "\(check.output)")
    }

    @Test func theFormatsSayTheSameThings() async throws {
        let f = Self.fixtures[0]
        let home = try await simulated(f)
        func report(_ format: String, env: [String: String] = [:]) async throws -> String {
            let run = try await vigil(
                ["report", "--data-dir", home + "/d", "--time-zone", f.zone, "--format", format] + f.report, home: home, env: env)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        let json = try JSONSerialization.jsonObject(with: Data(try await report("json").utf8)) as! [String: Any]
        let days = json["days"] as! [[String: Any]]
        #expect(days.count == 41)  // 1 October to 10 November
        let totals = json["totals"] as! [String: Any]

        // CSV: one row per day with the JSON's values, RFC 4180 line ends.
        let csv = try await report("csv")
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first == "date,weekday,sessions,focused_minutes,distracted_minutes,episodes,alarms,procrastination_free")
        #expect(rows.count == days.count + 1)
        for (row, day) in zip(rows.dropFirst(), days) {
            let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(c[0] == day["date"] as? String)
            #expect(Double(c[3]) == (day["focused_minutes"] as! NSNumber).doubleValue)
            #expect(Int(c[5]) == (day["episodes"] as! NSNumber).intValue)
            let free = day["procrastination_free"] as? Bool
            #expect(c[7] == (free.map { $0 ? "true" : "false" } ?? ""))
        }

        // Text: the period, the zone, the totals in words, the charts.
        let text = try await report("text")
        #expect(text.hasPrefix("Vigil report · 2026-10-01 to 2026-11-10 · Europe/Berlin"))
        // (Wrapped at 80 columns: read as words.)
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("\(totals["sessions"]!) sessions (\(totals["completed"]!) completed"))
        #expect(text.contains("By hour of day") && text.contains("By weekday"))
        #expect(text.contains("Focus share, weekday × hour"))
        #expect(!text.contains("\u{1B}["), "no colour when not on a terminal")

        // Markdown: the same totals, as tables.
        let md = try await report("markdown")
        #expect(md.hasPrefix("# Vigil report: 2026-10-01 to 2026-11-10"))
        #expect(md.contains("| Hour | Focused min | Distracted min | Focus share | Episodes | Episodes per judged hour | |"))
        let byCause = (json["episodes"] as! [String: Any])["by_cause"] as! [[String: Any]]
        let away = byCause.first { $0["key"] as? String == "away" }!
        #expect(md.contains("| away/idle | \(away["count"]!) |"))
    }

    @Test func colourOnATerminalUnlessNoColor() async throws {
        let f = Self.fixtures[0]
        let home = try await simulated(f)
        func onTerminal(_ env: [String: String]) async throws -> String {
            let (status, text) = try await inPseudoTerminal(
                "\(vigilBinary) report --data-dir \(home)/d --time-zone \(f.zone) \(f.report.joined(separator: " "))",
                home: home, env: ["TERM": "xterm-256color", "PAGER": "cat"].merging(env) { $1 })
            #expect(status == 0, "\(text)")
            return text
        }
        #expect(try await onTerminal([:]).contains("\u{1B}[1mVigil report"))
        let plain = try await onTerminal(["NO_COLOR": "1"])
        #expect(plain.contains("Vigil report ·"))
        #expect(!plain.contains("\u{1B}["))
    }

    static let checkHTML = repo + "/Tests/VigilCLITests/Data/check_html_report.py"
    static let charts = [
        "hours-focus", "hours-distraction", "hours-time", "heatmap", "daily", "weekly", "profile", "tasks", "causes", "streak", "applications",
    ]

    @Test func htmlIsOneSelfContainedFileReadableOnlyByItsOwner() async throws {
        let f = Self.fixtures[0]
        let home = try await simulated(f)
        let out = home + "/report.html"
        let run = try await vigil(["report", "--data-dir", home + "/d", "--time-zone", f.zone, "--format", "html", "-o", out] + f.report, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        for id in Self.charts { #expect(html.contains("<svg id=\"\(id)\""), "\(id)") }
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link") && !html.contains("<img") && !html.contains("@import") && !html.contains("url(http"))
        // No network: the only URL is the SVG namespace, which browsers never fetch.
        let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
        #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg\"") }, "\(urls)")
        // The headline figures are compared with the 41 days before (2026-08-21 to 2026-09-30).
        #expect(html.contains("2026-08-21 to 2026-09-30, the 41 days before"))
        #expect(html.contains("<p class=\"delta good\">") || html.contains("<p class=\"delta bad\">"))
        let mode = (try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as! NSNumber).intValue
        #expect(mode == 0o600)
        // Written through a temporary file: nothing else is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix(".report.html") }.isEmpty)

        // All history has nothing before it to compare with, and says so instead of a change.
        let all = try await vigil(
            ["report", "--data-dir", home + "/d", "--time-zone", f.zone, "--format", "html", "--last", "all", "--now", "2026-11-10T18:00:00Z"],
            home: home)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("no previous period (the report covers all history)"))
        #expect(all.stdout.contains("<p class=\"delta none\">no previous period</p>"))
        #expect(!all.stdout.contains("<p class=\"delta good\">") && !all.stdout.contains("<p class=\"delta bad\">"))
    }

    /// A real browser (headless Chromium) renders the HTML report light and dark, at a desktop's
    /// and a phone's width; Data/check_html_report.py finds every chart's colours in its part of
    /// each screenshot, measures every label against its chart's edges with the real font, and
    /// checks the dark mode's background and heatmap.
    @Test func theHTMLReportRendersItsChartsInAHeadlessBrowser() async throws {
        var f = Self.fixtures[0]
        // With the day around the sessions, as the all-day watch records it: the day timeline too.
        f.simulate += ["--watch"]
        let home = try await simulated(f)
        // And limits and goals, whose card must fit a phone too.
        write(GoalsCLITests.config, to: home + "/config/vigil/config.yaml")
        let html = home + "/report.html"
        let run = try await vigil(
            ["report", "--data-dir", home + "/d", "--time-zone", f.zone, "--format", "html", "-o", html] + f.report, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let check = await runProcess("/usr/bin/python3", [Self.checkHTML, html, home])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.hasSuffix("checked \(Self.charts.count) charts and 1 day timeline in 4 renderings; 0 failures\n"), "\(check.output)")
    }

    @Test func badRequestsSayWhatToDo() async throws {
        let home = try await simulated(Self.fixtures[0])
        let d = ["--data-dir", home + "/d"]
        var run = try await vigil(["report", "--from", "2026-11-10", "--to", "2026-11-01"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("--from 2026-11-10 is after --to 2026-11-01"), "\(run.stderr)")
        run = try await vigil(["report", "--from", "2026-02-30"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("--from: '2026-02-30' is no real date"), "\(run.stderr)")
        run = try await vigil(["report", "--last", "7x"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("--last: '7x' is not a span; use 7d, 2w, 1mo or 1y"), "\(run.stderr)")
        run = try await vigil(["report", "--last", "7d", "--from", "2026-11-01"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("either --last or --from/--to"), "\(run.stderr)")
        run = try await vigil(["report", "--format", "pdf"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("--format must be one of text, json, csv, markdown, html"), "\(run.stderr)")
        run = try await vigil(["report", "--time-zone", "Mars/Olympus"] + d, home: home)
        #expect(run.status == 64 && run.stderr.contains("not an IANA time zone"), "\(run.stderr)")
        run = try await vigil(["report", "--task", "novel"] + d, home: home)
        #expect(
            run.status == 65 && run.stderr.contains("no session has the task 'novel'. Known tasks: 'code review', 'email', 'reading', 'thesis'."),
            "\(run.stderr)")
        run = try await vigil(["report", "--format", "html", "-o", home + "/no/such/dir/r.html"] + d, home: home)
        #expect(
            run.status == 73 && run.stderr.contains(home + "/no/such/dir/r.html: cannot write the report: No such file or directory"), "\(run.stderr)"
        )
    }

    @Test func anEmptyLogGivesAnEmptyReportAndCreatesNothing() async throws {
        let home = freshHome()
        let run = try await vigil(["report", "--data-dir", home + "/d", "--format", "json", "--now", "2026-11-22T12:00:00Z"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect((json["totals"] as! [String: Any])["sessions"] as? Int == 0)
        #expect((json["days"] as! [Any]).count == 7)
        #expect(json["from"] as? String == "2026-11-16")
        #expect(!FileManager.default.fileExists(atPath: home + "/d"))
        let text = try await vigil(["report", "--data-dir", home + "/d", "--now", "2026-11-22T12:00:00Z"], home: home)
        #expect(text.stdout.contains("0 sessions"), "\(text.stdout)")
    }

    /// A rehearsal is not the person's own time: without --log it leaves nothing in the log; with
    /// --log it is kept at the recording's own times, and no figure of the report moves unless
    /// --source asks for rehearsals (the report only says it left one out).
    @Test func aRehearsalChangesNoFigureUnlessAskedFor() async throws {
        let home = try await simulated(
            Fixture(zone: "UTC", simulate: ["--days", "20", "--until", "2026-03-10", "--seed", "5"], report: [], from: "", to: ""))
        let scenario = repo + "/Samples/coffee-break/session.jsonl"  // 2026-03-03 14:00 UTC, 25 minutes
        func report(_ extra: [String] = []) async throws -> [String: Any] {
            let run = try await vigil(
                ["report", "--data-dir", home + "/d", "--time-zone", "UTC", "--format", "json", "--last", "all", "--now", "2026-03-11T12:00:00Z"]
                    + extra, home: home)
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        }
        func withoutSources(_ r: [String: Any]) -> NSDictionary {
            var r = r
            r["sources"] = nil
            return r as NSDictionary
        }
        let before = try await report()
        let totalsBefore = try #require(before["totals"] as? [String: Any])
        #expect((totalsBefore["sessions"] as? Int ?? 0) >= 20, "the history has substance: \(totalsBefore)")

        let unlogged = try await vigil(["start", "--replay", scenario, "--pace", "600", "--data-dir", home + "/d"], home: home)
        #expect(unlogged.status == 0 && unlogged.stderr.contains("a rehearsal: not logged"), "\(unlogged.stderr)")
        #expect(NSDictionary(dictionary: try await report()) == before as NSDictionary, "nothing at all changed")

        let logged = try await vigil(["start", "--replay", scenario, "--pace", "600", "--log", "--data-dir", home + "/d"], home: home)
        #expect(logged.status == 0 && logged.stderr.contains("saved as session"), "\(logged.stderr)")
        let after = try await report()
        #expect(withoutSources(after) == withoutSources(before), "every figure, the achievements and streaks too, is as before")
        let sources = try #require(after["sources"] as? [String: Any])
        #expect(sources["counted"] as? [String] == ["live", "simulated"])
        let listed = (sources["sessions"] as? [[String: Any]] ?? []).map { "\($0["source"] ?? "") \($0["sessions"] ?? "") \($0["counted"] ?? "")" }
        #expect(listed == ["simulated \(totalsBefore["sessions"] ?? "") 1", "rehearsal 1 0"], "\(listed)")

        // Asked for, it is there: alone, or with the rest; at the recording's times, not now.
        let only = try #require(try await report(["--source", "rehearsal"])["totals"] as? [String: Any])
        #expect(only["sessions"] as? Int == 1 && (only["focused_minutes"] as? Double ?? 0) > 5, "\(only)")
        let all = try #require(try await report(["--source", "all"])["totals"] as? [String: Any])
        #expect(all["sessions"] as? Int == (totalsBefore["sessions"] as? Int ?? 0) + 1, "\(all)")
        let log = try await vigil(["log", "--json", "--source", "rehearsal", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("\"start\":\"2026-03-03T14:00:00") && log.stdout.contains("\"source\":\"rehearsal\""), "\(log.stdout)")
        let text = try await vigil(
            ["report", "--data-dir", home + "/d", "--time-zone", "UTC", "--last", "all", "--now", "2026-03-11T12:00:00Z"], home: home)
        #expect(text.stdout.contains("left out: rehearsal 1 (--source all counts them)"), "\(text.stdout)")
        let bad = try await vigil(["report", "--source", "dreams", "--data-dir", home + "/d"], home: home)
        #expect(
            bad.status == 64
                && bad.stderr.contains("--source takes live, simulated, replay, rehearsal, imported, added (several with commas), or all"),
            "\(bad.stderr)")
    }

    /// The mission's question where volume and rate disagree (Data/rate_history.py: an hour of
    /// distracted work at 09:00 every weekday, a quarter of an hour of good work at 16:00, ten
    /// minutes once at 02:00), each session replayed through the real state machine into the log:
    /// every format names 16:00 the most productive hour and 09:00 the least productive and the
    /// most procrastinated, and none names 02:00.
    @Test func everyFormatNamesTheHoursByHowWellThePersonFocuses() async throws {
        let home = freshHome()
        let made = await runProcess("/usr/bin/python3", [repo + "/Tests/VigilCLITests/Data/rate_history.py", home + "/rec"])
        try #require(made.status == 0, "\(made.output)")
        for file in try FileManager.default.contentsOfDirectory(atPath: home + "/rec").sorted() {
            let r = try await vigil(["replay", "--log", "--data-dir", home + "/d", home + "/rec/" + file], home: home)
            try #require(r.status == 0, "\(file): \(r.stderr)")
        }
        // Replays: counted when asked for (they are the person's only history here).
        let period = ["--from", "2026-06-01", "--to", "2026-06-07", "--time-zone", "UTC", "--source", "replay", "--data-dir", home + "/d"]
        func report(_ args: [String]) async throws -> String {
            let run = try await vigil(["report"] + period + args, home: home)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await report(["--format", "json"]).utf8)) as? [String: Any])
        let highlights = try #require(json["highlights"] as? [String: Any])
        #expect(highlights["most_productive_hour"] as? Int == 16, "\(highlights)")
        #expect(highlights["least_productive_hour"] as? Int == 9, "\(highlights)")
        #expect(highlights["most_procrastinated_hour"] as? Int == 9, "\(highlights)")
        let hours = try #require(json["hours"] as? [[String: Any]])
        #expect((hours[9]["focused_minutes"] as? Double ?? 0) > (hours[16]["focused_minutes"] as? Double ?? 0), "09:00 has more focused minutes")
        #expect(hours[2]["enough_data"] as? Bool == false && (hours[2]["focus_share"] as? Double ?? 1) < 0.5, "\(hours[2])")

        let text = try await report([])
        #expect(text.contains("best 16:00 (100% focused"), "\(text)")
        #expect(text.contains("worst 09:00") && text.contains("most procrastination at 09:00"), "\(text)")
        #expect(text.range(of: #"\n09 .*worst, drifts most\n"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"\n16 .*best\n"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"\n02 .*\*"#, options: .regularExpression) != nil, "02:00 is starred as too little data: \(text)")

        let csv = try await report(["--format", "csv", "--table", "hours"]).components(separatedBy: "\r\n")
        #expect(csv.first?.hasSuffix(",highlight") == true)
        #expect(csv.first { $0.hasPrefix("16,") }?.hasSuffix(",most_productive") == true, "\(csv)")
        #expect(csv.first { $0.hasPrefix("9,") }?.hasSuffix(",least_productive most_procrastinated") == true, "\(csv)")
        #expect(csv.first { $0.hasPrefix("2,") }?.hasSuffix(",false,") == true, "\(csv)")

        let markdown = try await report(["--format", "markdown"])
        #expect(markdown.range(of: #"\| 16:00 \|[^\n]*\| most productive \|"#, options: .regularExpression) != nil, "\(markdown)")
        #expect(
            markdown.range(of: #"\| 09:00 \|[^\n]*\| least productive, most procrastinated \|"#, options: .regularExpression) != nil, "\(markdown)")

        let html = try await report(["--format", "html"])
        #expect(html.contains(#"★ Best hour</span><span class="v">16:00</span>"#), "\(html)")
        #expect(html.contains(#"▼ Worst hour</span><span class="v">09:00</span>"#), "\(html)")
        #expect(html.contains(#"▲ Most procrastination</span><span class="v">09:00</span>"#), "\(html)")
    }

    /// The text report fits the terminal (words whole, no line wider than it), shows every hour,
    /// and goes through $PAGER (with LESS=FRX, as git sets it) when it is longer than the screen.
    @Test func theTextReportFitsTheTerminalAndPagesWhenLong() async throws {
        let f = Self.fixtures[0]
        let home = try await simulated(f)
        let report = "\(vigilBinary) report --data-dir \(home)/d --time-zone \(f.zone) " + f.report.joined(separator: " ")
        for columns in [60, 100, 160] {
            let (status, screen) = try await inPseudoTerminal("stty cols \(columns) rows 500; NO_COLOR=1 PAGER=cat \(report)", home: home)
            #expect(status == 0, "\(screen)")
            let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false)
            let widest = lines.map(\.count).max() ?? 0
            #expect(widest <= columns && widest > columns - 25, "\(columns) columns: the widest line has \(widest)")
            for h in 0..<24 { #expect(lines.contains { $0.hasPrefix(h < 10 ? "0\(h) " : "\(h) ") }, "hour \(h) at \(columns) columns") }
            // The legend names the five shades the map draws.
            for shade in ["· nothing judged", "░ under 50%", "▒ 50-74%", "▓ 75-89%", "█ 90% or more focused"] { #expect(screen.contains(shade)) }
        }
        // Piped, 80 columns whatever the terminal; never paged.
        let piped = try await vigil(["report", "--data-dir", home + "/d", "--time-zone", f.zone] + f.report, home: home, env: ["PAGER": "false"])
        #expect(piped.status == 0 && (piped.stdout.split(separator: "\n").map(\.count).max() ?? 0) <= 80, "\(piped.stdout)")
        // Longer than a 20-row screen: the pager gets it all, with LESS set as git sets it.
        let pager = "PAGER='env > \(home)/pager-env; cat > \(home)/paged'"
        let (status, screen) = try await inPseudoTerminal("stty cols 100 rows 20; \(pager) \(report)", home: home)
        #expect(status == 0, "\(screen)")
        let paged = (try? String(contentsOfFile: home + "/paged", encoding: .utf8)) ?? ""
        #expect(paged.contains("By hour of day") && paged.contains("Achievements"), "\(paged)")
        #expect(!screen.contains("By hour of day"), "the terminal got it through the pager only")
        #expect(((try? String(contentsOfFile: home + "/pager-env", encoding: .utf8)) ?? "").contains("LESS=FRX"))
    }

    @Test func simulateRefusesALogThatHasSessions() async throws {
        let home = try await simulated(Self.fixtures[2])
        let run = try await vigil(["simulate", "--data-dir", home + "/d", "--days", "2"], home: home)
        #expect(
            run.status == 65 && run.stderr.contains("already has") && run.stderr.contains("Give a new directory with --data-dir"), "\(run.stderr)")
    }

    /// Simulations started at once into one new directory: one history, not three. The check that
    /// the log is empty is in the transaction that writes the first month.
    @Test func simulationsStartedTogetherWriteOneHistory() async throws {
        let home = freshHome()
        let args = ["simulate", "--data-dir", home + "/d", "--days", "60", "--seed", "5"]
        async let a = vigil(args, home: home)
        async let b = vigil(args, home: home)
        async let c = vigil(args, home: home)
        let runs = try await [a, b, c]
        let won = runs.filter { $0.status == 0 }
        #expect(won.count == 1, "\(runs.map { "\($0.status): \($0.stdout)\($0.stderr)" })")
        for lost in runs where lost.status != 0 {
            #expect(lost.status == 65 && lost.stderr.contains("already has"), "\(lost.stderr)")
        }
        let claimed = try #require(won.first?.stdout.firstMatch(of: /: (\d+) sessions,/)).1
        let count = await runProcess("/usr/bin/sqlite3", [home + "/d/vigil.sqlite3", "SELECT count(*) FROM sessions"])
        #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(claimed))
    }
}
