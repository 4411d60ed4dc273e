import DisplayWidth
import VigilCore
import VigilStats

// The whole day (the all-day watch's time beside the sessions') in every format.

extension Report.WholeDayFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("outside", outside)
        w.field("session_minutes", sessionMinutes)
        w.field("apps", apps)
        w.field("days", days)
        w.field("timeline", timeline)
    }
}

extension Report.WholeDayFigures.Outside: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("work_minutes", workMinutes)
        w.field("neutral_minutes", neutralMinutes)
        w.field("distracting_minutes", distractingMinutes)
        w.field("no_window_minutes", noWindowMinutes)
        w.field("away_minutes", awayMinutes)
        w.field("locked_minutes", lockedMinutes)
        w.field("asleep_minutes", asleepMinutes)
    }
}

extension Report.WholeDayFigures.App: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("category", category)
        w.field("session_minutes", sessionMinutes)
        w.field("outside_minutes", outsideMinutes)
    }
}

extension Report.WholeDayFigures.Day: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("session_minutes", sessionMinutes)
        w.field("outside", outside)
    }
}

extension Report.WholeDayFigures.Timeline: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("sessions", sessions)
        w.field("episodes", episodes)
        w.field("apps", apps)
        w.field("away", away)
    }
}

extension Report.WholeDayFigures.Timeline.Span: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("start_minute", startMinute)
        w.field("end_minute", endMinute)
        w.field("kind", kind)
        w.field("label", label)
    }
}

extension Report.WholeDayFigures {
    /// "work 2 h 10 · neutral 35 min · distracting 50 min · away 1 h 5 · locked 20 min · asleep 7 h":
    /// the parts with time, in that order.
    public var outsideLine: String {
        let o = outside
        let parts = [
            ("work", o.workMinutes), ("neutral", o.neutralMinutes), ("distracting", o.distractingMinutes), ("no window", o.noWindowMinutes),
            ("away", o.awayMinutes), ("locked", o.lockedMinutes), ("asleep", o.asleepMinutes),
        ].filter { $0.1 > 0 }
        return parts.isEmpty ? "nothing seen" : parts.map { "\($0.0) \(hoursMinutes($0.1))" }.joined(separator: " · ")
    }

    /// An application's time, with the part in sessions.
    static func appLine(_ a: App) -> String {
        let total = a.sessionMinutes + a.outsideMinutes
        var line = "\(hoursMinutes(total)) (\(a.category))"
        if a.sessionMinutes > 0 && a.outsideMinutes > 0 {
            line += " · \(hoursMinutes(a.sessionMinutes)) in sessions"
        } else if a.outsideMinutes == 0 {
            line += " · all in sessions"
        }
        return line
    }

    /// The text report's section.
    func text(width: Int, bold: (String) -> String) -> String {
        var out = "\n" + bold("The whole day") + "\n"
        let intro = "in sessions \(hoursMinutes(sessionMinutes)) · outside them: \(outsideLine)"
        for line in wordWrap(intro, width: width - 2, indent: 0) { out += "  " + line + "\n" }
        if !apps.isEmpty {
            out += labelledRows(apps.prefix(Report.ApplicationFigures.mostShown).map { ($0.appClass.terminalSafe, Self.appLine($0)) }, width: width)
        }
        return out
    }

    /// The Markdown report's section.
    func markdown(escape: (String) -> String) -> String {
        var out = "\n## The whole day\n\nIn sessions \(hoursMinutes(sessionMinutes)); outside them: \(outsideLine).\n"
        if !apps.isEmpty {
            out += "\n| Application | Category | In sessions | Outside sessions |\n|---|---|---:|---:|\n"
            for a in apps {
                out += "| \(escape(a.appClass)) | \(a.category) | \(hoursMinutes(a.sessionMinutes)) | \(hoursMinutes(a.outsideMinutes)) |\n"
            }
        }
        return out
    }
}

