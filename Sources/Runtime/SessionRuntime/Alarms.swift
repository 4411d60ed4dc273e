import DesktopNotifier
import Foundation
import SessionViews
import SoundAlarm
import VigilAudio
import VigilCore

/// An alarm as the channels deliver it.
public struct AlarmNotice: Sendable, Equatable {
    public var time: Timestamp
    public var level: Int
    /// 0 for the first firing of a level, then 1, 2... for the persistent last level.
    public var repeatCount: Int
    public var episode: Int
    public var cause: Cause
    public var reason: String
    public var task: String?
    /// The last level, which repeats until the person is back.
    public var isPersistent: Bool
    /// A motivating line to go with the nudge.
    public var motivation: String? = nil

    public init(
        time: Timestamp, level: Int, repeatCount: Int, episode: Int, cause: Cause, reason: String, task: String?,
        isPersistent: Bool, motivation: String? = nil
    ) {
        self.time = time
        self.level = level
        self.repeatCount = repeatCount
        self.episode = episode
        self.cause = cause
        self.reason = reason
        self.task = task
        self.isPersistent = isPersistent
        self.motivation = motivation
    }
}

/// A Pomodoro set's turn from work to a break and back, told with a notification and a short
/// sound, as every Pomodoro timer does.
public enum PomodoroCue: Sendable, Equatable {
    case breakStarts(period: Int, rounds: Int, minutes: Double, long: Bool)
    case breakOver(period: Int, rounds: Int)
    case workStarts(period: Int, rounds: Int, minutes: Double)

    /// The notification's summary and body.
    public var text: (summary: String, body: String) {
        func m(_ x: Double) -> String { humanDuration(x * 60) }
        switch self {
        case .breakStarts(let period, let rounds, let minutes, let long):
            return ("\(long ? "Long break" : "Break") · \(period)/\(rounds) done", "\(m(minutes)) away from the screen. Vigil rests its alarms.")
        case .breakOver(let period, let rounds):
            return ("Break over · \(period)/\(rounds) done", "Work period \(period % rounds + 1) starts when you are back at the computer.")
        case .workStarts(let period, let rounds, let minutes):
            return ("Work period \(period)/\(rounds)", "\(m(minutes)) of focus. Good luck.")
        }
    }
}

/// A channel that cannot deliver right now, and why.
public struct AlarmChannelUnavailable: Error, CustomStringConvertible {
    public var detail: String
    public init(_ detail: String) { self.detail = detail }
    public var description: String { detail }
}

/// One way of reaching the person. Called on the dispatcher's queue, one call at a time.
public protocol AlarmSink: AnyObject, Sendable {
    var channel: AlarmChannel { get }
    func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable)
    /// The episode's alarm is over: the person is back (`recoverySeconds` since its first alarm), or
    /// it ended otherwise (`closedBy`: a pause, a break, the end). Returns whether anything was
    /// delivered (a channel that showed nothing for the episode has nothing to clear).
    func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool
    /// A Pomodoro cue; returns whether the channel tells it (the terminal's timeline already does).
    func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool
}

extension AlarmSink {
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool { false }
}

/// Delivers the session's alarms through the channels the config gives each level
/// (`alarms.channels`), off the session's own path: a notification daemon that takes seconds to
/// answer must not hold up the judging. A channel that fails is reported once (and again if it
/// comes back), and the other channels still fire.
public final class AlarmDispatcher: @unchecked Sendable {
    private let configuration: VigilConfiguration.Alarms
    private let sinks: [AlarmChannel: any AlarmSink]
    private let report: @Sendable (String) -> Void
    private let onDelivery: @Sendable (AlarmDelivery) -> Void
    private let motivation: @Sendable () -> String?
    private let queue = DispatchQueue(label: "vigil-alarms")
    /// Channels whose last attempt failed (touched on `queue` only).
    private var failing = Set<AlarmChannel>()
    private let task: String?

