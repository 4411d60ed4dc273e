import Testing
import VigilTesting

@testable import VigilCore

/// The state machine is stepped with explicit instants: no sleeps, no clock.
@Suite struct FocusSessionTests {
    let config = VigilConfiguration.default

    /// Ticks every second over `[from, to]`.
    func ticks(_ s: inout FocusSession, _ from: Double, _ to: Double) -> [SessionEvent] {
        var out: [SessionEvent] = []
        var t = from
        while t <= to {
            out += s.tick(at: at(t))
            t += 1
        }
        return out
    }

    @Test func startEntersFocused() {
        var s = FocusSession(configuration: config, task: "thesis", plannedSeconds: 1500)
        #expect(s.state == .planned)
        let events = s.start(at: epoch)
        #expect(s.state == .focused)
        #expect(events.count == 2)
        #expect(events.first?.kind == .sessionStarted(task: "thesis", plannedSeconds: 1500))
        #expect(events.states == [.focused])
    }

    @Test func firstSampleStartsAPlannedSession() {
        var s = FocusSession(configuration: config)
        let events = s.receive(Sample(time: at(5), payload: typing()))
        #expect(s.startedAt == at(5))
        #expect(events.states == [.focused])
    }

    @Test func idleEpisodeIsDatedBackToLastInputAndEscalatesOnTheLadder() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing(idle: 0.5)))  // last input at 4.5 s
        let events = ticks(&s, 6, 1000)

        // Idle score = (idle - 120) / 180: drifting at 0.30 -> idle 174 s -> t = 178.5, first tick 179.
        let drift = events.first { if case .stateChanged(_, .drifting, _, _) = $0.kind { true } else { false } }
        #expect(drift?.time == at(179))
        // Distracted at 0.60 -> idle 228 s -> t = 232.5 (tick 233), confirmed 10 s later at 243.
        let episode = events.episodesStarted.first
        #expect(episode?.confirmedAt == at(243))
        #expect(episode?.start == at(4.5), "dated back to the last input, not to when the threshold fired")
        #expect(episode?.cause == .away)
        // Minutes and seconds, as the clock beside it says (issue 32: "3 min" at 3 min 58 s).
        #expect(episode?.reason == "no input for 3 min 58 s")
        // Levels 30 s, 2 min, 5 min, 10 min after confirmation; then the last level repeats every minute.
        let firsts = events.alarms.filter { $0.repeat == 0 }
        #expect(firsts.map(\.level) == [1, 2, 3, 4])
        #expect(firsts.map(\.time) == [at(273), at(363), at(543), at(843)])
        let repeats = events.alarms.filter { $0.repeat > 0 }
        #expect(repeats.map(\.time) == [at(903), at(963)])
        #expect(s.state == .alarm(level: 4))

        // Typing again: back at once (10 keys is more than the noise filter's 4 events).
        let back = s.receive(Sample(time: at(1000), payload: typing(10)))
        #expect(back.episodesEnded.first?.end == at(1000))
        #expect(back.episodesEnded.first?.closedBy == .back)
        let cleared = back.compactMap { if case .alarmCleared(let l, _, _, let r) = $0.kind { (l, r) } else { nil } }.first
        #expect(cleared?.0 == 4)
        #expect(cleared?.1 == 727.0, "recovery counts from the first alarm (273 s) to the return (1000 s)")
        #expect(s.state == .focused)
    }

    @Test func oneKeyOrOneNudgeDoesNotCountAsBack() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing(idle: 0.5)))
        _ = ticks(&s, 6, 400)
        #expect(s.state.isDistracted)
        // A nudge of the mouse (one event) and, later, a single key press.
        _ = s.receive(Sample(time: at(405), payload: typing(0, idle: 1, travel: 35)))
        #expect(s.state.isDistracted)
        _ = ticks(&s, 406, 500)
        _ = s.receive(Sample(time: at(505), payload: typing(1, idle: 2)))
        #expect(s.state.isDistracted)
        _ = ticks(&s, 506, 599)
        #expect(s.episode?.start == at(4.5), "the nudge did not move the episode's start either")
        // Two keys, then two more within 15 s: four events, back.
        _ = s.receive(Sample(time: at(600), payload: typing(2, idle: 1)))
        #expect(s.state.isDistracted)
        let events = s.receive(Sample(time: at(610), payload: typing(2, idle: 1)))
        #expect(events.episodesEnded.count == 1)
        #expect(s.state == .focused)
    }

    @Test func aThinkingPauseOfSixtyOrEvenHundredSecondsIsNotDrifting() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var last = 0.0
        // Typing, a 60 s pause, typing, a 110 s pause, typing.
        let events = s.drive(from: 5, to: 600, lastInput: &last) { t in
            !(100 < t && t <= 160) && !(300 < t && t <= 410)
        }
        #expect(events.states.isEmpty, "no state change at all: \(events.states)")
        #expect(s.score == 0)
    }

    @Test func readingWithAScrollEveryNinetySecondsStaysFocused() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var last = 0.0
        var all: [SessionEvent] = []
        var t = 5.0
        while t <= 1800 {
            if Int(t) % 90 == 0 {
                last = t - 1
                all += s.receive(Sample(time: at(t), payload: typing(0, idle: 1, scroll: 1)))
            } else {
                all += s.receive(Sample(time: at(t), payload: idleWindow(t - last)))
            }
            all += s.tick(at: at(t + 1))
            t += 5
        }
        #expect(all.states.isEmpty)
        #expect(all.episodesStarted.isEmpty)
    }

    /// Scores driven by app switches, which make any score easy to set: score = switches / 10.
    func switchingConfig() -> VigilConfiguration {
        var c = VigilConfiguration.default
        c.switching = .init()
        c.switching.window = 10
        c.switching.calm = 0
        c.switching.storm = 10
        c.switching.weight = 1
        c.scoring.distractConfirm = 0
        return c
    }

    func switches(_ n: Int) -> SamplePayload { typing(5, switches: AppSwitches(altTab: n)) }

    @Test func driftingHasHysteresis() {
        var s = FocusSession(configuration: switchingConfig())
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: switches(3)))  // 0.3: drifting
        #expect(s.state == .drifting)
        _ = s.receive(Sample(time: at(20), payload: switches(2)))  // 0.2: not below drift_exit, stays
        #expect(s.state == .drifting)
        _ = s.receive(Sample(time: at(35), payload: switches(1)))  // 0.1: focused
        #expect(s.state == .focused)
        _ = s.receive(Sample(time: at(50), payload: switches(2)))  // 0.2: below drift_enter, stays focused
        #expect(s.state == .focused)
    }

    @Test func distractionHasHysteresis() {
        var s = FocusSession(configuration: switchingConfig())
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: switches(6)))  // 0.6: distracted (no confirmation delay here)
        #expect(s.state == .distracted)
        _ = s.receive(Sample(time: at(20), payload: switches(5)))  // 0.5: above distract_exit 0.4, stays
        #expect(s.state == .distracted)
        let events = s.receive(Sample(time: at(35), payload: switches(3)))  // 0.3: out, to drifting
        #expect(events.episodesEnded.count == 1)
        #expect(s.state == .drifting)
    }

    @Test func distractionMustBeConfirmed() {
        var c = switchingConfig()
        c.scoring.distractConfirm = 10
        var s = FocusSession(configuration: c)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: switches(7)))
        #expect(s.state == .drifting, "above the threshold, but not for 10 s yet")
        _ = s.tick(at: at(14))
        #expect(s.state == .drifting)
        _ = s.tick(at: at(15))
        #expect(s.state == .distracted)
        #expect(s.episode?.start == at(5), "dated back to the first switch of the storm")
    }

    @Test func aBriefSpikeBelowTheConfirmationTimeOpensNoEpisode() {
        var c = switchingConfig()
        c.scoring.distractConfirm = 10
        var s = FocusSession(configuration: c)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: switches(7)))
        _ = s.tick(at: at(9))
        let events = s.receive(Sample(time: at(16), payload: switches(0)))  // the first burst left the 10 s window
        #expect(events.episodesStarted.isEmpty)
        #expect(s.state == .focused)
    }

    func locationConfig() -> VigilConfiguration {
        var c = VigilConfiguration.default
        c.location.workplace = .init(name: "the office", latitude: 52.2053, longitude: 0.1218, radius: 75)
        return c
    }

    /// A fix `north` metres north of the office.
    func fix(_ north: Double, acc: Double = 5, mode: FixMode = .threeD) -> SamplePayload {
        .location(LocationFix(latitude: 52.2053 + north / 111_250, longitude: 0.1218, horizontalAccuracy: acc, speed: 0, mode: mode))
    }

    @Test func gpsJitterAndIndoorDropOutsAreNotLeaving() {
        var s = FocusSession(configuration: locationConfig())
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        var t = 1.0
        while t < 1800 {
            if Int(t) % 5 == 0 { events += s.receive(Sample(time: at(t), payload: typing())) }
            let payload: SamplePayload
            switch Int(t) % 300 {
            case 0..<60: payload = fix(0, mode: .noFix)  // no fix indoors for a minute
            case 100: payload = fix(180, acc: 5)  // one multipath outlier
            default: payload = fix(Double(Int(t) % 7) * 12, acc: 30)  // up to 72 m off with a 30 m error estimate
            }
            events += s.receive(Sample(time: at(t), payload: payload))
            t += 2
        }
        #expect(events.states.isEmpty, "\(events.states)")
    }

    @Test func leavingTheWorkplaceOpensALocationEpisodeDatedToTheFirstFixOutside() {
        var s = FocusSession(configuration: locationConfig())
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        for t in stride(from: 1.0, through: 600, by: 1) {
            if Int(t) % 5 == 0 { events += s.receive(Sample(time: at(t), payload: typing())) }
            events += s.receive(Sample(time: at(t), payload: fix(t < 100 ? 10 : 212)))
        }
        let e = events.episodesStarted.first
        #expect(e?.cause == .location)
        #expect(e?.start == at(100))
        #expect(e?.reason == "212 m from the office")
        // Location score (t - 100 - 20) / 40 reaches 0.6 at 144, confirmed at 154: within a minute
        // of crossing the fence.
        #expect(e?.confirmedAt == at(154))
        // A lost fix outside holds the judgement: still outside.
        events = s.receive(Sample(time: at(601), payload: fix(0, mode: .noFix)))
        #expect(s.state.isDistracted)
        events = s.receive(Sample(time: at(602), payload: fix(20)))
        #expect(events.episodesEnded.first?.end == at(602))
    }

    @Test func noiseEpisodeToleratesPausesBetweenSentences() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var events: [SessionEvent] = []
        for t in stride(from: 1.0, through: 600, by: 1) {
            if Int(t) % 5 == 0 { events += s.receive(Sample(time: at(t), payload: typing())) }
            // Loud from 100 s, with a 4 s pause every 20 s.
            let loud = t >= 100 && Int(t) % 20 < 16
            events += s.receive(Sample(time: at(t), payload: .audio(AudioLevel(rms: loud ? -24 : -50, peak: -10, shortTermLUFS: loud ? -22 : -48))))
        }
        let e = events.episodesStarted.first
        #expect(e?.cause == .noise)
        #expect(e?.start == at(100))
        #expect(e?.reason.hasPrefix("noise -22 LUFS") == true)
        #expect(events.episodesStarted.count == 1, "the pauses between sentences did not split the episode")
    }

    @Test func aGapInTheSamplesIsNeitherFocusNorDistraction() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        var last = 0.0
        _ = s.drive(from: 5, to: 300, lastInput: &last) { _ in true }
        // The laptop sleeps for 45 minutes.
        let events = s.receive(Sample(time: at(3000), payload: typing()))
        let gap = events.compactMap { if case .gap(let from, let secs) = $0.kind { (from, secs) } else { nil } }.first
        #expect(gap?.0 == at(300))
        #expect(gap?.1 == 2700)
        #expect(events.episodesStarted.isEmpty)
        _ = s.drive(from: 3005, to: 3060, lastInput: &last) { _ in true }
        let end = s.end(.user, at: at(3060))
        #expect(end.summary?.gapSeconds == 2700)
        #expect(end.summary?.activeSeconds == 360)
        #expect(end.summary?.focusedSeconds == 360)
        // Silence longer than session.gap before `end` is a gap too: nothing vouches for that time.
        var quiet = FocusSession(configuration: config)
        _ = quiet.start(at: epoch)
        #expect(quiet.end(.user, at: at(600)).summary?.gapSeconds == 600)
    }

    @Test func aGapClosesAnOpenEpisodeAtTheLastSampleBeforeIt() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing(idle: 0.5)))
        _ = ticks(&s, 6, 400)
        #expect(s.state.isDistracted)
        let events = s.receive(Sample(time: at(5000), payload: typing()))
        let closed = events.episodesEnded.first
        #expect(closed?.end == at(400))
        #expect(closed?.closedBy == .gap)
        #expect(s.state == .focused)
    }

    @Test func pauseAndBreakStopJudgingAndResumeStartsAfresh() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing()))
        _ = ticks(&s, 6, 99)
        _ = s.receive(Sample(time: at(100), payload: .control(.breakTime)))
        #expect(s.state == .paused(.breakTime))
        // Ten minutes away during the break: no episode.
        let during = ticks(&s, 101, 700)
        #expect(during.isEmpty)
        _ = s.control(.resume, at: at(700))
        #expect(s.state == .focused)
        // Idle counts from the resume: drifting only 174 s later.
        let after = ticks(&s, 701, 900)
        let drift = after.first { if case .stateChanged(_, .drifting, _, _) = $0.kind { true } else { false } }
        #expect(drift?.time == at(874))
        let summary = s.end(.user, at: at(900)).summary
        #expect(summary?.pausedSeconds == 600)
        #expect(summary?.activeSeconds == 300)
    }

    @Test func pausingDuringAnEpisodeClosesIt() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing(idle: 0.5)))
        _ = ticks(&s, 6, 300)
        let events = s.control(.pause, at: at(300))
        #expect(events.episodesEnded.first?.closedBy == .paused)
        #expect(s.state == .paused(.pause))
    }

    /// A 25-minute session paused for 10 minutes ends 10 minutes later with 25 minutes judged, as
    /// every timer freezes; ended by the person inside the extended plan it is ended early. With
    /// `session.pause_extends_plan: false` the plan runs on through the pause. A break (a pomodoro's)
    /// is part of the plan and extends nothing.
    @Test func aPauseFreezesThePlannedTime() {
        func run(_ configure: (inout VigilConfiguration) -> Void, pause kind: ControlAction = .pause, endAt: Double? = nil) -> SessionSummary? {
            var c = config
            configure(&c)
            var s = FocusSession(configuration: c, plannedSeconds: 1500)
            var events = s.start(at: epoch)
            var t = 5.0
            while t <= 3000, !s.isEnded {
                if t == 300 { events += s.control(kind, at: at(t)) }
                if t == 900 { events += s.control(.resume, at: at(t)) }
                if let end = endAt, t == end { events += s.end(.user, at: at(t)) }
                if !s.isEnded { events += t > 300 && t < 900 ? s.tick(at: at(t)) : s.receive(Sample(time: at(t), payload: typing())) }
                t += 5
            }
            return events.summary
        }
        let frozen = run { _ in }
        #expect(frozen?.ended == at(2100) && frozen?.outcome == .completed, "\(String(describing: frozen))")
        #expect(frozen?.activeSeconds == 1500 && frozen?.pausedSeconds == 600)
        #expect(run({ _ in }, endAt: 2000)?.outcome == .abandoned, "ended before the extended plan")
        let runningOn = run { $0.session.pauseExtendsPlan = false }
        #expect(runningOn?.ended == at(1500) && runningOn?.activeSeconds == 900, "\(String(describing: runningOn))")
        // Issue 32: a break the person takes freezes the plan as a pause does (a Pomodoro set,
        // whose breaks are the plan, turns `pause_extends_plan` off).
        let onBreak = run({ _ in }, pause: .breakTime)
        #expect(onBreak?.ended == at(2100) && onBreak?.pausedSeconds == 600 && onBreak?.breakSeconds == 600, "\(String(describing: onBreak))")
    }

    @Test func outcomes() {
        var planned = FocusSession(configuration: config, plannedSeconds: 600)
        _ = planned.start(at: epoch)
        _ = planned.receive(Sample(time: at(5), payload: typing()))
        let reached = planned.tick(at: at(601))
        #expect(reached.summary?.outcome == .completed)
        #expect(reached.summary?.ended == at(600), "ends at the planned instant, not at the tick after it")

        var early = FocusSession(configuration: config, plannedSeconds: 600)
        _ = early.start(at: epoch)
        #expect(early.end(.user, at: at(300)).summary?.outcome == .abandoned)

        var late = FocusSession(configuration: config)
        _ = late.start(at: epoch)
        #expect(late.end(.user, at: at(300)).summary?.outcome == .completed)

        var killed = FocusSession(configuration: config, plannedSeconds: 600)
        _ = killed.start(at: epoch)
        #expect(killed.end(.interrupted, at: at(300)).summary?.outcome == .interrupted)
        #expect(killed.end(.user, at: at(400)).isEmpty, "an ended session stays ended")
        #expect(killed.receive(Sample(time: at(401), payload: typing())).isEmpty)
    }

    @Test func aLostInputDetectorIsNotEvidenceOfAbsence() {
        var s = FocusSession(configuration: config)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing()))
        let status = s.receive(
            Sample(time: at(6), payload: .status(SensorStatus(sensor: .input, state: .permissionDenied, detail: "no access to /dev/input"))))
        #expect(status.contains { if case .sensorStatus = $0.kind { true } else { false } })
        #expect(ticks(&s, 7, 900).states.isEmpty)
        // The detector comes back: idle is measured from then.
        _ = s.receive(Sample(time: at(901), payload: .status(SensorStatus(sensor: .input, state: .available))))
        _ = s.receive(Sample(time: at(905), payload: typing()))
        #expect(ticks(&s, 906, 1000).states.isEmpty)
    }

    @Test func episodesNeverOverlap() {
        var c = VigilConfiguration.default
        c.input.idleGrace = 200
        c.input.idleFull = 600
        var s = FocusSession(configuration: c)
        _ = s.start(at: epoch)
        _ = s.receive(Sample(time: at(5), payload: typing(idle: 0.5)))  // then no input at all
        var events: [SessionEvent] = []
        for t in stride(from: 6.0, through: 900, by: 1) {
            let loud = t < 300
            events += s.receive(Sample(time: at(t), payload: .audio(AudioLevel(rms: loud ? -20 : -50, peak: -10, shortTermLUFS: loud ? -20 : -50))))
            if Int(t) % 5 == 0 { events += s.receive(Sample(time: at(t), payload: idleWindow(t - 4.5))) }
        }
        let ended = events.episodesEnded
        let started = events.episodesStarted
        #expect(started.map(\.cause) == [.noise, .away])
        #expect(ended.count == 1)
        if started.count == 2, let firstEnd = ended.first?.end {
            #expect(started[1].start >= firstEnd, "the idle episode is dated back, but not into the noise episode")
        }
    }
}

