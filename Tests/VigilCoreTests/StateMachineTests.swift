import Testing
import VigilTesting

@testable import VigilCore

/// A signal whose score is whatever its last reading says: the state machine's transitions can
/// then be driven one line at a time, without modelling idle time or noise.
struct DialScorer: SignalScorer {
    var sensor: SensorKind { .dial }
    var cause: Cause { Cause(rawValue: "dial") }
    var weight: Double { 1 }
    private var score = 0.0
    private var since: Timestamp?

    struct Setting: ScoreDetail {
        var score: Double
        var reason: String { "dial at \(score)" }
    }

    mutating func observe(_ payload: SamplePayload, at t: Timestamp) {
        guard case .reading(let r) = payload, let v = r.value else { return }
        if v > 0, score == 0 { since = t }
        score = v
    }
    mutating func restart(at now: Timestamp) {
        score = 0
        since = nil
    }
    func assess(at now: Timestamp) -> Assessment? {
        guard score > 0, let since else { return nil }
        return Assessment(cause: cause, score: score, detail: Setting(score: score), since: since)
    }
}

extension SensorKind { static let dial = SensorKind(rawValue: "dial") }

/// The state machine started in a given state (the internal initializer) and stepped one line at a
/// time: one input, the events it causes.
@Suite struct StateMachineTests {
    static let dialOnly: VigilConfiguration = {
        var c = VigilConfiguration.default
        c.input.enabled = false
        c.switching.enabled = false
        c.audio.enabled = false
        c.location.enabled = false
        return c
    }()
    static let signals = SignalCatalog([SignalDefinition(sensor: .dial, causes: [Cause(rawValue: "dial")]) { _ in [DialScorer()] }])

    func dial(_ v: Double, _ t: Double) -> Sample { Sample(time: at(t), payload: .reading(SignalReading(sensor: .dial, value: v))) }

    func session(_ phase: FocusSession.Phase, lastSeen: Double = 0) -> FocusSession {
        FocusSession(configuration: Self.dialOnly, signals: Self.signals, phase: phase, startedAt: epoch, lastSeen: at(lastSeen))
    }

    func episode(level: Int = 0, confirmed: Double = 100) -> Episode {
        Episode(
            number: 1, start: at(confirmed - 20), confirmedAt: at(confirmed), cause: Cause(rawValue: "dial"), peakScore: 0.9, reason: "dial at 0.9",
            alarmLevel: level)
    }

