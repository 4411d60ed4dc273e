import DisplayWidth
import Foundation
import VigilCore

/// What the live session screen shows, kept up to date from the session's events, its samples and
/// its ticks, and drawn as lines for a terminal of any width. No terminal I/O here: the CLI draws
/// the lines; tests read them.
public struct LiveView: Sendable {
    public var task: String?
    public var planned: Double?
    public var start: Timestamp?
    public var now: Timestamp?
    public var state: SessionState = .planned
    public var score = 0.0
    public var reason: String?
    /// The highest score in each 10-second slot of the last five minutes, oldest first.
    public private(set) var history: [Double] = []
    private var historySlot: Int64 = -1
    public var inputRate: Double?
    public var idle: Double?
    public var audio: AudioLevel?
    public var distance: Double?
    public var fix: FixMode?
    /// The desktop's idle time and lock, the application in front, calls and playback.
    public var desktopIdle: Double?
    public var locked = false
    public var asleep = false
    public var app: AppFocus?
    public var media: MediaActivity?
    public var sensors: [SensorKind: SensorStatus] = [:]
    /// The latest reading of each plug-in signal (built-in sensors have their own fields).
    public var readings: [SensorKind: SignalReading] = [:]
    private let signals: SignalCatalog
    public var episodes = 0
    public var alarms = 0
    public var snoozesLeft: Int?
    public var currentEpisode: Episode?
    /// The number of the latest episode a distracting application caused ("this was work": w).
    public var lastAppEpisode: Int?
    /// The last few timeline lines.
    public var recent: [String] { recentLines.map(\.text) }
    public var summary: SessionSummary?
    public var episodeCauses: [Cause: Int] = [:]
    /// Waiting for the person to come back after a Pomodoro break.
    public var waiting = false
    /// The Pomodoro set's current phase, if the session runs one: its kind, its period, and since
    /// when it runs (the session's clock) for how long.
    public var pomodoroPhase: (phase: PomodoroProgress.Phase, period: Int, rounds: Int, since: Timestamp, length: Double?)?
    private let workplace: VigilConfiguration.Workplace?
    private var firstFix: (Double, Double)?
    private var keyWindows: [(Timestamp, Int)] = []

    /// Whether a pause or a break freezes the planned time (`session.pause_extends_plan`): then the
    /// clock and the bar show the time worked, which stands still while paused.
    public var pauseExtendsPlan = true
    /// A strict session (`vigil start --strict`): the title says so, and the keys line what ends it.
    public var strict = false
    /// What the person means to do (`vigil start --intent`): shown under the title.
    public var intent: String?
    /// Paused or on a break before the current pause, and since when the current one runs.
    private var pausedBefore = 0.0
    private var pausedSince: Timestamp?

    public init(
        task: String?, planned: Double?, workplace: VigilConfiguration.Workplace?, signals: SignalCatalog, pauseExtendsPlan: Bool = true
    ) {
        self.pauseExtendsPlan = pauseExtendsPlan
        self.signals = signals
        self.task = task
        self.planned = planned
        self.workplace = workplace
    }

    public mutating func apply(_ e: SessionEvent, line: String?) {
        now = max(now ?? e.time, e.time)
        if let line { remember(line) }
        switch e.kind {
        case .sessionStarted: start = e.time
        case .stateChanged(_, let to, let score, let reason):
            if case .paused = to {
                if pausedSince == nil { pausedSince = e.time }
            } else if let since = pausedSince {
                pausedBefore += e.time - since
                pausedSince = nil
            }
            state = to
            self.score = score
            self.reason = reason?.words
        case .episodeStarted(let ep):
            episodes = ep.number
            currentEpisode = ep
            if ep.cause == .app { lastAppEpisode = ep.number }
            episodeCauses[ep.cause, default: 0] += 1
        case .episodeEnded: currentEpisode = nil
        case .alarm: alarms += 1
        case .alarmSnoozed(_, _, _, let left): snoozesLeft = left
        case .sensorStatus(let s): noteStatus(s)
        case .sessionEnded(let s): summary = s
        default: break
        }
    }

    private mutating func noteStatus(_ s: SensorStatus) {
        sensors[s.sensor] = s
        if s.state == .available || s.state == .noFix || s.state == .lost { everInUse.insert(s.sensor) }
    }