/// Snoozing: a limited number of quiet spells per session, during which the episode goes on and
/// counts but no alarm fires.
@Suite struct SnoozeTests {
    let t0 = Timestamp(seconds: 1_700_000_000)

    /// Typing for 2 minutes, then nothing: the away episode opens and escalates.
    func awaySession(_ config: VigilConfiguration) -> (FocusSession, [SessionEvent]) {
        var s = FocusSession(configuration: config)
        var events = s.start(at: t0)
        for t in stride(from: 5.0, through: 120, by: 5) {
            events += s.receive(Sample(time: t0 + t, payload: .input(InputActivity(window: 5, keyPresses: 10, idle: 0.5))))
        }
        return (s, events)
    }

    func alarms(_ events: [SessionEvent]) -> [(Double, Int, Int)] {
        events.compactMap { if case .alarm(let l, let r, _, _, _) = $0.kind { ($0.time - t0, l, r) } else { nil } }
    }

    @Test func aSnoozeHoldsTheAlarmsForItsLengthThenTheyResume() {
        var config = VigilConfiguration()
        config.alarms.snooze = 300
        var (s, _) = awaySession(config)
        var events: [SessionEvent] = []
        var snoozedAt: Double?
        for t in stride(from: 121.0, through: 2400, by: 1) {
            events += s.tick(at: t0 + t)
            if snoozedAt == nil, alarms(events).contains(where: { $0.1 == 2 }) {
                snoozedAt = t
                events += s.control(.snooze, at: t0 + t)
            }
        }
        let at = try! #require(snoozedAt)
        let snoozed = events.compactMap { if case .alarmSnoozed(let l, _, let until, let left) = $0.kind { (l, until - t0, left) } else { nil } }
        #expect(snoozed.count == 1)
        #expect(snoozed.first?.0 == 2 && snoozed.first?.1 == at + 300 && snoozed.first?.2 == 2)
        // Nothing fires during the snooze; level 3 (due at 5 min) fires when it ends.
        let fired = alarms(events)
        #expect(!fired.contains { $0.0 > at && $0.0 < at + 300 }, "\(fired)")
        #expect(fired.first { $0.0 >= at + 300 }.map { $0.0 == at + 300 && $0.1 == 3 } == true, "\(fired)")
        // The episode was never interrupted by the snooze.
        #expect(!events.contains { if case .episodeEnded = $0.kind { true } else { false } })
    }