    @Test func theNextLevelFiresWhenItsTimeComes() {
        var s = session(.distracted(EpisodeMachine(episode: episode(level: 1), firstAlarmAt: at(130), lastAlarmAt: at(130))), lastSeen: 219)
        let events = s.receive(dial(0.9, 220))
        #expect(
            events.map(\.kind) == [
                .stateChanged(from: .alarm(level: 1), to: .alarm(level: 2), score: 0.9, reason: .signal("dial at 0.9")),
                .alarm(level: 2, repeat: 0, episode: 1, cause: Cause(rawValue: "dial"), reason: "dial at 0.9"),
            ])
        #expect(s.state == .alarm(level: 2) && s.episode?.alarmLevel == 2)
    }

    @Test func theLastLevelRepeatsWithoutChangingState() {
        var s = session(.distracted(EpisodeMachine(episode: episode(level: 4), firstAlarmAt: at(130), lastAlarmAt: at(700))), lastSeen: 759)
        let events = s.receive(dial(0.9, 760))
        #expect(events.map(\.kind) == [.alarm(level: 4, repeat: 1, episode: 1, cause: Cause(rawValue: "dial"), reason: "dial at 0.9")])
    }

    @Test func aSnoozeHoldsTheAlarmsUntilItEndsThenTheDueLevelsFire() {
        let m = EpisodeMachine(episode: episode(level: 1), firstAlarmAt: at(130), lastAlarmAt: at(130), snoozedUntil: at(500))
        var s = session(.distracted(m), lastSeen: 219)
        #expect(s.receive(dial(0.9, 220)).isEmpty)
        // 300 s after confirmation level 3 is due as well: both fire when the snooze is over.
        s = session(.distracted(m), lastSeen: 499)
        #expect(s.receive(dial(0.9, 500)).compactMap { if case .alarm(let level, _, _, _, _) = $0.kind { level } else { nil } } == [2, 3])
    }

    @Test func aFallingScoreEndsTheEpisodeInDriftingOrFocused() {
        // Below distract_exit (0.4) but not below drift_exit (0.2): drifting.
        var s = session(.distracted(EpisodeMachine(episode: episode())), lastSeen: 109)
        var events = s.receive(dial(0.3, 110))
        #expect(events.states == [.drifting])
        #expect(events.episodesEnded.map(\.closedBy) == [.back])
        // Below both: focused.
        s = session(.distracted(EpisodeMachine(episode: episode())), lastSeen: 109)
        events = s.receive(dial(0.1, 110))
        #expect(events.states == [.focused])
    }

    @Test func aRisingScoreDriftsThenOpensAnEpisodeAfterTheConfirmation() {
        var s = session(.watching(.init()), lastSeen: 9)
        #expect(s.receive(dial(0.7, 10)).states == [.drifting])
        #expect(s.receive(dial(0.7, 19)).states == [])
        let events = s.receive(dial(0.7, 20))
        #expect(events.states == [.distracted])
        #expect(events.episodesStarted.map(\.start) == [at(10)])
    }

    @Test func aPauseClosesTheEpisodeAndResumeStartsFocused() {
        var s = session(.distracted(EpisodeMachine(episode: episode(level: 2), firstAlarmAt: at(130), lastAlarmAt: at(220))), lastSeen: 249)
        var events = s.control(.pause, at: at(250))
        // A pause stops the alarm, and it is no return to work: no recovery time.
        #expect(events.map(\.kind).first == .alarmCleared(level: 2, episode: 1, closedBy: .paused, recoverySeconds: nil))
        #expect(events.states == [.paused(.pause)])
        events = s.control(.resume, at: at(300))
        #expect(events.map(\.kind) == [.stateChanged(from: .paused(.pause), to: .focused, score: 0, reason: .back(from: .pause))])
    }

    /// Issue 32: `b` pressed while away in alarm 2 was logged as "back after 1 min 33 s" and earned
    /// the quick-recovery achievement. A break ends the episode as a break, not as a return.
    @Test func aBreakDuringAnAlarmEndsTheEpisodeAsABreakNotAReturn() {
        var s = session(.distracted(EpisodeMachine(episode: episode(level: 2), firstAlarmAt: at(130), lastAlarmAt: at(220))), lastSeen: 249)
        let events = s.control(.breakTime, at: at(250))
        #expect(events.map(\.kind).first == .alarmCleared(level: 2, episode: 1, closedBy: .onBreak, recoverySeconds: nil))
        #expect(events.episodesEnded.map(\.closedBy) == [.onBreak])
        #expect(events.states == [.paused(.breakTime)])
    }

    /// A break by the person freezes the plan as a pause does, and the summary tells it apart.
    @Test func aBreakExtendsThePlanAndIsNamedInTheSummary() {
        var s = FocusSession(configuration: VigilConfiguration(), plannedSeconds: 600)
        var events = s.start(at: at(0))
        for t in stride(from: 10.0, through: 1200, by: 10) {
            if t == 60 { events += s.control(.breakTime, at: at(t)) }
            if t == 360 {
                events += s.control(.resume, at: at(t))
                #expect(s.plannedEnd == at(900), "5 minutes on a break move the planned end by 5 minutes")
            }
            events += s.tick(at: at(t))
        }
        let summary = events.compactMap { if case .sessionEnded(let x) = $0.kind { x } else { nil } }.first
        #expect(summary?.outcome == .completed && summary?.ended == at(900))
        #expect(summary?.pausedSeconds == 300)
        #expect(summary?.breakSeconds == 300)
    }

    @Test func snoozesAreRefusedWithoutAnAlarmOrWhenUsedUp() {
        var s = session(.watching(.init()))
        #expect(s.control(.snooze, at: at(1)).map(\.kind) == [.snoozeRefused(.noAlarm)])
        var none = Self.dialOnly
        none.alarms.snoozes = 0
        var t = FocusSession(
            configuration: none, signals: Self.signals,
            phase: .distracted(EpisodeMachine(episode: episode(level: 1))), startedAt: epoch, lastSeen: at(150))
        #expect(
            t.control(.snooze, at: at(151)).map(\.kind) == [
                .snoozeRefused(.noneLeft(allowed: 0))
            ])
    }

    @Test func aGapClosesTheEpisodeWhenTheSamplesStopped() {
        var s = session(.distracted(EpisodeMachine(episode: episode(level: 1), firstAlarmAt: at(130), lastAlarmAt: at(130))), lastSeen: 200)
        let events = s.receive(dial(0.9, 1000))
        #expect(events.episodesEnded.map(\.end) == [at(200)])
        #expect(events.map(\.kind).contains(.gap(from: at(200), seconds: 800)))
        // Judging restarts after the gap: the dial's new reading is a fresh start, not an episode.
        #expect(events.states.first == .focused)
        #expect(s.episode == nil)
    }
}
