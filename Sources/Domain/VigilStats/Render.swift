import DisplayWidth
import Foundation
import VigilCore

/// The formats `vigil report` writes. Each renders the same `Report` value.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, csv, markdown, html
}

extension Report {
    /// - Parameter width: the terminal's columns for text (80 when not a terminal).
    public func rendered(as format: ReportFormat, color: Bool = false, width: Int = 80) -> String {
        switch format {
        case .text: TextReport(report: self, color: color, width: width).render()
        case .json: json()
        case .csv: csv()
        case .markdown: MarkdownReport(report: self).render()
        case .html: HTMLReport(report: self).render()
        }
    }

    /// Pretty-printed, keys in declaration order and snake_case, absent values as `null` (so every
    /// documented field is always there): the same report always gives the same bytes.
    public func json() -> String {
        var w = JSONWriter()
        write(&w)
        return w.text + "\n"
    }

    /// One table of the report as CSV (docs/report-fields.md): by default one row per local day
    /// of the period. RFC 4180: CRLF line ends; an absent value is an empty field.
    public func csv(_ table: CSVTable = .days) -> String {
        func opt(_ v: Double?) -> String { v.map(number) ?? "" }
        // A name's newline stays (quoted, as RFC 4180 allows); its other controls are escapes, as
        // in every other format: CSV is printed to the terminal without -o. Names come from
        // imports, recordings and other devices: one a spreadsheet would run as a formula is
        // neutralised (`csvCell`).
        func quoted(_ name: String) -> String { csvCell(name.terminalSafeLines) }
        func rates(_ r: Rates) -> String {
            "\(number(r.judgedMinutes)),\(opt(r.focusShare)),\(opt(r.distractedPerJudgedHour)),\(opt(r.episodesPerJudgedHour)),\(r.enoughData)"
        }
        let rateColumns = "judged_minutes,focus_share,distracted_per_judged_hour,episodes_per_judged_hour,enough_data"
        var out: String
        switch table {
        case .days:
            out = "date,weekday,sessions,focused_minutes,distracted_minutes,episodes,alarms,procrastination_free\r\n"
            for d in days {
                let free = d.procrastinationFree.map { $0 ? "true" : "false" } ?? ""
                out +=
                    "\(d.date),\(d.weekday),\(d.sessions),\(number(d.focusedMinutes)),\(number(d.distractedMinutes)),\(d.episodes),\(d.alarms),\(free)\r\n"
            }
        case .hours:
            out = "hour,focused_minutes,distracted_minutes,episodes,\(rateColumns),highlight\r\n"
            for h in hours {
                var names: [String] = []
                if highlights.mostProductiveHour == h.hour { names.append("most_productive") }
                if highlights.leastProductiveHour == h.hour { names.append("least_productive") }
                if highlights.mostProcrastinatedHour == h.hour { names.append("most_procrastinated") }
                out +=
                    "\(h.hour),\(number(h.focusedMinutes)),\(number(h.distractedMinutes)),\(h.episodes),\(rates(h.rates)),\(names.joined(separator: " "))\r\n"
            }
        case .weekdays:
            out = "weekday,name,focused_minutes,distracted_minutes,episodes,\(rateColumns),highlight\r\n"
            for w in weekdays {
                let name =
                    highlights.mostProductiveWeekday == w.weekday
                    ? "most_productive" : highlights.leastProductiveWeekday == w.weekday ? "least_productive" : ""
                out += "\(w.weekday),\(w.name),\(number(w.focusedMinutes)),\(number(w.distractedMinutes)),\(w.episodes),\(rates(w.rates)),\(name)\r\n"
            }
        case .weeks:
            out = "week,focused_minutes,distracted_minutes,sessions,episodes,focus_share,most_productive_hour,least_productive_hour\r\n"
            for w in weeks {
                out += "\(w.week),\(number(w.focusedMinutes)),\(number(w.distractedMinutes)),\(w.sessions),\(w.episodes),\(opt(w.focusShare)),"
                out += "\(w.mostProductiveHour.map(String.init) ?? ""),\(w.leastProductiveHour.map(String.init) ?? "")\r\n"
            }
        case .tasks:
            out = "task,sessions,focused_minutes,distracted_minutes,focus_share,episodes\r\n"
            for t in tasks {
                out +=
                    "\(quoted(t.task)),\(t.sessions),\(number(t.focusedMinutes)),\(number(t.distractedMinutes)),\(opt(t.focusShare)),\(t.episodes)\r\n"
            }
        case .apps:
            // No rows without applications in the period. An application in front under two
            // categories has a row for each.
            out = "app_class,category,minutes,stretches,episodes\r\n"
            for a in applications?.apps ?? [] {
                out += "\(quoted(a.appClass)),\(a.category),\(number(a.minutes)),\(a.stretches),\(a.episodes)\r\n"
            }
        case .devices:
            // No rows for a log of one device. Each device's own time: overlapping time is counted
            // once in the totals, so the rows can add up to more.
            out = "device,sessions,focused_minutes,distracted_minutes,episodes\r\n"
            for d in devices ?? [] {
                out += "\(quoted(d.device)),\(d.sessions),\(number(d.focusedMinutes)),\(number(d.distractedMinutes)),\(d.episodes)\r\n"
            }
        }
        return out
    }

