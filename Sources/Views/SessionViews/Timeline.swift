import VigilCore

/// Renders session events for people (text) and for programs (JSON Lines).
///
/// Times in the text form are elapsed since the session started, so the output of a replay does not
/// depend on the machine's time zone; the JSON form carries the absolute UTC time as well.
/// The JSON field names are stable and documented in docs/timeline-json.md.
public struct TimelineRenderer: Sendable {
    public let sessionStart: Timestamp
    /// A replay's: the actions (`hide`, `pause_media`…) an alarm of this level and cause would
    /// have set off in a live session. A replay never acts; its alarm lines say what would have
    /// been done ("would hide"). Nil for a live session, whose actions are its own lines.
    public let wouldAct: (@Sendable (_ level: Int, _ cause: Cause) -> [AlarmChannel])?

    public init(sessionStart: Timestamp, wouldAct: (@Sendable (_ level: Int, _ cause: Cause) -> [AlarmChannel])? = nil) {
        self.sessionStart = sessionStart
        self.wouldAct = wouldAct
    }

    /// "pause media, hide" for the actions an alarm would set off; nil for none.
    private func wouldActWords(_ level: Int, _ cause: Cause) -> String? {
        guard let actions = wouldAct?(level, cause), !actions.isEmpty else { return nil }
        return actions.map { $0.rawValue.replacingOccurrences(of: "_", with: " ") }.joined(separator: ", ")
    }

    /// The text line for an event, or `nil` for events the text form folds into others
    /// (entering `distracted`, an alarm level, or `ended` are told by their own lines).
    public func text(_ e: SessionEvent) -> String? {
        let at = clockDuration(e.time - sessionStart)
        // The detail carries outside text (the task, a reason naming an application, a sensor's
        // own words from a recording): on one line, inert in a terminal.
        func line(_ label: String, _ detail: String) -> String {
            // Labels are Vigil's own ASCII words: their bytes are their columns.
            let width = label.utf8.count
            let padded = width >= 13 ? label + " " : label + String(repeating: " ", count: 13 - width) + " "
            return "\(at)  \(padded)\(detail.terminalSafe)"
        }
        switch e.kind {
        case .sessionStarted(let task, let planned):
            let t = task.map { "task \"\($0)\"" } ?? "no task"
            let p = planned.map { "planned \(humanDuration($0))" } ?? "runs to the end of the recording"
            return line("started", "\(t) · \(p)")
        case .stateChanged(let from, let to, let score, let why):
            let reason = why?.words
            switch to {
            case .distracted, .alarm, .ended, .planned: return nil
            case .focused where from == .planned: return nil
            default: break
            }
            var detail = "score \(fixed2(score))"
            if let r = reason { detail += " · \(r)" }
            if case .paused = to { detail = reason ?? "" }
            if case .paused = from, let r = reason { detail = r }
            return line(to.description, detail)
        case .episodeStarted(let ep):
            return line(
                "distracted",
                "episode \(ep.number) · \(ep.cause.rawValue) since \(clockDuration(ep.start - sessionStart)) · \(ep.reason) · score \(fixed2(ep.peakScore))"
            )
        case .episodeEnded(let ep):
            let verb: String
            switch ep.closedBy {
            case .back: verb = "back to work"
            default: verb = "episode closed"
            }
            let how = ep.closedBy.map { $0 == .back ? "" : " (\($0.rawValue))" } ?? ""
            return line(
                verb, "episode \(ep.number) lasted \(humanDuration(ep.duration ?? 0))\(how) · \(ep.cause.rawValue) · peak \(fixed2(ep.peakScore))")
        case .alarm(let level, let rep, _, let cause, let reason):
            let would = wouldActWords(level, cause).map { " · would \($0)" } ?? ""
            return line(rep == 0 ? "alarm \(level)" : "alarm \(level) again", (rep == 0 ? reason : "\(reason) · repeat \(rep)") + would)
        case .alarmCleared(let level, _, let closedBy, let recovery):
            // Only a return to work is a recovery; otherwise the alarm stops for another reason.
            guard let recovery else { return line("alarm off", "level \(level) · \(closedBy.words)") }
            return line("alarm cleared", "level \(level) · back after \(humanDuration(recovery))")
        case .alarmSnoozed(let level, _, let until, let left):
            return line("snoozed", "alarm \(level) quiet for \(humanDuration(until - e.time)) · \(left) snooze\(left == 1 ? "" : "s") left")
        case .snoozeRefused(let refusal):
            return line("no snooze", refusal.words)
        case .sensorStatus(let s):
            let d = s.detail.isEmpty ? "" : " · \(s.detail)"
            return line("sensor", "\(s.sensor.rawValue) \(String(s.state.rawValue.map { $0 == "_" ? " " : $0 }))\(d)")
        case .gap(_, let seconds):
            return line("gap", "no samples for \(humanDuration(seconds)): the machine slept or Vigil was not running")
        case .activity(let span):
            // Time in each application is for the reports (and the JSON form); calls are told.
            guard case .call = span.activity else { return nil }
            return line("call", "\(humanDuration(span.seconds)) on a call, since \(clockDuration(span.start - sessionStart))")
        case .sessionEnded(let s):
            var parts = [s.outcome.rawValue, "focused \(humanDuration(s.focusedSeconds))", "distracted \(humanDuration(s.distractedSeconds))"]
            parts += pauseParts(s)
            if s.gapSeconds > 0 { parts.append("gaps \(humanDuration(s.gapSeconds))") }
            parts.append(s.episodes == 1 ? "1 episode" : "\(s.episodes) episodes")
            parts.append(s.alarms == 1 ? "1 alarm" : "\(s.alarms) alarms")
            return line("ended", parts.joined(separator: " · "))
        }
    }