    /// Pressing snooze again while snoozed spends nothing: it says how long the quiet lasts.
    @Test func aSnoozeWhileSnoozedSpendsNothing() {
        var config = VigilConfiguration()
        config.alarms.snooze = 300
        var (s, _) = awaySession(config)
        var events: [SessionEvent] = []
        var snoozedAt: Double?
        for t in stride(from: 121.0, through: 1500, by: 1) {
            events += s.tick(at: t0 + t)
            if snoozedAt == nil, !alarms(events).isEmpty {
                snoozedAt = t
                events += s.control(.snooze, at: t0 + t)
            }
            if let at = snoozedAt, t == at + 60 || t == at + 200 { events += s.control(.snooze, at: t0 + t) }
        }
        let given = events.compactMap { if case .alarmSnoozed(_, _, _, let left) = $0.kind { left } else { nil } }
        let refused = events.compactMap { if case .snoozeRefused(let r) = $0.kind { r } else { nil } }
        #expect(given == [2], "one snooze spent of three")
        #expect(refused == [.alreadySnoozed(seconds: 240), .alreadySnoozed(seconds: 100)], "\(refused)")
    }

    @Test func snoozesAreLimitedAndOnlyForAnAlarm() {
        var config = VigilConfiguration()
        config.alarms.snoozes = 2
        config.alarms.snooze = 10
        var (s, events) = awaySession(config)
        events += s.control(.snooze, at: t0 + 121)  // away, but no episode yet
        for t in stride(from: 122.0, through: 1200, by: 1) {
            events += s.tick(at: t0 + t)
            if t >= 600, Int(t) % 200 == 0 { events += s.control(.snooze, at: t0 + t) }  // alarms fire from about 5 min
        }
        let refused = events.compactMap { if case .snoozeRefused(let r) = $0.kind { r } else { nil } }
        let given = events.compactMap { if case .alarmSnoozed(_, _, _, let left) = $0.kind { left } else { nil } }
        #expect(given == [1, 0])
        #expect(refused.first == .noAlarm)
        #expect(refused.dropFirst().allSatisfy { $0 == .noneLeft(allowed: 2) }, "\(refused)")
        #expect(refused.count >= 2)
    }
}
