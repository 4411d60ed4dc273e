import DisplayWidth
import Foundation
import VigilCore
import VigilStats

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

    /// Does acting help (issue 36)? How soon the person was back after an action, beside after an
    /// alarm alone; nil when no action was taken in the period.
    var actingLine: String? {
        let (acted, alone) = (r.totals.recoveryAfterAction, r.totals.recoveryAfterAlarmAlone)
        guard acted.count > 0 else { return nil }
        var line = "back \(seconds(acted.medianS)) after an action (median of \(acted.count) episode\(acted.count == 1 ? "" : "s"))"
        if alone.count > 0 {
            line += " · \(seconds(alone.medianS)) after an alarm alone (median of \(alone.count))"
        }
        return line
    }

    /// What the person meant to do and what became of it, with the focus of each; nil when no
    /// session of the period had an intention.
    var intentionsLine: String? {
        guard let i = r.intentions else { return nil }
        var line = "\(i.done) of \(i.sessions) done"
        if i.partly > 0 { line += ", \(i.partly) partly" }
        if i.notDone > 0 { line += ", \(i.notDone) not" }
        if i.unanswered > 0 { line += ", \(i.unanswered) unanswered" }
        if let done = i.focusShareDone { line += " · \(percent(done)) focused when done" }
        if let not = i.focusShareNotDone { line += " · \(percent(not)) when partly or not" }
        return line
    }

    /// The episodes the person said were no distraction, and where their time went; nil when none.
    var relabelledLine: String? {
        guard let l = r.relabelled else { return nil }
        let parts = l.labels.map { "\(EpisodeLabel(rawValue: $0.label)?.words ?? $0.label) \($0.episodes) (\(hoursMinutes($0.minutes)))" }
        var line = "\(hoursMinutes(l.minutes)) you said was no distraction: " + parts.joined(separator: " · ")
        if !l.falseAlarms.isEmpty {
            let weeks = l.falseAlarms.map {
                "\($0.week) \($0.falseAlarms)" + ($0.rulesLearned > 0 ? " (\($0.rulesLearned) rule\($0.rulesLearned == 1 ? "" : "s") learned)" : "")
            }
            line += " · false alarms by week: " + weeks.joined(separator: ", ")
        }
        return line
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
        if let acting = actingLine { out.append(("Acting", acting)) }
        if let intentions = intentionsLine { out.append(("Intentions", intentions)) }
        if let relabelled = relabelledLine { out.append(("Your word", relabelled)) }
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
