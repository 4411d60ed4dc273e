import VigilCore
import VigilStats

/// The HTML report: a dashboard in one self-contained file. Inline CSS and SVG only — no script,
/// no font, no image, nothing fetched — readable on a phone, in dark mode and on paper.
///
/// From the top: the period; its headline figures, each against the previous period of the same
/// length; the highlights in words; then cards of charts (HTMLCharts.swift, HTMLChartsOverTime.swift). Colours are CSS
/// custom properties set once for light and once for dark mode, and the charts name them by class,
/// so one drawing serves both. Every chart is an `<svg id>` whose `data-series` names the classes
/// its data is drawn in: the headless-browser test (Tests/VigilCLITests/Data/check_html_report.py)
/// finds them in a screenshot, and checks that no label is cut off.
struct HTMLReport {
    let report: Report

    func render() -> String {
        let r = report
        var page = ""
        page.reserveCapacity(96 * 1024 + r.days.count * 300)
        page += """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Vigil report: \(escape(r.periodTitle))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <div class="page">

            """
        page += header()
        page += headlineCards()
        page += "<main class=\"grid\">\n"
        page += highlightsCard()
        if r.hours.contains(where: { $0.rates.judgedMinutes > 0 }) {
            page += hourCards()
            page += card(
                "heatmap", "Weekday × hour", about: "Focus share in each hour of each weekday.",
                body: heatmapChart() + heatmapLegend())
        } else {
            page += card("hours", "Focus by hour of the day", about: nil, body: note("No judged time in the period."))
        }
        page += timeCards()
        page += taskAndCauseCards()
        if let devices = r.devices, !devices.isEmpty { page += devicesCard(devices) }
        page += streakCard()
        page += achievementsCard()
        if let a = r.applications { page += applicationsCard(a) }
        if let d = r.wholeDay { page += wholeDayCard(d) }
        if !r.goals.isEmpty { page += goalsCard(r.goals) }
        if let b = r.scheduledBlocks { page += blocksCard(b) }
        page += "</main>\n"
        page +=
            "<footer>Made by <code>vigil report</code> from the event log on this machine; nothing in this file is fetched from anywhere.</footer>\n"
        return page + "</div>\n</body>\n</html>\n"
    }

    // MARK: Header and headline figures

    func header() -> String {
        let r = report
        var out = "<header class=\"top\">\n<div>\n<h1>Vigil report</h1>\n"
        let days = r.days.count
        out += "<p class=\"period\">\(escape(r.periodTitle))"
        if r.from != nil { out += " <span class=\"muted\">· \(days) day\(days == 1 ? "" : "s")</span>" }
        out += "</p>\n</div>\n<dl class=\"meta\">\n"
        out += "<div><dt>Time zone</dt><dd>\(escape(r.timeZone))</dd></div>\n"
        if let task = r.task { out += "<div><dt>Task</dt><dd>\(escape(task))</dd></div>\n" }
        if let tag = r.tag { out += "<div><dt>Tag</dt><dd>\(escape(tag))</dd></div>\n" }
        if let tracked = Summary(r: r).trackedLine { out += "<div><dt>Tracked</dt><dd>\(escape(tracked))</dd></div>\n" }
        if let s = r.sources { out += "<div><dt>Sources</dt><dd>\(escape(Summary(r: r).sourcesLine(s)))</dd></div>\n" }
        if let overlap = r.totals.overlapMinutes { out += "<div><dt>Overlap</dt><dd>\(escape(Summary(r: r).overlapLine(overlap)))</dd></div>\n" }
        out += "<div><dt>Compared with</dt><dd>\(escape(comparedWith))</dd></div>\n"
        return out + "</dl>\n</header>\n"
    }

    /// The previous period in words, or why there is none.
    var comparedWith: String {
        guard let p = report.previous else { return "no previous period (the report covers all history)" }
        let span = p.from == p.to ? p.from : "\(p.from) to \(p.to)"
        guard hasPrevious else { return "no sessions in the previous period (\(span))" }
        return "\(span), the \(report.days.count) day\(report.days.count == 1 ? "" : "s") before"
    }

    var hasPrevious: Bool { report.previous.map { $0.sessions > 0 || $0.activeMinutes > 0 } ?? false }