    /// The tables `--format csv --table` offers.
    public enum CSVTable: String, CaseIterable, Sendable {
        case days, hours, weekdays, weeks, tasks, devices, apps
    }

    var periodTitle: String {
        guard let from, let to else { return "no sessions yet" }
        return from == to ? from : "\(from) to \(to)"
    }
}

/// A text cell of a CSV file, spreadsheet-safe: a cell that starts with `=`, `+`, `-` or `@` (or a
/// tab or a carriage return, which some spreadsheets skip before reading one of those) is a
/// formula to Excel, LibreOffice and Google Sheets, which can run commands or send data away, so
/// it gets a leading `'`, as OWASP's "CSV injection" advice says; the spreadsheet shows the text,
/// and a program reading the CSV sees the `'`. Quoted as RFC 4180 says when it holds a comma, a
/// quote or a line end, and whenever it was neutralised (some readers drop the `'` of a bare cell).
func csvCell(_ text: String) -> String {
    var s = text
    let formula = s.first.map { "=+-@\t\r".contains($0) } ?? false
    if formula { s = "'" + s }
    return formula || s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}

/// `12.5`, `3`, `0.25`: at most four decimals, no trailing zeros, never exponent notation, as the
/// JSON writes numbers.
func number(_ v: Double) -> String {
    var w = JSONWriter(capacity: 24)
    w.decimal(v)
    return w.text
}

/// `2 h 05 min`, `45 min`, `0 min` from minutes.
func hoursMinutes(_ minutes: Double) -> String {
    let total = Int(saturating: minutes.rounded())
    return total < 60 ? "\(total) min" : "\(total / 60) h \(total % 60 < 10 ? "0" : "")\(total % 60) min"
}