    /// - Parameters:
    ///   - sinks: the channels this machine offers; a configured channel without a sink is reported
    ///     as unavailable the first time it is needed.
    ///   - onDelivery: what each channel did with each alarm, for the log.
    ///   - motivation: a motivating line for each new alarm level (nil for none).
    ///   - report: how a channel problem is told to the person (once per problem).
    public init(
        configuration: VigilConfiguration.Alarms, task: String?, sinks: [any AlarmSink],
        onDelivery: @escaping @Sendable (AlarmDelivery) -> Void = { _ in }, motivation: @escaping @Sendable () -> String? = { nil },
        report: @escaping @Sendable (String) -> Void
    ) {
        self.motivation = motivation
        self.configuration = configuration
        self.task = task
        self.sinks = Dictionary(sinks.map { ($0.channel, $0) }, uniquingKeysWith: { a, _ in a })
        self.onDelivery = onDelivery
        self.report = report
    }

    /// Takes a batch of session events and delivers the alarms among them, in order.
    public func handle(_ events: [SessionEvent]) {
        let ladder = configuration.escalation.count
        for e in events {
            switch e.kind {
            case .alarm(let level, let rep, let episode, let cause, let reason):
                let notice = AlarmNotice(
                    time: e.time, level: level, repeatCount: rep, episode: episode, cause: cause, reason: reason,
                    task: task, isPersistent: level >= ladder, motivation: rep == 0 ? motivation() : nil)
                let channels = configuration.channels(level: level)
                queue.async {
                    for c in channels {
                        let delivery = AlarmDelivery(
                            time: e.time, episode: episode, level: level, repeatCount: rep, channel: c, action: .fired, delivered: true)
                        self.attempt(c, delivery) { sink throws(AlarmChannelUnavailable) in
                            // An action says what it did, or that there was nothing to do.
                            if let action = sink as? any ActionSink { return try action.act(notice) }
                            try sink.fire(notice)
                            return ""
                        }
                    }
                }
            case .alarmCleared(let level, let episode, let closedBy, let recovery):
                // Cleared on every channel that may have shown it.
                let channels = Set((1...max(level, 1)).flatMap { configuration.channels(level: $0) })
                queue.async {
                    for c in channels.sorted() {
                        let delivery = AlarmDelivery(
                            time: e.time, episode: episode, level: level, repeatCount: 0, channel: c, action: .cleared, delivered: true)
                        self.attempt(c, delivery) { sink throws(AlarmChannelUnavailable) in
                            if let action = sink as? any ActionSink { return try action.undo(episode: episode, closedBy: closedBy) }
                            return try sink.clear(episode: episode, level: level, closedBy: closedBy, recoverySeconds: recovery) ? "" : nil
                        }
                    }
                }
            default:
                break
            }
        }
    }

    /// Tells a Pomodoro cue through the channels the alarms use at any level (a notification and
    /// a short sound by default), off the session's path like the alarms.
    public func announce(_ cue: PomodoroCue) {
        let channels = Set(configuration.channels.flatMap { $0 })
        queue.async {
            for c in channels.sorted() {
                guard let sink = self.sinks[c] else { continue }
                do throws(AlarmChannelUnavailable) {
                    _ = try sink.announce(cue)
                } catch {
                    if self.failing.insert(c).inserted {
                        self.report("\(c.rawValue) alarms and Pomodoro cues unavailable: \(error.detail); the session goes on")
                    }
                }
            }
        }
    }

    /// Waits until everything handed over so far was delivered (or failed).
    public func drain() { queue.sync {} }

    /// The session is over: the actions put back what they still hold (hidden windows), then
    /// everything handed over is delivered.
    public func finish() {
        queue.sync {
            for sink in sinks.values { (sink as? any ActionSink)?.sessionEnded() }
        }
    }