    func headlineCards() -> String {
        let r = report
        let t = r.totals
        let p = hasPrevious ? r.previous : nil
        var out = "<section class=\"kpis\" aria-label=\"Headline figures\">\n"

        var focus = "of \(hoursMinutes(t.activeMinutes)) judged"
        if t.distractedMinutes > 0 { focus += " · \(hoursMinutes(t.distractedMinutes)) distracted" }
        out += kpi(
            "Focused time", hoursMinutes(t.focusedMinutes), sub: focus,
            change: p.map {
                change(
                    by: t.focusedMinutes.rounded() - $0.focusedMinutes.rounded(),
                    shown: hoursMinutes(abs(t.focusedMinutes.rounded() - $0.focusedMinutes.rounded())),
                    was: hoursMinutes($0.focusedMinutes), higherIsBetter: true)
            })

        out += kpi(
            "Focus share", percent(t.focusShare), sub: "of judged time focused",
            change: p.map { points(now: t.focusShare, then: $0.focusShare, higherIsBetter: true) })

        let e = r.episodes
        var episodes = e.count == 0 ? "none started" : "average \(seconds(e.meanS)) · longest \(seconds(e.longestS))"
        if t.activeMinutes > 0 { episodes += " · \(Self.short(Double(e.count) / (t.activeMinutes / 60))) per judged hour" }
        out += kpi("Episodes", "\(e.count)", sub: episodes, change: p.map { count(now: e.count, then: $0.episodes, higherIsBetter: false) })

        var completion = "\(t.completed) completed (\(percent(t.completionRate)))"
        if t.abandoned > 0 { completion += " · \(t.abandoned) ended early" }
        var sessionChanges: String? = nil
        if let p {
            sessionChanges = count(now: t.sessions, then: p.sessions, higherIsBetter: nil)
            if t.completionRate != nil, p.completionRate != nil {
                sessionChanges! += points(now: t.completionRate, then: p.completionRate, higherIsBetter: true, what: "completion ")
            }
        }
        out += kpi("Sessions", "\(t.sessions)", sub: completion, change: sessionChanges)

        let f = r.procrastinationFree
        out += kpi(
            "Free days", percent(f.share),
            sub: "procrastination-free: \(f.freeDays) of \(f.daysWithSessions) session day\(f.daysWithSessions == 1 ? "" : "s")",
            change: p.map { points(now: f.share, then: $0.procrastinationFreeShare, higherIsBetter: true) })

        var alarms = t.alarmsPerFocusedHour.map { "\(Self.short($0)) per focused hour" } ?? "no focused time"
        if t.recovery.count > 0 { alarms += " · back after \(seconds(t.recovery.meanS)) on average" }
        out += kpi("Alarms", "\(t.alarms)", sub: alarms, change: p.map { count(now: t.alarms, then: $0.alarms, higherIsBetter: false) })

        return out + "</section>\n"
    }

    /// A headline card. Without a previous period to compare with it says so instead of a change.
    func kpi(_ title: String, _ value: String, sub: String, change: String?) -> String {
        var out = "<article class=\"kpi\"><h3>\(escape(title))</h3><p class=\"value\">\(figure(value))</p>"
        out += "<p class=\"sub\">\(escape(sub))</p>"
        // At the card's foot, so the changes line up across a row of cards.
        out += "<div class=\"changes\">"
        out +=
            change ?? "<p class=\"delta none\">\(hasPrevious || report.previous == nil ? "no previous period" : "no sessions before to compare")</p>"
        return out + "</div></article>\n"
    }

    /// "89 h 44 min" with its units in small print, so the numbers lead.
    func figure(_ value: String) -> String {
        guard value.contains(where: \.isNumber) else { return escape(value) }
        return value.split(separator: " ").map { word in
            word.allSatisfy { $0.isNumber || $0 == "%" || $0 == "." } ? escape(String(word)) : "<small>\(escape(String(word)))</small>"
        }.joined(separator: " ")
    }

    /// "↑ +3 h 16 min · was 86 h 28 min · better". The arrow and the sign say which way, the last
    /// word whether that is good; the colour (blue or orange) only repeats it.
    func change(by difference: Double, shown: String, was: String, higherIsBetter: Bool?, what: String = "") -> String {
        let tone: String
        let verdict: String
        if difference == 0 {
            return "<p class=\"delta same\">\(escape(what))→ ±0 <span class=\"was\">· same as before</span></p>"
        } else if let higherIsBetter {
            let better = (difference > 0) == higherIsBetter
            tone = better ? "good" : "bad"
            verdict = better ? "better" : "worse"
        } else {
            tone = "neutral"
            verdict = ""
        }
        let arrow = difference > 0 ? "↑" : "↓"
        let sign = difference > 0 ? "+" : "−"
        var out =
            "<p class=\"delta \(tone)\">\(escape(what))<span class=\"arrow\">\(arrow)</span> \(sign)\(escape(shown)) <span class=\"was\">· was \(escape(was))"
        if !verdict.isEmpty { out += " · \(verdict)" }
        return out + "</span></p>"
    }

