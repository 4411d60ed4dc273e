import SessionViews
import Testing
import VigilCore

/// What the live screen says must be true (issue 32): one clock or both named, rows for what is
/// measured and one line for the sensors not in use, and a Pomodoro set's count and countdown.
@Suite struct LiveScreenTruthTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    func started(planned: Double = 1500) -> LiveView {
        var view = LiveView(task: "slides", planned: planned, workplace: nil, signals: .builtIn)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: "slides", plannedSeconds: planned)), line: nil)
        view.apply(SessionEvent(time: t0, kind: .stateChanged(from: .planned, to: .focused, score: 0, reason: nil)), line: nil)
        return view
    }

    /// After a pause the header showed the time worked while the timeline under it counted from
    /// the start, so events seemed to happen in the future. Both clocks are named.
    @Test func afterAPauseTheHeaderNamesBothClocks() {
        var view = started()
        view.apply(
            SessionEvent(time: t0 + 60, kind: .stateChanged(from: .focused, to: .paused(.pause), score: 0, reason: .paused(.pause))), line: nil)
        view.apply(
            SessionEvent(time: t0 + 360, kind: .stateChanged(from: .paused(.pause), to: .focused, score: 0, reason: .back(from: .pause))), line: nil)
        view.tick(at: t0 + 420, score: 0, reason: nil)
        let header = view.lines(.init(color: false, width: 100))[0]
        #expect(header.contains("worked 00:02:00 / 00:25:00"), "\(header)")
        #expect(header.contains("00:07:00 since start"), "\(header)")
        // Without a pause, one clock, unnamed.
        var plain = started()
        plain.tick(at: t0 + 420, score: 0, reason: nil)
        let one = plain.lines(.init(color: false, width: 100))[0]
        #expect(one.hasSuffix("00:07:00 / 00:25:00") && !one.contains("worked"), "\(one)")
    }

    /// A break freezes the plan as a pause does (the bar and the time worked stand still).
    @Test func aBreakStopsTheTimeWorked() {
        var view = started()
        view.apply(
            SessionEvent(time: t0 + 60, kind: .stateChanged(from: .focused, to: .paused(.breakTime), score: 0, reason: .paused(.breakTime))),
            line: nil)
        view.tick(at: t0 + 300, score: 0, reason: nil)
        #expect(view.worked == 60 && view.elapsed == 300)
    }

    /// Without the `input` group and without gpsd, the screen said "Input unavailable" and kept
    /// rows cut before their remedy while the desktop measured idle. Rows are for what measures.
    @Test func sensorsNotInUseShareOneLine() {
        var view = started()
        view.apply(
            SessionEvent(
                time: t0,
                kind: .sensorStatus(
                    SensorStatus(sensor: .input, state: .permissionDenied, detail: "no permission to read /dev/input: join the input group"))),
            line: nil)
        view.apply(
            SessionEvent(
                time: t0,
                kind: .sensorStatus(
                    SensorStatus(sensor: .location, state: .unavailable, detail: "no gpsd at localhost:2947: sudo systemctl start gpsd"))), line: nil)
        view.apply(
            SessionEvent(time: t0, kind: .sensorStatus(SensorStatus(sensor: .desktop, state: .available, detail: "X11 screen saver"))), line: nil)
        view.apply(Sample(time: t0 + 5, payload: .desktop(.idle(70))))
        let screen = view.lines(.init(color: false, width: 80))
        #expect(screen.contains { $0.hasPrefix("Desktop   idle 1 min") }, "\(screen)")
        #expect(!screen.contains { $0.hasPrefix("Input") || $0.hasPrefix("Location") || $0.contains("unavailable") }, "\(screen)")
        #expect(screen.contains("Not used  input, location · `vigil sensors` says why"), "\(screen)")
        #expect(!view.statusLine().contains("unavailable") && view.statusLine().contains("not used: input, location"), "\(view.statusLine())")
        // A sensor that worked and then failed keeps its row, with what went wrong.
        view.apply(
            SessionEvent(time: t0 + 9, kind: .sensorStatus(SensorStatus(sensor: .desktop, state: .unavailable, detail: "the X server went away"))),
            line: nil)
        #expect(view.lines(.init(color: false, width: 80)).contains { $0.hasPrefix("Desktop   unavailable · the X server went away") })
    }

    /// A Pomodoro set's period and the countdown of its phase, on the screen and in the status line.
    @Test func aPomodoroSetShowsItsCountAndCountdown() {
        var view = started(planned: 4 * 1500 + 3 * 300)
        view.pomodoroPhase = (.work, 2, 4, t0 + 1800, 1500)
        view.tick(at: t0 + 1800 + 180, score: 0, reason: nil)
        #expect(view.lines(.init(color: false, width: 80)).contains("Pomodoro  work 2/4 · 00:22:00 left"))
        #expect(view.statusLine().contains("pomodoro work 2/4 · 00:22:00 left"))
        view.pomodoroPhase = (.shortBreak, 2, 4, t0 + 3300, 300)
        view.tick(at: t0 + 3300 + 10, score: 0, reason: nil)
        #expect(view.pomodoro == PomodoroProgress(phase: .shortBreak, period: 2, rounds: 4, left: 290))
        #expect(view.pomodoro?.text == "break after 2/4 · 00:04:50 left")
        view.pomodoroPhase = (.waiting, 2, 4, t0 + 3600, nil)
        #expect(view.pomodoro?.text == "break after 2/4 over · waiting for you")
    }
}
