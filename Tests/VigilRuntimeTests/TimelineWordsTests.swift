import SessionViews
import Testing
import VigilCore
import VigilTesting

/// The state machine says why with values (`EpisodeCloser`, `SnoozeRefusal`); the timeline says
/// them in words, and those words are the ones the timeline and the log held when the core wrote
/// them itself, so logs and recorded timelines read the same across versions.
@Suite struct TimelineWordsTests {
    let renderer = TimelineRenderer(sessionStart: testEpoch)

    @Test func snoozeRefusalsReadAsBefore() {
        func said(_ r: SnoozeRefusal) -> String? { renderer.text(SessionEvent(time: at(60), kind: .snoozeRefused(r))) }
        #expect(said(.noAlarm)?.hasSuffix("no snooze     no alarm to snooze") == true, "\(said(.noAlarm) ?? "")")
        #expect(said(.alreadySnoozed(seconds: 100))?.hasSuffix("already snoozed: quiet for another 1 min 40 s") == true)
        #expect(
            said(.noneLeft(allowed: 3))?.hasSuffix("no snoozes left (3 per session, alarms.snoozes): back to work, or end the session") == true)
        let json = renderer.json(SessionEvent(time: at(60), kind: .snoozeRefused(.noneLeft(allowed: 0))))
        #expect(json.contains(#""event":"snooze_refused","reason":"no snoozes left (0 per session, alarms.snoozes)"#), "\(json)")
    }

    @Test func closersKeepTheirNamesAndWords() {
        #expect(EpisodeCloser.allCases.map(\.rawValue) == ["back", "paused", "break", "gap", "sleep", "ended", "interrupted"])
        #expect(EpisodeCloser.onBreak.words == "on a break")
        #expect(EpisodeCloser.interrupted.words == "Vigil stopped")
        let cleared = renderer.text(SessionEvent(time: at(60), kind: .alarmCleared(level: 2, episode: 1, closedBy: .sleep, recoverySeconds: nil)))
        #expect(cleared?.hasSuffix("level 2 · the computer went to sleep") == true, "\(cleared ?? "")")
        let json = renderer.json(SessionEvent(time: at(60), kind: .alarmCleared(level: 2, episode: 1, closedBy: .onBreak, recoverySeconds: nil)))
        #expect(json.contains(#""closed_by":"break""#), "\(json)")
    }
}
