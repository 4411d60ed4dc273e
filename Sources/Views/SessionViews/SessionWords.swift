import VigilCore

// The session's values in the words the timeline, the live screen and the log say them. The core
// keeps values (`StateReason`, `EpisodeCloser`, `SnoozeRefusal`); these words are the product's,
// and the log keeps them as they were written (tests hold them: TimelineWordsTests).

extension StateReason {
    /// Why the state changed, in words: "woke up after 2 h 5 min", "planned break".
    public var words: String {
        switch self {
        case .goingToSleep: "the computer is going to sleep"
        case .wokeUp(let seconds): "woke up after \(humanDuration(seconds))"
        case .samplesResumed(let seconds): "samples resumed after \(humanDuration(seconds))"
        case .paused(let kind): kind == .pause ? "paused by you" : "planned break"
        case .back(let kind): "back from \(kind == .pause ? "pause" : "break")"
        case .signal(let words): words
        }
    }
}

extension SnoozeRefusal {
    /// Why the snooze was refused, with what to do: "no snoozes left (3 per session, alarms.snoozes): …".
    public var words: String {
        switch self {
        case .noAlarm: "no alarm to snooze"
        case .alreadySnoozed(let seconds): "already snoozed: quiet for another \(humanDuration(seconds))"
        case .noneLeft(let allowed): "no snoozes left (\(allowed) per session, alarms.snoozes): back to work, or end the session"
        }
    }
}

extension EpisodeCloser {
    /// What ended the episode, in words: `break` → "on a break".
    public var words: String {
        switch self {
        case .back: "back"
        case .paused: "paused"
        case .onBreak: "on a break"
        case .gap: "no samples (the machine slept or Vigil was not running)"
        case .sleep: "the computer went to sleep"
        case .ended: "the session ended"
        case .interrupted: "Vigil stopped"
        }
    }
}