    /// A share's change in percentage points, between the percentages as shown.
    func points(now: Double?, then: Double?, higherIsBetter: Bool, what: String = "") -> String {
        guard let now, let then else { return "<p class=\"delta none\">\(escape(what))nothing to compare</p>" }
        let difference = (now * 100).rounded() - (then * 100).rounded()
        return change(
            by: difference, shown: "\(Int(saturating: abs(difference))) pts", was: percent(then), higherIsBetter: higherIsBetter, what: what)
    }

    func count(now: Int, then: Int, higherIsBetter: Bool?) -> String {
        change(by: Double(now - then), shown: "\(abs(now - then))", was: "\(then)", higherIsBetter: higherIsBetter)
    }

    // MARK: Highlights

    func highlightsCard() -> String {
        let r = report
        let h = r.highlights
        let before = hasPrevious ? r.previous : nil
        var body = ""
        if h.mostProductiveHour == nil {
            body += "<p class=\"lead\">\(escape(Summary(r: r).hoursLine.prefix(1).uppercased() + Summary(r: r).hoursLine.dropFirst())).</p>\n"
        } else {
            body += "<div class=\"facts\">\n"
            func rated(_ hour: Int) -> String {
                "\(percent(r.hours[hour].rates.focusShare)) focused over \(hoursMinutes(r.hours[hour].rates.judgedMinutes))"
            }
            func previously(_ now: Int?, _ then: Int?) -> String {
                guard let before, let now else { return "" }
                guard let then else { return before.sessions > 0 ? " · none named before" : "" }
                return then == now ? " · same as before" : " · was \(hourLabel(then))"
            }
            if let best = h.mostProductiveHour {
                body += fact("★ Best hour", hourLabel(best), rated(best) + previously(best, before?.mostProductiveHour))
            }
            if let worst = h.leastProductiveHour {
                body += fact("▼ Worst hour", hourLabel(worst), rated(worst) + previously(worst, before?.leastProductiveHour))
            } else {
                body += fact("▼ Worst hour", "–", noWorstHour(h))
            }
            if let most = h.mostProcrastinatedHour, let rate = r.hours[most].rates.episodesPerJudgedHour {
                body += fact(
                    "▲ Most procrastination", hourLabel(most),
                    "\(Self.short(rate)) episodes per judged hour" + previously(most, before?.mostProcrastinatedHour))
            } else {
                body += fact("▲ Most procrastination", "–", "no episode in a ranked hour")
            }
            if let best = h.mostProductiveWeekday {
                body += fact("Best weekday", weekdayLabel(best), "\(percent(r.weekdays[best - 1].rates.focusShare)) focused")
            }
            if let worst = h.leastProductiveWeekday {
                body += fact("Worst weekday", weekdayLabel(worst), "\(percent(r.weekdays[worst - 1].rates.focusShare)) focused")
            }
            body += "</div>\n"
        }
        var rule = "Ranked by focus share (episodes per judged hour for procrastination) among the hours and weekdays with at least "
        rule += "\(h.minimumJudgedMinutes) min of judged time in the period: \(h.hoursWithEnoughData) of 24 hours, "
        rule += "\(h.weekdaysWithEnoughData) of 7 weekdays. Fewer minutes would let one lucky or unlucky session decide."
        body += note(rule)
        return card("highlights", "When you focus, and when you drift", about: nil, body: body, wide: true)
    }

    func fact(_ key: String, _ value: String, _ detail: String) -> String {
        "<div class=\"fact\"><span class=\"k\">\(escape(key))</span><span class=\"v\">\(escape(value))</span><span class=\"d\">\(escape(detail))</span></div>\n"
    }

    // MARK: Cards of charts

