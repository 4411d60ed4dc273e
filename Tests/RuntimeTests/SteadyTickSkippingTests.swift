import SessionRuntime
import Testing
import VigilCore

/// A replay skips the ticks at which the session is steady (`FocusSession.steadiness()`). That is
/// only allowed if nothing can tell: every event, its instant, score, reason and the summary's
/// figures must be what ticking every second gives. Random streams of every kind of sample and
/// control, at irregular instants with silences short and long, are stepped both ways and compared.
@Suite struct SteadyTickSkippingTests {
    /// One random stream: a few hours of sparse samples of every sensor, controls, and silences
    /// that are now and then longer than `session.gap`.
    static func stream(seed: UInt64, gap: Double) -> [Sample] {
        var rng = SplitMix64(seed: seed)
        var t = Timestamp(seconds: 1_790_000_000 + rng.uniform(0, 1))
        var samples: [Sample] = []
        let apps: [(String, AppCategory)] = [("firefox", .distracting), ("code", .work), ("", .neutral), ("mpv", .distracting), ("term", .neutral)]
        for _ in 0..<rng.int(in: 150...600) {
            // Mostly seconds to a few minutes apart; sometimes past the gap.
            let silence = rng.chance(0.03) ? rng.uniform(gap, gap * 4) : (rng.chance(0.5) ? rng.uniform(0.05, 5) : rng.uniform(5, gap * 0.95))
            t = t + silence
            let payload: SamplePayload
            switch rng.int(in: 0...19) {
            case 0...4:
                let active = rng.chance(0.6)
                payload = .input(
                    InputActivity(
                        window: 1, keyPresses: active ? rng.int(in: 0...6) : 0, pointerTravel: rng.uniform(0, 40), clicks: rng.int(in: 0...1),
                        switches: AppSwitches(altTab: rng.chance(0.1) ? 1 : 0, ctrlTab: rng.chance(0.1) ? 1 : 0),
                        idle: active ? rng.uniform(0, 1) : rng.uniform(0, 600)))
            case 5...7:
                switch rng.int(in: 0...9) {
                case 0: payload = .desktop(.locked)
                case 1: payload = .desktop(.unlocked)
                case 2 where rng.chance(0.3): payload = .desktop(.sleeping)
                case 3: payload = .desktop(.woke)
                default: payload = .desktop(.idle(rng.chance(0.5) ? rng.uniform(0, 3) : rng.uniform(0, 900)))
                }
            case 8...11:
                let (name, category) = apps[rng.int(in: 0...(apps.count - 1))]
                payload = .app(AppFocus(appClass: name, category: category, rule: category == .distracting ? "video" : nil))
            case 12...13:
                let loud = rng.chance(0.4)
                let rms = loud ? rng.uniform(-28, -10) : rng.uniform(-70, -35)
                payload = .audio(AudioLevel(rms: rms, peak: rms + 6))
            case 14:
                payload = .media(MediaActivity(calls: rng.chance(0.3) ? 1 : 0, playing: rng.chance(0.4) ? 1 : 0))
            case 15:
                let far = rng.chance(0.4) ? rng.uniform(0.002, 0.01) : rng.uniform(0, 0.0003)
                payload = .location(
                    LocationFix(latitude: 52.52 + far, longitude: 13.405, horizontalAccuracy: rng.uniform(3, 30), mode: .threeD))
            case 16:
                let sensors: [SensorKind] = [.input, .desktop, .audio, .app, .media, .location]
                payload = .status(
                    SensorStatus(sensor: sensors[rng.int(in: 0...(sensors.count - 1))], state: rng.chance(0.6) ? .available : .unavailable))
            default:
                let actions: [ControlAction] = [.pause, .breakTime, .resume, .resume, .snooze, .snooze, .snooze]
                payload = .control(actions[rng.int(in: 0...(actions.count - 1))])
            }
            samples.append(Sample(time: t, payload: payload))
        }
        return samples
    }

