import VigilStats

/// The dashboard's charts: inline SVG, coloured by CSS classes so one drawing serves light mode,
/// dark mode and print. Each chart is laid out so that every label lies inside its viewBox (text
/// widths are estimated generously, `Canvas.textWidth`), and the page scales it to its card.
extension HTMLReport {
    /// An SVG chart being drawn, in its viewBox's units.
    struct Canvas {
        let id: String
        let width: Double
        var height: Double
        var body = ""

        /// Every chart is this wide in its own units, so all are drawn at one scale on a page: 13
        /// units of text are 15 px on a desktop and 9.5 px on a phone.
        static let width = 480.0
        /// Axis labels and the like; small print.
        static let labelSize = 13.0
        static let smallSize = 11.5
        /// Width of one character in em. Wider than the average of DejaVu Sans or system-ui
        /// glyphs (about 0.6), so a label placed by this estimate never reaches the edge.
        static let charWidth = 0.65
        /// Room kept between a label and the viewBox's edge: a glyph such as "T" reaches a little
        /// left of where its text starts.
        static let edge = 2.0

        init(id: String, width: Double, height: Double) {
            self.id = id
            self.width = width
            self.height = height
            body.reserveCapacity(4096)
        }

        static func textWidth(_ s: String, size: Double = labelSize) -> Double { Double(s.count) * size * charWidth }

        enum Anchor: String { case start, middle, end }

        mutating func text(_ s: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = labelSize, cls: String = "label") {
            body += "<text x=\"\(c(x))\" y=\"\(c(y))\""
            if anchor != .start { body += " text-anchor=\"\(anchor.rawValue)\"" }
            if size != Self.labelSize { body += " font-size=\"\(c(size))\"" }
            body += " class=\"\(cls)\">\(HTMLReport.escape(s))</text>"
        }

        /// A label centred on `x` but moved inside the viewBox if it would stick out at either end.
        mutating func centred(_ s: String, x: Double, y: Double, size: Double = labelSize, cls: String = "label") {
            let half = Self.textWidth(s, size: size) / 2
            if x - half < Self.edge {
                text(s, x: Self.edge, y: y, size: size, cls: cls)
            } else if x + half > width - Self.edge {
                text(s, x: width - Self.edge, y: y, anchor: .end, size: size, cls: cls)
            } else {
                text(s, x: x, y: y, anchor: .middle, size: size, cls: cls)
            }
        }

        /// Labels along an axis, each centred on its `x` (moved inside the viewBox at the ends): the
        /// required ones always, the others where they overlap none already placed.
        mutating func axisLabels(_ candidates: [(x: Double, text: String, required: Bool)], y: Double, size: Double = 12) {
            func extent(_ c: (x: Double, text: String, required: Bool)) -> ClosedRange<Double> {
                let w = Self.textWidth(c.text, size: size)
                let start = min(max(Self.edge, c.x - w / 2), width - Self.edge - w)
                return start...(start + w)
            }
            var placed: [ClosedRange<Double>] = []
            var chosen: [(x: Double, text: String, required: Bool)] = []
            for c in candidates.filter(\.required) + candidates.filter({ !$0.required }) {
                let e = extent(c)
                guard c.required || !placed.contains(where: { e.lowerBound < $0.upperBound + 8 && $0.lowerBound < e.upperBound + 8 }) else {
                    continue
                }
                placed.append(e)
                chosen.append(c)
            }
            for c in chosen { centred(c.text, x: c.x, y: y, size: size) }
        }

        mutating func rect(x: Double, y: Double, width: Double, height: Double, cls: String, rx: Double = 0, title: String? = nil) {
            body += "<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(width))\" height=\"\(c(height))\""
            if rx > 0 { body += " rx=\"\(c(rx))\"" }
            body += " class=\"\(cls)\""
            if let title { body += "><title>\(HTMLReport.escape(title))</title></rect>" } else { body += "/>" }
        }

