import Foundation
import SessionRuntime
import VigilCore
import VigilStats

/// A simulated person's history: days of focus sessions with typing, idle spells, the application
/// in front (an editor, a terminal, a reader, the browser on documentation, now and then a video
/// site, a forum, chat or a game), tab-hopping storms, loud rooms, walks away from the desk,
/// pauses, gaps (the laptop slept) and sessions ended early, fed as sensor samples through the real
/// state machine (`SessionStepper`). The events are what a live session would have logged for that
/// behaviour, so the statistics and the benchmark read a realistic log. Deterministic for a seed.
public struct HistorySimulator {
    public struct Profile: Sendable {
        /// Sessions on a day the person works.
        public var sessionsPerDay: ClosedRange<Int> = 3...7
        /// Chance of working on each weekday, Monday first.
        public var workdayChance: [Double] = [0.92, 0.92, 0.9, 0.9, 0.85, 0.35, 0.2]
        /// Chance per minute that a distraction starts, before the hour's and the day's factors.
        public var distractionPerMinute = 0.012
        /// Chance per minute, while working, of bringing another of the task's windows to the front.
        public var windowChangePerMinute = 0.15
        /// Chance per minute of a spell of reading or thinking (no input for one to four minutes).
        public var thinkingPerMinute = 0.12
        public var thinkingMinutes: ClosedRange<Double> = 1...3.8
        public var plannedMinutes: [Double] = [25, 50, 50, 90]
        /// Time between sessions.
        public var breakMinutes: ClosedRange<Double> = 10...150
        public init() {}

        /// A load test rather than a person: Pomodoros back to back every day, distractions seven
        /// times as often and a thinking pause every few minutes (each a drift and a return). Used by
        /// the report benchmark to reach about two million events in five years.
        public static var stress: Profile {
            var p = Profile()
            p.sessionsPerDay = 24...32
            p.workdayChance = Array(repeating: 1, count: 7)
            p.distractionPerMinute = 0.08
            p.thinkingPerMinute = 1
            p.thinkingMinutes = 2.5...3.8
            p.plannedMinutes = [25]
            p.breakMinutes = 1...4
            return p
        }
    }

    public let configuration: VigilConfiguration
    /// The signals its sessions are judged by (it simulates only the built-in sensors' samples).
    public let signals: SignalCatalog
    public let timeZone: TimeZone
    public var profile: Profile
    private var random: SplitMix64
    static let tasks: [String?] = ["thesis", "thesis", "email", "reading", "code review", nil]
    static let workplace = (latitude: 52.5200, longitude: 13.4050)

    /// The windows each task is done in, as an application's class and a window title: editors,
    /// terminals and readers (work by the default `apps.rules`), the mail client and the browser on
    /// documentation (neutral). The first is where a session starts. Sessions without a task: "".
    static let windows: [String: [(appClass: String, title: String)]] = [
        "thesis": [
            ("code", "chapter3.tex - thesis - Visual Studio Code"), ("evince", "smith2019.pdf"),
            ("gnome-terminal-server", "latexmk -pvc"), ("firefox", "Overleaf documentation - Mozilla Firefox"),
        ],
        "email": [("thunderbird", "Inbox - Mozilla Thunderbird"), ("firefox", "Calendar - Mozilla Firefox"), ("code", "notes.md")],
        "reading": [("evince", "attention-residue.pdf"), ("zotero", "My Library - Zotero"), ("firefox", "arXiv.org - Mozilla Firefox")],
        "code review": [
            ("code", "Parser.swift - vigil"), ("firefox", "Pull request #42 - GitHub - Mozilla Firefox"), ("gnome-terminal-server", "git diff"),
        ],
        "": [("gnome-terminal-server", "~"), ("code", "todo.md"), ("firefox", "Wikipedia - Mozilla Firefox"), ("thunderbird", "Inbox")],
    ]
    /// Where the person drifts off to: distracting by the default rules (video, a forum, chat, games).
    static let distractions: [(appClass: String, title: String)] = [
        ("firefox", "YouTube - Mozilla Firefox"), ("firefox", "YouTube - Mozilla Firefox"), ("firefox", "reddit: the front page of the internet"),
        ("discord", "#general - Discord"), ("steam", "Steam"),
    ]
    /// Tab-hopping happens in the browser (Ctrl+Tab), on a page that is not distracting itself.
    static let browser = (appClass: "firefox", title: "New Tab - Mozilla Firefox")

    /// The windows as the app detector reports them: classified by the configuration's rules, the
    /// title then dropped.
    private let taskWindows: [String: [AppFocus]]
    private let distractionWindows: [AppFocus]
    private let browserWindow: AppFocus