    static func configuration(seed: UInt64) -> VigilConfiguration {
        var rng = SplitMix64(seed: seed ^ 0xC0FFEE)
        var c = VigilConfiguration.default
        c.session.tick = [1, 1, 0.5, 2.5][rng.int(in: 0...3)]
        c.session.pauseExtendsPlan = rng.chance(0.5)
        c.input.idleGrace = rng.uniform(20, 150)
        c.input.idleFull = c.input.idleGrace + rng.uniform(0, 200)
        c.audio.grace = rng.uniform(5, 60)
        c.audio.full = c.audio.grace + rng.uniform(0, 120)
        c.apps.grace = rng.uniform(0, 60)
        c.apps.full = c.apps.grace + rng.uniform(0, 120)
        c.switching.window = rng.uniform(20, 120)
        c.switching.calm = 1
        c.switching.storm = 3
        c.location.grace = rng.uniform(0, 30)
        c.location.full = c.location.grace + rng.uniform(0, 60)
        c.scoring.distractConfirm = rng.uniform(0, 20)
        c.alarms.escalation = [rng.uniform(0, 30), rng.uniform(30, 90), rng.uniform(90, 200)]
        c.alarms.repeatEvery = rng.uniform(20, 90)
        c.alarms.snooze = rng.uniform(10, 120)
        return c
    }

    static func run(_ samples: [Sample], _ c: VigilConfiguration, planned: Double?, skipping: Bool) -> (events: [SessionEvent], ticks: Int) {
        var stepper = SessionStepper(session: FocusSession(configuration: c, task: "t", plannedSeconds: planned), skipsSteadyTicks: skipping)
        var events = stepper.start(at: samples[0].time - 3)
        for s in samples where !stepper.isEnded { stepper.receive(s, into: &events) }
        if let last = samples.last { stepper.end(.recordingEnded, at: last.time + 200, into: &events) }
        return (events, stepper.ticksFired)
    }

    @Test(arguments: 1...60)
    func skippingTicksChangesNoEvent(seed: Int) {
        let c = Self.configuration(seed: UInt64(seed))
        let samples = Self.stream(seed: UInt64(seed), gap: c.session.gap)
        let planned: Double? = seed % 3 == 0 ? Double(seed * 97 % 7200 + 600) : nil
        let every = Self.run(samples, c, planned: planned, skipping: false)
        let skipping = Self.run(samples, c, planned: planned, skipping: true)
        #expect(skipping.events.count == every.events.count)
        for (i, (a, b)) in zip(skipping.events, every.events).enumerated() where a != b {
            Issue.record("event \(i) differs:\n skipping: \(a)\n every tick: \(b)")
            break
        }
        // And it does skip (how much depends on the stream; `anHourOfSilentFocus` shows a steady one).
        #expect(skipping.ticks < every.ticks, "\(skipping.ticks) ticks fired skipping, \(every.ticks) every tick")
    }

    /// The figures that ticking piece by piece used to sum in floating point: booked in
    /// nanoseconds, they are the same whatever splits them.
    @Test func anHourOfSilentFocusIsBookedExactly() {
        var c = VigilConfiguration.default
        c.input.enabled = false
        c.desktop.enabled = false
        let t0 = Timestamp(seconds: 1_790_000_000.123)
        var stepper = SessionStepper(session: FocusSession(configuration: c))
        var events = stepper.start(at: t0)
        for k in 1...72 {
            stepper.receive(
                Sample(time: t0 + Double(k) * 50 + 0.001 * Double(k), payload: .app(AppFocus(appClass: "code", category: .work))), into: &events)
        }
        stepper.end(.recordingEnded, at: t0 + 3600.072, into: &events)
        guard case .sessionEnded(let s) = events.last?.kind else {
            Issue.record("no summary: \(events)")
            return
        }
        #expect(s.activeSeconds == 3600.072)
        #expect(s.focusedSeconds == 3600.072)
        // Nothing can change in steady focus: only the first tick judges, of 3,600.
        #expect(stepper.ticksFired == 1, "\(stepper.ticksFired) ticks fired")
    }
}