    /// Runs one channel's delivery; `delivery` is what is logged if it goes through, with what an
    /// action did as its detail (or is logged as undelivered, with the reason, if the channel is
    /// unavailable). `body` returns nil when the channel had nothing to deliver.
    private func attempt(
        _ channel: AlarmChannel, _ delivery: AlarmDelivery, _ body: (any AlarmSink) throws(AlarmChannelUnavailable) -> String?
    ) {
        var record = delivery
        guard let sink = sinks[channel] else {
            if failing.insert(channel).inserted {
                report("\(channel.rawValue) alarms are not available in this build; the other channels still fire")
            }
            record.delivered = false
            record.detail = "not available in this build"
            onDelivery(record)
            return
        }
        do {
            guard let detail = try body(sink) else { return }
            if failing.remove(channel) != nil { report("\(channel.rawValue) alarms work again") }
            record.detail = detail
            onDelivery(record)
            // What an action changed on the person's desktop is said where the session shows its
            // messages (the live screen's last lines), with how it will be undone.
            if let action = sink as? any ActionSink, !detail.isEmpty {
                report(detail + (action.afterword(delivery.action).map { ": " + $0 } ?? ""))
            }
        } catch {
            if failing.insert(channel).inserted {
                report("\(channel.rawValue) alarms unavailable: \(error.detail.terminalSafe); the other channels still fire")
            }
            record.delivered = false
            record.detail = error.detail
            onDelivery(record)
        }
    }
}

/// Alarms in the terminal running the session: a banner on standard error and the terminal bell.
public final class TerminalAlarmSink: AlarmSink, @unchecked Sendable {
    public let channel = AlarmChannel.terminal
    private let fd: Int32
    private let color: Bool

    /// - Parameter fd: the terminal (standard error by default); not a terminal makes the channel unavailable.
    public init(fd: Int32 = 2, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.fd = fd
        // https://no-color.org: any non-empty NO_COLOR turns colour off.
        color = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) {
        let title = alarm.repeatCount == 0 ? "ALARM \(alarm.level)" : "ALARM \(alarm.level) (\(alarm.repeatCount + 1)×)"
        let advice = alarm.isPersistent ? "back to work, or end the session" : "time to get back to it"
        let label = color ? "\u{1B}[1;97;41m \(title) \u{1B}[0m" : "[\(title)]"
        // The reason names an application; the motivating line may be the person's own: both
        // inert, around the banner's own colours.
        try write("\u{07}\(label) \(alarm.reason.terminalSafe) · \(advice)\n" + (alarm.motivation.map { "        \($0.terminalSafe)\n" } ?? ""))
    }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        guard let recoverySeconds else {
            let label = color ? "\u{1B}[1;30;43m ALARM OFF \u{1B}[0m" : "[ALARM OFF]"
            try write("\(label) \(closedBy.words)\n")
            return true
        }
        let label = color ? "\u{1B}[1;30;42m BACK \u{1B}[0m" : "[BACK]"
        try write("\(label) back at work after \(humanDuration(recoverySeconds))\n")
        return true
    }

    private func write(_ text: String) throws(AlarmChannelUnavailable) {
        guard isatty(fd) != 0 else { throw AlarmChannelUnavailable("not running in a terminal") }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress, $0.count) }
    }
}

/// Alarms as desktop notifications, more urgent at each level: level 1 low, 2 normal, 3 and up
/// critical. One notification per episode, updated in place as the alarm escalates; the
/// persistent level stays until dismissed, and coming back replaces it with a short "back" note.
public final class DesktopAlarmSink: AlarmSink, @unchecked Sendable {
    public let channel = AlarmChannel.desktop
    private let notifier: DesktopNotifier
    /// The notification shown for each episode, to update in place.
    private var shown: [Int: UInt32] = [:]
    /// The Pomodoro set's notification.
    private var cueShown: UInt32 = 0

    public init(notifier: DesktopNotifier = DesktopNotifier()) { self.notifier = notifier }

    public static func urgency(level: Int) -> DesktopNotifier.Urgency {
        level <= 1 ? .low : level == 2 ? .normal : .critical
    }

