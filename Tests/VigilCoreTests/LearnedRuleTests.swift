import Testing
import VigilTesting

@testable import VigilCore

/// Rules the person taught Vigil ("this was work"): each outranks exactly the rule it names, for
/// one application; a recorded application is judged as it would be now; and a rule learned
/// during a session ends the episode it was learned on at once.
@Suite struct LearnedRuleTests {
    static let youtubeIsWork = LearnedRule(appClass: "Firefox", insteadOf: "youtube", category: .work, learned: "2026-11-29")

    var taught: VigilConfiguration {
        var c = VigilConfiguration.default
        c.apps.learned = [Self.youtubeIsWork]
        return c
    }

    @Test func aLearnedRuleOutranksOnlyTheRuleItNames() {
        let apps = taught.apps
        #expect(apps.categorize(appClass: "firefox", title: "Lecture 4 - YouTube") == (.work, "learned: firefox (youtube)"))
        // Another site in the same browser, and YouTube in another browser: as the config says.
        #expect(apps.categorize(appClass: "firefox", title: "Cats - reddit") == (.distracting, "reddit"))
        #expect(apps.categorize(appClass: "chromium", title: "Lecture 4 - YouTube") == (.distracting, "youtube"))
        // Nothing learned: as before.
        #expect(VigilConfiguration.default.apps.categorize(appClass: "firefox", title: "Lecture 4 - YouTube") == (.distracting, "youtube"))
        // One learned where no rule matched (the fallback's) outranks the fallback only.
        var c = VigilConfiguration.default
        c.apps.learned = [LearnedRule(appClass: "newsreader", insteadOf: nil, category: .distracting, learned: "2026-11-29")]
        #expect(c.apps.categorize(appClass: "NewsReader", title: nil) == (.distracting, "learned: newsreader"))
        #expect(c.apps.categorize(appClass: "newsreader", title: "YouTube") == (.distracting, "youtube"))
    }

    @Test func aRecordedApplicationIsJudgedAsItWouldBeNow() {
        let recorded = AppFocus(appClass: "firefox", category: .distracting, rule: "youtube")
        let now = taught.apps.relearned(recorded)
        #expect(now?.category == .work && now?.rule == "learned: firefox (youtube)")
        #expect(taught.apps.relearned(AppFocus(appClass: "firefox", category: .distracting, rule: "reddit")) == nil)
        #expect(VigilConfiguration.default.apps.relearned(recorded) == nil)
    }

    /// The same 15 minutes in YouTube, typing all along: distracted without the rule; with it,
    /// focused throughout; and learned after the alarm, the episode ends there and then.
    @Test func aRuleLearnedDuringTheSessionEndsItsEpisodeAtOnce() {
        func run(_ configuration: VigilConfiguration, learnAt: Double? = nil) -> [SessionEvent] {
            var s = FocusSession(configuration: configuration)
            var events = s.start(at: epoch)
            let youtube = AppFocus(appClass: "firefox", category: .distracting, rule: "youtube")
            events += s.receive(Sample(time: at(0), payload: .app(youtube)))
            for t in stride(from: 5.0, through: 900, by: 5) {
                events += s.receive(Sample(time: at(t), payload: typing()))
                if t == learnAt { s.learn(Self.youtubeIsWork, current: youtube, at: at(t), into: &events) }
            }
            events += s.end(.user, at: at(900))
            return events
        }
        func alarms(_ events: [SessionEvent]) -> [Double] {
            events.compactMap { if case .alarm = $0.kind { $0.time - epoch } else { nil } }
        }
        let untaught = run(.default)
        #expect(!alarms(untaught).isEmpty, "YouTube for 15 minutes rings")
        #expect(alarms(run(taught)).isEmpty, "with the rule, it is work")
        let firstAlarm = alarms(untaught)[0]
        let learning = run(.default, learnAt: (firstAlarm / 5).rounded(.up) * 5)
        let after = alarms(learning).filter { $0 > firstAlarm + 5 }
        #expect(after.isEmpty, "no alarm after the rule was learned: \(alarms(learning))")
        let closed = learning.compactMap { e -> EpisodeCloser? in if case .episodeEnded(let ep) = e.kind { ep.closedBy } else { nil } }
        #expect(closed == [.back], "the episode ended with the person back at work")
    }
}
