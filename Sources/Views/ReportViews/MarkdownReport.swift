import DisplayWidth
import Foundation
import VigilCore
import VigilStats

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
        if let d = r.wholeDay { out += d.markdown(escape: escape) }
        if !r.goals.isEmpty {
            out += "\n## Limits and goals\n\n"
            for g in r.goals { out += "- **\(escape(g.name))**: \(escape(g.line))\n" }
        }
        if let b = r.scheduledBlocks { out += "\n## Scheduled focus blocks\n\n\(escape(b.line))\n" }
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
