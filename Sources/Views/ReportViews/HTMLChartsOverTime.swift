import VigilStats

// The charts of time: the period day by day or week by week, the weekly profile, bars by task,
// cause and application, and the streak calendar (the hours and heatmaps are in HTMLCharts.swift).
extension HTMLReport {
    // MARK: Over time

    struct TimeBucket {
        var label: String
        var focused = 0.0
        var distracted = 0.0
        var days = 0
        /// Marks a week's start (a Monday) or a year's (January): where intermediate labels go.
        var landmark: String? = nil
    }

    /// Days, or months once a day's bar would be thinner than a few pixels on a phone.
    func timeBuckets() -> (unit: String, buckets: [TimeBucket]) {
        let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        if report.days.count <= Self.mostDailyBars {
            return (
                "day",
                report.days.map { d in
                    let month = monthNames[(Int(d.date.dropFirst(5).prefix(2)) ?? 1) - 1]
                    return TimeBucket(
                        label: d.date, focused: d.focusedMinutes, distracted: d.distractedMinutes, days: 1,
                        landmark: d.weekday == 1 ? "\(month) \(Int(d.date.suffix(2)) ?? 1)" : nil)
                }
            )
        }
        var months: [TimeBucket] = []
        for d in report.days {
            let month = String(d.date.prefix(7))
            if months.last?.label != month {
                months.append(TimeBucket(label: month, landmark: month.hasSuffix("-01") ? String(month.prefix(4)) : nil))
            }
            months[months.count - 1].focused += d.focusedMinutes
            months[months.count - 1].distracted += d.distractedMinutes
            months[months.count - 1].days += 1
        }
        return ("month", months)
    }

    static let mostDailyBars = 120

    func timeChart() -> String {
        let (unit, buckets) = timeBuckets()
        let peak = buckets.map { $0.focused + $0.distracted }.max() ?? 0
        let top = Self.niceCeiling(peak / 60) * 60
        let ticks = [(0.0, "0"), (0.5, "\(Self.short(top / 120)) h"), (1.0, "\(Self.short(top / 60)) h")]
        let left = (ticks.map { Canvas.textWidth($0.1) }.max() ?? 0) + 10
        let plotTop = 12.0
        let plotHeight = 150.0
        let baseline = plotTop + plotHeight
        var c = Canvas(id: "daily", width: Canvas.width, height: baseline + 26)
        for t in ticks {
            let y = baseline - t.0 * plotHeight
            c.line(x1: left, y1: y, x2: Canvas.width - 1, y2: y, cls: t.0 == 0 ? "axis" : "gridline")
            c.text(t.1, x: left - 6, y: y + 4.5, anchor: .end)
        }
        let step = (Canvas.width - 1 - left) / Double(max(1, buckets.count))
        let barWidth = max(1, step * (step > 6 ? 0.72 : 0.85))
        var labels: [(x: Double, text: String, required: Bool)] = []
        for (i, b) in buckets.enumerated() {
            let centre = left + (Double(i) + 0.5) * step
            if i == 0 || i == buckets.count - 1 {
                labels.append((centre, b.label, true))
            } else if let landmark = b.landmark {
                labels.append((centre, landmark, false))
            }
            guard b.focused + b.distracted > 0 else { continue }
            let focused = b.focused / top * plotHeight
            let distracted = b.distracted / top * plotHeight
            var title = "\(b.label): \(hoursMinutes(b.focused)) focused, \(hoursMinutes(b.distracted)) distracted"
            if unit == "month" { title += " (\(b.days) day\(b.days == 1 ? "" : "s") of the period)" }
            let x = centre - barWidth / 2
            if focused > 0 { c.rect(x: x, y: baseline - focused, width: barWidth, height: focused, cls: "focus", title: title) }
            if distracted > 0 {
                c.rect(x: x, y: baseline - focused - distracted, width: barWidth, height: distracted, cls: "distracted", title: title)
            }
        }
        c.axisLabels(labels, y: baseline + 20)
        return c.svg(
            label: unit == "day" ? "Focused and distracted time per day" : "Focused and distracted time per month", series: "focus distracted",
            extra: " data-unit=\"\(unit)\"")
    }

    /// Days of the period in each week, oldest first: the first and last weeks may be partial.
    func daysPerWeek() -> [Int] {
        guard let first = report.days.first else { return [] }
        var counts: [Int] = []
        var remaining = report.days.count
        var inWeek = min(remaining, 8 - first.weekday)
        while remaining > 0 {
            counts.append(inWeek)
            remaining -= inWeek
            inWeek = min(remaining, 7)
        }
        return counts
    }

