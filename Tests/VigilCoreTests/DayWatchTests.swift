import Testing

@testable import VigilCore

/// The all-day watch's judgement: readings in, stretches out, as the day was lived.
@Suite struct DayWatchTests {
    static func t(_ seconds: Double) -> Timestamp { Timestamp(seconds: 1_800_000_000 + seconds) }
    static let editor = AppFocus(appClass: "code", category: .work, rule: "editors")
    static let video = AppFocus(appClass: "firefox", category: .distracting, rule: "youtube")

    /// Feeds (second, reading) pairs and ticks every second up to `until`; every stretch closed, and
    /// the one in progress closed at `until`.
    static func day(_ readings: [(Double, SamplePayload)], until: Double, awayAfter: Double = 60) -> [DayStretch] {
        var watch = DayWatch(awayAfter: awayAfter)
        var out: [DayStretch] = []
        var pending = readings.sorted { $0.0 < $1.0 }[...]
        for second in 0...Int(until) {
            while let (at, payload) = pending.first, at <= Double(second) {
                out += watch.receive(payload, at: t(at))
                pending = pending.dropFirst()
            }
            out += watch.tick(at: t(Double(second)))
        }
        return out + watch.close(at: t(until))
    }

    /// A desktop that polls (X11, Wayland): idle 0 every second while the person works.
    static func working(_ seconds: ClosedRange<Int>) -> [(Double, SamplePayload)] { seconds.map { (Double($0), .desktop(.idle(0))) } }

    static func shape(_ stretches: [DayStretch]) -> [String] {
        stretches.map { "\($0.kind.rawValue) \($0.appClass ?? "-") \(Int($0.start - t(0)))-\(Int($0.end - t(0)))" }
    }

    @Test func applicationsFollowTheFocus() {
        let day = Self.day(
            [(0, .app(Self.editor)), (100, .app(Self.video)), (130, .app(Self.editor)), (135, .app(Self.editor))] + Self.working(0...200),
            until: 200)
        #expect(Self.shape(day) == ["app code 0-100", "app firefox 100-130", "app code 130-200"])
        #expect(day[1].category == .distracting && day[1].rule == "youtube")
    }

    @Test func awayBeginsAtTheLastInputEvenWhenTheDesktopSaidItOnce() {
        // GNOME's idle watch: one reading when the pause begins, the next at the next input.
        let day = Self.day([(0, .app(Self.editor)), (51, .desktop(.idle(1)))] + Self.working(0...50) + Self.working(300...400), until: 400)
        #expect(Self.shape(day) == ["app code 0-50", "away - 50-300", "app code 300-400"])
        // A pause shorter than `awayAfter` is still the application's time.
        let short = Self.day([(0, .app(Self.editor)), (51, .desktop(.idle(1)))] + Self.working(0...50) + Self.working(90...200), until: 200)
        #expect(Self.shape(short) == ["app code 0-200"])
        // Silence after the last input is no input: away once `awayAfter` has passed.
        let left = Self.day([(0, .app(Self.editor))] + Self.working(0...100), until: 200)
        #expect(Self.shape(left) == ["app code 0-100", "away - 100-200"])
    }

    @Test func polledIdleReturnsAtTheFirstInput() {
        // X11 and Wayland: the idle time every second. Back at 250 (the reading at 252 says 2 s).
        var readings: [(Double, SamplePayload)] = [(0, .app(Self.editor))]
        for s in 0...300 { readings.append((Double(s), .desktop(.idle(s < 100 ? 0 : s < 252 ? Double(s - 100) : Double(s - 250))))) }
        #expect(Self.shape(Self.day(readings, until: 300)) == ["app code 0-100", "away - 100-250", "app code 250-300"])
    }

    @Test func lockAndSleepOutrankAwayAndTheApplication() {
        let day = Self.day(
            [
                (0, .app(Self.editor)), (10, .desktop(.locked)), (100, .desktop(.sleeping)), (500, .desktop(.woke)), (505, .desktop(.unlocked)),
            ] + Self.working(0...10) + Self.working(505...600), until: 600)
        #expect(Self.shape(day) == ["app code 0-10", "locked - 10-100", "asleep - 100-500", "locked - 500-505", "app code 505-600"])
    }

    @Test func aSessionSuspendsTheWatch() {
        var watch = DayWatch(awayAfter: 60)
        var out = watch.receive(.app(Self.editor), at: Self.t(0))
        out += watch.suspend(at: Self.t(40))
        out += watch.receive(.app(Self.video), at: Self.t(50))  // the session's time: not the watch's
        #expect(watch.current == nil && watch.suspended)
        watch.resume(at: Self.t(100))
        out += watch.receive(.app(Self.editor), at: Self.t(120))
        out += watch.close(at: Self.t(130))
        #expect(Self.shape(out) == ["app code 0-40", "app firefox 100-120", "app code 120-130"])
    }

    @Test func nonsenseReadingsChangeNothing() {
        let day = Self.day([(0, .app(Self.editor)), (10, .desktop(.idle(.nan))), (20, .desktop(.idle(-5)))] + Self.working(0...50), until: 50)
        #expect(Self.shape(day) == ["app code 0-50"])
        // An idle time longer than the watch has run: away from the watch's first instant, not before.
        let late = Self.day([(0, .app(Self.editor)), (5, .desktop(.idle(3600)))], until: 50)
        #expect(Self.shape(late) == ["app code 0-5", "away - 5-50"] || Self.shape(late) == ["away - 0-50"], "\(Self.shape(late))")
    }
}
