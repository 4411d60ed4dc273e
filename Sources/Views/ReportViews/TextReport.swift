import DisplayWidth
import Foundation
import VigilCore
import VigilStats

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
        if let d = r.wholeDay { out += d.text(width: width, bold: bold) }
        if !r.goals.isEmpty {
            out += "\n" + bold("Limits and goals") + "\n"
            for g in r.goals { out += g.text(width: width) }
        }
        if let b = r.scheduledBlocks {
            out += "\n" + bold("Scheduled focus blocks") + "\n"
            for line in wordWrap(b.line.terminalSafe, width: width - 2, indent: 0) { out += "  " + line + "\n" }
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