        /// The same rectangle again, hatched: the mark of figures resting on little judged time.
        mutating func hatch(x: Double, y: Double, width: Double, height: Double, rx: Double = 0) {
            body += "<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(width))\" height=\"\(c(height))\""
            if rx > 0 { body += " rx=\"\(c(rx))\"" }
            body += " fill=\"url(#\(hatchID))\" pointer-events=\"none\"/>"
        }

        mutating func circle(cx: Double, cy: Double, r: Double, cls: String, title: String? = nil) {
            body += "<circle cx=\"\(c(cx))\" cy=\"\(c(cy))\" r=\"\(c(r))\" class=\"\(cls)\""
            if let title { body += "><title>\(HTMLReport.escape(title))</title></circle>" } else { body += "/>" }
        }

        mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, cls: String) {
            body += "<line x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" class=\"\(cls)\"/>"
        }

        mutating func polyline(_ points: [(Double, Double)], cls: String) {
            guard points.count > 1 else { return }
            body += "<polyline points=\"" + points.map { "\(c($0.0)),\(c($0.1))" }.joined(separator: " ") + "\" class=\"\(cls)\"/>"
        }

        var hatchID: String { "hatch-\(id)" }

        /// The finished `<svg>`. `series` names the classes the chart's data is drawn in, groups
        /// separated by spaces and alternatives by `|`: the browser test looks for each group's
        /// colour in the chart's part of a screenshot.
        func svg(label: String, series: String, hatched: Bool = false, extra: String = "") -> String {
            var out = "<svg id=\"\(id)\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(HTMLReport.escape(label))\""
            // The font size as an attribute of the <svg>: the page's own (15 px) would otherwise be
            // inherited, and the labels were laid out for this one.
            out += " data-series=\"\(series)\"\(extra) width=\"\(c(width))\" height=\"\(c(height))\" viewBox=\"0 0 \(c(width)) \(c(height))\""
            out += " font-size=\"\(c(Self.labelSize))\">"
            if hatched {
                out +=
                    "<defs><pattern id=\"\(hatchID)\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                    + "<rect width=\"1.6\" height=\"4\" class=\"hatch-line\"/></pattern></defs>"
            }
            return out + body + "</svg>"
        }

