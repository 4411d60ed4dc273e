import DisplayWidth
import Foundation
import LogServices
import SessionRuntime
import SessionViews
import Synchronization
import SystemCalls
import VigilCore
import VigilStats

/// The live screen as the terminal alarm channel: the state line turns red; this rings the bell.
final class ScreenAlarmSink: AlarmSink, @unchecked Sendable {
    let channel = AlarmChannel.terminal
    private let terminal: LiveTerminal
    init(terminal: LiveTerminal) { self.terminal = terminal }
    func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) { terminal.write("\u{7}") }
    func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool { true }
}

/// A question for the person (`PersonsQuestions`), answered by one key: the answer's value, or
/// nil for Enter or Esc (later, or as judged). Under the live screen, or on its own line.
struct Question: Sendable {
    /// What is asked, then each answer with its key ("d done").
    let asked: String
    let choices: [String]
    let answers: [Character: String]
    let reply: @Sendable (String?) -> Void

    /// On one line, as plain output prints it.
    var text: String { asked + " " + choices.joined(separator: " · ") }
}

/// Keys during a session. On the live screen single keys (p, b, r, s, q with a confirmation, ?);
/// otherwise a letter and Enter. A question, while one is asked, takes its own keys first.
final class KeyReader: @unchecked Sendable {
    private let view: LiveViewModel
    private let signals: SignalWatch<LiveCommand>
    private let lock = NSLock()
    private var confirming = false
    private var help = false
    private var singleKeys = true
    private var question: Question?
    /// Told when the question is answered or taken down (`settle`).
    private var settled: (@Sendable () -> Void)?
    /// Keys of the person's word (`PersonsQuestions.key`): true when the key was theirs.
    var personsKey: (@Sendable (Character) -> Bool)? {
        get { lock.withLock { keyHook } }
        set { lock.withLock { keyHook = newValue } }
    }
    private var keyHook: (@Sendable (Character) -> Bool)?

    init(view: LiveViewModel, signals: SignalWatch<LiveCommand>) {
        self.view = view
        self.signals = signals
    }

    func start(singleKeys: Bool) {
        lock.withLock { self.singleKeys = singleKeys }
        let thread = Thread { [self] in
            if singleKeys {
                var byte: UInt8 = 0
                while read(0, &byte, 1) == 1 { handle(Character(UnicodeScalar(byte))) }
            } else {
                while let line = readLine() {
                    let key = line.trimmingCharacters(in: .whitespaces).lowercased()
                    if answered(key.isEmpty ? "\n" : key.count == 1 ? key.first : nil) { continue }
                    if key.count == 1, let c = key.first, personsKey?(c) == true { continue }
                    if key.count == 1 { handleLine(Character(key)) } else { note("keys: s snooze, p pause, b break, r resume, q end (then Enter)") }
                }
            }
        }
        thread.name = "vigil-keys"
        thread.start()
    }

    private func handleLine(_ key: Character) {
        switch key {
        case "s": signals.inject(.control(.snooze))
        case "p": signals.inject(.control(.pause))
        case "b": signals.inject(.control(.breakTime))
        case "r": signals.inject(.control(.resume))
        case "q": signals.inject(.control(.end))
        default: note("keys: s snooze, p pause, b break, r resume, q end (then Enter)")
        }
    }

    /// Asks `question`: shown until a key answers it, another question takes its place (this one
    /// is then unanswered) or `dismiss` is called.
    func pose(_ question: Question) {
        let (previous, lines) = lock.withLock { () -> (Question?, Bool) in
            defer { self.question = question }
            return (self.question, !singleKeys)
        }
        previous?.reply(nil)
        if lines { note(question.text) }
        view.touch()
    }