    public init(seed: UInt64, timeZone: TimeZone, signals: SignalCatalog, profile: Profile = Profile()) {
        var c = VigilConfiguration()
        c.location.workplace = .init(name: "office", latitude: Self.workplace.latitude, longitude: Self.workplace.longitude, radius: 75)
        configuration = c
        self.signals = signals
        self.timeZone = timeZone
        self.profile = profile
        random = SplitMix64(seed: seed)
        func focus(_ w: (appClass: String, title: String)) -> AppFocus {
            let (category, rule) = c.apps.categorize(appClass: w.appClass, title: w.title)
            return AppFocus(appClass: w.appClass, category: category, rule: rule)
        }
        taskWindows = Self.windows.mapValues { $0.map(focus) }
        distractionWindows = Self.distractions.map(focus)
        browserWindow = focus(Self.browser)
    }

    /// Simulates the local days `firstDay...lastDay` (days since 1970-01-01), handing each session's
    /// events (the first is `sessionStarted`) in time order.
    public mutating func run(days: ClosedRange<Int>, emit: ([SessionEvent]) throws -> Void) rethrows {
        var none: DaySimulator? = nil
        try run(days: days, day: &none, stretches: { _ in }, emit: emit)
    }

    /// With `day`, the day around the sessions too, as the all-day watch records it (`stretches`).
    public mutating func run(
        days: ClosedRange<Int>, day simulator: inout DaySimulator?, stretches: ([DayStretch]) throws -> Void = { _ in },
        emit: ([SessionEvent]) throws -> Void
    ) rethrows {
        let clock = LocalClock(timeZone: timeZone, days: days.lowerBound...days.upperBound + 1)
        for day in days {
            var sessions: [(start: Timestamp, end: Timestamp)] = []
            let weekday = HourSlot(day: day, hour: 0).weekday
            if random.chance(profile.workdayChance[weekday - 1]) {
                try workday(day, clock: clock, sessions: &sessions, emit: emit)
            }
            if simulator != nil { try stretches(simulator!.day(day, clock: clock, sessions: sessions, workday: !sessions.isEmpty)) }
        }
    }

    /// A day the person works: its sessions, each handed to `emit` and its planned time noted in `sessions`.
    private mutating func workday(
        _ day: Int, clock: LocalClock, sessions: inout [(start: Timestamp, end: Timestamp)], emit: ([SessionEvent]) throws -> Void
    ) rethrows {
        // Some days go well: far fewer distractions.
        let dayFactor = random.chance(0.35) ? 0.08 : random.uniform(0.6, 1.6)
        let count = random.int(in: profile.sessionsPerDay)
        let midnight = clock.startOfDay(day)
        // Sessions spread over the day from about 8:00, with breaks between them; the last may
        // run past midnight.
        let firstHour = random.uniform(profile.sessionsPerDay.upperBound > 16 ? 5 : 7.5, profile.sessionsPerDay.upperBound > 16 ? 6 : 10)
        var t = Self.later(midnight, milliseconds: firstHour * 3_600_000)
        for _ in 0..<count {
            let planned = profile.plannedMinutes[random.int(in: 0...(profile.plannedMinutes.count - 1))] * 60
            // Whole minutes: every logged time is then a whole second (samples every 5 s, ticks
            // every second), which lets tests check the statistics second by second.
            t = Timestamp(milliseconds: (t.millisecondsSinceEpoch / 60_000 + 1) * 60_000)
            let hour = clock.slot(at: t).hour
            try emit(session(start: t, planned: planned, hourFactor: Self.hourFactor(hour) * dayFactor))
            sessions.append((t, Self.later(t, milliseconds: planned * 1000)))
            t = Self.later(t, milliseconds: planned * 1000)
            t = Self.later(t, milliseconds: random.uniform(profile.breakMinutes.lowerBound, profile.breakMinutes.upperBound) * 60_000)
        }
    }

    /// `t` plus a number of milliseconds cut to whole ones: the days' times stay whole milliseconds.
    static func later(_ t: Timestamp, milliseconds: Double) -> Timestamp {
        Timestamp(milliseconds: t.millisecondsSinceEpoch + Int64(milliseconds))
    }

    /// After lunch and late in the evening people drift more.
    static func hourFactor(_ hour: Int) -> Double {
        switch hour {
        case 13...16: 2.2
        case 20...: 1.8
        case ..<10: 0.6
        default: 1
        }
    }

    /// `thinking`: reading or thinking with hands off the keyboard for a minute or three; not a
    /// distraction, but long ones make the session drift. `app`: a video, a forum, chat or a game in
    /// front, from a glance to a quarter of an hour.
    private enum Spell { case away, switching, noise, location, app, thinking }