    func hourCards() -> String {
        let h = report.highlights
        let minimum = h.minimumJudgedMinutes
        let thin = "fewer than \(minimum) judged minutes: not ranked"
        var out = card(
            "hours-focus", "Focus share by hour", about: "How much of the judged time in each hour of the day was focused.",
            body: hoursFocusChart()
                + legend(
                    [(swatch("focus"), "ranked"), (swatch("focus-thin", hatch: "hours-focus"), thin)]
                        + (h.mostProductiveHour == nil ? [] : [(mark("★"), "best hour")])
                        + (h.leastProductiveHour == nil ? [] : [(mark("▼"), "worst hour")])))
        out += card(
            "hours-distraction", "Distraction by hour", about: "Episodes started per judged hour: when you drift off.",
            body: hoursDistractionChart()
                + legend(
                    [(swatch("distracted"), "ranked"), (swatch("distracted-thin", hatch: "hours-distraction"), thin)]
                        + (h.mostProcrastinatedHour == nil ? [] : [(mark("▲"), "most procrastinated hour")])
                        + (distractionScale.beyond ? [(mark("↑"), "beyond the scale: few judged minutes")] : [])))
        out += card(
            "hours-time", "Time by hour", about: "Focused and distracted minutes in each hour of the day, summed over the period.",
            body: hoursTimeChart() + legend([(swatch("focus"), "focused"), (swatch("distracted"), "distracted")]))
        return out
    }

    func heatmapLegend() -> String {
        var items = Self.shareBins.enumerated().map { (swatch("h\($0.offset)"), $0.element.label) }
        items.append((swatch("empty"), "no judged time"))
        items.append((swatch("h3", scale: 0.5), "smaller: under \(report.highlights.minimumJudgedMinutes) judged min"))
        return legend(items)
    }

    func timeCards() -> String {
        let r = report
        var out = ""
        let (unit, _) = timeBuckets()
        if r.days.contains(where: { $0.focusedMinutes + $0.distractedMinutes > 0 }) {
            out += card(
                "daily", unit == "day" ? "Focus per day" : "Focus per month",
                about: unit == "day"
                    ? "Focused and distracted time on each day of the period."
                    : "Focused and distracted time in each month (the period has more than \(Self.mostDailyBars) days).",
                body: timeChart() + legend([(swatch("focus"), "focused"), (swatch("distracted"), "distracted")]))
        }
        guard r.weeks.contains(where: { $0.focusedMinutes + $0.distractedMinutes > 0 }) else { return out }
        let recent = r.weeks.suffix(Self.mostTrendWeeks)
        var about = "Focus share per ISO week (line) and focused and distracted hours (bars)."
        if recent.count < r.weeks.count { about += " The last \(recent.count) of \(r.weeks.count) weeks." }
        out += card(
            "weekly", "Weekly trend", about: about,
            body: weeklyChart(recent) + legend([(line(), "focus share"), (swatch("focus"), "focused"), (swatch("distracted"), "distracted")]))
        let profile = r.weeks.suffix(Self.mostProfileWeeks)
        var profileAbout = "Focus share in each hour of each week, to see the good hours move. ★ the week's best hour."
        if profile.count < r.weeks.count { profileAbout += " The last \(profile.count) of \(r.weeks.count) weeks." }
        out += card("profile", "Week by week", about: profileAbout, body: profileChart(profile) + heatmapLegend())
        return out
    }

    static let mostTrendWeeks = 52
    static let mostProfileWeeks = 26

    func taskAndCauseCards() -> String {
        let r = report
        var out = ""
        if !r.tasks.isEmpty {
            var body = tasksChart() + legend([(swatch("focus"), "focused"), (swatch("distracted"), "distracted")])
            if r.tasks.count > Self.mostTasks {
                let rest = r.tasks.dropFirst(Self.mostTasks)
                let minutes = rest.reduce(0) { $0 + $1.focusedMinutes + $1.distractedMinutes }
                body += note("And \(rest.count) more task\(rest.count == 1 ? "" : "s"): \(hoursMinutes(minutes)) together.")
            }
            out += card("tasks", "By task", about: "Judged time per task, and its focus share.", body: body)
        }
        var body = ""
        if r.episodes.count == 0 {
            body += note("No episode started in the period.")
        } else {
            body += causesChart()
        }
        let t = r.totals
        var words = "\(t.alarms) alarm\(t.alarms == 1 ? "" : "s")"
        if let rate = t.alarmsPerFocusedHour { words += " (\(Self.short(rate)) per focused hour)" }
        if t.recovery.count > 0 {
            words += "; back at work \(seconds(t.recovery.meanS)) after the first alarm on average (median \(seconds(t.recovery.medianS)), "
            words += "longest \(seconds(t.recovery.longestS)))"
        }
        if let acting = Summary(r: r).actingLine { words += "; does acting help? " + acting }
        body += note(words + ".")
        out += card(
            "causes", "Why: episodes by cause", about: "Distracted time by what started each episode; the figure is episodes · time.", body: body)
        return out
    }

