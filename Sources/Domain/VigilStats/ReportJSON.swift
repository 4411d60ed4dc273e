import Foundation

/// The report's JSON, field by field: keys in declaration order and snake_case, absent values as
/// `null` so every documented field is always there. A test holds these lists and Report's stored
/// properties in step.

extension Report.Totals: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("sessions", sessions)
        w.field("completed", completed)
        w.field("abandoned", abandoned)
        w.field("interrupted", interrupted)
        w.field("open", open)
        w.field("completion_rate", completionRate)
        w.field("active_minutes", activeMinutes)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("focus_share", focusShare)
        w.field("alarms", alarms)
        w.field("alarms_per_focused_hour", alarmsPerFocusedHour)
        w.field("recovery", recovery)
        w.field("overlap_minutes", overlapMinutes)
        w.field("tracked_sessions", trackedSessions)
        w.field("tracked_minutes", trackedMinutes)
    }
}

extension Report.Durations: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("count", count)
        w.field("mean_s", meanS)
        w.field("median_s", medianS)
        w.field("longest_s", longestS)
    }
}

extension Report.HourFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("hour", hour)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
        rates.writeFields(&w)
    }
}

extension Report.WeekdayFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("weekday", weekday)
        w.field("name", name)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
        rates.writeFields(&w)
    }
}

/// Written into the hour's or weekday's own object, not nested.
extension Report.Rates {
    func writeFields(_ w: inout JSONWriter) {
        w.field("judged_minutes", judgedMinutes)
        w.field("focus_share", focusShare)
        w.field("distracted_per_judged_hour", distractedPerJudgedHour)
        w.field("episodes_per_judged_hour", episodesPerJudgedHour)
        w.field("enough_data", enoughData)
    }
}

extension Report.PeriodFigures: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("from", from)
        w.field("to", to)
        w.field("sessions", sessions)
        w.field("completed", completed)
        w.field("completion_rate", completionRate)
        w.field("active_minutes", activeMinutes)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("focus_share", focusShare)
        w.field("episodes", episodes)
        w.field("alarms", alarms)
        w.field("procrastination_free_share", procrastinationFreeShare)
        w.field("most_productive_hour", mostProductiveHour)
        w.field("least_productive_hour", leastProductiveHour)
        w.field("most_procrastinated_hour", mostProcrastinatedHour)
    }
}

extension Report.TaskFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("task", task)
        w.field("sessions", sessions)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("focus_share", focusShare)
        w.field("episodes", episodes)
    }
}

extension Report.Highlights: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("most_productive_hour", mostProductiveHour)
        w.field("least_productive_hour", leastProductiveHour)
        w.field("most_productive_weekday", mostProductiveWeekday)
        w.field("least_productive_weekday", leastProductiveWeekday)
        w.field("most_procrastinated_hour", mostProcrastinatedHour)
        w.field("minimum_judged_minutes", minimumJudgedMinutes)
        w.field("hours_with_enough_data", hoursWithEnoughData)
        w.field("weekdays_with_enough_data", weekdaysWithEnoughData)
    }
}

extension Report.DayFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("weekday", weekday)
        w.field("sessions", sessions)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
        w.field("alarms", alarms)
        w.field("procrastination_free", procrastinationFree)
    }
}

extension Report.WeekFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("week", week)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("sessions", sessions)
        w.field("episodes", episodes)
        w.field("focus_share", focusShare)
        w.field("most_productive_hour", mostProductiveHour)
        w.field("least_productive_hour", leastProductiveHour)
        w.field("hour_judged_minutes", hourJudgedMinutes)
        w.field("hour_focus_share", hourFocusShare)
    }
}

extension Report.FreeDays: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("days_with_sessions", daysWithSessions)
        w.field("free_days", freeDays)
        w.field("share", share)
        w.field("longest_streak", longestStreak)
        w.field("longest_streak_from", longestStreakFrom)
        w.field("longest_streak_to", longestStreakTo)
        w.field("current_streak", currentStreak)
    }
}

