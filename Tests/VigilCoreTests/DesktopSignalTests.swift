import Testing
import VigilTesting

@testable import VigilCore

/// The desktop signals as the state machine judges them: the desktop's idle time and lock, sleep,
/// the application in front, calls and playback, and which cause explains an episode when several
/// hold. Stepped with explicit instants, as every core test.
@Suite struct DesktopSignalTests {
    let config = VigilConfiguration.default

    func desktop(_ e: DesktopEvent) -> SamplePayload { .desktop(e) }
    func app(_ cls: String, _ category: AppCategory, rule: String? = nil) -> SamplePayload {
        .app(AppFocus(appClass: cls, category: category, rule: rule))
    }
    func media(calls: Int = 0, playing: Int = 0) -> SamplePayload { .media(MediaActivity(calls: calls, playing: playing)) }

    /// Feeds the desktop's idle time every second over `[from, to]`, with input at the instants
    /// `active` says; returns every event.
    func desktopIdle(_ s: inout FocusSession, _ from: Double, _ to: Double, lastInput: inout Double, active: (Double) -> Bool = { _ in false })
        -> [SessionEvent]
    {
        var events: [SessionEvent] = []
        var t = from
        while t <= to {
            if active(t) { lastInput = t }
            events += s.receive(Sample(time: at(t), payload: desktop(.idle(t - lastInput))))
            t += 1
        }
        return events
    }

    /// A session started at the epoch with the person typing (as the desktop sees it) until `until`.
    func typingUntil(_ until: Double, _ configuration: VigilConfiguration? = nil) -> FocusSession {
        var s = FocusSession(configuration: configuration ?? config)
        _ = s.start(at: epoch)
        var last = 0.0
        _ = desktopIdle(&s, 1, until, lastInput: &last, active: { _ in true })
        return s
    }