    func streakCard() -> String {
        let r = report
        guard !r.days.isEmpty else { return "" }
        let s = r.streak
        let f = r.procrastinationFree
        var body = "<div class=\"streak\">" + streakCalendar() + "<div class=\"streak-words\">"
        body += "<p><strong>\(s.current == 0 ? "No current streak" : "\(s.current) day\(s.current == 1 ? "" : "s") in a row")</strong>"
        if s.current > 0 { body += " · \(escape(StreakModel.Badge(rawValue: s.badge)?.title ?? s.badge)) · each free day adds \(s.multiplier)" }
        body += "</p><p>Best streak \(s.best) day\(s.best == 1 ? "" : "s") · score \(s.score) (best \(s.bestScore))</p>"
        if f.longestStreak > 0, let a = f.longestStreakFrom, let b = f.longestStreakTo {
            body +=
                "<p>Longest run in the period: \(f.longestStreak) day\(f.longestStreak == 1 ? "" : "s") (\(escape(a == b ? a : "\(a) to \(b)")))</p>"
        }
        for m in s.messages { body += "<p class=\"muted\">\(escape(m))</p>" }
        body += "</div></div>"
        body += legend([(swatch("free"), "procrastination-free"), (dot("procrastinated"), "procrastinated"), (swatch("noday"), "no session")])
        return card(
            "streak", "Procrastination-free days",
            about: "A day with judged time and no episode. Days without sessions neither extend nor break a streak.", body: body)
    }

