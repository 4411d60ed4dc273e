import Foundation
import VigilCore

/// The formats `vigil report` writes. Each renders the same `Report` value.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, csv, markdown, html
}

extension Report {
    public func rendered(as format: ReportFormat, color: Bool = false) -> String {
        switch format {
        case .text: TextReport(report: self, color: color).render()
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

    /// One row per local day of the period (docs/report-fields.md). RFC 4180: CRLF line ends.
    public func csv() -> String {
        var out = "date,weekday,sessions,focused_minutes,distracted_minutes,episodes,alarms,procrastination_free\r\n"
        for d in days {
            let free = d.procrastinationFree.map { $0 ? "true" : "false" } ?? ""
            out +=
                "\(d.date),\(d.weekday),\(d.sessions),\(number(d.focusedMinutes)),\(number(d.distractedMinutes)),\(d.episodes),\(d.alarms),\(free)\r\n"
        }
        return out
    }

    var periodTitle: String {
        guard let from, let to else { return "no sessions yet" }
        return from == to ? from : "\(from) to \(to)"
    }
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
    let total = Int(minutes.rounded())
    return total < 60 ? "\(total) min" : "\(total / 60) h \(total % 60 < 10 ? "0" : "")\(total % 60) min"
}

/// "+1 h 05 min ↑", "−20 min ↓", "±0 min".
func signedDuration(_ minutes: Double) -> String {
    let rounded = minutes.rounded()
    if rounded == 0 { return "±0 min" }
    return (rounded > 0 ? "+" : "−") + hoursMinutes(abs(rounded)) + (rounded > 0 ? " ↑" : " ↓")
}

func percent(_ v: Double?) -> String { v.map { "\(Int(($0 * 100).rounded()))%" } ?? "–" }

func seconds(_ v: Double?) -> String { v.map { humanDuration($0) } ?? "–" }

func hourLabel(_ h: Int?) -> String { h.map { ($0 < 10 ? "0" : "") + "\($0):00" } ?? "–" }

func weekdayLabel(_ w: Int?) -> String { w.map { Statistics.weekdayNames[$0 - 1] } ?? "–" }

/// The lines every human format shares: the summary in words.
struct Summary {
    let r: Report

    /// "live 12 · left out: replay 3, rehearsal 1 (--source all counts them)".
    func sourcesLine(_ s: Report.SourceFigures) -> String {
        let counted = s.sessions.filter(\.counted).map { "\($0.source) \($0.sessions)" }
        let left = s.sessions.filter { !$0.counted }.map { "\($0.source) \($0.sessions)" }
        var line = counted.isEmpty ? "no \(s.counted.joined(separator: " or ")) session" : counted.joined(separator: " · ")
        if !left.isEmpty { line += " · left out: " + left.joined(separator: ", ") + " (--source all counts them)" }
        return line
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
            line += " · no other hour has \(minimum) of judged time to compare"
        }
        if let p = h.mostProcrastinatedHour, let rate = r.hours[p].rates.episodesPerJudgedHour {
            line += " · most procrastination at \(hourLabel(p)) (\(number((rate * 10).rounded() / 10)) episodes per judged hour)"
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
        if let s = r.sources { out.append(("Sources", sourcesLine(s))) }
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
        out.append(("Streak", "\(current) · score \(s.score) (best \(s.bestScore)) · best streak \(s.best) day\(s.best == 1 ? "" : "s")"))
        out.append(("", s.messages.joined(separator: " · ")))
        return out
    }
}

func causeLabel(_ raw: String) -> String {
    switch raw {
    case "away": "away/idle"
    case "switching": "app switching"
    default: raw
    }
}

struct TextReport {
    let report: Report
    let color: Bool

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }

    func render() -> String {
        let r = report
        var out = bold("Vigil report · \(r.periodTitle) · \(r.timeZone)\(r.task.map { " · task \"\($0)\"" } ?? "")") + "\n\n"
        for (k, v) in Summary(r: r).lines {
            out += k.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + v + "\n"
        }
        // Hours with judged time only: the night does not take a screenful.
        let active = r.hours.filter { $0.focusedMinutes + $0.distractedMinutes > 0 }
        if !active.isEmpty {
            out += "\n" + bold("Focused minutes by hour of day") + "\n"
            let top = r.hours.map(\.focusedMinutes).max() ?? 0
            for h in active {
                out += " \(hourLabel(h.hour).prefix(2)) \(green(bar(h.focusedMinutes, of: top, width: 40))) \(Int(h.focusedMinutes.rounded()))\n"
            }
            out += "\n" + bold("Focused minutes, weekday × hour") + "  (" + (0..<5).map { String(shades[$0]) }.joined() + " none → most)\n"
            var axis = [Character](repeating: " ", count: 24)
            for h in [0, 6, 12, 18] { for (k, c) in String(h).enumerated() { axis[h + k] = c } }
            out += "     " + String(axis) + "\n"
            let peak = r.heatmap.flatMap { $0 }.max() ?? 0
            for (i, row) in r.heatmap.enumerated() {
                out += " \(Statistics.weekdayNames[i].prefix(3)) " + green(String(row.map { shade($0, of: peak) })) + "\n"
            }
        }
        if let a = r.applications {
            out += "\n" + bold("Applications") + "\n"
            out +=
                "  work \(hoursMinutes(a.workMinutes)) · neutral \(hoursMinutes(a.neutralMinutes)) · distracting \(hoursMinutes(a.distractingMinutes))\n"
            if !a.mostDistracting.isEmpty {
                out += "  most distracting: " + a.mostDistracting.map { "\($0.appClass) \(hoursMinutes($0.minutes))" }.joined(separator: ", ") + "\n"
            }
            if a.calls > 0 { out += "  calls: \(a.calls), \(hoursMinutes(a.callMinutes))\n" }
        }
        if !r.achievements.isEmpty {
            out += "\n" + bold("Achievements") + (r.to.map { " (as of \($0))" } ?? "") + "\n"
            for a in r.achievements { out += "  \(a.earned)  \(a.title)\n" }
        }
        return out
    }