    /// One JSON object for an event (no newline).
    /// What an action did on the person's desktop (issue 36; a live session's alarm delivery
    /// that says what it did), as a line of the timeline: `action` and what was done.
    public func text(_ d: AlarmDelivery) -> String {
        let label = "action"
        return "\(clockDuration(d.time - sessionStart))  \(label)" + String(repeating: " ", count: 14 - label.count) + d.detail.terminalSafe
    }

    /// The same as a JSON Lines object: `{"event": "action", "channel", "done", "episode",
    /// "level", "detail"}`, `done` being `fired` or `cleared` (docs/timeline-json.md).
    public func json(_ d: AlarmDelivery) -> String {
        var w = JSONWriter(style: .compact, capacity: 192)
        w.object { w in
            w.field("time", stamp(d.time))
            w.field("elapsed", seconds(d.time - sessionStart))
            w.field("event", "action")
            w.field("channel", d.channel.rawValue)
            w.field("done", d.action.rawValue)
            w.field("episode", d.episode)
            w.field("level", d.level)
            w.field("detail", d.detail)
        }
        return w.text
    }

    public func json(_ e: SessionEvent) -> String {
        var w = JSONWriter(style: .compact, capacity: 256)
        w.object { w in
            w.field("time", stamp(e.time))
            w.field("elapsed", seconds(e.time - sessionStart))
            switch e.kind {
            case .sessionStarted(let task, let planned):
                w.field("event", "session_started")
                w.field("task", task)
                w.field("planned", planned.map(seconds))
            case .stateChanged(let from, let to, let score, let reason):
                w.field("event", "state")
                w.field("from", from.name)
                w.field("to", to.name)
                if case .alarm(let l) = to { w.field("level", l) }
                if case .ended(let o) = to { w.field("outcome", o.rawValue) }
                w.field("score", score3(score))
                w.field("reason", reason?.words)
            case .episodeStarted(let ep):
                w.field("event", "episode_started")
                w.field("episode", ep.number)
                w.field("cause", ep.cause.rawValue)
                w.field("since", stamp(ep.start))
                w.field("since_elapsed", seconds(ep.start - sessionStart))
                w.field("score", score3(ep.peakScore))
                w.field("reason", ep.reason)
            case .episodeEnded(let ep):
                w.field("event", "episode_ended")
                w.field("episode", ep.number)
                w.field("cause", ep.cause.rawValue)
                w.field("since", stamp(ep.start))
                w.field("since_elapsed", seconds(ep.start - sessionStart))
                w.field("duration", seconds(ep.duration ?? 0))
                w.field("peak", score3(ep.peakScore))
                w.field("alarm_level", ep.alarmLevel)
                w.field("closed_by", ep.closedBy?.rawValue)
                w.field("reason", ep.reason)
            case .alarm(let level, let rep, let episode, let cause, let reason):
                w.field("event", "alarm")
                w.field("level", level)
                w.field("repeat", rep)
                w.field("episode", episode)
                w.field("cause", cause.rawValue)
                w.field("reason", reason)
                if let actions = wouldAct?(level, cause), !actions.isEmpty { w.field("would_act", actions.map(\.rawValue)) }
            case .alarmCleared(let level, let episode, let closedBy, let recovery):
                w.field("event", "alarm_cleared")
                w.field("level", level)
                w.field("episode", episode)
                w.field("closed_by", closedBy.rawValue)
                w.field("recovery", recovery.map(seconds))
            case .alarmSnoozed(let level, let episode, let until, let left):
                w.field("event", "alarm_snoozed")
                w.field("level", level)
                w.field("episode", episode)
                w.field("until", stamp(until))
                w.field("left", left)
            case .snoozeRefused(let refusal):
                w.field("event", "snooze_refused")
                w.field("reason", refusal.words)
            case .sensorStatus(let s):
                w.field("event", "sensor")
                w.field("sensor", s.sensor.rawValue)
                w.field("state", s.state.rawValue)
                w.field("detail", s.detail)
            case .gap(let from, let secs):
                w.field("event", "gap")
                w.field("from", stamp(from))
                w.field("duration", seconds(secs))
            case .activity(let span):
                w.field("event", "activity")
                switch span.activity {
                case .app(let appClass, let category, _):
                    w.field("activity", "app")
                    w.field("app_class", appClass)
                    w.field("category", category.rawValue)
                case .call:
                    w.field("activity", "call")
                }
                w.field("from", stamp(span.start))
                w.field("duration", seconds(span.seconds))
            case .sessionEnded(let s):
                w.field("event", "session_ended")
                w.field("outcome", s.outcome.rawValue)
                w.field("active", seconds(s.activeSeconds))
                w.field("focused", seconds(s.focusedSeconds))
                w.field("distracted", seconds(s.distractedSeconds))
                w.field("paused", seconds(s.pausedSeconds))
                w.field("on_break", seconds(s.breakSeconds))
                w.field("gaps", seconds(s.gapSeconds))
                w.field("episodes", s.episodes)
                w.field("alarms", s.alarms)
            }
        }
        return w.text
    }