    func achievementsCard() -> String {
        let r = report
        guard !r.achievements.isEmpty else { return "" }
        let new = r.achievements.filter(\.inPeriod).count
        // When the period holds all of them (all history), marking each one says nothing.
        let marked = new < r.achievements.count
        var about = "All time, up to \(r.to ?? "today")"
        about += new == 0 ? "; none new in this period." : marked ? "; \(new) new in this period." : "; all earned in this period."
        var body = "<ul class=\"achievements\">\n"
        for a in r.achievements {
            body += "<li\(a.inPeriod && marked ? " class=\"new\"" : "")><span class=\"title\">\(escape(a.title))</span>"
            body += "<time datetime=\"\(escape(a.earned))\">\(escape(a.earned))</time>"
            if a.inPeriod && marked { body += "<span class=\"badge\">new in this period</span>" }
            body += "</li>\n"
        }
        return card("achievements", "Achievements", about: about, body: body + "</ul>\n")
    }

    func devicesCard(_ devices: [Report.DeviceFigure]) -> String {
        var body = devicesChart(devices) + legend([(swatch("focus"), "focused"), (swatch("distracted"), "distracted")])
        var words = devicesCountedOnce
        if let overlap = report.totals.overlapMinutes { words += " Two or more sessions ran at once for \(hoursMinutes(overlap))." }
        body += note(words)
        return card("devices", "By device", about: "Judged time on each device, and its sessions and episodes.", body: body)
    }

    func applicationsCard(_ a: Report.ApplicationFigures) -> String {
        var body = applicationsChart(a)
        body += legend([(swatch("app-work"), "work"), (swatch("app-neutral"), "neutral"), (swatch("app-distracting"), "distracting")])
        let shown = a.apps.prefix(Report.ApplicationFigures.mostShown)
        if !shown.isEmpty { body += applicationsTable(shown) }
        if let rest = a.rest { body += note(rest) }
        // The table names them already, unless one is beyond its rows.
        let listed = Set(shown.filter { $0.category == AppCategory.distracting.rawValue }.map(\.appClass))
        if !a.mostDistracting.allSatisfy({ listed.contains($0.appClass) }) {
            body += note("Most distracting: " + a.mostDistracting.map { "\($0.appClass) \(hoursMinutes($0.minutes))" }.joined(separator: ", ") + ".")
        }
        if a.calls > 0 { body += note("Calls: \(a.calls), \(hoursMinutes(a.callMinutes)).") }
        return card(
            "applications", "Applications",
            about: "Time in front of applications while sessions judged, by category and by application. "
                + "Episodes: those a distracting application started while it was in front.", body: body)
    }

    /// One row per application, most time in front first: its class and, under it, the category
    /// it had (a column of its own would squeeze the names on a phone); the time in front, how many
    /// times, and a bar against the first row's; the episodes it caused.
    func applicationsTable(_ apps: ArraySlice<Report.ApplicationFigures.AppFigure>) -> String {
        let top = apps.map(\.minutes).max() ?? 0
        var out = "<table class=\"apps\">\n<thead><tr><th scope=\"col\">Application</th>"
        out += "<th scope=\"col\" class=\"num\">In front</th><th scope=\"col\" class=\"num\">Episodes</th></tr></thead>\n<tbody>\n"
        for app in apps {
            let times = "\(app.stretches) time\(app.stretches == 1 ? "" : "s")"
            let title = "\(app.appClass): \(hoursMinutes(app.minutes)) in front, \(times) (\(app.category))"
            let share = top > 0 ? max(1, (app.minutes / top * 100).rounded()) : 0
            out += "<tr title=\"\(escape(title))\"><th scope=\"row\">\(escape(app.appClass))"
            out += "<span class=\"category\">\(swatch("app-\(app.category)"))\(escape(app.category))</span></th>"
            out += "<td class=\"num\">\(escape(hoursMinutes(app.minutes)))<span class=\"times\">\(times)</span>"
            out += "<span class=\"bar\"><span class=\"app-\(app.category)\" style=\"width:\(number(share))%\"></span></span></td>"
            out += "<td class=\"num\">\(app.episodes)</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    // MARK: Pieces

    func card(_ id: String, _ title: String, about: String?, body: String, wide: Bool = false) -> String {
        var out = "<section class=\"card\(wide ? " wide" : "")\" id=\"card-\(id)\">\n<h2>\(escape(title))</h2>\n"
        if let about { out += "<p class=\"about\">\(escape(about))</p>\n" }
        return out + body + "\n</section>\n"
    }

    func note(_ text: String) -> String { "<p class=\"note\">\(escape(text))</p>\n" }

    func legend(_ items: [(swatch: String, label: String)]) -> String {
        "<p class=\"legend\">" + items.map { "<span>\($0.swatch)\(escape($0.label))</span>" }.joined() + "</p>\n"
    }

    /// A legend's square, drawn as the chart draws (same class, same hatching pattern).
    func swatch(_ cls: String, hatch chart: String? = nil, scale: Double = 1) -> String {
        let side = 11 * scale
        let at = number((12 - side) / 2)
        var out = "<svg class=\"sw\" viewBox=\"0 0 12 12\" aria-hidden=\"true\">"
        out += "<rect x=\"\(at)\" y=\"\(at)\" width=\"\(number(side))\" height=\"\(number(side))\" rx=\"\(number(2 * scale))\" class=\"\(cls)\"/>"
        if let chart { out += "<rect x=\"0.5\" y=\"0.5\" width=\"11\" height=\"11\" rx=\"2\" fill=\"url(#hatch-\(chart))\"/>" }
        return out + "</svg>"
    }

    func dot(_ cls: String) -> String {
        "<svg class=\"sw\" viewBox=\"0 0 12 12\" aria-hidden=\"true\"><circle cx=\"6\" cy=\"6\" r=\"5.5\" class=\"\(cls)\"/></svg>"
    }

    func line() -> String {
        "<svg class=\"sw\" viewBox=\"0 0 12 12\" aria-hidden=\"true\"><line x1=\"0\" y1=\"6\" x2=\"12\" y2=\"6\" class=\"share-line\"/><circle cx=\"6\" cy=\"6\" r=\"2.5\" class=\"share-dot\"/></svg>"
    }

    func mark(_ symbol: String) -> String { "<b class=\"mark\" aria-hidden=\"true\">\(symbol)</b>" }

    func escape(_ s: String) -> String { Self.escape(s) }

    /// Text from the log (task names, applications) and anything else put into the page. Controls
    /// are shown as escapes (`terminalSafe`): HTML has no use for them, and the page may be
    /// printed to a terminal (no `-o`).
    static func escape(_ s: String) -> String {
        escaped(s, changing: "\"'&<>") { c in
            switch c {
            case "\"": "&quot;"
            case "'": "&#39;"
            default: markupEntity(c)
            }
        }
    }

}
