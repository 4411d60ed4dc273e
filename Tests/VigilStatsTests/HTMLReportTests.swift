import Foundation
import Testing
import VigilCore

@testable import ReportViews
@testable import VigilStats

/// The HTML dashboard over histories the simulated fixtures of the CLI tests do not reach: none at
/// all, one session, five years, a task name full of markup. (How it looks in a real browser, light
/// and dark, desktop and phone, is checked in ReportCLITests with headless Chromium.)
@Suite struct HTMLReportTests {
    let utc = TimeZone(identifier: "UTC")!
    static let hostileTask = "<img src=x onerror=\"alert('x')\"> & a task whose name is far too long for any label"

    func day(_ text: String) -> Int { Statistics.day(from: text)! }

    /// Two sessions a day for `days` days up to `until`, with an episode every third day; tasks in
    /// turn.
    func history(days: Int, until: String, tasks: [String?] = ["thesis", "email", nil]) -> StatisticsFacts {
        var facts = StatisticsFacts()
        let last = day(until)
        var id: Int64 = 0
        for d in (last - days + 1)...last {
            let midnight = Int64(d) * 86_400_000
            for (hour, minutes) in [(9, 90), (14, 60)] {
                id += 1
                let start = midnight + Int64(hour) * 3_600_000
                let end = start + Int64(minutes) * 60_000
                let episodes =
                    (d % 3 == 0 || d == last) && hour == 14
                    ? [EpisodeFacts(number: 1, span: Span(start + 20 * 60_000, start + 32 * 60_000), cause: .away)] : []
                facts.append(
                    id: id, task: tasks[Int(id) % tasks.count], start: start, end: end, outcome: .completed, active: [Span(start, end)],
                    episodes: episodes, alarms: [])
            }
        }
        return facts
    }

    struct Label {
        var text: String
        var x: Double
        var y: Double
        var anchor: String
        var size: Double
    }

    struct Chart {
        var id: String
        var width: Double
        var height: Double
        var labels: [Label]
        var tooltips: Int
        var source: Substring
    }

