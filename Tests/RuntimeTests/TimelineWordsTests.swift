import SessionViews
import Testing
import VigilCore
import VigilTesting

/// The state machine says why with values (`StateReason`, `EpisodeCloser`, `SnoozeRefusal`); the timeline says
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

    @Test func stateReasonsReadAsBefore() {
        let words: [(StateReason, String)] = [
            (.goingToSleep, "the computer is going to sleep"), (.wokeUp(afterSeconds: 7500), "woke up after 2 h 05 min"),
            (.samplesResumed(afterSeconds: 95), "samples resumed after 1 min 35 s"), (.paused(.pause), "paused by you"),
            (.paused(.breakTime), "planned break"), (.back(from: .pause), "back from pause"), (.back(from: .breakTime), "back from break"),
            (.signal("no input for 4 min"), "no input for 4 min"),
        ]
        for (reason, said) in words { #expect(reason.words == said) }
        let back = SessionEvent(time: at(60), kind: .stateChanged(from: .paused(.breakTime), to: .focused, score: 0, reason: .back(from: .breakTime)))
        #expect(renderer.text(back)?.hasSuffix("focused       back from break") == true, "\(renderer.text(back) ?? "")")
        let woke = SessionEvent(time: at(60), kind: .stateChanged(from: .distracted, to: .focused, score: 0.25, reason: .wokeUp(afterSeconds: 3600)))
        #expect(renderer.json(woke).contains(#""reason":"woke up after 1 h 00 min""#), "\(renderer.json(woke))")
    }
}