    /// A message for the person (a channel that stopped working), shown with the timeline.
    public mutating func note(_ text: String) { remember(text, isNote: true) }

    /// The last four lines for the screen; notes are wrapped whole there (their remedy is at the
    /// end), where timeline lines are cut to the width.
    private var recentLines: [(text: String, isNote: Bool)] = []

    private mutating func remember(_ line: String, isNote: Bool = false) {
        // A note can carry outside text (a D-Bus error, a path): on one line, inert, like the rest.
        recentLines.append((line.terminalSafe, isNote))
        if recentLines.count > 4 { recentLines.removeFirst(recentLines.count - 4) }
    }

    public mutating func apply(_ sample: Sample) {
        now = max(now ?? sample.time, sample.time)
        switch sample.payload {
        case .input(let a):
            idle = a.idle
            keyWindows.append((sample.time, a.keyPresses))
            keyWindows.removeAll { sample.time - $0.0 > 60 }
            let span = max(a.window, min(60, sample.time - (keyWindows.first?.0 ?? sample.time) + a.window))
            inputRate = Double(keyWindows.reduce(0) { $0 + $1.1 }) / span * 60
        case .audio(let level): audio = level
        case .location(let f):
            fix = f.mode
            guard f.mode >= .twoD else { break }
            // A coarse fix (the detector's default) brings its distance; its coordinates are only
            // the centre of a cell about 1 km across and must not be measured.
            guard f.isExact else {
                if let d = f.distanceFromWorkplace { distance = d }
                break
            }
            let origin = workplace.map { ($0.latitude, $0.longitude) } ?? firstFix ?? (f.latitude, f.longitude)
            if workplace == nil, firstFix == nil { firstFix = origin }
            distance = Geodesy.distance(latitude: origin.0, longitude: origin.1, latitude: f.latitude, longitude: f.longitude)
        case .desktop(let e):
            switch e {
            case .idle(let seconds): desktopIdle = seconds
            case .locked: locked = true
            case .unlocked: locked = false
            case .sleeping: asleep = true
            case .woke: asleep = false
            }
        case .app(let f): app = f
        case .media(let m): media = m
        case .reading(let r): readings[r.sensor] = r
        case .status(let s): noteStatus(s)
        case .control: break
        }
    }

    public mutating func tick(at t: Timestamp, score: Double, reason: String?) {
        now = max(now ?? t, t)
        self.score = score
        if score > 0 { self.reason = reason }
        let slot = t.nanoseconds / 10_000_000_000
        if slot != historySlot {
            history.append(score)
            historySlot = slot
            if history.count > 30 { history.removeFirst(history.count - 30) }
        } else if let last = history.last, score > last {
            history[history.count - 1] = score
        }
    }

    // MARK: Drawing

    public struct Style: Sendable {
        public var color: Bool
        public var width: Int
        /// Drawn for `vigil attach` in another terminal: its keys, where q detaches.
        public var attached: Bool
        public init(color: Bool, width: Int, attached: Bool = false) {
            self.color = color
            self.width = width
            self.attached = attached
        }
    }

    public var elapsed: Double { (now.flatMap { n in start.map { n - $0 } }) ?? 0 }

    /// The time counted against the plan: the elapsed time less the person's pauses when they
    /// freeze the plan.
    public var worked: Double {
        guard pauseExtendsPlan else { return elapsed }
        let current = pausedSince.flatMap { since in now.map { max(0, $0 - since) } } ?? 0
        return max(0, elapsed - pausedBefore - current)
    }

    /// Where the Pomodoro set stands now, with the time left in its phase.
    public var pomodoro: PomodoroProgress? {
        guard let p = pomodoroPhase else { return nil }
        let left = p.length.map { length in max(0, length - max(0, (now ?? p.since) - p.since)) }
        return PomodoroProgress(phase: p.phase, period: p.period, rounds: p.rounds, left: left.map { $0.rounded() })
    }

    /// The state as a person reads it.
    public var stateText: String {
        if waiting { return "waiting for you to come back" }
        switch state {
        case .planned: return "starting"
        case .focused: return "focused"
        case .drifting: return "drifting"
        case .distracted: return "distracted"
        case .alarm(let level): return "alarm \(level)"
        case .paused(let kind): return kind == .pause ? "paused" : "on break"
        case .ended(let outcome): return "ended (\(outcome.rawValue))"
        }
    }