extension Report.EpisodeFigures.Group: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("key", key)
        w.field("count", count)
        w.field("minutes", minutes)
        w.field("mean_s", meanS)
        w.field("longest_s", longestS)
    }
}

extension Report.EpisodeFigures: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("count", count)
        w.field("mean_s", meanS)
        w.field("longest_s", longestS)
        w.field("by_cause", byCause)
        w.field("by_task", byTask)
        w.field("by_hour", byHour)
    }
}

extension Report.StreakFigures.CalendarDay: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("free", free)
        w.field("streak", streak)
    }
}

extension Report.StreakFigures: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("current", current)
        w.field("best", best)
        w.field("score", score)
        w.field("best_score", bestScore)
        w.field("badge", badge)
        w.field("multiplier", multiplier)
        w.field("days_to_habit", daysToHabit)
        w.field("days_to_lifestyle", daysToLifestyle)
        w.field("messages", messages)
        w.field("calendar", calendar)
        w.field("today_so_far_free", todaySoFarFree)
    }
}

extension Report.Achievement: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("id", id)
        w.field("title", title)
        w.field("earned", earned)
        w.field("in_period", inPeriod)
    }
}

extension Report: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("schema", schema)
        w.field("time_zone", timeZone)
        w.field("from", from)
        w.field("to", to)
        w.field("task", task)
        w.field("tag", tag)
        w.field("totals", totals)
        w.field("hours", hours)
        w.field("weekdays", weekdays)
        w.field("heatmap", heatmap)
        w.field("heatmap_judged_minutes", heatmapJudgedMinutes)
        w.field("heatmap_focus_share", heatmapFocusShare)
        w.field("highlights", highlights)
        w.field("previous", previous)
        w.field("days", days)
        w.field("weeks", weeks)
        w.field("procrastination_free", procrastinationFree)
        w.field("episodes", episodes)
        w.field("streak", streak)
        w.field("tasks", tasks)
        w.field("achievements", achievements)
        w.field("applications", applications)
        w.field("sources", sources)
        w.field("devices", devices)
    }
}

extension Report.DeviceFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("device", device)
        w.field("sessions", sessions)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
    }
}

extension Report.SourceFigures: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("counted", counted)
        w.field("tracked", tracked)
        w.field("sessions", sessions)
    }
}

extension Report.SourceFigures.SourceCount: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("source", source)
        w.field("sessions", sessions)
        w.field("counted", counted)
        w.field("tracked", tracked)
    }
}

extension Report.ApplicationFigures: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("work_minutes", workMinutes)
        w.field("neutral_minutes", neutralMinutes)
        w.field("distracting_minutes", distractingMinutes)
        w.field("most_distracting", mostDistracting)
        w.field("calls", calls)
        w.field("call_minutes", callMinutes)
        w.field("apps", apps)
    }
}

extension Report.ApplicationFigures.AppFigure: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("category", category)
        w.field("minutes", minutes)
        w.field("stretches", stretches)
        w.field("episodes", episodes)
    }
}

extension Report.ApplicationFigures.AppMinutes: JSONObject {
    func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("minutes", minutes)
    }
}