    let shades: [Character] = [" ", "░", "▒", "▓", "█"]
    func shade(_ v: Double, of peak: Double) -> Character {
        guard v > 0, peak > 0 else { return "·" }
        return shades[min(4, 1 + Int(v / peak * 3.999))]
    }

    /// A bar of eighth-blocks.
    func bar(_ v: Double, of top: Double, width: Int) -> String {
        guard top > 0, v > 0 else { return "" }
        let eighths = max(1, Int((v / top * Double(width * 8)).rounded()))
        let parts: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + (eighths % 8 > 0 ? String(parts[eighths % 8 - 1]) : "")
    }
}

struct MarkdownReport {
    let report: Report

    func render() -> String {
        let r = report
        var out = "# Vigil report: \(r.periodTitle)\n\nTime zone: \(r.timeZone)\(r.task.map { " · task: \(escape($0))" } ?? "")\n\n"
        out += "| | |\n|---|---|\n"
        for (k, v) in Summary(r: r).lines where !v.isEmpty { out += "| \(k) | \(escape(v)) |\n" }
        out += "\n## Focus by hour of day\n\n| Hour | Focused min | Distracted min | Episodes |\n|---:|---:|---:|---:|\n"
        for h in r.hours where h.focusedMinutes + h.distractedMinutes > 0 || h.episodes > 0 {
            out += "| \(hourLabel(h.hour)) | \(number(h.focusedMinutes)) | \(number(h.distractedMinutes)) | \(h.episodes) |\n"
        }
        out += "\n## Focus by weekday\n\n| Weekday | Focused min | Distracted min | Episodes |\n|---|---:|---:|---:|\n"
        for w in r.weekdays { out += "| \(w.name) | \(number(w.focusedMinutes)) | \(number(w.distractedMinutes)) | \(w.episodes) |\n" }
        out += "\n## Episodes by cause\n\n| Cause | Episodes | Minutes | Average | Longest |\n|---|---:|---:|---:|---:|\n"
        for c in r.episodes.byCause {
            out += "| \(causeLabel(c.key)) | \(c.count) | \(number(c.minutes)) | \(seconds(c.meanS)) | \(seconds(c.longestS)) |\n"
        }
        if !r.episodes.byTask.isEmpty {
            out += "\n## Episodes by task\n\n| Task | Episodes | Minutes |\n|---|---:|---:|\n"
            for t in r.episodes.byTask { out += "| \(t.key.isEmpty ? "(no task)" : escape(t.key)) | \(t.count) | \(number(t.minutes)) |\n" }
        }
        out += "\n## Weeks\n\n| Week | Focused | Distracted | Sessions | Episodes |\n|---|---:|---:|---:|---:|\n"
        for w in r.weeks {
            out += "| \(w.week) | \(hoursMinutes(w.focusedMinutes)) | \(hoursMinutes(w.distractedMinutes)) | \(w.sessions) | \(w.episodes) |\n"
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
        }
        if !r.achievements.isEmpty {
            out += "\n## Achievements\n\n"
            for a in r.achievements { out += "- \(a.earned): \(a.title)\n" }
        }
        return out
    }

    func escape(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
}