    /// Weekly focus share (a line, above) over focused and distracted hours per week (bars, below).
    func weeklyChart(_ weeks: ArraySlice<Report.WeekFigure>) -> String {
        let days = daysPerWeek()
        let offset = report.weeks.count - weeks.count
        let shares = weeks.compactMap(\.focusShare)
        let low = max(0, min(0.9, (((shares.min() ?? 1) - 0.05) * 10).rounded(.down) / 10))
        let peak = weeks.map { $0.focusedMinutes + $0.distractedMinutes }.max() ?? 0
        let top = Self.niceCeiling(peak / 60) * 60
        let shareLabels = [(1.0, "100%"), (low, "\(Int(saturating: (low * 100).rounded()))%")]
        let hourLabels = [(0.0, "0"), (1.0, "\(Self.short(top / 60)) h")]
        let left = ((shareLabels + hourLabels).map { Canvas.textWidth($0.1) }.max() ?? 0) + 10
        let step = (Canvas.width - 1 - left) / Double(max(1, weeks.count))
        let labelDots = step >= Canvas.textWidth("100%", size: Canvas.smallSize) + 4
        let shareTop = labelDots ? 24.0 : 10.0
        let shareHeight = 64.0
        let barsTop = shareTop + shareHeight + 40
        let barsHeight = 100.0
        let baseline = barsTop + barsHeight
        var c = Canvas(id: "weekly", width: Canvas.width, height: baseline + 26)
        let barWidth = max(1, step * (step > 6 ? 0.6 : 0.85))
        func shareY(_ s: Double) -> Double { shareTop + (1 - (s - low) / (1 - low)) * shareHeight }
        for (value, label) in shareLabels {
            c.line(x1: left, y1: shareY(value), x2: Canvas.width - 1, y2: shareY(value), cls: "gridline")
            c.text(label, x: left - 6, y: shareY(value) + 4.5, anchor: .end)
        }
        for (value, label) in hourLabels {
            c.line(
                x1: left, y1: baseline - value * barsHeight, x2: Canvas.width - 1, y2: baseline - value * barsHeight,
                cls: value == 0 ? "axis" : "gridline")
            c.text(label, x: left - 6, y: baseline - value * barsHeight + 4.5, anchor: .end)
        }
        var segment: [(Double, Double)] = []
        var dots = Canvas(id: "", width: Canvas.width, height: 0)
        var labels: [(x: Double, text: String, required: Bool)] = []
        for (i, w) in weeks.enumerated() {
            let centre = left + (Double(i) + 0.5) * step
            let inPeriod = offset + i < days.count ? days[offset + i] : 7
            let first = i == 0 || w.week.hasSuffix("W01")
            labels.append((centre, first ? w.week : String(w.week.suffix(3)), i == 0 || i == weeks.count - 1))
            var title = "\(w.week): \(hoursMinutes(w.focusedMinutes)) focused, \(hoursMinutes(w.distractedMinutes)) distracted"
            title +=
                " (\(percent(w.focusShare)) focused) · \(w.sessions) session\(w.sessions == 1 ? "" : "s"), \(w.episodes) episode\(w.episodes == 1 ? "" : "s")"
            if let best = w.mostProductiveHour { title += " · best hour \(hourLabel(best))" }
            if inPeriod < 7 { title += " · \(inPeriod) of its 7 days in the period" }
            let focused = w.focusedMinutes / top * barsHeight
            let distracted = w.distractedMinutes / top * barsHeight
            if focused > 0 { c.rect(x: centre - barWidth / 2, y: baseline - focused, width: barWidth, height: focused, cls: "focus", title: title) }
            if distracted > 0 {
                c.rect(
                    x: centre - barWidth / 2, y: baseline - focused - distracted, width: barWidth, height: distracted, cls: "distracted", title: title
                )
            }
            if let s = w.focusShare {
                segment.append((centre, shareY(s)))
                dots.circle(cx: centre, cy: shareY(s), r: step > 8 ? 3.5 : 2, cls: "share-dot", title: title)
                if labelDots { dots.centred(percent(s), x: centre, y: shareY(s) - 9, size: Canvas.smallSize, cls: "strong") }
            } else {
                c.polyline(segment, cls: "share-line")
                segment = []
            }
        }
        c.polyline(segment, cls: "share-line")
        c.body += dots.body
        c.axisLabels(labels, y: baseline + 20)
        return c.svg(label: "Focused hours and focus share per week", series: "focus distracted")
    }

    // MARK: Bars by task, cause and application