extension HTMLReport {
    /// The day as ActivityWatch's timeline draws one: a lane each for sessions, episodes, the
    /// application in front (coloured by category) and away, locked or asleep, over 24 hours.
    /// Lanes are HTML boxes placed in percent, so the day fits any width and the labels stay
    /// readable on a phone; each span says what it was in its title.
    func wholeDayCard(_ d: Report.WholeDayFigures) -> String {
        var body = note("Over the period: in sessions \(hoursMinutes(d.sessionMinutes)); outside them: \(d.outsideLine).")
        if let t = d.timeline {
            body += "<div class=\"timeline\" role=\"img\" aria-label=\"\(escape("The day of \(t.date), hour by hour"))\">\n"
            body += "<p class=\"tl-date\">\(escape(t.date))</p>\n"
            body += timelineLane("Sessions", t.sessions) { _ in ("tl-session", "session") }
            body += timelineLane("Episodes", t.episodes) { s in ("tl-episode", "episode: \(causeLabel(s.kind))") }
            body += timelineLane("Applications", t.apps) { s in ("app-\(s.kind)", "\(s.label ?? "no window") (\(s.kind))") }
            body += timelineLane("Away", t.away) { s in ("tl-\(s.kind)", s.kind) }
            body += "<div class=\"tl-axis\">"
            // Every three hours; on a phone every six (`minor` ones hidden), so the labels never touch.
            for hour in stride(from: 0, through: 21, by: 3) {
                let minor = hour % 6 != 0 ? " class=\"minor\"" : ""
                body += "<span\(minor) style=\"left:\(number(Double(hour) / 24 * 100))%\">\(hourLabel(hour))</span>"
            }
            body += "</div>\n</div>\n"
            body += legend([
                (swatch("tl-session"), "session"), (swatch("tl-episode"), "episode"), (swatch("app-work"), "work"),
                (swatch("app-neutral"), "neutral"), (swatch("app-distracting"), "distracting"), (swatch("tl-away"), "away"),
                (swatch("tl-locked"), "locked"), (swatch("tl-asleep"), "asleep"),
            ])
        }
        if !d.apps.isEmpty {
            body += "<table class=\"apps\">\n<thead><tr><th scope=\"col\">Application</th><th scope=\"col\" class=\"num\">In sessions</th>"
            body += "<th scope=\"col\" class=\"num\">Outside</th></tr></thead>\n<tbody>\n"
            for a in d.apps.prefix(Report.ApplicationFigures.mostShown) {
                body +=
                    "<tr><th scope=\"row\">\(escape(a.appClass))<span class=\"category\">\(swatch("app-\(a.category)"))\(escape(a.category))</span></th>"
                body +=
                    "<td class=\"num\">\(escape(hoursMinutes(a.sessionMinutes)))</td><td class=\"num\">\(escape(hoursMinutes(a.outsideMinutes)))</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        return card(
            "day", "The whole day",
            about: "Where the all-day watch ran (vigil daemon --watch): the applications in front and the time away, "
                + "inside sessions and outside them. A session's time is its own; the watch adds only the rest.", body: body, wide: true)
    }

    private func timelineLane(
        _ name: String, _ spans: [Report.WholeDayFigures.Timeline.Span], look: (Report.WholeDayFigures.Timeline.Span) -> (String, String)
    )
        -> String
    {
        var out = "<div class=\"tl-lane\"><span class=\"tl-name\">\(escape(name))</span><div class=\"tl-track\">"
        for s in spans {
            let (cls, what) = look(s)
            let left = s.startMinute / 1440 * 100
            let width = max(0.15, (s.endMinute - s.startMinute) / 1440 * 100)
            let title = "\(what): \(clock(s.startMinute))–\(clock(s.endMinute))"
            out += "<i class=\"\(cls)\" style=\"left:\(number(left))%;width:\(number(width))%\" title=\"\(escape(title))\"></i>"
        }
        return out + "</div></div>\n"
    }

    private func clock(_ minute: Double) -> String {
        let m = Int(minute.rounded(.down))
        return (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "") + "\(m % 60)"
    }
}