    /// Away since 10 s, a single touch of the mouse at 300 s is not enough to be back: the alarms
    /// after it say both figures, so the reason agrees with the idle time the screen shows beside it
    /// (it said "no input for 7 min" beside "idle 3 min").
    @Test func aTouchWhileAwayIsInTheReasonBesideTheAwayTime() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var last = 0.0
        let events = desktopIdle(&s, 1, 600, lastInput: &last, active: { $0 <= 10 || $0 == 300 })
        let reasons = events.compactMap { e -> (Double, String)? in
            if case .alarm(_, _, _, _, let reason) = e.kind { (e.time - epoch, reason) } else { nil }
        }
        let before = reasons.filter { $0.0 < 300 }
        let after = reasons.filter { $0.0 > 300 }
        #expect(!before.isEmpty && before.allSatisfy { $0.1.hasPrefix("no input for ") }, "\(before)")
        #expect(!after.isEmpty, "\(reasons)")
        for (t, reason) in after {
            let away = reasonDuration(t - 10)
            let touch = reasonDuration(t - 300)
            #expect(reason == "away for \(away), last input \(touch) ago", "at \(t) s")
        }
    }

    @Test func theDesktopsIdleTimeAloneJudgesAbsenceAsLibinputDoes() {
        // No libinput at all (no `input` group): its detector says so, and the desktop is enough.
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events = s.receive(
            Sample(time: at(0.5), payload: .status(SensorStatus(sensor: .input, state: .permissionDenied, detail: "not in the input group"))))
        var last = 0.0
        events += desktopIdle(&s, 1, 400, lastInput: &last, active: { $0 <= 10 })
        // Last input at 10 s; the idle score reaches 0.6 at 10 + 120 + 108 = 238, confirmed 10 s later.
        let e = events.episodesStarted.first
        #expect(e?.cause == .away)
        #expect(e?.start == at(10))
        #expect(e?.confirmedAt == at(248))
        #expect(e?.reason == "no input for 3 min 58 s")
    }

    @Test func inputSeenByEitherSourceIsPresence() {
        // libinput follows only some devices: its windows say idle, while the desktop saw typing.
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        for t in stride(from: 1.0, through: 600, by: 1) {
            if Int(t) % 5 == 0 { events += s.receive(Sample(time: at(t), payload: idleWindow(t))) }
            events += s.receive(Sample(time: at(t), payload: desktop(.idle(0.3))))
        }
        #expect(events.episodesStarted.isEmpty)
        #expect(s.state == .focused)
    }

    @Test func aLockedScreenIsAwayAtOnceAndUnlockingIsBack() {
        var s = typingUntil(30)
        var events = s.receive(Sample(time: at(30.2), payload: desktop(.locked)))
        // No grace period, no confirmation: an episode dated at the lock, at once.
        let e = events.episodesStarted.first
        #expect(e?.cause == .away)
        #expect(e?.start == at(30.2))
        #expect(e?.confirmedAt == at(30.2))
        #expect(e?.reason == "screen locked for 0 s")
        // The desktop goes on telling the idle time while the screen is locked.
        for t in stride(from: 31.0, through: 399, by: 1) { events += s.receive(Sample(time: at(t), payload: desktop(.idle(t - 30)))) }
        // Level 1, 30 s after the lock: at the first sample from then.
        #expect(events.alarms.first?.time == at(61))
        events = s.receive(Sample(time: at(400), payload: desktop(.unlocked)))
        #expect(events.episodesEnded.first?.end == at(400))
        #expect(events.episodesEnded.first?.reason == "screen locked for 6 min 8 s")
        #expect(s.state == .focused)
    }

    @Test func theLockExplainsTheEpisodeEvenWhenIdleScoresToo() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var last = 0.0
        var events = desktopIdle(&s, 1, 200, lastInput: &last)  // drifting: no input for 200 s
        #expect(s.state == .drifting)
        events = s.receive(Sample(time: at(201), payload: desktop(.locked)))
        #expect(events.episodesStarted.first?.reason == "screen locked for 0 s")
        #expect(events.episodesStarted.first?.start == at(201), "dated at the lock: that is when the person was surely gone")
    }

    @Test func lockIsAwayCanBeSwitchedOff() {
        var c = config
        c.desktop.lockIsAway = false
        var s = typingUntil(30, c)
        let events = s.receive(Sample(time: at(31), payload: desktop(.locked)))
        #expect(events.episodesStarted.isEmpty)
        #expect(s.state == .focused)
    }

    @Test func sleepIsAGapFromTheSignalNotFromWhenSamplesStop() {
        var s = typingUntil(100)
        var events = s.receive(Sample(time: at(100.5), payload: desktop(.sleeping)))
        // The suspend takes a few seconds: samples and ticks in between are not judged or booked.
        events += s.receive(Sample(time: at(101), payload: desktop(.idle(0.5))))
        events += s.tick(at: at(102))
        events += s.receive(Sample(time: at(3700), payload: desktop(.woke)))
        let gaps = events.compactMap { if case .gap(let from, let seconds) = $0.kind { (from, seconds) } else { nil } }
        #expect(gaps.count == 1)
        #expect(gaps.first?.0 == at(100.5))
        #expect(gaps.first?.1 == 3599.5)
        #expect(events.states == [.focused] || events.states.isEmpty)
        // Judged again from the wake-up: the hour asleep is not idle time.
        var last = 3700.0
        events = desktopIdle(&s, 3701, 3800, lastInput: &last, active: { _ in true })
        #expect(events.episodesStarted.isEmpty)
        let summary = s.end(.user, at: at(3800)).summary
        #expect(summary?.gapSeconds == 3599.5)
        #expect(abs((summary?.activeSeconds ?? 0) - 200.5) < 1e-6)
    }

    @Test func sleepEndsAnOpenEpisodeAtTheSignal() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(1), payload: desktop(.locked)))
        #expect(s.state.isDistracted)
        let events = s.receive(Sample(time: at(50), payload: desktop(.sleeping)))
        #expect(events.episodesEnded.first?.end == at(50))
        #expect(events.episodesEnded.first?.closedBy == .sleep)
    }

    @Test func timeInADistractingApplicationOpensAnAppEpisode() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        events += s.receive(Sample(time: at(1), payload: app("code", .work, rule: "editors")))
        events += s.receive(Sample(time: at(100), payload: app("firefox", .distracting, rule: "youtube")))
        var last = 0.0
        // Typing and scrolling all along: active, but in the wrong place.
        events += desktopIdle(&s, 101, 400, lastInput: &last, active: { _ in true })
        let e = events.episodesStarted.first
        #expect(e?.cause == .app)
        #expect(e?.start == at(100))
        // Score (t - 100 - 60) / 120, weighted 0.9, reaches 0.6 at 240; confirmed at 250.
        #expect(e?.confirmedAt == at(250))
        #expect(e?.reason == "2 min 30 s in firefox — youtube (distracting)")
        events = s.receive(Sample(time: at(401), payload: app("code", .work, rule: "editors")))
        #expect(events.episodesEnded.first?.end == at(401))
        #expect(events.episodesEnded.first?.reason == "5 min in firefox — youtube (distracting)")
    }

    @Test func movingBetweenDistractingApplicationsIsOneStretch() {
        var scorer = AppScorer(config: config.apps)
        scorer.observe(.app(AppFocus(appClass: "firefox", category: .distracting, rule: "youtube")), at: at(0))
        scorer.observe(.app(AppFocus(appClass: "discord", category: .distracting, rule: "chat")), at: at(100))
        #expect(scorer.assess(at: at(180))?.since == at(0))
        #expect(scorer.assess(at: at(180))?.reason == "3 min in discord — chat (distracting)")
        scorer.observe(.app(AppFocus(appClass: "xterm", category: .work)), at: at(200))
        #expect(scorer.score(at: at(1000)) == 0)
        #expect(scorer.isQuiet)
    }

    @Test func focusChangesCountAsSwitchesAndGesturesNoLongerDouble() {
        var scorer = SwitchingScorer(config: config.switching, countsFocus: true)
        // Before any app sample, gestures count as before.
        scorer.observe(typing(switches: AppSwitches(altTab: 2)), at: at(1))
        #expect(scorer.assess(at: at(1))?.detail as? SwitchDetail == SwitchDetail(count: 2, window: 120))
        let classes = ["code", "firefox", "code", "discord", "code", "firefox", "firefox", "code"]
        for (i, c) in classes.enumerated() {
            scorer.observe(.app(AppFocus(appClass: c, category: .neutral)), at: at(10 + Double(i)))
            // The Alt+Tab that made the change, seen by libinput too: not counted again.
            scorer.observe(typing(switches: AppSwitches(altTab: 1, ctrlTab: i == 0 ? 1 : 0)), at: at(10.5 + Double(i)))
        }
        // 2 gestures before, then 6 changes (firefox -> firefox is none), then one Ctrl+Tab.
        #expect((scorer.assess(at: at(20))?.detail as? SwitchDetail)?.count == 2 + 6 + 1)
        // Off: focus changes are ignored and gestures count.
        var off = SwitchingScorer(config: config.switching, countsFocus: false)
        for (i, c) in classes.enumerated() { off.observe(.app(AppFocus(appClass: c, category: .neutral)), at: at(Double(i))) }
        #expect(off.isQuiet)
        #expect(off.sensors == [.input])
    }

    @Test func aCallIsPresenceAndSilencesTheRoom() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events = s.receive(Sample(time: at(1), payload: media(calls: 1)))
        var last = 0.0
        for t in stride(from: 2.0, through: 900, by: 1) {
            // A meeting: no keyboard for 15 minutes, and a loud room (the person's own voice).
            events += s.receive(Sample(time: at(t), payload: desktop(.idle(t - last))))
            events += s.receive(Sample(time: at(t), payload: .audio(AudioLevel(rms: -12, peak: -3, shortTermLUFS: -14))))
        }
        #expect(events.episodesStarted.isEmpty)
        #expect(s.score == 0)
        // The call ends: the idle clock starts from its end, and the room counts again.
        events = s.receive(Sample(time: at(901), payload: media(calls: 0)))
        last = 0
        for t in stride(from: 902.0, through: 1300, by: 1) {
            events += s.receive(Sample(time: at(t), payload: desktop(.idle(t - last))))
        }
        let e = events.episodesStarted.first
        #expect(e?.cause == .away)
        #expect(e?.start == at(901), "the person was there until the call ended")
    }

    /// A meeting in the person's calendar (issue 38) is presence, as a call is: no away alarm in it,
    /// and its talk is no noisy room; the idle clock starts at its end. Without the meeting, the
    /// same quarter of an hour is an episode.
    @Test func aMeetingInTheCalendarIsPresenceAsACallIs() {
        func quarterHour(meeting: Bool) -> [SessionEvent] {
            var s = FocusSession(configuration: config)
            _ = s.start(at: epoch)
            var events: [SessionEvent] = []
            if meeting { events += s.receive(Sample(time: at(1), payload: .reading(SignalReading(sensor: .calendar, value: 1)))) }
            for t in stride(from: 2.0, through: 900, by: 1) {
                events += s.receive(Sample(time: at(t), payload: desktop(.idle(t))))
                events += s.receive(Sample(time: at(t), payload: .audio(AudioLevel(rms: -12, peak: -3, shortTermLUFS: -14))))
            }
            if meeting {
                #expect(events.episodesStarted.isEmpty, "in the meeting")
                events += s.receive(Sample(time: at(901), payload: .reading(SignalReading(sensor: .calendar, value: 0))))
                for t in stride(from: 902.0, through: 1300, by: 1) { events += s.receive(Sample(time: at(t), payload: desktop(.idle(t)))) }
            }
            return events
        }
        let without = quarterHour(meeting: false)
        #expect(!without.episodesStarted.isEmpty, "the same quarter of an hour without the meeting")
        let with = quarterHour(meeting: true)
        let e = with.episodesStarted.first
        #expect(e?.cause == .away)
        #expect(e?.start == at(901), "the person was in the meeting until it ended")
    }

    @Test func playbackWithoutInputHasItsOwnReasonOrCountsAsPresence() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events = s.receive(Sample(time: at(1), payload: media(playing: 1)))
        var last = 0.0
        events += desktopIdle(&s, 2, 400, lastInput: &last)
        #expect(events.episodesStarted.first?.reason == "watching/listening, no input for 3 min 58 s")

        var c = config
        c.media.playbackIsPresence = true
        var lecture = FocusSession(configuration: c)
        _ = lecture.start(at: epoch)
        events = lecture.receive(Sample(time: at(1), payload: media(playing: 1)))
        last = 0
        events += desktopIdle(&lecture, 2, 400, lastInput: &last)
        #expect(events.episodesStarted.isEmpty)
    }

    @Test func theMostSpecificCauseExplainsTheEpisode() {
        // Walking out of the building: no input and outside the fence at once. The episode is
        // "outside the workplace", judged within a minute of crossing the fence.
        var c = config
        c.location.workplace = .init(name: "the office", latitude: 52.2053, longitude: 0.1218, radius: 75)
        var s = FocusSession(configuration: c)
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        var last = 0.0
        for t in stride(from: 1.0, through: 400, by: 1) {
            if t <= 100 { last = t }
            events += s.receive(Sample(time: at(t), payload: desktop(.idle(t - last))))
            let north = t < 100 ? 10.0 : 300.0
            events += s.receive(
                Sample(time: at(t), payload: .location(LocationFix(latitude: 52.2053 + north / 111_200, longitude: 0.1218, mode: .threeD))))
        }
        let e = events.episodesStarted.first
        #expect(e?.cause == .location)
        #expect(e?.start == at(100))
        #expect((e?.confirmedAt).map { $0 - at(100) <= 60 } == true, "within a minute of crossing the fence")
        #expect(s.dominant?.cause == .location, "still explained by the place, with idle scoring too")
        #expect(events.episodesStarted.count == 1)
    }

    @Test func specificityOrderIsDocumented() {
        #expect(
            [Specificity.locked, Specificity.location, Specificity.app, Specificity.switching, Specificity.idle, Specificity.noise]
                == [Specificity.locked, Specificity.location, Specificity.app, Specificity.switching, Specificity.idle, Specificity.noise]
                .sorted(by: >))
    }

    @Test func categoriesFollowTheFirstMatchingRule() {
        let apps = VigilConfiguration.Apps()
        #expect(apps.categorize(appClass: "Firefox", title: "Lecture 3 - YouTube — Mozilla Firefox") == (.distracting, "youtube"))
        #expect(apps.categorize(appClass: "Firefox", title: "Budget.ods - LibreOffice") == (.neutral, nil))
        #expect(apps.categorize(appClass: "jetbrains-idea", title: nil) == (.work, "editors"))
        #expect(apps.categorize(appClass: "XTerm", title: "youtube-dl --help") == (.distracting, "youtube"), "first match wins")
        var custom = VigilConfiguration.Apps()
        custom.rules = [AppRule(name: "tests", classes: ["xterm"], category: .work)] + custom.rules
        #expect(custom.categorize(appClass: "XTerm", title: "youtube-dl --help") == (.work, "tests"))
        custom.fallback = .distracting
        #expect(custom.categorize(appClass: "unknown", title: nil) == (.distracting, nil))
    }

    @Test func timeInApplicationsAndOnCallsIsKeptAsStretchesOfJudgedTime() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        events += s.receive(Sample(time: at(10), payload: app("code", .work)))
        events += s.receive(Sample(time: at(40), payload: media(calls: 1)))
        events += s.receive(Sample(time: at(70), payload: app("firefox", .distracting, rule: "youtube")))
        // A pause cuts both; resuming goes on with the same application and call.
        events += s.control(.pause, at: at(80))
        events += s.control(.resume, at: at(100))
        events += s.receive(Sample(time: at(120), payload: media(calls: 0)))
        events += s.receive(Sample(time: at(130), payload: app("", .neutral)))
        events += s.receive(Sample(time: at(140), payload: app("code", .work)))
        events += s.end(.user, at: at(150))
        let spans = events.compactMap { if case .activity(let span) = $0.kind { span } else { nil } }
        #expect(
            spans == [
                ActivitySpan(.app(appClass: "code", category: .work), start: at(10), end: at(70)),
                ActivitySpan(.app(appClass: "firefox", category: .distracting, rule: "youtube"), start: at(70), end: at(80)),
                ActivitySpan(.call, start: at(40), end: at(80)),
                ActivitySpan(.call, start: at(100), end: at(120)),
                ActivitySpan(.app(appClass: "firefox", category: .distracting, rule: "youtube"), start: at(100), end: at(130)),
                ActivitySpan(.app(appClass: "code", category: .work), start: at(140), end: at(150)),
            ])
        // Each stretch is told at its end, before the session's end.
        #expect(events.firstIndex { if case .activity = $0.kind { true } else { false } }! < events.count - 2)
    }
}
