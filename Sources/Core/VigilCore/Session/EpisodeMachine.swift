/// An open episode's alarms: the escalation ladder (level N fires `escalation[N-1]` seconds after
/// the episode was confirmed), the last level repeating every `repeat_every`, and snoozes.
struct EpisodeMachine: Hashable, Sendable {
    /// The episode as it stands, its reason in words from the latest detail.
    var episode: Episode {
        get {
            var e = record
            if let detail { e.reason = detail.reason }
            return e
        }
        set {
            record = newValue
            detail = nil
        }
    }
    /// The episode's figures, its reason as last put into words. The evaluations while distracted
    /// keep the dominant scorer's detail (`detail`) instead of its words: formatting "no input for
    /// 12 min" at every tick of an episode took a seventh of an ActivityWatch export's replay. The
    /// words are made when something reads `episode` (an event, the live screen).
    var record: Episode
    /// The latest dominant detail, when it came after `record.reason`.
    var detail: (any ScoreDetail)?
    var firstAlarmAt: Timestamp?
    var lastAlarmAt: Timestamp?
    /// Repeats of the last level so far.
    var repeats = 0
    /// No alarm fires before this.
    var snoozedUntil: Timestamp?

    init(episode: Episode, firstAlarmAt: Timestamp? = nil, lastAlarmAt: Timestamp? = nil, repeats: Int = 0, snoozedUntil: Timestamp? = nil) {
        self.record = episode
        self.firstAlarmAt = firstAlarmAt
        self.lastAlarmAt = lastAlarmAt
        self.repeats = repeats
        self.snoozedUntil = snoozedUntil
    }

    static func == (a: EpisodeMachine, b: EpisodeMachine) -> Bool {
        a.episode == b.episode && a.firstAlarmAt == b.firstAlarmAt && a.lastAlarmAt == b.lastAlarmAt && a.repeats == b.repeats
            && a.snoozedUntil == b.snoozedUntil
    }
    func hash(into h: inout Hasher) {
        h.combine(episode)
        h.combine(firstAlarmAt)
        h.combine(lastAlarmAt)
        h.combine(repeats)
        h.combine(snoozedUntil)
    }

    /// Whether the alarms are still quiet at `now`. A snooze that is over is forgotten: the levels
    /// that fell due meanwhile fire, and the persistent level repeats again.
    mutating func isSnoozed(at now: Timestamp) -> Bool {
        guard let until = snoozedUntil else { return false }
        if now < until { return true }
        snoozedUntil = nil
        return false
    }

    /// When an alarm can next fire, as the last `escalate` left the machine: the end of a snooze,
    /// the next level, or the last level's next repeat; `nil` when none will.
    func nextAlarm(ladder: [Double], every: Double) -> Timestamp? {
        if let until = snoozedUntil { return until }
        if record.alarmLevel < ladder.count { return dueInstant(record.confirmedAt, after: ladder[record.alarmLevel]) }
        guard record.alarmLevel == ladder.count, let last = lastAlarmAt else { return nil }
        return dueInstant(last, after: every)
    }

    /// Raises the alarm one level if that level is due; returns the new level.
    mutating func raise(at now: Timestamp, ladder: [Double]) -> Int? {
        guard record.alarmLevel < ladder.count, now - record.confirmedAt >= ladder[record.alarmLevel] else { return nil }
        record.alarmLevel += 1
        firstAlarmAt = firstAlarmAt ?? now
        lastAlarmAt = now
        return record.alarmLevel
    }

    /// Repeats the last level if `every` seconds passed since the last alarm; returns the repeat's number.
    mutating func repeatLast(at now: Timestamp, levels: Int, every: Double) -> Int? {
        guard record.alarmLevel == levels, let last = lastAlarmAt, now - last >= every else { return nil }
        repeats += 1
        lastAlarmAt = now
        return repeats
    }
}