    /// An instant as the timeline writes it (docs/timeline-json.md): UTC, cut to whole
    /// milliseconds (a live session's clock has nanoseconds; its JSON does not).
    private func stamp(_ t: Timestamp) -> String {
        let ns = t.nanoseconds
        let ms = ns >= 0 ? ns / 1_000_000 : -((-ns + 999_999) / 1_000_000)
        return Timestamp(milliseconds: ms).description
    }

    /// Seconds with millisecond precision, as a JSON number.
    private func seconds(_ s: Double) -> JSONValue { .exact((s * 1000).rounded() / 1000) }
    private func score3(_ s: Double) -> JSONValue { .exact((s * 1000).rounded() / 1000) }
}

/// The time a session was paused and on breaks, as summary parts: "paused 2 min", "on break 5 min".
public func pauseParts(_ s: SessionSummary) -> [String] {
    var parts: [String] = []
    let paused = max(0, s.pausedSeconds - s.breakSeconds)
    if paused > 0 { parts.append("paused \(humanDuration(paused))") }
    if s.breakSeconds > 0 { parts.append("on break \(humanDuration(s.breakSeconds))") }
    return parts
}

/// `0.34`: two decimals without Foundation's locale-dependent formatting.
func fixed2(_ v: Double) -> String {
    let hundredths = Int(saturating: (v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let a = abs(hundredths)
    return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
}