    public static func summary(_ alarm: AlarmNotice) -> String {
        let what =
            alarm.level <= 1
            ? "Drifting?" : alarm.level == 2 ? "Back to work?" : alarm.isPersistent ? "Still away from your work" : "You have been away a while"
        return "\(what) (alarm \(alarm.level))"
    }

    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) {
        var body = alarm.reason
        if let task = alarm.task { body += "\nYou were working on: \(task)" }
        if alarm.isPersistent { body += "\nThis comes back every minute until you are back at work." }
        if let m = alarm.motivation { body += "\n\n\(m)" }
        do {
            shown[alarm.episode] = try notifier.notify(
                summary: Self.summary(alarm), body: body, urgency: Self.urgency(level: alarm.level),
                replacing: shown[alarm.episode] ?? 0, timeout: alarm.isPersistent ? 0 : -1)
        } catch {
            throw AlarmChannelUnavailable(error.detail)
        }
    }

    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        let (summary, body) = cue.text
        do {
            // One notification for the set, replaced at each turn.
            cueShown = try notifier.notify(summary: summary, body: body, urgency: .normal, replacing: cueShown, timeout: 10_000)
            return true
        } catch {
            throw AlarmChannelUnavailable(error.detail)
        }
    }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        guard let id = shown.removeValue(forKey: episode) else { return false }
        // Only a return is "back at work"; a break or a pause just stops the alarm.
        let (summary, body) =
            recoverySeconds.map { ("Back at work", "Back after \(humanDuration($0)). Keep going.") }
            ?? ("Alarm off", "The alarm stopped: \(closedBy.words).")
        do {
            try notifier.notify(summary: summary, body: body, urgency: .low, replacing: id, timeout: 5000)
            return true
        } catch {
            throw AlarmChannelUnavailable(error.detail)
        }
    }
}

/// Alarms as a tone through PulseAudio, louder at each level (`alarms.tone`, `alarms.tone_levels`).
public final class SoundAlarmSink: AlarmSink, @unchecked Sendable {
    public let channel = AlarmChannel.sound
    private let player: TonePlayer
    private let configuration: VigilConfiguration.Alarms

    public init(configuration: VigilConfiguration.Alarms, player: TonePlayer = TonePlayer()) {
        self.configuration = configuration
        self.player = player
    }

    /// The tone played for alarm `level`.
    public func tone(level: Int) -> AlarmTone {
        AlarmTone(frequency: configuration.tone, level: configuration.toneLevel(level: level))
    }

    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) {
        let level = configuration.toneLevel(level: alarm.level)
        do {
            if let file = configuration.soundFile {
                let (samples, rate) = try sound(file)
                // The file's peak brought to the level's: louder as it escalates, whatever the file.
                let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
                let gain = peak > 0 ? Float(pow(10, level / 20)) / peak : 0
                try player.play(samples: samples.map { $0 * gain }, rate: rate)
            } else {
                try player.play(tone(level: alarm.level))
            }
        } catch let error as SoundError {
            throw AlarmChannelUnavailable(error.detail)
        } catch {
            throw AlarmChannelUnavailable("\(error)")
        }
    }

    private var loaded: (path: String, samples: [Float], rate: Int)?

    /// The WAV file as mono samples (channels averaged), read once.
    private func sound(_ path: String) throws -> ([Float], Int) {
        if let l = loaded, l.path == path { return (l.samples, l.rate) }
        let reader: WAVReader
        do { reader = try WAVReader(path: path) } catch { throw SoundError(detail: "cannot play \(path): \(error.message)") }
        guard reader.duration <= 60 else {
            throw SoundError(detail: "\(path) is \(Int(reader.duration)) s long; an alarm sound may last a minute at most")
        }
        var mono: [Float] = []
        var chunk: [Float] = []
        let c = reader.channels
        while true {
            reader.read(maxFrames: 1 << 15, into: &chunk)
            if chunk.isEmpty { break }
            for f in stride(from: 0, to: chunk.count - c + 1, by: c) {
                var sum: Float = 0
                for ch in 0..<c { sum += chunk[f + ch] }
                mono.append(sum / Float(c))
            }
        }
        loaded = (path, mono, reader.sampleRate)
        return (mono, reader.sampleRate)
    }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool { false }

    /// Two soft beeps at the first level's loudness: a turn of the set, not an alarm.
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        let tone = AlarmTone(frequency: configuration.tone, level: configuration.toneLevel(level: 1), beeps: 2, beepSeconds: 0.12, gapSeconds: 0.1)
        do {
            try player.play(tone)
            return true
        } catch {
            throw AlarmChannelUnavailable(error.detail)
        }
    }
}