    struct BarRow {
        var label: String
        var segments: [(cls: String, value: Double)]
        var value: String
        var title: String
    }

    /// One horizontal bar per row: the label on the left, the figure on the right.
    func barRows(id: String, label: String, series: String, rows: [BarRow]) -> String {
        let rowHeight = 30.0
        let labelWidth = min(150, rows.map { Canvas.textWidth($0.label) }.max() ?? 0)
        let valueWidth = rows.map { Canvas.textWidth($0.value, size: 12) }.max() ?? 0
        let left = labelWidth + 10
        let barMax = Canvas.width - left - valueWidth - 10
        let peak = rows.map { $0.segments.reduce(0) { $0 + $1.value } }.max() ?? 0
        var c = Canvas(id: id, width: Canvas.width, height: Double(rows.count) * rowHeight + 2)
        for (i, row) in rows.enumerated() {
            let y = Double(i) * rowHeight
            c.text(Self.fitted(row.label, width: labelWidth), x: Canvas.edge, y: y + rowHeight / 2 + 4.5, cls: "strong")
            var x = left
            for s in row.segments where s.value > 0 && peak > 0 {
                let w = max(1, s.value / peak * barMax)
                c.rect(x: x, y: y + 7, width: w, height: rowHeight - 14, cls: s.cls, title: row.title)
                x += w
            }
            c.text(row.value, x: x + 6, y: y + rowHeight / 2 + 4, size: 12)
        }
        return c.svg(label: label, series: series)
    }

    static let mostTasks = 8

    func tasksChart() -> String {
        let rows = report.tasks.prefix(Self.mostTasks).map { t in
            let name = t.task.isEmpty ? "(no task)" : t.task
            var title = "\(name): \(t.sessions) session\(t.sessions == 1 ? "" : "s") · \(hoursMinutes(t.focusedMinutes)) focused, "
            title +=
                "\(hoursMinutes(t.distractedMinutes)) distracted (\(percent(t.focusShare)) focused) · \(t.episodes) episode\(t.episodes == 1 ? "" : "s")"
            return BarRow(
                label: name, segments: [("focus", t.focusedMinutes), ("distracted", t.distractedMinutes)],
                value: "\(percent(t.focusShare)) · \(hoursMinutes(t.focusedMinutes + t.distractedMinutes))", title: title)
        }
        return barRows(id: "tasks", label: "Focused and distracted time by task", series: "focus distracted", rows: Array(rows))
    }

    func devicesChart(_ devices: [Report.DeviceFigure]) -> String {
        let rows = devices.map { d in
            let name = deviceLabel(d.device)
            var title = "\(name): \(d.sessions) session\(d.sessions == 1 ? "" : "s") · \(hoursMinutes(d.focusedMinutes)) focused, "
            title += "\(hoursMinutes(d.distractedMinutes)) distracted · \(d.episodes) episode\(d.episodes == 1 ? "" : "s")"
            return BarRow(
                label: name, segments: [("focus", d.focusedMinutes), ("distracted", d.distractedMinutes)],
                value: hoursMinutes(d.focusedMinutes + d.distractedMinutes), title: title)
        }
        return barRows(id: "devices", label: "Focused and distracted time by device", series: "focus distracted", rows: rows)
    }

    func causesChart() -> String {
        let rows = report.episodes.byCause.filter { $0.count > 0 }.sorted { ($0.minutes, $1.key) > ($1.minutes, $0.key) }.map { g in
            var title = "\(causeLabel(g.key)): \(g.count) episode\(g.count == 1 ? "" : "s"), \(hoursMinutes(g.minutes)) distracted"
            if let mean = g.meanS { title += " · average \(seconds(mean))" }
            if let longest = g.longestS { title += ", longest \(seconds(longest))" }
            return BarRow(
                label: causeLabel(g.key), segments: [("cause", g.minutes)], value: "\(g.count) · \(hoursMinutes(g.minutes))", title: title)
        }
        return barRows(id: "causes", label: "Distracted time by cause", series: "cause", rows: rows)
    }

    func applicationsChart(_ a: Report.ApplicationFigures) -> String {
        let rows = [
            BarRow(
                label: "work", segments: [("app-work", a.workMinutes)], value: hoursMinutes(a.workMinutes),
                title: "work: \(hoursMinutes(a.workMinutes))"),
            BarRow(
                label: "neutral", segments: [("app-neutral", a.neutralMinutes)], value: hoursMinutes(a.neutralMinutes),
                title: "neutral: \(hoursMinutes(a.neutralMinutes))"),
            BarRow(
                label: "distracting", segments: [("app-distracting", a.distractingMinutes)], value: hoursMinutes(a.distractingMinutes),
                title: "distracting: \(hoursMinutes(a.distractingMinutes))"),
        ]
        return barRows(id: "applications", label: "Time in applications by category", series: "app-work|app-neutral|app-distracting", rows: rows)
    }