        /// A coordinate: two decimals at most.
        func c(_ v: Double) -> String { number((v * 100).rounded() / 100) }
    }

    /// `s`, cut with an ellipsis to fit `width` at `size`.
    static func fitted(_ s: String, width: Double, size: Double = Canvas.labelSize) -> String {
        let fits = max(1, Int(saturating: (width + 0.01) / (size * Canvas.charWidth)))
        return s.count <= fits ? s : String(s.prefix(max(1, fits - 1))) + "…"
    }

    /// The smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (times a power of ten) that is at least `v`:
    /// the top of an axis.
    static func niceCeiling(_ v: Double) -> Double {
        guard v > 0 else { return 1 }
        var scale = 1.0
        while v > scale * 10 { scale *= 10 }
        while v <= scale / 10 { scale /= 10 }
        for step in [0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0] where step * scale * 10 >= v { return step * scale * 10 }
        return scale * 10
    }

    /// "2.5", "3": one decimal where it matters.
    static func short(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(saturating: tenths / 10))" : number(tenths / 10)
    }

    /// The five classes of focus share the heatmaps use, by the whole percent shown in their tooltips
    /// (so a cell said to be 70% is never drawn as "50-69%").
    static let shareBins: [(lowest: Int, label: String)] = [(0, "under 50%"), (50, "50–69%"), (70, "70–84%"), (85, "85–94%"), (95, "95–100%")]

    static func shareBin(_ share: Double) -> Int {
        let p = Int(saturating: (share * 100).rounded())
        return shareBins.lastIndex { p >= $0.lowest } ?? 0
    }

    // MARK: Hours of the day

    /// The frame the three hour charts share: 24 columns, y labels on the left.
    struct HourFrame {
        let left: Double
        let top = 22.0
        let plotHeight = 144.0
        let width = Canvas.width
        var baseline: Double { top + plotHeight }
        var column: Double { (width - left - 4) / 24 }
        var height: Double { baseline + 26 }

        init(yLabels: [String]) { left = (yLabels.map { Canvas.textWidth($0) }.max() ?? 0) + 10 }

        func x(_ hour: Int) -> Double { left + Double(hour) * column }
        func y(_ fraction: Double) -> Double { baseline - min(1, max(0, fraction)) * plotHeight }

        func axes(_ c: inout Canvas, ticks: [(fraction: Double, label: String)]) {
            for t in ticks {
                c.line(x1: left, y1: y(t.fraction), x2: width - 2, y2: y(t.fraction), cls: t.fraction == 0 ? "axis" : "gridline")
                c.text(t.label, x: left - 6, y: y(t.fraction) + 4.5, anchor: .end)
            }
            for h in stride(from: 0, to: 24, by: 3) { c.centred(hourLabel(h), x: x(h) + column / 2, y: baseline + 20, size: Canvas.smallSize) }
        }
    }

    func hourTitle(_ h: Report.HourFigure) -> String {
        let r = h.rates
        var t = "\(hourLabel(h.hour))–\(hourLabel((h.hour + 1) % 24)): "
        guard r.judgedMinutes > 0 else { return t + "no judged time" }
        t += "\(percent(r.focusShare)) focused over \(hoursMinutes(r.judgedMinutes)) judged"
        t += " (\(hoursMinutes(h.focusedMinutes)) focused, \(hoursMinutes(h.distractedMinutes)) distracted)"
        t += " · \(h.episodes) episode\(h.episodes == 1 ? "" : "s") started"
        if let e = r.episodesPerJudgedHour { t += ", \(Self.short(e)) per judged hour" }
        if let d = r.distractedPerJudgedHour { t += " · \(Self.short(d)) distracted min per judged hour" }
        if !r.enoughData { t += " · not ranked: under \(report.highlights.minimumJudgedMinutes) judged min" }
        return t
    }

    /// Focus share per hour of the day; hours with too little judged time faded and hatched.
    func hoursFocusChart() -> String {
        let frame = HourFrame(yLabels: ["100%"])
        var c = Canvas(id: "hours-focus", width: frame.width, height: frame.height)
        frame.axes(&c, ticks: [(0, "0%"), (0.25, "25%"), (0.5, "50%"), (0.75, "75%"), (1, "100%")])
        let h = report.highlights
        for hour in report.hours {
            guard let share = hour.rates.focusShare else { continue }
            let x = frame.x(hour.hour) + 2
            let w = frame.column - 4
            let top = frame.y(share)
            let height = max(1, frame.baseline - top)
            c.rect(
                x: x, y: frame.baseline - height, width: w, height: height, cls: hour.rates.enoughData ? "focus" : "focus-thin",
                title: hourTitle(hour))
            if !hour.rates.enoughData { c.hatch(x: x, y: frame.baseline - height, width: w, height: height) }
            let mark = hour.hour == h.mostProductiveHour ? "★" : hour.hour == h.leastProductiveHour ? "▼" : nil
            if let mark { c.text(mark, x: x + w / 2, y: frame.baseline - height - 5, anchor: .middle, size: 12, cls: "mark") }
        }
        return c.svg(label: "Focus share by hour of the day", series: "focus", hatched: true)
    }

    /// Episodes started per judged hour, by hour of the day. The scale is set by the hours with
    /// enough judged time: a lone episode in ten minutes would otherwise flatten every other bar.
    func hoursDistractionChart() -> String {
        let rated = report.hours.filter { $0.rates.episodesPerJudgedHour != nil }
        let top = distractionScale.top
        let ticks = [(0.0, "0"), (0.5, Self.short(top / 2)), (1.0, Self.short(top))]
        let frame = HourFrame(yLabels: ticks.map(\.1))
        var c = Canvas(id: "hours-distraction", width: frame.width, height: frame.height)
        frame.axes(&c, ticks: ticks)
        for hour in rated {
            let rate = hour.rates.episodesPerJudgedHour ?? 0
            let x = frame.x(hour.hour) + 2
            let w = frame.column - 4
            let barTop = frame.y(rate / top)
            let height = rate > 0 ? max(1, frame.baseline - barTop) : 0
            if height > 0 {
                c.rect(
                    x: x, y: frame.baseline - height, width: w, height: height, cls: hour.rates.enoughData ? "distracted" : "distracted-thin",
                    title: hourTitle(hour))
                if !hour.rates.enoughData { c.hatch(x: x, y: frame.baseline - height, width: w, height: height) }
            } else {
                // No episode: a sliver on the axis, so the hour still has its tooltip.
                c.rect(x: x, y: frame.baseline - 2, width: w, height: 2, cls: "none", title: hourTitle(hour))
            }
            let mark = rate > top ? "↑" : hour.hour == report.highlights.mostProcrastinatedHour ? "▲" : nil
            if let mark { c.text(mark, x: x + w / 2, y: frame.baseline - height - 5, anchor: .middle, size: 12, cls: "mark") }
        }
        return c.svg(label: "Episodes started per judged hour, by hour of the day", series: "distracted", hatched: true)
    }

    /// The top of the distraction chart's axis, and whether some hour's rate lies beyond it.
    var distractionScale: (top: Double, beyond: Bool) {
        let rates = report.hours.compactMap(\.rates.episodesPerJudgedHour)
        let ranked = report.hours.filter(\.rates.enoughData).compactMap(\.rates.episodesPerJudgedHour)
        let top = Self.niceCeiling((ranked.isEmpty ? rates : ranked).max() ?? 0)
        return (top, rates.contains { $0 > top })
    }

    /// Focused and distracted minutes per hour of the day: when the person works at all.
    func hoursTimeChart() -> String {
        let peak = report.hours.map { $0.focusedMinutes + $0.distractedMinutes }.max() ?? 0
        let inHours = peak >= 60
        let top = inHours ? Self.niceCeiling(peak / 60) * 60 : Self.niceCeiling(peak)
        let label = { (m: Double) in inHours ? "\(Self.short(m / 60)) h" : "\(Self.short(m)) min" }
        let ticks = [(0.0, "0"), (0.5, label(top / 2)), (1.0, label(top))]
        let frame = HourFrame(yLabels: ticks.map(\.1))
        var c = Canvas(id: "hours-time", width: frame.width, height: frame.height)
        frame.axes(&c, ticks: ticks)
        for hour in report.hours where hour.focusedMinutes + hour.distractedMinutes > 0 {
            let x = frame.x(hour.hour) + 2
            let w = frame.column - 4
            let focused = hour.focusedMinutes / top * frame.plotHeight
            let distracted = hour.distractedMinutes / top * frame.plotHeight
            let title = hourTitle(hour)
            if focused > 0 { c.rect(x: x, y: frame.baseline - focused, width: w, height: focused, cls: "focus", title: title) }
            if distracted > 0 {
                c.rect(x: x, y: frame.baseline - focused - distracted, width: w, height: distracted, cls: "distracted", title: title)
            }
        }
        return c.svg(label: "Focused and distracted minutes by hour of the day", series: "focus distracted")
    }

    // MARK: Heatmaps

    /// A heatmap cell: its colour is the focus share, its size how much judged time it rests on —
    /// the full square from the highlights' minimum up, smaller below it (area in proportion), so
    /// a share from a few minutes cannot look as sure as one from hours.
    func shareCell(_ c: inout Canvas, x: Double, y: Double, side: Double, share: Double?, judged: Double, title: String) {
        guard let share, judged > 0 else {
            c.rect(x: x, y: y, width: side, height: side, cls: "empty", rx: 2.5, title: title)
            return
        }
        let scale = Self.cellScale(judged: judged, minimum: Double(report.highlights.minimumJudgedMinutes))
        let inset = side * (1 - scale) / 2
        c.rect(x: x + inset, y: y + inset, width: side * scale, height: side * scale, cls: "h\(Self.shareBin(share))", rx: 2.5 * scale, title: title)
    }

    /// The side of a cell's square, as a fraction of the full cell: its area grows with the judged
    /// minutes up to the minimum; never under a third, so the colour stays readable.
    static func cellScale(judged: Double, minimum: Double) -> Double {
        guard minimum > 0, judged < minimum else { return 1 }
        return max(1.0 / 3, (judged / minimum).squareRoot())
    }

    func cellTitle(_ name: String, share: Double?, judged: Double, focused: Double?) -> String {
        guard let share, judged > 0 else { return "\(name): no judged time" }
        var t = "\(name): \(percent(share)) focused over \(hoursMinutes(judged)) judged"
        if let focused { t += " (\(hoursMinutes(focused)) focused)" }
        return t
    }

    /// Focus share per weekday and hour.
    func heatmapChart() -> String {
        let left = Canvas.textWidth("Mon") + 12
        let top = 22.0
        let step = (Canvas.width - left - 1) / 24
        var c = Canvas(id: "heatmap", width: Canvas.width, height: top + 7 * step)
        c.axisLabels(stride(from: 0, to: 24, by: 3).map { (left + (Double($0) + 0.5) * step, hourLabel($0), true) }, y: 14, size: Canvas.smallSize)
        for w in 0..<7 {
            let y = top + Double(w) * step
            c.text(String(Statistics.weekdayNames[w].prefix(3)), x: Canvas.edge, y: y + step / 2 + 3.5)
            for h in 0..<24 {
                let judged = report.heatmapJudgedMinutes[w][h]
                let share = report.heatmapFocusShare[w][h]
                let title = cellTitle("\(Statistics.weekdayNames[w]) \(hourLabel(h))", share: share, judged: judged, focused: report.heatmap[w][h])
                shareCell(&c, x: left + Double(h) * step, y: y, side: step - 2, share: share, judged: judged, title: title)
            }
        }
        return c.svg(label: "Focus share by weekday and hour", series: "h0|h1|h2|h3|h4")
    }

    /// The weekly profile: one row per week, focus share in each hour of the day, the week's best
    /// hour ringed and named on the right.
    func profileChart(_ weeks: ArraySlice<Report.WeekFigure>) -> String {
        let labelSize = 12.0
        let left = Canvas.textWidth("2026-W42", size: labelSize) + 8
        let right = Canvas.textWidth("★ 23:00", size: labelSize) + 8
        let top = 22.0
        let step = (Canvas.width - left - right) / 24
        var c = Canvas(id: "profile", width: Canvas.width, height: top + Double(weeks.count) * step)
        c.axisLabels(stride(from: 0, to: 24, by: 3).map { (left + (Double($0) + 0.5) * step, hourLabel($0), true) }, y: 14, size: Canvas.smallSize)
        for (row, week) in weeks.enumerated() {
            let y = top + Double(row) * step
            c.text(week.week, x: Canvas.edge, y: y + step / 2 + 3, size: labelSize)
            for h in 0..<24 {
                var title = cellTitle("\(week.week) \(hourLabel(h))", share: week.hourFocusShare[h], judged: week.hourJudgedMinutes[h], focused: nil)
                if h == week.mostProductiveHour { title += " · the week's best hour" }
                shareCell(
                    &c, x: left + Double(h) * step, y: y, side: step - 2, share: week.hourFocusShare[h], judged: week.hourJudgedMinutes[h],
                    title: title)
            }
            if let best = week.mostProductiveHour {
                c.rect(x: left + Double(best) * step - 1, y: y - 1, width: step, height: step, cls: "ring", rx: 3)
                c.text("★ \(hourLabel(best))", x: Canvas.width - Canvas.edge, y: y + step / 2 + 3, anchor: .end, size: labelSize, cls: "strong")
            } else {
                c.text("–", x: Canvas.width - Canvas.edge, y: y + step / 2 + 3, anchor: .end, size: labelSize)
            }
        }
        return c.svg(label: "Focus share by week and hour of the day", series: "h0|h1|h2|h3|h4")
    }
}