    private mutating func session(start: Timestamp, planned: Double, hourFactor: Double) -> [SessionEvent] {
        let task = Self.tasks[random.int(in: 0...(Self.tasks.count - 1))]
        var stepper = SessionStepper(session: FocusSession(configuration: configuration, task: task, plannedSeconds: planned, signals: signals))
        var events = stepper.start(at: start)
        let windows = taskWindows[task ?? ""]!
        // The window in front: said to the session when it changes, as the detector does.
        var front = windows[0]
        var shown: AppFocus?
        let step = 5.0
        var now = start
        var spell: (kind: Spell, until: Timestamp)?
        var idle = 0.0
        let abandonAt = random.chance(0.07) ? start + planned * random.uniform(0.3, 0.9) : nil
        let pauseAt = random.chance(0.1) ? start + planned * random.uniform(0.2, 0.7) : nil
        var pauseUntil: Timestamp?
        let gapAt = random.chance(0.03) ? start + planned * random.uniform(0.2, 0.8) : nil
        var snoozed = false
        var n = 0
        while !stepper.isEnded {
            now = now + step
            n += 1
            if let g = gapAt, now >= g, now < g + step {
                now = now + Double(random.int(in: 180...1500))  // the laptop slept
            }
            if let p = pauseAt, pauseUntil == nil, now >= p {
                stepper.receive(Sample(time: now, payload: .control(.pause)), into: &events)
                pauseUntil = now + random.uniform(4, 15) * 60
            }
            if let u = pauseUntil, now >= u, u > start {
                stepper.receive(Sample(time: now, payload: .control(.resume)), into: &events)
                pauseUntil = start  // done
            }
            if let a = abandonAt, now >= a {
                stepper.end(.user, at: now, into: &events)
                break
            }
            if let s = spell, now >= s.until {
                // Back to work from the distraction or the browser's tabs.
                if s.kind == .app || s.kind == .switching { front = windows[0] }
                spell = nil
            }
            if spell == nil, n % 12 == 0, random.chance(profile.distractionPerMinute * hourFactor) {
                let r = random.uniform(0, 1)
                let kind: Spell = r < 0.38 ? .away : r < 0.52 ? .switching : r < 0.66 ? .noise : r < 0.74 ? .location : .app
                let minutes =
                    switch kind {
                    case .away: random.uniform(2, 20)
                    case .switching: random.uniform(2, 7)
                    case .noise: random.uniform(2, 12)
                    case .location: random.uniform(4, 25)
                    case .app: random.uniform(0.5, 14)
                    case .thinking: random.uniform(1, 3.8)
                    }
                spell = (kind, now + minutes * 60)
                if kind == .app { front = distractionWindows[random.int(in: 0...(distractionWindows.count - 1))] }
                if kind == .switching { front = browserWindow }
            } else if spell == nil, n % 12 == 6, random.chance(profile.thinkingPerMinute) {
                spell = (.thinking, now + random.uniform(profile.thinkingMinutes.lowerBound, profile.thinkingMinutes.upperBound) * 60)
            } else if spell == nil, n % 12 == 3, random.chance(profile.windowChangePerMinute) {
                let next = windows[random.int(in: 0...(windows.count - 2))]
                front = next == front ? windows[windows.count - 1] : next
            }
            if front != shown {
                stepper.receive(Sample(time: now, payload: .app(front)), into: &events)
                shown = front
            }
            // Input every window: typing, or nothing while away.
            if spell?.kind == .away || spell?.kind == .location || spell?.kind == .thinking {
                idle += step
                stepper.receive(Sample(time: now, payload: .input(InputActivity(window: step, idle: idle))), into: &events)
            } else {
                idle = random.chance(0.15) ? step : Double(random.int(in: 0...2))
                // The application in front is known, so only Ctrl+Tab counts as switching besides
                // its changes (Alt+Tab would be the same switches seen twice).
                var switches = AppSwitches()
                if spell?.kind == .switching { switches.ctrlTab = random.int(in: 0...2) } else if random.chance(0.02) { switches.ctrlTab = 1 }
                let keys = idle >= step ? 0 : random.int(in: 2...30)
                stepper.receive(
                    Sample(
                        time: now,
                        payload: .input(
                            InputActivity(
                                window: step, keyPresses: keys, pointerTravel: random.uniform(0, 400), clicks: random.int(in: 0...2),
                                scrollTicks: random.int(in: 0...3), switches: switches, idle: idle))), into: &events)
            }
            let loud = spell?.kind == .noise
            let level = loud ? random.uniform(-24, -16) : random.uniform(-55, -40)
            stepper.receive(
                Sample(time: now, payload: .audio(AudioLevel(rms: level, peak: level + 12, shortTermLUFS: level, momentaryLUFS: level))),
                into: &events)
            if n % 6 == 0 {
                let away = spell?.kind == .location
                let north = away ? 0.005 : random.uniform(-0.0001, 0.0001)
                stepper.receive(
                    Sample(
                        time: now,
                        payload: .location(
                            LocationFix(
                                latitude: Self.workplace.latitude + north, longitude: Self.workplace.longitude, horizontalAccuracy: 8, mode: .threeD))
                    ), into: &events)
            }
            // Now and then the person asks for quiet.
            if !snoozed, stepper.session.state == .alarm(level: 2), random.chance(0.05) {
                stepper.receive(Sample(time: now, payload: .control(.snooze)), into: &events)
                snoozed = true
            }
        }
        return events
    }
}