    // MARK: Streak calendar

    /// Weeks as columns, Monday at the top, a year per block at most; a period of a week or less is
    /// one column, its first day at the top (a week from Sunday is not a lone Sunday and a column
    /// of six days). A procrastination-free day is a blue square, a procrastinated one an orange
    /// circle, so the two differ in shape as well as colour (greyscale, colour blindness); a day
    /// without sessions is an outline. The first month is always named, however few the columns.
    func streakCalendar() -> String {
        let days = report.days
        guard let first = days.first else { return "" }
        // The weekday of the top row (ISO, 1 = Monday), and the rows the first column leaves empty.
        let topWeekday = days.count <= 7 ? first.weekday : 1
        let offset = (first.weekday - topWeekday + 7) % 7
        let columns = (offset + days.count + 6) / 7
        let perBlock = min(columns, 53)
        let left = Canvas.textWidth("Mon", size: 11) + 8
        let cell = min(18, (Canvas.width - left - 2) / Double(perBlock))
        let monthRow = 16.0
        let blockHeight = monthRow + 7 * cell + 10
        let blocks = (columns + perBlock - 1) / perBlock
        let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func monthLabel(_ date: String, year: Bool) -> String {
            let name = monthNames[(Int(date.dropFirst(5).prefix(2)) ?? 1) - 1]
            return year ? "\(name) \(date.prefix(4))" : name
        }
        // Wide enough for the first month's name above the first column.
        let width = max(left + Double(perBlock) * cell + 2, left + Canvas.textWidth(monthLabel(first.date, year: true), size: 11) + 2)
        var c = Canvas(id: "streak", width: width, height: Double(blocks) * blockHeight - 8)
        let streakByDate = Dictionary(report.streak.calendar.map { ($0.date, $0.streak) }, uniquingKeysWith: { $1 })
        for b in 0..<blocks {
            let top = Double(b) * blockHeight + monthRow
            for row in [0, 2, 4] {
                let name = Statistics.weekdayNames[(topWeekday - 1 + row) % 7]
                c.text(String(name.prefix(3)), x: Canvas.edge, y: top + (Double(row) + 0.5) * cell + 4, size: 11)
            }
        }
        var labelled = Set<String>()
        var lastLabelEnd: [Int: Double] = [:]
        for (i, d) in days.enumerated() {
            let k = offset + i
            let column = k / 7
            let block = column / perBlock
            let x = left + Double(column % perBlock) * cell
            let top = Double(block) * blockHeight + monthRow
            let y = top + Double(k % 7) * cell
            let month = String(d.date.prefix(7))
            if !labelled.contains(month), d.date.hasSuffix("-01") || i == 0 || (k % 7 == 0 && column % perBlock == 0) {
                let text = monthLabel(d.date, year: i == 0 || d.date.dropFirst(5).hasPrefix("01") || column % perBlock == 0)
                let textWidth = Canvas.textWidth(text, size: 11)
                if x > (lastLabelEnd[block] ?? -1) + 4, x + textWidth <= width - 1 {
                    c.text(text, x: x, y: top - 5, size: 11)
                    lastLabelEnd[block] = x + textWidth
                    labelled.insert(month)
                }
            }
            let streak = streakByDate[d.date]
            let size = cell - 3
            switch d.procrastinationFree {
            case true?:
                c.rect(
                    x: x, y: y, width: size, height: size, cls: "free", rx: 2,
                    title: "\(d.date): procrastination-free" + (streak.map { " · streak \($0) day\($0 == 1 ? "" : "s")" } ?? ""))
            case false?:
                c.circle(
                    cx: x + size / 2, cy: y + size / 2, r: size / 2, cls: "procrastinated",
                    title: "\(d.date): \(d.episodes) episode\(d.episodes == 1 ? "" : "s") · streak broken")
            case nil:
                c.rect(x: x + 0.5, y: y + 0.5, width: size - 1, height: size - 1, cls: "noday", rx: 2, title: "\(d.date): no session")
            }
        }
        // As wide as its weeks need at the scale of the other charts, not stretched to the card.
        return c.svg(
            label: "Procrastination-free days", series: "free procrastinated", extra: " style=\"width:\(c.c(min(100, width / Canvas.width * 100)))%\""
        )
    }
}