    /// The page's charts, read back from the HTML (the renderer writes attributes in double quotes).
    func charts(_ html: String) throws -> [Chart] {
        let attribute = try Regex(#"([A-Za-z-]+)="([^"]*)""#)
        func attributes(_ tag: Substring) -> [String: String] {
            var out: [String: String] = [:]
            for m in tag.matches(of: attribute) { out[String(m.output[1].substring!)] = String(m.output[2].substring!) }
            return out
        }
        var out: [Chart] = []
        for m in html.matches(of: try Regex(#"<svg id="[^"]*"[^>]*>.*?</svg>"#).dotMatchesNewlines()) {
            let svg = html[m.range]
            let open = attributes(svg[..<svg.firstIndex(of: ">")!])
            let box = open["viewBox", default: ""].split(separator: " ").compactMap { Double($0) }
            let rootSize = Double(open["font-size", default: "16"])!
            var labels: [Label] = []
            for t in svg.matches(of: try Regex(#"<text ([^>]*)>([^<]*)</text>"#)) {
                let a = attributes(t.output[1].substring!)
                let text = String(t.output[2].substring!).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
                        of: "&#39;", with: "'")
                labels.append(
                    Label(
                        text: text, x: Double(a["x"]!)!, y: Double(a["y"]!)!, anchor: a["text-anchor", default: "start"],
                        size: Double(a["font-size"] ?? "") ?? rootSize))
            }
            out.append(
                Chart(
                    id: open["id"]!, width: box.count == 4 ? box[2] : 0, height: box.count == 4 ? box[3] : 0, labels: labels,
                    tooltips: svg.matches(of: try Regex("<title>")).count, source: svg))
        }
        return out
    }

    /// Labels outside their chart's viewBox, at 0.6 em per character (the browser test measures
    /// the real font; this covers the histories it does not see).
    func clipped(_ chart: Chart) -> [String] {
        chart.labels.compactMap { l in
            let w = Double(l.text.count) * l.size * 0.6
            let left = l.x - (l.anchor == "middle" ? w / 2 : l.anchor == "end" ? w : 0)
            let inside = left >= 0 && left + w <= chart.width && l.y - 0.8 * l.size >= 0 && l.y + 0.2 * l.size <= chart.height
            return inside ? nil : "\(chart.id): \"\(l.text)\" at \(l.x), \(l.y) in \(chart.width) x \(chart.height)"
        }
    }

    static let everyChart: Set = [
        "hours-focus", "hours-distraction", "hours-time", "heatmap", "daily", "weekly", "profile", "tasks", "causes", "streak",
    ]

    @Test(arguments: [0, 1, 30, 400, 1827])
    func everyLabelFitsItsChartWhateverTheHistory(_ days: Int) throws {
        let facts = days == 0 ? StatisticsFacts() : history(days: days, until: "2026-11-10", tasks: ["thesis", Self.hostileTask, nil, "x"])
        let report = Statistics.report(facts, timeZone: utc, from: day("2026-11-10") - max(days, 7) + 1, to: day("2026-11-10"))
        let html = report.rendered(as: .html)
        let found = try charts(html)
        #expect(Set(found.map(\.id)).count == found.count, "ids are unique")
        if days == 0 {
            #expect(found.map(\.id) == ["streak"], "without judged time only the calendar of the empty days is drawn")
            #expect(html.contains("No judged time in the period."))
        } else {
            #expect(Set(found.map(\.id)) == Self.everyChart)
        }
        for chart in found {
            #expect(chart.width > 0 && chart.height > 0, "\(chart.id)")
            #expect(clipped(chart).isEmpty, "\(clipped(chart))")
            #expect(chart.tooltips > 0, "\(chart.id) has tooltips")
            #expect(chart.source.contains("data-series=\""), "\(chart.id)")
        }
        #expect(!html.contains("<script"))
    }

    @Test func textFromTheLogIsEscaped() throws {
        var report = Statistics.report(
            history(days: 14, until: "2026-11-10", tasks: [Self.hostileTask]), timeZone: utc, from: day("2026-10-28"), to: day("2026-11-10"))
        report.applications = Report.ApplicationFigures(
            apps: [(ApplicationKey("code", .work), 7_200_000, 3, 0), (ApplicationKey("<script>game</script>", .distracting), 900_000, 2, 1)],
            calls: 1, callMilliseconds: 600_000)
        let html = report.rendered(as: .html)
        #expect(!html.contains("<script"))
        // Its row in the table, and its tooltip, name it escaped (the table holds every distracting
        // one, so no line repeats them).
        #expect(html.contains("<th scope=\"row\">&lt;script&gt;game&lt;/script&gt;<span class=\"category\">"))
        #expect(html.contains("<tr title=\"&lt;script&gt;game&lt;/script&gt;: 15 min in front, 2 times (distracting)\">"))
        #expect(!html.contains("Most distracting:"))
        let applications = try #require(try charts(html).first { $0.id == "applications" })
        #expect(clipped(applications).isEmpty && applications.tooltips == 2)  // work and distracting; neutral has no time, no bar
        #expect(!html.contains("<img"))
        #expect(!html.contains("alert('x')"))
        // The tooltip has the whole name, escaped; the label is cut to fit, with an ellipsis.
        #expect(
            html.contains("<title>&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; a task whose name is far too long for any label: "))
        let tasks = try #require(try charts(html).first { $0.id == "tasks" })
        #expect(tasks.labels.contains { $0.text.hasPrefix("<img src=x") && $0.text.hasSuffix("…") })
    }

    /// The streak calendar's day cells, in the order drawn: date, and the top left corner of its
    /// cell (a square's, a circle's, an outline's drawn half a unit inside).
    func calendarCells(_ html: String) throws -> [(date: String, x: Double, y: Double)] {
        let streak = try #require(try charts(html).first { $0.id == "streak" })
        let square = try Regex(#"<rect x="([0-9.]+)" y="([0-9.]+)"[^>]* class="(free|noday)"><title>([0-9-]{10}):"#)
        let circle = try Regex(#"<circle cx="([0-9.]+)" cy="([0-9.]+)" r="([0-9.]+)"[^>]*><title>([0-9-]{10}):"#)
        func number(_ m: Regex<AnyRegexOutput>.Match, _ i: Int) -> Double { Double(m.output[i].substring!)! }
        var cells: [(date: String, x: Double, y: Double)] = []
        for m in streak.source.matches(of: square) {
            let inset = m.output[3].substring == "noday" ? 0.5 : 0
            cells.append((String(m.output[4].substring!), number(m, 1) - inset, number(m, 2) - inset))
        }
        for m in streak.source.matches(of: circle) {
            cells.append((String(m.output[4].substring!), number(m, 1) - number(m, 3), number(m, 2) - number(m, 3)))
        }
        // To the hundredth the page draws in.
        return cells.map { ($0.date, ($0.x * 100).rounded() / 100, ($0.y * 100).rounded() / 100) }.sorted { $0.date < $1.date }
    }

    /// A week from Sunday to Saturday (`--last 7d` on a Saturday, `--period :week` where weeks
    /// start on Sunday) is one column, Sunday at the top, not a lone Sunday under a column of six
    /// days; and the calendar names its month however narrow it is.
    @Test func aWeekFromSundayIsOneColumnInDateOrder() throws {
        let facts = history(days: 21, until: "2026-11-21")
        for (from, days) in [("2026-11-15", 7), ("2026-11-16", 7), ("2026-11-18", 3)] {
            let r = Statistics.report(facts, timeZone: utc, from: day(from), to: day(from) + days - 1)
            let html = r.rendered(as: .html)
            let cells = try calendarCells(html)
            #expect(cells.map(\.date) == r.days.map(\.date), "\(from)")
            #expect(Set(cells.map(\.x)).count == 1, "\(from): one column, \(cells)")
            #expect(cells.map(\.y) == cells.map(\.y).sorted() && Set(cells.map(\.y)).count == days, "\(from): days top to bottom, \(cells)")
            let streak = try #require(try charts(html).first { $0.id == "streak" })
            #expect(streak.labels.map(\.text).contains("Nov 2026"), "\(from): \(streak.labels.map(\.text))")
            #expect(streak.labels.first?.text == String(Statistics.weekdayNames[r.days[0].weekday - 1].prefix(3)), "the top row's weekday")
            #expect(clipped(streak).isEmpty, "\(clipped(streak))")
        }
        // Longer periods keep Monday at the top: two weeks from Sunday start with the Sunday alone,
        // at the bottom of the first column, and still name their month.
        let r = Statistics.report(facts, timeZone: utc, from: day("2026-11-08"), to: day("2026-11-21"))
        let cells = try calendarCells(r.rendered(as: .html))
        #expect(Set(cells.map(\.x)).count == 3 && cells[0].y == cells.map(\.y).max() && cells[1].y == cells.map(\.y).min(), "\(cells)")
        #expect(cells[1].x == cells[7].x && cells[0].x < cells[1].x, "a column a week, Monday to Sunday")
        let streak = try #require(try charts(r.rendered(as: .html)).first { $0.id == "streak" })
        #expect(streak.labels.map(\.text) == ["Mon", "Wed", "Fri", "Nov 2026"], "\(streak.labels.map(\.text))")
    }

    /// Five years stay a page a browser opens at once: months instead of days, the last year of
    /// weeks in the trend, the last half-year in the weekly profile, a row of the calendar a year.
    @Test func longHistoriesStaySmallAndReadable() throws {
        let facts = history(days: 1827, until: "2026-11-10")
        let all = Statistics.report(facts, timeZone: utc, from: nil, to: day("2026-11-10"))
        let html = all.rendered(as: .html)
        #expect(html.utf8.count < 1_000_000, "\(html.utf8.count) bytes")
        let found = try charts(html)
        let daily = try #require(found.first { $0.id == "daily" })
        #expect(daily.source.contains("data-unit=\"month\""))
        #expect(daily.source.matches(of: try Regex(#"class="focus""#)).count == 61)  // November 2021 to November 2026
        let weekly = try #require(found.first { $0.id == "weekly" })
        #expect(weekly.source.matches(of: try Regex(#"class="share-dot""#)).count == HTMLReport.mostTrendWeeks)
        #expect(html.contains("The last 52 of \(all.weeks.count) weeks."))
        let profile = try #require(found.first { $0.id == "profile" })
        #expect(profile.labels.filter { $0.text.contains("-W") }.map(\.text) == all.weeks.suffix(26).map(\.week))
        let streak = try #require(found.first { $0.id == "streak" })
        #expect(streak.labels.filter { $0.text == "Mon" }.count == 5, "one block of 53 weeks a year")
        // 120 days still get a bar each.
        let recent = Statistics.report(facts, timeZone: utc, from: day("2026-11-10") - 119, to: day("2026-11-10"))
        let recentDaily = try #require(try charts(recent.rendered(as: .html)).first { $0.id == "daily" })
        #expect(recentDaily.source.contains("data-unit=\"day\""))
        #expect(recentDaily.source.matches(of: try Regex(#"class="focus""#)).count == 120)
    }

    /// Each headline figure against the previous period: an arrow and a sign for the direction, a
    /// word for whether that is good, a class for the colour.
    @Test func changesSayWhichWayAndWhetherThatIsBetter() {
        var facts = StatisticsFacts()
        let ms = { (text: String) in parseRFC3339(text)!.millisecondsSinceEpoch }
        for (id, d) in ["2026-06-01", "2026-06-02", "2026-06-03"].enumerated() {
            let span = Span(ms("\(d)T09:00:00Z"), ms("\(d)T10:30:00Z"))
            facts.append(id: Int64(id), task: nil, start: span.start, end: span.end, outcome: .completed, active: [span], episodes: [], alarms: [])
        }
        let span = Span(ms("2026-06-08T14:00:00Z"), ms("2026-06-08T15:00:00Z"))
        let episode = EpisodeFacts(number: 1, span: Span(ms("2026-06-08T14:30:00Z"), ms("2026-06-08T14:45:00Z")), cause: .away)
        facts.append(id: 10, task: nil, start: span.start, end: span.end, outcome: .completed, active: [span], episodes: [episode], alarms: [])
        let html = Statistics.report(facts, timeZone: utc, from: day("2026-06-08"), to: day("2026-06-14")).rendered(as: .html)
        // 270 focused minutes before, 45 now; 100% focused before, 75% now; 0 episodes before, 1 now.
        #expect(
            html.contains("<p class=\"delta bad\"><span class=\"arrow\">↓</span> −3 h 45 min <span class=\"was\">· was 4 h 30 min · worse</span></p>")
        )
        #expect(html.contains("<p class=\"delta bad\"><span class=\"arrow\">↓</span> −25 pts <span class=\"was\">· was 100% · worse</span></p>"))
        #expect(html.contains("<p class=\"delta bad\"><span class=\"arrow\">↑</span> +1 <span class=\"was\">· was 0 · worse</span></p>"))
        // Sessions are neither good nor bad in number; completion is.
        #expect(html.contains("<p class=\"delta neutral\"><span class=\"arrow\">↓</span> −2 <span class=\"was\">· was 3</span></p>"))
        #expect(html.contains("<p class=\"delta same\">completion → ±0 <span class=\"was\">· same as before</span></p>"))
        #expect(html.contains("2026-06-01 to 2026-06-07, the 7 days before"))

        let better = Statistics.report(facts, timeZone: utc, from: day("2026-06-01"), to: day("2026-06-07")).rendered(as: .html)
        #expect(better.contains("no sessions in the previous period (2026-05-25 to 2026-05-31)"))
        #expect(!better.contains("class=\"delta good\"") && !better.contains("class=\"delta bad\""))
        let all = Statistics.report(facts, timeZone: utc, from: nil, to: day("2026-06-14")).rendered(as: .html)
        #expect(all.contains("no previous period (the report covers all history)"))
        #expect(all.contains("<p class=\"delta none\">no previous period</p>"))
    }

    /// Achievements are all history up to the period's end; those earned in the period are marked,
    /// unless the period holds them all.
    @Test func achievementsEarnedInThePeriodAreMarked() throws {
        let facts = history(days: 60, until: "2026-11-10")
        let recent = Statistics.report(facts, timeZone: utc, from: day("2026-11-10") - 19, to: day("2026-11-10"))
        let new = recent.achievements.filter(\.inPeriod)
        try #require(new.count > 0 && new.count < recent.achievements.count, "the last 20 days hold the 100th focused hour, not the first session")
        let html = recent.rendered(as: .html)
        #expect(html.contains("All time, up to 2026-11-10; \(new.count) new in this period."))
        #expect(html.components(separatedBy: "<span class=\"badge\">new in this period</span>").count - 1 == new.count)
        for a in new { #expect(html.contains("<li class=\"new\"><span class=\"title\">\(a.title)</span>")) }

        let all = Statistics.report(facts, timeZone: utc, from: nil, to: day("2026-11-10")).rendered(as: .html)
        #expect(all.contains("All time, up to 2026-11-10; all earned in this period."))
        #expect(!all.contains("<span class=\"badge\">"))
    }

    /// A cell is drawn in the class of the percentage its tooltip shows, and the legend names the
    /// classes by those percentages; its size follows the judged minutes up to the minimum.
    @Test func heatmapClassesFollowThePercentShown() {
        #expect(HTMLReport.shareBin(0.4949) == 0 && HTMLReport.shareBin(0.4951) == 1)
        #expect(HTMLReport.shareBin(0.6949) == 1 && HTMLReport.shareBin(0.6951) == 2)
        #expect(HTMLReport.shareBin(0.8449) == 2 && HTMLReport.shareBin(0.85) == 3)
        #expect(HTMLReport.shareBin(0.9449) == 3 && HTMLReport.shareBin(0.9451) == 4 && HTMLReport.shareBin(1) == 4)
        #expect(HTMLReport.shareBins.map(\.label) == ["under 50%", "50–69%", "70–84%", "85–94%", "95–100%"])
        #expect(HTMLReport.cellScale(judged: 60, minimum: 60) == 1 && HTMLReport.cellScale(judged: 600, minimum: 60) == 1)
        #expect(HTMLReport.cellScale(judged: 15, minimum: 60) == 0.5)
        #expect(HTMLReport.cellScale(judged: 1, minimum: 60) == 1.0 / 3)
    }
}
