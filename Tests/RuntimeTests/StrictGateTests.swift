import SessionRuntime
import SessionViews
import Testing
import VigilCore

/// What a strict session lets through (`StrictGate`), command by command; the CLI tests drive the
/// same through signals, keys and `vigil stop`.
@Suite struct StrictGateTests {
    @Test func whatEndsOrLoosensTheSessionIsRefusedAndTheRestPasses() {
        let gate = StrictGate(coolOff: 600, plannedBreaks: false)
        for refused: LiveCommand in [.control(.end), .end(.interrupted), .control(.pause), .control(.breakTime), .control(.snooze)] {
            guard case .refuse(let why) = gate.judge(refused) else {
                Issue.record("\(refused) passed")
                continue
            }
            #expect(!why.isEmpty)
        }
        // The session's own ends, and a resumption, are not the person's to refuse.
        for passing: LiveCommand in [.end(.planReached), .end(.recordingEnded), .control(.resume), .control(.alive), .control(.stallEnded)] {
            #expect(gate.judge(passing) == .pass, "\(passing)")
        }
    }

    @Test func theEarlyEndIsGivenOnceAfterTheCoolingOff() {
        let gate = StrictGate(coolOff: 600, plannedBreaks: false)
        #expect(!gate.earlyEndAsked)
        #expect(gate.judge(.endEarly) == .endAfterCoolOff(600))
        #expect(gate.earlyEndAsked)
        guard case .refuse = gate.judge(.endEarly) else {
            Issue.record("asking again restarts nothing")
            return
        }
    }

    /// A Pomodoro plan's breaks are the plan's: the scheduler's break goes through.
    @Test func aPomodoroPlansBreaksPass() {
        #expect(StrictGate(coolOff: 60, plannedBreaks: true).judge(.control(.breakTime)) == .pass)
        guard case .refuse = StrictGate(coolOff: 60, plannedBreaks: true).judge(.control(.pause)) else {
            Issue.record("a pause is still refused")
            return
        }
    }
}

/// The live screen of a strict session says so in its title, and in place of the keys it refuses
/// (p, b, s, q) says what ends it early.
@Suite struct StrictLiveScreenTests {
    @Test func theTitleAndTheKeysLineSayItIsStrict() {
        let t0 = parseRFC3339("2026-03-02T09:00:00Z")!
        var view = LiveView(task: "essay", planned: 1500, workplace: nil, signals: .builtIn)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: "essay", plannedSeconds: 1500)), line: nil)
        let plain = view.lines(.init(color: false, width: 120))
        #expect(plain.first?.hasPrefix("Vigil · \"essay\"  ") == true && plain.last?.hasPrefix("p pause/resume") == true, "\(plain)")
        view.strict = true
        let strict = view.lines(.init(color: false, width: 120))
        #expect(strict.first?.hasPrefix("Vigil · \"essay\" · strict") == true, "\(strict)")
        #expect(strict.last?.hasPrefix("strict: runs to its planned end · `vigil stop --early`") == true, "\(strict)")
    }
}