    /// Asks `text` and waits for the answer, at most `timeout` (then nil: no one is there).
    func ask(_ asked: String, choices: [String], answers: [Character: String], timeout: Duration) async -> String? {
        let (stream, continuation) = AsyncStream<String?>.makeStream(bufferingPolicy: .bufferingNewest(1))
        pose(Question(asked: asked, choices: choices, answers: answers) { answer in continuation.yield(answer) })
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.dismiss()
        }
        defer { timer.cancel() }
        for await answer in stream { return answer }
        return nil
    }

    /// Takes the question down, unanswered.
    func dismiss() {
        let (asked, settled) = lock.withLock { () -> (Question?, (@Sendable () -> Void)?) in
            defer { (question, self.settled) = (nil, nil) }
            return (question, self.settled)
        }
        asked?.reply(nil)
        settled?()
        view.touch()
    }

    /// Waits until no question is open: answered, or taken down after `timeout`.
    func settle(timeout: Duration) async {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let open = lock.withLock { () -> Bool in
            if question != nil { settled = { continuation.yield() } }
            return question != nil
        }
        guard open else { return }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.dismiss()
        }
        defer { timer.cancel() }
        for await _ in stream { return }
    }

    /// Whether `key` answered the question being asked: one of its keys, or Enter or Esc for later.
    private func answered(_ key: Character?) -> Bool {
        guard let key else { return false }
        let later = key == "\r" || key == "\n" || key == "\u{1B}"
        let asked = lock.withLock { () -> (Question, String?, (@Sendable () -> Void)?)? in
            guard let q = question else { return nil }
            let value = key.lowercased().first.flatMap { q.answers[$0] }
            guard later || value != nil else { return nil }
            defer { (question, settled) = (nil, nil) }
            return (q, value, settled)
        }
        guard let (q, value, settled) = asked else { return false }
        q.reply(value)
        settled?()
        view.touch()
        return true
    }

    private func handle(_ key: Character) {
        // The screen shows the question and the help around the view: draw it again after a key.
        defer { view.touch() }
        if answered(key) { return }
        if personsKey?(Character(key.lowercased())) == true { return }
        let state = view.snapshot().state
        let asking = lock.withLock { confirming }
        if asking {
            lock.withLock { confirming = false }
            if key == "y" || key == "Y" { signals.inject(.control(.end)) }
            return
        }
        switch key {
        case "p", "P":
            if case .paused = state { signals.inject(.control(.resume)) } else { signals.inject(.control(.pause)) }
        case "b", "B":
            if case .paused(.breakTime) = state { signals.inject(.control(.resume)) } else { signals.inject(.control(.breakTime)) }
        case "r", "R": signals.inject(.control(.resume))
        case "s", "S": signals.inject(.control(.snooze))
        case "q", "Q": lock.withLock { confirming = true }
        case "?": lock.withLock { help.toggle() }
        default: break
        }
    }

    /// The screen's lines with the question or the help under them; a question's answers wrapped
    /// to `width` columns, so that a narrow terminal still shows every one.
    func decorate(_ lines: [String], width: Int) -> [String] {
        let (asking, showHelp, asked) = lock.withLock { () -> (Bool, Bool, Question?) in (confirming, help, question) }
        var out = lines
        if let asked {
            out += ["", asked.asked, ""]
            for part in asked.choices {
                if let last = out.last, !last.isEmpty, last.displayWidth + 3 + part.displayWidth <= width {
                    out[out.count - 1] = last + " · " + part
                } else {
                    out.append(part)
                }
            }
        }
        if asking { out += ["", "End the session now? y to end, any other key to go on."] }
        if showHelp {
            out += [
                "", "p  pause, or resume after a pause", "b  take a break, or end it", "r  resume after a pause or a break",
                "s  snooze the alarms of this episode (a few times a session)",
                "w  this was work: the distracting application in front is work (Vigil proposes a rule, and asks)",
                "x  this is a distraction: the application in front is one (Vigil proposes a rule, and asks)",
                "q  end the session (asks first; saved as completed or, before its planned end, abandoned)", "?  this help",
                "Ctrl-C ends the session too; everything is saved.",
            ]
        }
        return out
    }
}

/// Achievements before a session, to say which it earned, and how the day stands.
struct Milestones {
    let achievements: Set<String>

    init?(reports: ReportService) {
        guard let r = reports.todaySoFar(LocalNow(at: WallClock.now())) else { return nil }
        achievements = Set(r.achievements.map(\.id))
    }

    /// Today is still running: it is judged when it is over, so nothing said here is taken back
    /// by a later session of the same day.
    func changes(reports: ReportService) -> [String] {
        guard let r = reports.todaySoFar(LocalNow(at: WallClock.now())) else { return [] }
        var out: [String] = []
        func days(_ n: Int) -> String { "\(n) day\(n == 1 ? "" : "s")" }
        let current = r.streak.current
        switch r.streak.todaySoFarFree {
        case true?:
            out.append("So far today: procrastination-free. If it stays so, your streak becomes \(days(current + 1)) when the day is over.")
        case false?:
            out.append(
                "So far today: not procrastination-free" + (current > 0 ? "; your streak of \(days(current)) ends when the day is over." : "."))
        case nil:
            if current > 0 { out.append("Procrastination-free streak: \(days(current)).") }
        }
        for a in r.achievements where !achievements.contains(a.id) { out.append("Achievement: \(a.title)!") }
        return out
    }
}