/// A streaming JSON writer into bytes: pretty-printed with two-space indents, arrays of numbers on
/// one line. Foundation's JSONEncoder drops nil fields, and building Strings piece by piece was a
/// fifth of the whole report's time for years of days.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    private var first = true

    var text: String { String(decoding: bytes, as: UTF8.self) }

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func field(_ key: StaticString, _ value: some JSONValue) {
        if first {
            bytes.append(0x0A)
        } else {
            bytes.append(0x2C)
            bytes.append(0x0A)
        }
        first = false
        indent()
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
        bytes.append(0x20)
        value.write(&self)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(0x7B)
        depth += 1
        first = true
        body(&self)
        depth -= 1
        if !first {
            bytes.append(0x0A)
            indent()
        }
        bytes.append(0x7D)
        first = false
    }

    mutating func array<C: Collection>(_ items: C) where C.Element: JSONValue {
        if items.isEmpty {
            raw("[]")
            return
        }
        bytes.append(0x5B)
        if C.Element.self == Double.self || C.Element.self == Int.self || C.Element.self == Double?.self {
            var separate = false
            for item in items {
                if separate {
                    bytes.append(0x2C)
                    bytes.append(0x20)
                }
                item.write(&self)
                separate = true
            }
        } else {
            depth += 1
            var separate = false
            for item in items {
                if separate { bytes.append(0x2C) }
                bytes.append(0x0A)
                indent()
                item.write(&self)
                separate = true
            }
            depth -= 1
            bytes.append(0x0A)
            indent()
        }
        bytes.append(0x5D)
    }

    mutating func raw(_ s: StaticString) { s.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    mutating func integer(_ v: Int64) {
        if v < 0 { bytes.append(0x2D) }
        var m = v.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(m % 10) + 0x30
                m /= 10
                n += 1
            } while m > 0
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// At most four decimals, no trailing zeros, never exponent notation.
    mutating func decimal(_ v: Double) {
        guard v.isFinite else {
            raw("null")
            return
        }
        guard abs(v) < 1e14 else {
            bytes.append(contentsOf: String(format: "%.0f", v).utf8)
            return
        }
        let scaled = Int64((abs(v) * 10_000).rounded())
        if v < 0 && scaled != 0 { bytes.append(0x2D) }
        integer(scaled / 10_000)
        var fraction = scaled % 10_000
        guard fraction != 0 else { return }
        var digits = 4
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(0x2E)
        var scale: Int64 = 1
        for _ in 1..<digits { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(fraction / scale % 10) + 0x30)
            scale /= 10
        }
    }

    /// A string literal. Controls a terminal would act on (`isTerminalControl`) are `\u` escapes,
    /// as `jsonString` writes them: the same string for a reader, inert on a screen.
    mutating func string(_ s: String) {
        bytes.append(0x22)
        for scalar in s.unicodeScalars {
            guard scalar.isASCII else {
                if scalar.isTerminalControl { unicodeEscape(scalar.value) } else { bytes.append(contentsOf: UTF8.encode(scalar)!) }
                continue
            }
            let u = UInt8(scalar.value)
            switch u {
            case 0x22:
                bytes.append(0x5C)
                bytes.append(0x22)
            case 0x5C:
                bytes.append(0x5C)
                bytes.append(0x5C)
            case 0x0A:
                bytes.append(0x5C)
                bytes.append(0x6E)
            case 0x0D:
                bytes.append(0x5C)
                bytes.append(0x72)
            case 0x09:
                bytes.append(0x5C)
                bytes.append(0x74)
            case ..<0x20, 0x7F: unicodeEscape(scalar.value)
            default: bytes.append(u)
            }
        }
        bytes.append(0x22)
    }

    /// `\u001b`: four hex digits (every control is in the Basic Multilingual Plane).
    private mutating func unicodeEscape(_ value: UInt32) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, 0x75])
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int(value >> UInt32(shift) & 15)]) }
    }

    private mutating func indent() {
        for _ in 0..<depth {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }
}

protocol JSONValue {
    func write(_ w: inout JSONWriter)
}

protocol JSONObject: JSONValue {
    func writeFields(_ w: inout JSONWriter)
}

extension JSONObject {
    func write(_ w: inout JSONWriter) { w.object { writeFields(&$0) } }
}

extension Int: JSONValue {
    func write(_ w: inout JSONWriter) { w.integer(Int64(self)) }
}

extension Double: JSONValue {
    func write(_ w: inout JSONWriter) { if isFinite { w.decimal(self) } else { w.raw("null") } }
}

extension Bool: JSONValue {
    func write(_ w: inout JSONWriter) { if self { w.raw("true") } else { w.raw("false") } }
}

extension String: JSONValue {
    func write(_ w: inout JSONWriter) { w.string(self) }
}

extension Optional: JSONValue where Wrapped: JSONValue {
    func write(_ w: inout JSONWriter) {
        if let v = self { v.write(&w) } else { w.raw("null") }
    }
}

extension Array: JSONValue where Element: JSONValue {
    func write(_ w: inout JSONWriter) { w.array(self) }
}
