import DisplayWidth
import VigilCore
import VigilStats

// Limits and goals in every format.

extension Report.GoalFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("name", name)
        w.field("what", what)
        w.field("direction", direction)
        w.field("target_minutes", targetMinutes)
        w.field("per", per)
        w.field("threshold_minutes", thresholdMinutes)
        w.field("periods", periods)
        w.field("met", met)
        w.field("missed", missed)
        w.field("current_run", currentRun)
        w.field("longest_run", longestRun)
    }
}

extension Report.GoalFigures.Period: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("period", period)
        w.field("minutes", minutes)
        w.field("met", met)
    }
}

extension Report.GoalFigures {
    /// "at most 30 min of category distracting a day".
    public var rule: String {
        let unit = per == "week" ? "a week" : per == "weekday" ? "a weekday" : "a day"
        return "\(direction == "at_most" ? "at most" : "at least") \(hoursMinutes(targetMinutes)) of \(what) \(unit)"
    }

    /// "met 12 of 15 days · 5 in a row (best 7), 16 more for 21": the 21/90 ladder of the streaks.
    public var line: String {
        let unit = per == "week" ? "week" : per == "weekday" ? "weekday" : "day"
        let judged = met + missed
        var text = "\(rule): met \(met) of \(judged) \(unit)\(judged == 1 ? "" : "s")"
        if judged > 0 {
            text += " · \(currentRun) in a row (best \(longestRun))"
            if currentRun > 0, per != "week", let next = [21, 90].first(where: { $0 > currentRun }) {
                text += ", \(next - currentRun) more for \(next)"
            }
        }
        if let open = periods.last, open.met == nil { text += " · so far \(hoursMinutes(open.minutes))" }
        return text
    }

    func text(width: Int) -> String {
        var out = ""
        for line in wordWrap(name.terminalSafe + ": " + line, width: width - 2, indent: 2) { out += "  " + line + "\n" }
        return out
    }
}

extension HTMLReport {
    /// Each goal's rule, its tally and run, and its periods as marks: a filled square met, a circle
    /// missed (shape as well as colour, as the streak calendar does), an outline still running.
    func goalsCard(_ goals: [Report.GoalFigures]) -> String {
        var body = ""
        for g in goals {
            body += "<div class=\"goal\"><p class=\"goal-name\"><b>\(escape(g.name))</b> <span class=\"muted\">\(escape(g.rule))</span></p>\n"
            body += "<p class=\"goal-marks\" aria-hidden=\"true\">"
            for p in g.periods.suffix(62) {
                let cls = p.met.map { $0 ? "free" : "procrastinated" } ?? "empty"
                let mark = p.met == false ? dot(cls) : swatch(cls)
                body +=
                    "<span title=\"\(escape("\(p.period): \(hoursMinutes(p.minutes))\(p.met.map { $0 ? ", met" : ", missed" } ?? "")"))\">\(mark)</span>"
            }
            body += "</p>\n"
            body += note(g.line.prefix(1).uppercased() + g.line.dropFirst() + ".") + "</div>\n"
        }
        return card(
            "goals", "Limits and goals", about: "From goals: in the config, each day, weekday or week of the period met or missed.", body: body)
    }
}

// Scheduled focus blocks in every format.

extension Report.BlockFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("scheduled", scheduled)
        w.field("started", started)
        w.field("missed", missed)
        w.field("median_late_minutes", medianLateMinutes)
        w.field("blocks", blocks)
    }
}

extension Report.BlockFigures.Block: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("time", time)
        w.field("subject", subject)
        w.field("minutes", minutes)
        w.field("late_minutes", lateMinutes)
    }
}

extension Report.BlockFigures {
    /// "7 of 10 started, 3 never; started 12 min late (median) · missed: thesis 2026-11-03 14:00, …"
    public var line: String {
        var text = "\(started) of \(scheduled) started, \(missed) never"
        if let late = medianLateMinutes { text += "; started \(hoursMinutes(late)) late (median)" }
        let missedOnes = blocks.filter { $0.lateMinutes == nil }.suffix(5).map { "\($0.subject) \($0.date) \($0.time)" }
        if !missedOnes.isEmpty { text += " · missed: " + missedOnes.joined(separator: ", ") }
        return text
    }
}

extension HTMLReport {
    /// The blocks as a table: when, what, and how late it was started (or that it never was).
    func blocksCard(_ b: Report.BlockFigures) -> String {
        var body = note(b.line.prefix(1).uppercased() + b.line.dropFirst() + ".")
        body += "<table class=\"apps\">\n<thead><tr><th scope=\"col\">Block</th><th scope=\"col\" class=\"num\">Started</th></tr></thead>\n<tbody>\n"
        for block in b.blocks.suffix(Report.ApplicationFigures.mostShown) {
            let started = block.lateMinutes.map { $0 == 0 ? "on time" : "\(hoursMinutes($0)) late" } ?? "never"
            body +=
                "<tr><th scope=\"row\">\(escape(block.subject))<span class=\"category\">\(escape("\(block.date) \(block.time), \(hoursMinutes(block.minutes))"))</span></th>"
            body += "<td class=\"num\">\(escape(started))</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        return card(
            "blocks", "Scheduled focus blocks",
            about: "Events in your calendars that name a task or tag (\"focus: thesis\"), and whether a session for it began in time.",
            body: body)
    }
}