    public func lines(_ style: Style) -> [String] {
        let w = max(20, style.width)
        func paint(_ s: String, _ code: String) -> String { style.color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        var out: [String] = []
        let title = "Vigil · " + (task.map { "\"\($0.terminalSafe)\"" } ?? "focus session") + (strict ? " · strict" : "")
        // One clock unless pauses froze the plan: then the time worked (against the plan) and the
        // time since the start (the timeline's clock) are both shown, each with its name.
        let split = worked < elapsed - 0.5
        var times = (split ? "worked " : "") + clockDuration(worked) + (planned.map { " / " + clockDuration($0) } ?? "")
        if split, title.displayWidth + 2 + times.displayWidth + 23 <= w { times += " · \(clockDuration(elapsed)) since start" }
        // The title is cut to the columns left of the times; on a narrow terminal the planned
        // length goes first (the bar below says the time left).
        if title.displayWidth + 2 + times.displayWidth > w, w - times.displayWidth - 2 < 12 {
            times = (split ? "worked " : "") + clockDuration(worked)
        }
        let shownTitle = truncate(title, w - times.displayWidth - 2)
        out.append(fit(paint(shownTitle, "1"), visible: shownTitle.displayWidth, right: times, width: w))
        if let intent { out.append(truncate("Intent    " + intent.terminalSafe, w)) }
        if let planned, planned > 0 {
            let fraction = min(1, worked / planned)
            let barWidth = max(10, min(50, w - 8))
            let filled = max(0, Int(saturating: (fraction * Double(barWidth)).rounded(.down)))
            let left = max(0, planned - worked)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            out.append(paint(bar, "32") + " \(Int(saturating: fraction * 100))%" + (w >= barWidth + 22 ? " · \(clockDuration(left)) left" : ""))
        }
        if let p = pomodoro { out.append(truncate("Pomodoro  " + p.text, w)) }
        let stateColor =
            switch state {
            case .focused: "32"
            case .drifting: "33"
            case .distracted, .alarm: "31;1"
            default: "36"
            }
        var stateLine = "State     " + paint(stateText.uppercased(), stateColor)
        if let ep = currentEpisode { stateLine += " · episode \(ep.number) · \(ep.cause.rawValue.terminalSafe)" }
        out.append(stateLine)
        if let reason, state != .focused, !(state.isDistracted == false && score == 0) {
            out.append("          " + truncate(reason.terminalSafe, w - 10))
        }
        let spark = sparkline(history, width: max(5, min(30, w - 22)))
        out.append("Score     \(String(format: "%.2f", score))  \(paint(spark, "35"))" + (w >= 50 ? "  last 5 min" : ""))
        // A row for each sensor that measures something; those not in use on this machine (not
        // configured, or not there) share one line: `vigil sensors` says why and what to do.
        for sensor in Self.rowOrder where shows(sensor) {
            out.append(truncate(label(sensor) + sensorLine(sensor) { reading(sensor) }, w))
        }
        for signal in pluggedIn where shows(signal.sensor) {
            out.append(truncate(label(signal.sensor) + sensorLine(signal.sensor) { reading(signal.sensor) }, w))
        }
        let unused = notInUse
        if !unused.isEmpty {
            out.append(truncate("Not used  " + unused.map(\.rawValue).joined(separator: ", ").terminalSafe + " · `vigil sensors` says why", w))
        }
        var tally = "Episodes  \(episodes) · alarms \(alarms)"
        if let s = snoozesLeft { tally += " · snoozes left \(s)" }
        out.append(tally)
        out.append("")
        for (line, isNote) in recentLines {
            if isNote { out += wordWrap(line, width: w, indent: 2).map { truncate($0, w) } } else { out.append(truncate(line, w)) }
        }
        let keys =
            style.attached
            ? "attached · " + (strict ? "strict: runs to its planned end · " : "p pause · b break · r resume · s snooze · ") + "q detach (it goes on)"
            : strict
                ? "strict: runs to its planned end · `vigil stop --early` ends it after its cooling-off · ? help"
                : "p pause/resume · b break · s snooze · q end · ? help"
        out.append(paint(truncate(keys, w), "2"))
        return out
    }

    /// The built-in sensors' rows, presence first.
    static let rowOrder: [SensorKind] = [.desktop, .app, .input, .media, .audio, .location]

    /// Whether a sensor's status says it measures (or measured: a sensor lost during the session
    /// keeps its row, with what went wrong).
    private func inUse(_ sensor: SensorKind) -> Bool {
        guard let s = sensors[sensor] else { return false }
        return s.state == .available || s.state == .noFix || s.state == .lost
    }

    /// A row for the sensor: it is in use, was in use, or sent a reading.
    private func shows(_ sensor: SensorKind) -> Bool {
        inUse(sensor) || everInUse.contains(sensor) || reading(sensor) != nil
    }

    /// Sensors that said they cannot be used and never measured anything in this session.
    private var notInUse: [SensorKind] {
        (Self.rowOrder + pluggedIn.map(\.sensor)).filter { sensors[$0] != nil && !shows($0) }
    }

    /// Sensors that have been in use in this session.
    private var everInUse: Set<SensorKind> = []

    /// The sensor's reading as its row says it (or, `compact`, as the one-line status says it),
    /// once it has said anything.
    private func reading(_ sensor: SensorKind, compact: Bool = false) -> String? {
        switch sensor {
        case .input:
            guard let rate = inputRate else { return nil }
            let keys = "\(Int(saturating: rate.rounded())) keys/min"
            return compact ? keys : keys + (idle.map { $0 >= 60 ? " · idle \(humanMinutes($0))" : "" } ?? "")
        case .audio:
            guard let a = audio else { return nil }
            let level = a.level
            let unit = a.shortTermLUFS != nil ? "LUFS" : "dBFS"
            if compact { return "\(Int(saturating: level.rounded())) \(unit)" }
            let filled = max(0, min(10, Int(saturating: (level + 70) / 6)))
            let meter = String(repeating: "▮", count: filled) + String(repeating: "▯", count: 10 - filled)
            return "\(Int(saturating: level.rounded())) \(unit) \(meter)"
        case .location:
            guard let quality = fixText else { return nil }
            let place = compact ? "" : " from \(workplace?.name ?? "where you started")"
            return distance.map { "\(Int(saturating: $0.rounded())) m\(place) · \(quality)" } ?? quality
        case .desktop: return desktopText
        case .app: return appText
        case .media: return mediaText
        default:
            guard let signal = pluggedIn.first(where: { $0.sensor == sensor }) else { return nil }
            return readings[sensor].map(signal.describe)
        }
    }

    private var desktopText: String? {
        if asleep { return "going to sleep" }
        if locked { return "screen locked" }
        return desktopIdle.map { $0 >= 60 ? "idle \(humanMinutes($0))" : "active" }
    }

    private var appText: String? {
        guard let app else { return nil }
        guard !app.appClass.isEmpty else { return "no window in front" }
        return app.appClass + (app.rule.map { " — \($0)" } ?? "") + " (\(app.category.rawValue))"
    }

    private var mediaText: String? {
        guard let m = media else { return nil }
        if m.onCall { return "on a call" + (m.isPlaying ? " · playing" : "") }
        return m.isPlaying ? "playing" : "quiet"
    }

    /// The registered signals beyond the built-in ones, each shown as a line of its own.
    private var pluggedIn: [SignalDefinition] { signals.signals.filter { !SensorKind.builtIn.contains($0.sensor) } }

    /// `Door      `: the sensor's name as a line label.
    private func label(_ sensor: SensorKind) -> String {
        let name = (sensor.rawValue.prefix(1).uppercased() + sensor.rawValue.dropFirst()).terminalSafe
        return name.displayWidth >= 10 ? name + " " : name.padded(toWidth: 10)
    }

    /// The receiver's fix quality, once it has said anything.
    private var fixText: String? { fix.map { $0 == .threeD ? "3D fix" : $0 == .twoD ? "2D fix" : "no fix" } }

    /// A sensor's state or reading, made safe for the terminal here: its detail, the application in
    /// front and its rule, the workplace's name and a plug-in's reading come from outside.
    private func sensorLine(_ sensor: SensorKind, reading: () -> String?) -> String { sensorText(sensor, reading: reading).terminalSafe }

    private func sensorText(_ sensor: SensorKind, reading: () -> String?) -> String {
        if let s = sensors[sensor], s.state != .available, s.state != .noFix, s.state != .lost {
            return "unavailable" + (s.detail.isEmpty ? "" : " · \(s.detail)")
        }
        if let s = sensors[sensor], s.state == .lost { return "lost" + (s.detail.isEmpty ? "" : " · \(s.detail)") }
        return reading() ?? "waiting for the first reading"
    }

    /// The screen in one line, for logs: state, score and each sensor's reading.
    public func statusLine() -> String {
        var parts = [stateText, "score \(String(format: "%.2f", score))"]
        if let p = pomodoro { parts.append("pomodoro " + p.text) }
        for sensor in Self.rowOrder + pluggedIn.map(\.sensor) where shows(sensor) {
            parts.append("\(sensor.rawValue.terminalSafe) " + sensorLine(sensor) { reading(sensor, compact: true) })
        }
        let unused = notInUse
        if !unused.isEmpty { parts.append("not used: " + unused.map(\.rawValue).joined(separator: ", ").terminalSafe) }
        return parts.joined(separator: " · ")
    }

    /// The end of session summary: focused time, episodes with their causes, alarms.
    public func summaryLines() -> [String] {
        guard let s = summary else { return [] }
        var out = [
            "Session \(s.outcome.rawValue): \(humanDuration(s.focusedSeconds)) focused, \(humanDuration(s.distractedSeconds)) distracted"
                + pauseParts(s).map { ", " + $0 }.joined()
        ]
        if s.episodes == 0 {
            out.append("No distraction episodes.")
        } else {
            let causes = episodeCauses.keys.sorted().map { c in "\(episodeCauses[c]!) \(c.rawValue.terminalSafe)" }.joined(separator: ", ")
            out.append("\(s.episodes) distraction episode\(s.episodes == 1 ? "" : "s") (\(causes)) · \(s.alarms) alarm\(s.alarms == 1 ? "" : "s")")
        }
        return out
    }
}

/// Block-character sparkline of values in [0, 1], the last `width` of them.
public func sparkline(_ values: [Double], width: Int) -> String {
    let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let shown = values.suffix(width)
    return String(repeating: " ", count: width - shown.count) + String(shown.map { blocks[min(7, max(0, Int(saturating: ($0 * 7).rounded())))] })
}

/// At most `width` columns of the terminal (a CJK character or an emoji takes two).
private func truncate(_ s: String, _ width: Int) -> String { s.truncated(toWidth: max(1, width)) }

private func fit(_ left: String, visible: Int, right: String, width: Int) -> String {
    let gap = width - visible - right.displayWidth
    return gap >= 2 ? left + String(repeating: " ", count: gap) + right : left + "  " + right
}

/// Where a Pomodoro set stands: the phase, the work period it is in or follows, and the time left.
public struct PomodoroProgress: Codable, Hashable, Sendable {
    public enum Phase: String, Codable, Sendable {
        case work
        case shortBreak = "short_break"
        case longBreak = "long_break"
        /// The break is over: the set goes on when the person is back.
        case waiting
    }
    public var phase: Phase
    /// The work period (1-based) running, or the one the break follows.
    public var period: Int
    /// Work periods in a set.
    public var rounds: Int
    /// Seconds left in the phase; nil while waiting.
    public var left: Double?

    enum CodingKeys: String, CodingKey {
        case phase, period, rounds
        case left = "left_s"
    }

    public init(phase: Phase, period: Int, rounds: Int, left: Double?) {
        self.phase = phase
        self.period = period
        self.rounds = rounds
        self.left = left
    }

    /// "work 2/4 · 00:12:34 left", "break after 2/4 · 00:03:10 left", "break over · waiting for you".
    public var text: String {
        let count = "\(period)/\(rounds)"
        let left = self.left.map { " · \(clockDuration($0)) left" } ?? ""
        switch phase {
        case .work: return "work \(count)" + left
        case .shortBreak: return "break after \(count)" + left
        case .longBreak: return "long break after \(count)" + left
        case .waiting: return "break after \(count) over · waiting for you"
        }
    }
}
