import Foundation
import VigilCore
import VigilStats

/// The report's JSON, field by field (written by VigilCore's `JSONWriter`): keys in declaration order and snake_case, absent values as
/// `null` so every documented field is always there. A test holds these lists and Report's stored
/// properties in step.

extension Report.Totals: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
        w.field("recovery_after_action", recoveryAfterAction)
        w.field("recovery_after_alarm_alone", recoveryAfterAlarmAlone)
        w.field("overlap_minutes", overlapMinutes)
        w.field("tracked_sessions", trackedSessions)
        w.field("tracked_minutes", trackedMinutes)
    }
}

extension Report.Durations: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("count", count)
        w.field("mean_s", meanS)
        w.field("median_s", medianS)
        w.field("longest_s", longestS)
    }
}

extension Report.HourFigure: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("hour", hour)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
        rates.writeFields(&w)
    }
}

extension Report.WeekdayFigure: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
        w.field("judged_minutes", judgedMinutes)
        w.field("focus_share", focusShare)
        w.field("distracted_per_judged_hour", distractedPerJudgedHour)
        w.field("episodes_per_judged_hour", episodesPerJudgedHour)
        w.field("enough_data", enoughData)
    }
}

extension Report.PeriodFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
        w.field("task", task)
        w.field("sessions", sessions)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("focus_share", focusShare)
        w.field("episodes", episodes)
    }
}

extension Report.Highlights: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
        w.field("key", key)
        w.field("count", count)
        w.field("minutes", minutes)
        w.field("mean_s", meanS)
        w.field("longest_s", longestS)
    }
}

extension Report.EpisodeFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("count", count)
        w.field("mean_s", meanS)
        w.field("longest_s", longestS)
        w.field("by_cause", byCause)
        w.field("by_task", byTask)
        w.field("by_hour", byHour)
    }
}

extension Report.StreakFigures.CalendarDay: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("date", date)
        w.field("free", free)
        w.field("streak", streak)
    }
}

extension Report.StreakFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
        w.field("id", id)
        w.field("title", title)
        w.field("earned", earned)
        w.field("in_period", inPeriod)
    }
}

extension Report: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
        w.field("intentions", intentions)
        w.field("relabelled", relabelled)
        w.field("whole_day", wholeDay)
        w.field("goals", goals)
        w.field("scheduled_blocks", scheduledBlocks)
    }
}

extension Report.IntentionFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("sessions", sessions)
        w.field("done", done)
        w.field("partly", partly)
        w.field("not_done", notDone)
        w.field("unanswered", unanswered)
        w.field("kept_share", keptShare)
        w.field("focus_share_done", focusShareDone)
        w.field("focus_share_not_done", focusShareNotDone)
    }
}

extension Report.RelabelledFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("labels", labels)
        w.field("minutes", minutes)
        w.field("false_alarms", falseAlarms)
    }
}

extension Report.RelabelledFigures.FalseAlarmWeek: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("week", week)
        w.field("false_alarms", falseAlarms)
        w.field("rules_learned", rulesLearned)
    }
}

extension Report.RelabelledFigures.LabelFigure: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("label", label)
        w.field("counted_as", countedAs)
        w.field("episodes", episodes)
        w.field("minutes", minutes)
    }
}

extension Report.DeviceFigure: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("device", device)
        w.field("sessions", sessions)
        w.field("focused_minutes", focusedMinutes)
        w.field("distracted_minutes", distractedMinutes)
        w.field("episodes", episodes)
    }
}

extension Report.SourceFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("counted", counted)
        w.field("tracked", tracked)
        w.field("sessions", sessions)
    }
}

extension Report.SourceFigures.SourceCount: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("source", source)
        w.field("sessions", sessions)
        w.field("counted", counted)
        w.field("tracked", tracked)
    }
}

extension Report.ApplicationFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
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
    public func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("category", category)
        w.field("minutes", minutes)
        w.field("stretches", stretches)
        w.field("episodes", episodes)
    }
}

extension Report.ApplicationFigures.AppMinutes: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("minutes", minutes)
    }
}