/// "2.0", "0.3": a rate to one decimal, always with it.
func oneDecimal(_ v: Double) -> String {
    let tenths = Int(saturating: (v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// "+1 h 05 min ↑", "−20 min ↓", "±0 min".
func signedDuration(_ minutes: Double) -> String {
    let rounded = minutes.rounded()
    if rounded == 0 { return "±0 min" }
    return (rounded > 0 ? "+" : "−") + hoursMinutes(abs(rounded)) + (rounded > 0 ? " ↑" : " ↓")
}

func percent(_ v: Double?) -> String { v.map { "\(Int(saturating: ($0 * 100).rounded()))%" } ?? "–" }

func seconds(_ v: Double?) -> String { v.map { humanDuration($0) } ?? "–" }

func hourLabel(_ h: Int?) -> String { h.map { ($0 < 10 ? "0" : "") + "\($0):00" } ?? "–" }

func weekdayLabel(_ w: Int?) -> String { w.map { Statistics.weekdayNames[$0 - 1] } ?? "–" }

/// Why the highlights name no worst hour though they name a best one.
func noWorstHour(_ h: Report.Highlights) -> String {
    h.hoursWithEnoughData < 2
        ? "no other hour has \(h.minimumJudgedMinutes) min of judged time to compare"
        : "no worst: the \(h.hoursWithEnoughData) hours with enough judged time focused alike"
}

/// A device as a person reads it: "" is the log's own sessions from before devices had names.
func deviceLabel(_ name: String) -> String { name.isEmpty ? "(unnamed)" : name }

/// What every human format says under its figures by device.
let devicesCountedOnce = "Each device's own time: overlapping time is counted once in the totals."

/// The lines every human format shares: the summary in words.
struct Summary {
    let r: Report

    /// "1 h 05 min when two or more sessions ran at once, counted once".
    func overlapLine(_ minutes: Double) -> String {
        "\(hoursMinutes(minutes)) when two or more sessions ran at once, counted once"
    }

    /// "live 12 · tracked, not judged: imported 40, added 2 · left out: replay 3 (--source all counts them)".
    func sourcesLine(_ s: Report.SourceFigures) -> String {
        let counted = s.sessions.filter(\.counted).map { "\($0.source) \($0.sessions)" }
        let tracked = s.sessions.filter(\.tracked).map { "\($0.source) \($0.sessions)" }
        let left = s.sessions.filter { !$0.counted && !$0.tracked }.map { "\($0.source) \($0.sessions)" }
        var line =
            counted.isEmpty ? "no \(s.counted.isEmpty ? "judged" : s.counted.joined(separator: " or ")) session" : counted.joined(separator: " · ")
        if !tracked.isEmpty { line += " · tracked, not judged: " + tracked.joined(separator: ", ") }
        if !left.isEmpty { line += " · left out: " + left.joined(separator: ", ") + " (--source all counts them)" }
        return line
    }

    /// "2 h 15 min in 2 sessions nobody judged (imported, added): never focused time", or nil
    /// without tracked time.
    var trackedLine: String? {
        let t = r.totals
        guard t.trackedSessions > 0 || t.trackedMinutes > 0 else { return nil }
        let sources = r.sources.map { $0.tracked.isEmpty ? "" : " (\($0.tracked.joined(separator: ", ")))" } ?? ""
        return "\(hoursMinutes(t.trackedMinutes)) in \(t.trackedSessions) session\(t.trackedSessions == 1 ? "" : "s") nobody judged\(sources): "
            + "never counted as focused"
    }

    /// "best 16:00 (96% focused, 5 h judged) · worst 09:00 (61% …) · most procrastination at 09:00
    /// (2.1 episodes per judged hour)", or why none can be named.
    var hoursLine: String {
        let h = r.highlights
        let minimum = "\(h.minimumJudgedMinutes) min"
        guard let best = h.mostProductiveHour else {
            let most = r.hours.map(\.rates.judgedMinutes).max() ?? 0
            return "too little data to name the best hour: an hour of the day needs \(minimum) of judged time in the period "
                + "(the most any has is \(hoursMinutes(most)))"
        }
        func rated(_ hour: Int) -> String {
            let rates = r.hours[hour].rates
            return "\(hourLabel(hour)) (\(percent(rates.focusShare)) focused over \(hoursMinutes(rates.judgedMinutes)))"
        }
        var line = "best \(rated(best))"
        if let worst = h.leastProductiveHour {
            line += " · worst \(rated(worst))"
        } else {
            line += " · " + noWorstHour(h)
        }
        if let p = h.mostProcrastinatedHour, let rate = r.hours[p].rates.episodesPerJudgedHour {
            line += " · most procrastination at \(hourLabel(p)) (\(oneDecimal(rate)) episodes per judged hour)"
        }
        return line
    }

    var weekdaysLine: String {
        let h = r.highlights
        guard let best = h.mostProductiveWeekday else {
            return "too little data to name the best weekday: a weekday needs \(h.minimumJudgedMinutes) min of judged time in the period"
        }
        func rated(_ w: Int) -> String { "\(weekdayLabel(w)) (\(percent(r.weekdays[w - 1].rates.focusShare)) focused)" }
        return "best \(rated(best))" + (h.leastProductiveWeekday.map { " · worst \(rated($0))" } ?? "")
    }

    /// The headline figures against the previous period of the same length; nil for all history.
    var trendLine: String? {
        guard let p = r.previous else { return nil }
        let span = p.from == p.to ? p.from : "\(p.from) to \(p.to)"
        guard p.sessions > 0 || p.activeMinutes > 0 else { return "no sessions in the period before (\(span)) to compare with" }
        let t = r.totals
        var parts = ["focused \(signedDuration(t.focusedMinutes - p.focusedMinutes))"]
        if let now = t.focusShare, let then = p.focusShare {
            parts.append("focus share \(percent(then)) → \(percent(now))")
        }
        parts.append("episodes \(p.episodes) → \(r.episodes.count)")
        parts.append("sessions \(p.sessions) → \(t.sessions)")
        if let now = r.procrastinationFree.share, let then = p.procrastinationFreeShare {
            parts.append("free days \(percent(then)) → \(percent(now))")
        }
        if let then = p.mostProductiveHour, let now = r.highlights.mostProductiveHour, then != now {
            parts.append("best hour \(hourLabel(then)) → \(hourLabel(now))")
        }
        return "with \(span): " + parts.joined(separator: " · ")
    }

    var lines: [(String, String)] {
        let t = r.totals
        var out: [(String, String)] = []
        var sessions = "\(t.sessions) session\(t.sessions == 1 ? "" : "s")"
        if t.sessions > 0 {
            sessions += " (\(t.completed) completed, \(percent(t.completionRate))"
            if t.abandoned > 0 { sessions += "; \(t.abandoned) ended early" }
            if t.interrupted > 0 { sessions += "; \(t.interrupted) interrupted" }
            if t.open > 0 { sessions += "; \(t.open) never closed" }
            sessions += ")"
        }
        out.append(("Focus", "\(hoursMinutes(t.focusedMinutes)) focused · \(hoursMinutes(t.distractedMinutes)) distracted · \(sessions)"))
        if let tracked = trackedLine { out.append(("Tracked", tracked)) }
        if let s = r.sources { out.append(("Sources", sourcesLine(s))) }
        if let overlap = t.overlapMinutes { out.append(("Overlap", overlapLine(overlap))) }
        let e = r.episodes
        var episodes = "\(e.count) episode\(e.count == 1 ? "" : "s")"
        if e.count > 0 {
            episodes += " (average \(seconds(e.meanS)), longest \(seconds(e.longestS)))"
            let causes = e.byCause.filter { $0.count > 0 }.sorted { $0.count > $1.count }.map { "\(causeLabel($0.key)) \($0.count)" }
            episodes += " · " + causes.joined(separator: " · ")
        }
        out.append(("Episodes", episodes))
        var alarms = "\(t.alarms)"
        if let rate = t.alarmsPerFocusedHour { alarms += " · \(number((rate * 100).rounded() / 100)) per focused hour" }
        if t.recovery.count > 0 {
            alarms += " · back \(seconds(t.recovery.meanS)) after the first alarm on average (median \(seconds(t.recovery.medianS)))"
        }
        out.append(("Alarms", alarms))
        if let trend = trendLine { out.append(("Compared", trend)) }
        if t.activeMinutes > 0 {
            out.append(("Hours", hoursLine))
            out.append(("Weekdays", weekdaysLine))
        }
        let f = r.procrastinationFree
        var free = "\(f.freeDays) of \(f.daysWithSessions) session days (\(percent(f.share)))"
        if f.longestStreak > 0, let a = f.longestStreakFrom, let b = f.longestStreakTo {
            free += " · longest run \(f.longestStreak) day\(f.longestStreak == 1 ? "" : "s") (\(a == b ? a : "\(a) to \(b)"))"
        }
        out.append(("Free days", free))
        let s = r.streak
        let badge = StreakModel.Badge(rawValue: s.badge)?.title ?? s.badge
        let current = s.current == 0 ? "no current streak" : "\(s.current) day\(s.current == 1 ? "" : "s") (\(badge), x\(s.multiplier))"
        var streakLine = "\(current) · score \(s.score) (best \(s.bestScore)) · best streak \(s.best) day\(s.best == 1 ? "" : "s")"
        if let today = s.todaySoFarFree {
            streakLine += today ? " · today so far: procrastination-free" : " · today so far: not procrastination-free"
        }
        out.append(("Streak", streakLine))
        out.append(("", s.messages.joined(separator: " · ")))
        return out
    }
}

/// "5 h 12 min in front, 14 times · work", and for a distracting application the episodes it
/// caused.
func applicationLine(_ app: Report.ApplicationFigures.AppFigure) -> String {
    var line = "\(hoursMinutes(app.minutes)) in front, \(app.stretches) time\(app.stretches == 1 ? "" : "s") · \(app.category)"
    if app.episodes > 0 || app.category == AppCategory.distracting.rawValue {
        line += " · \(app.episodes) episode\(app.episodes == 1 ? "" : "s")"
    }
    return line
}

extension Report.ApplicationFigures {
    /// The applications the text and HTML reports list; the JSON, CSV and Markdown list them all.
    static let mostShown = 12

    /// What the lists leave out, in words; nil when they show every application.
    var rest: String? {
        guard apps.count > Self.mostShown else { return nil }
        let rest = apps.dropFirst(Self.mostShown)
        let minutes = rest.reduce(0) { $0 + $1.minutes }
        return "And \(rest.count) more: \(hoursMinutes(minutes)) in front together (--format json or csv --table apps lists them all)."
    }
}

/// A cause as a person reads it; a cause from the log that Vigil has no word for (a plug-in
/// signal's) as it is, made safe for a terminal.
func causeLabel(_ raw: String) -> String {
    switch raw {
    case "away": "away/idle"
    case "switching": "app switching"
    case "app": "distracting app"
    default: raw.terminalSafe
    }
}

/// The report for a terminal: the summary in words, wrapped to the terminal's width, then every hour
/// of the day and every weekday with how much and how well the person focused, the weekday × hour
/// map of focus share, the weekly profile, tasks, applications and achievements.
struct TextReport {
    let report: Report
    let color: Bool
    /// Columns to fit (80 when not a terminal); never fewer than 60.
    let width: Int

    init(report: Report, color: Bool, width: Int = 80) {
        self.report = report
        self.color = color
        self.width = max(60, width)
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
    func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }

    func render() -> String {
        let r = report
        var out = ""
        let task = (r.task.map { " · task \"\($0.terminalSafe)\"" } ?? "") + (r.tag.map { " · tag \"\($0.terminalSafe)\"" } ?? "")
        for line in wordWrap("Vigil report · \(r.periodTitle) · \(r.timeZone.terminalSafe)\(task)", width: width, indent: 0) {
            out += bold(line) + "\n"
        }
        out += "\n"
        for (k, v) in Summary(r: r).lines {
            let lines = wordWrap(v, width: width - 12, indent: 0)
            for (i, line) in lines.enumerated() {
                out += (i == 0 ? k.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " : String(repeating: " ", count: 12)) + line + "\n"
            }
        }
        if r.totals.activeMinutes > 0 {
            out +=
                "\n"
                + profile(
                    title: "By hour of day",
                    rows: r.hours.map {
                        (hourLabel($0.hour).prefix(2) + "   ", $0.focusedMinutes, $0.distractedMinutes, $0.rates, marks(hour: $0.hour))
                    })
            out +=
                "\n"
                + profile(
                    title: "By weekday",
                    rows: r.weekdays.map {
                        (String($0.name.prefix(3)) + "  ", $0.focusedMinutes, $0.distractedMinutes, $0.rates, marks(weekday: $0.weekday))
                    })
            out += "\n" + heatmap()
            if r.weeks.count > 1 { out += "\n" + weeklyProfile() }
        }
        if !r.tasks.isEmpty {
            out += "\n" + bold("By task") + "\n"
            out += labelledRows(
                r.tasks.map { t in
                    (
                        t.task.isEmpty ? "(no task)" : t.task.terminalSafe,
                        "\(hoursMinutes(t.focusedMinutes)) focused · \(percent(t.focusShare)) · \(t.sessions) session\(t.sessions == 1 ? "" : "s") · \(t.episodes) episode\(t.episodes == 1 ? "" : "s")"
                    )
                }, width: width)
        }
        if let devices = r.devices, !devices.isEmpty {
            out += "\n" + bold("By device") + "\n"
            for line in wordWrap(devicesCountedOnce, width: width - 2, indent: 0) { out += "  " + line + "\n" }
            out += labelledRows(
                devices.map { d in
                    (
                        deviceLabel(d.device).terminalSafe,
                        "\(hoursMinutes(d.focusedMinutes)) focused · \(hoursMinutes(d.distractedMinutes)) distracted · \(d.sessions) session\(d.sessions == 1 ? "" : "s") · \(d.episodes) episode\(d.episodes == 1 ? "" : "s")"
                    )
                }, width: width)
        }
        if let a = r.applications {
            out += "\n" + bold("Applications") + "\n"
            var text =
                "work \(hoursMinutes(a.workMinutes)) · neutral \(hoursMinutes(a.neutralMinutes)) · distracting \(hoursMinutes(a.distractingMinutes))"
            if !a.mostDistracting.isEmpty {
                text +=
                    " · most distracting: "
                    + a.mostDistracting.map { "\($0.appClass.terminalSafe) \(hoursMinutes($0.minutes))" }.joined(separator: ", ")
            }
            if a.calls > 0 { text += " · calls: \(a.calls), \(hoursMinutes(a.callMinutes))" }
            for line in wordWrap(text, width: width - 2, indent: 0) { out += "  " + line + "\n" }
            if !a.apps.isEmpty {
                out += "\n" + bold("By application") + "\n"
                let shown = a.apps.prefix(Report.ApplicationFigures.mostShown)
                out += labelledRows(shown.map { ($0.appClass.terminalSafe, applicationLine($0)) }, width: width)
                if let rest = a.rest { for line in wordWrap(rest, width: width - 2, indent: 0) { out += "  " + line + "\n" } }
            }
        }
        if !r.achievements.isEmpty {
            let note = r.to.map { "Achievements (all time up to \($0); * earned in this period)" } ?? "Achievements"
            out += "\n" + wordWrap(note, width: width, indent: 2).map(bold).joined(separator: "\n") + "\n"
            for a in r.achievements {
                for (i, line) in wordWrap(a.title, width: width - 16, indent: 0).enumerated() {
                    out += (i == 0 ? "  \(a.earned)\(a.inPeriod ? "*" : " ") " : String(repeating: " ", count: 15)) + line + "\n"
                }
            }
        }
        return out
    }

    /// What the highlights say of an hour or weekday, to mark its row.
    func marks(hour: Int) -> String {
        let h = report.highlights
        var out: [String] = []
        if h.mostProductiveHour == hour { out.append("best") }
        if h.leastProductiveHour == hour { out.append("worst") }
        if h.mostProcrastinatedHour == hour { out.append("drifts most") }
        return out.joined(separator: ", ")
    }

    func marks(weekday: Int) -> String {
        let h = report.highlights
        return h.mostProductiveWeekday == weekday ? "best" : h.leastProductiveWeekday == weekday ? "worst" : ""
    }

    /// One row per hour (weekday): a bar of focused then distracted minutes, scaled to the busiest
    /// row, then the focus share and episodes per judged hour; rows with too little judged time to
    /// be ranked are starred. Every row is shown, empty ones too.
    func profile(title: String, rows: [(label: String, focused: Double, distracted: Double, rates: Report.Rates, marks: String)]) -> String {
        let labelWidth = rows.first?.label.count ?? 5
        let markWidth = rows.map(\.marks.count).max() ?? 0
        // label, bar, " 100%*", " 12.5/h", " mark"
        let barWidth = max(10, width - labelWidth - 1 - 6 - 8 - (markWidth > 0 ? markWidth + 1 : 0))
        let top = rows.map { $0.focused + $0.distracted }.max() ?? 0
        var out = bold(title) + "\n"
        let head = "focused █ · distracted ░"
        out += String(repeating: " ", count: labelWidth + 1) + head.padding(toLength: barWidth, withPad: " ", startingAt: 0) + " focus" + "  ep/h\n"
        for row in rows {
            let total = row.focused + row.distracted
            var bar = ""
            if top > 0, total > 0 {
                let all = max(1, Int(saturating: (total / top * Double(barWidth)).rounded()))
                let focused = min(all, Int(saturating: (row.focused / top * Double(barWidth)).rounded()))
                bar = green(String(repeating: "█", count: focused)) + yellow(String(repeating: "░", count: all - focused))
                bar += String(repeating: " ", count: barWidth - all)
            } else {
                bar = "·" + String(repeating: " ", count: barWidth - 1)
            }
            let share = row.rates.focusShare.map { percent($0) } ?? "–"
            let star = row.rates.focusShare != nil && !row.rates.enoughData ? "*" : " "
            let rate = row.rates.episodesPerJudgedHour.map(oneDecimal) ?? "–"
            out += row.label + " " + bar + " " + leftPad(share, 4) + star + " " + leftPad(rate, 5)
            out += (row.marks.isEmpty ? "" : "  " + row.marks) + "\n"
        }
        for line in wordWrap(
            "focus: focused share of judged time; ep/h: episodes started per judged hour; * under \(report.highlights.minimumJudgedMinutes) "
                + "judged minutes: shown, not ranked; · nothing judged.", width: width - 2, indent: 0)
        {
            out += "  " + line + "\n"
        }
        return out
    }

    /// Focus share by weekday × hour: two columns per hour when the terminal is wide enough.
    func heatmap() -> String {
        let cell = width >= 5 + 48 ? 2 : 1
        var out = bold("Focus share, weekday × hour") + "\n"
        var axis = [Character](repeating: " ", count: 24 * cell)
        for h in stride(from: 0, to: 24, by: cell == 2 ? 3 : 6) {
            for (k, c) in String(h).enumerated() where h * cell + k < axis.count { axis[h * cell + k] = c }
        }
        out += "     " + String(axis) + "\n"
        for (i, row) in report.heatmapFocusShare.enumerated() {
            out += " \(Statistics.weekdayNames[i].prefix(3)) " + green(String(row.flatMap { Array(repeating: shade($0), count: cell) })) + "\n"
        }
        for line in wrap(items: Self.legend, width: width - 2) { out += "  " + line + "\n" }
        return out
    }

    /// Each week's focus share by hour of the day, with its share and best hour: how the good hours move.
    func weeklyProfile() -> String {
        var out = bold("Week by week: focus share by hour") + "\n"
        let showStrip = width >= 9 + 24 + 30
        for w in report.weeks {
            var line = w.week + " "
            if showStrip { line += green(String(w.hourFocusShare.map(shade))) + " " }
            line += leftPad(percent(w.focusShare), 4) + " " + leftPad(hoursMinutes(w.focusedMinutes), 12)
            if let best = w.mostProductiveHour { line += " · best \(hourLabel(best))" }
            out += line + "\n"
        }
        for line in wrap(items: Self.legend, width: width - 2) { out += "  " + line + "\n" }
        return out
    }

    static let legend = ["· nothing judged", "░ under 50%", "▒ 50-74%", "▓ 75-89%", "█ 90% or more focused"]

    func shade(_ share: Double?) -> Character {
        guard let share else { return "·" }
        return share < 0.5 ? "░" : share < 0.75 ? "▒" : share < 0.9 ? "▓" : "█"
    }

    func leftPad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
}

/// Items (legend entries) two spaces apart in lines of at most `width` characters, never split.
func wrap(items: [String], width: Int) -> [String] {
    var lines: [String] = []
    for item in items {
        if let last = lines.last, last.count + 2 + item.count <= width {
            lines[lines.count - 1] = last + "  " + item
        } else {
            lines.append(item)
        }
    }
    return lines
}

struct MarkdownReport {
    let report: Report

    func render() -> String {
        let r = report
        var out =
            "# Vigil report: \(r.periodTitle)\n\nTime zone: \(escape(r.timeZone))\(r.task.map { " · task: \(escape($0))" } ?? "")\(r.tag.map { " · tag: \(escape($0))" } ?? "")\n\n"
        out += "| | |\n|---|---|\n"
        for (k, v) in Summary(r: r).lines where !v.isEmpty { out += "| \(k) | \(escape(v)) |\n" }
        let header = "| Focused min | Distracted min | Focus share | Episodes | Episodes per judged hour | |\n"
        let rule = "|---:|---:|---:|---:|---:|---|\n"
        func rates(_ f: Double, _ d: Double, _ e: Int, _ rates: Report.Rates, _ mark: String) -> String {
            let share = rates.focusShare.map { percent($0) + (rates.enoughData ? "" : "*") } ?? "–"
            return "| \(number(f)) | \(number(d)) | \(share) | \(e) | \(rates.episodesPerJudgedHour.map(oneDecimal) ?? "–") | \(mark) |\n"
        }
        let h = r.highlights
        out += "\n## Focus by hour of day\n\n| Hour " + header + "|---:" + rule
        for x in r.hours {
            let mark = [
                h.mostProductiveHour == x.hour ? "most productive" : nil, h.leastProductiveHour == x.hour ? "least productive" : nil,
                h.mostProcrastinatedHour == x.hour ? "most procrastinated" : nil,
            ].compactMap { $0 }.joined(separator: ", ")
            out += "| \(hourLabel(x.hour)) " + rates(x.focusedMinutes, x.distractedMinutes, x.episodes, x.rates, mark)
        }
        out += "\n\\* fewer than \(h.minimumJudgedMinutes) judged minutes: shown, not ranked.\n"
        out += "\n## Focus by weekday\n\n| Weekday " + header + "|---" + rule
        for w in r.weekdays {
            let mark = h.mostProductiveWeekday == w.weekday ? "most productive" : h.leastProductiveWeekday == w.weekday ? "least productive" : ""
            out += "| \(w.name) " + rates(w.focusedMinutes, w.distractedMinutes, w.episodes, w.rates, mark)
        }
        out += "\n## Episodes by cause\n\n| Cause | Episodes | Minutes | Average | Longest |\n|---|---:|---:|---:|---:|\n"
        for c in r.episodes.byCause {
            out += "| \(escape(causeLabel(c.key))) | \(c.count) | \(number(c.minutes)) | \(seconds(c.meanS)) | \(seconds(c.longestS)) |\n"
        }
        if !r.episodes.byTask.isEmpty {
            out += "\n## Episodes by task\n\n| Task | Episodes | Minutes |\n|---|---:|---:|\n"
            for t in r.episodes.byTask { out += "| \(t.key.isEmpty ? "(no task)" : escape(t.key)) | \(t.count) | \(number(t.minutes)) |\n" }
        }
        if !r.tasks.isEmpty {
            out += "\n## By task\n\n| Task | Sessions | Focused | Distracted | Focus share | Episodes |\n|---|---:|---:|---:|---:|---:|\n"
            for t in r.tasks {
                out += "| \(t.task.isEmpty ? "(no task)" : escape(t.task)) | \(t.sessions) | \(hoursMinutes(t.focusedMinutes)) | "
                out += "\(hoursMinutes(t.distractedMinutes)) | \(percent(t.focusShare)) | \(t.episodes) |\n"
            }
        }
        if let devices = r.devices, !devices.isEmpty {
            out += "\n## By device\n\n\(devicesCountedOnce)\n\n"
            out += "| Device | Sessions | Focused | Distracted | Episodes |\n|---|---:|---:|---:|---:|\n"
            for d in devices {
                out += "| \(escape(deviceLabel(d.device))) | \(d.sessions) | \(hoursMinutes(d.focusedMinutes)) | "
                out += "\(hoursMinutes(d.distractedMinutes)) | \(d.episodes) |\n"
            }
        }
        out += "\n## Weeks\n\n| Week | Focused | Distracted | Focus share | Best hour | Sessions | Episodes |\n|---|---:|---:|---:|---:|---:|---:|\n"
        for w in r.weeks {
            out += "| \(w.week) | \(hoursMinutes(w.focusedMinutes)) | \(hoursMinutes(w.distractedMinutes)) | \(percent(w.focusShare)) | "
            out += "\(hourLabel(w.mostProductiveHour)) | \(w.sessions) | \(w.episodes) |\n"
        }
        if let a = r.applications {
            out += "\n## Applications\n\n| Category | Time |\n|---|---:|\n"
            out += "| work | \(hoursMinutes(a.workMinutes)) |\n| neutral | \(hoursMinutes(a.neutralMinutes)) |\n"
            out += "| distracting | \(hoursMinutes(a.distractingMinutes)) |\n| calls (\(a.calls)) | \(hoursMinutes(a.callMinutes)) |\n"
            if !a.mostDistracting.isEmpty {
                out +=
                    "\nMost distracting: " + a.mostDistracting.map { "\(escape($0.appClass)) \(hoursMinutes($0.minutes))" }.joined(separator: ", ")
                    + "\n"
            }
            if !a.apps.isEmpty {
                out += "\n## By application\n\n| Application | Category | In front | Times | Episodes caused |\n|---|---|---:|---:|---:|\n"
                for app in a.apps {
                    out += "| \(escape(app.appClass)) | \(app.category) | \(hoursMinutes(app.minutes)) | \(app.stretches) | \(app.episodes) |\n"
                }
            }
        }
        if !r.achievements.isEmpty {
            out += "\n## Achievements\n\nAll time up to \(r.to ?? "now"); **new** ones were earned in this period.\n\n"
            for a in r.achievements { out += "- \(a.earned): \(a.title)\(a.inPeriod ? " **new**" : "")\n" }
        }
        return out
    }

    func escape(_ s: String) -> String { Self.escape(s) }

    /// A name from the log (a task, an application) as literal text in a table cell or a line:
    /// controls as visible escapes (`terminalSafe`: the report may be printed to a terminal, and a
    /// newline would end the table row); `&`, `<` and `>` as entities, since Markdown passes raw
    /// HTML through; and a backslash before the punctuation that would start a cell, code,
    /// emphasis, a link or a heading, or strike text through.
    static func escape(_ s: String) -> String {
        escaped(s, changing: "\\|`*_[]#~&<>") { c in "\\|`*_[]#~".contains(c) ? "\\" + String(c) : markupEntity(c) }
    }
}

/// Text from outside Vigil for a report that is markup (HTML, Markdown): made safe for a terminal
/// first (`terminalSafe`), then each character as `replacement` writes it (nil: as it is).
/// `changing`: the ASCII characters `replacement` writes otherwise.
///
/// Most text has none of them and no control: it is returned as it is, found so from its bytes
/// (a report's page escapes thousands of chart titles). Only a character that is one of
/// `changing` can be written otherwise: with none of their bytes in the text, that can still be a
/// character of one other scalar that Unicode holds to be the same (U+1FEF is a backtick), so
/// each scalar beyond ASCII is compared as a character.
func escaped(_ s: String, changing: StaticString, _ replacement: (Character) -> String?) -> String {
    var beyondASCII = false
    let plain = changing.withUTF8Buffer { changed in
        s.utf8.allSatisfy { b in
            if b >= 0x80 {
                beyondASCII = true
                return true
            }
            return b >= 0x20 && b != 0x7F && !changed.contains(b)
        }
    }
    if plain, !beyondASCII { return s }
    if plain {
        let changedCharacters = "\(changing)"
        let unchanged = s.unicodeScalars.allSatisfy { u in
            u.isASCII || (!u.isTerminalControl && !changedCharacters.contains(Character(u)))
        }
        if unchanged { return s }
    }
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.terminalSafe {
        if let r = replacement(c) { out += r } else { out.append(c) }
    }
    return out
}

/// `&`, `<` and `>` as the entities both HTML and Markdown read as those characters; nil for any
/// other character.
func markupEntity(_ c: Character) -> String? {
    switch c {
    case "&": "&amp;"
    case "<": "&lt;"
    case ">": "&gt;"
    default: nil
    }
}

/// Rows of a name (cut to 24 columns, padded to the longest) and its figures, wrapped under
/// themselves: "By task", "By device". Measured in terminal columns, so a task named in Chinese
/// lines up with one named in English.
func labelledRows(_ rows: [(name: String, text: String)], width: Int) -> String {
    let name = min(24, max(8, rows.map(\.name.displayWidth).max() ?? 8))
    var out = ""
    for row in rows {
        let label = row.name.truncated(toWidth: name).padded(toWidth: name)
        for (i, line) in wordWrap(row.text, width: width - name - 4, indent: 0).enumerated() {
            out += "  " + (i == 0 ? label : String(repeating: " ", count: name)) + "  " + line + "\n"
        }
    }
    return out
}
