import Foundation
import LogServices
import SessionRuntime
import SystemCalls
import VigilCore

/// What a session asks the person (issue 37, docs/person-in-the-loop-design.md): on return from an
/// away or locked stretch, what it was; at the end, whether they did what they meant to. Each
/// answer is the person's word, kept as an edit of the session (`HistoryService`), and never holds
/// the session: unanswered stays as judged.
final class PersonsQuestions: @unchecked Sendable {
    // @unchecked: `keys` and `session` are set once, before the session's first event, under the lock.
    private let lock = NSLock()
    private var keys: KeyReader?
    private var session: (@Sendable () -> Int64?)?
    private var tell: @Sendable (String) -> Void = { note($0) }
    private let eventLog: LocalLog
    private var live: Live?
    /// A session without a terminal (`--background`): it asks by notification.
    private var byNotification = false

    /// What "this was work" needs of the running session: what it shows, how a learned rule
    /// reaches it, where rules are kept, and the zone of its days.
    struct Live {
        let view: LiveViewModel
        let inject: @Sendable (LiveCommand) -> Void
        let rules: LearnedRules
        let zone: TimeZone
    }

    init(eventLog: LocalLog) { self.eventLog = eventLog }

    /// The keys of the person's word during the session, given `live`: w, this was work; x, this
    /// is a distraction.
    func listen(_ live: Live) {
        lock.withLock { self.live = live }
        keys?.personsKey = { [self] key in
            switch key {
            case "w": teach(.work)
            case "x": teach(.distracting)
            default: false
            }
        }
    }

    /// "This was work" (w): the distracting application in front is work; its episode is labelled
    /// so at once. "This is a distraction" (x): the application in front, which Vigil did not take
    /// for one, is. Either way the rule that says so is proposed, and learned on consent, for this
    /// session from now on and every one after.
    private func teach(_ category: AppCategory) -> Bool {
        let (keys, session, tell, live) = lock.withLock { (self.keys, self.session, self.tell, self.live) }
        guard let keys, let live, let id = session?() else { return false }
        let view = live.view.snapshot()
        guard let app = view.app, !app.appClass.isEmpty, (app.category == .distracting) == (category == .work) else {
            tell(
                category == .work
                    ? "w (this was work) is for a distracting application in front: none is now"
                    : "x (this is a distraction) is for an application Vigil does not count as one: the one in front is already")
            return true
        }
        var from = "session \(id)"
        if category == .work, let number = view.lastAppEpisode {
            tell(Self.label(eventLog, session: id, episode: number, .work))
            from += ", episode \(number)"
        }
        let today = civilDate(LocalNow(at: view.now ?? WallClock.now(), zone: live.zone).day)
        let rule = LearnedRule(appClass: app.appClass, insteadOf: app.rule, category: category, learned: today, from: from)
        let asked = category == .work ? "The rule that would have prevented it" : "The rule that would have caught it"
        keys.pose(
            Question(
                asked: "\(asked): \(rule.words.terminalSafe). Learn it?", choices: ["y learn it", "n not now"], answers: ["y": "learn", "n": "no"]
            ) {
                answer in
                guard answer == "learn" else { return }
                do {
                    try live.rules.learn(rule)
                    live.inject(.learn(rule, current: app))
                    tell("learned: \(rule.words) (in \(live.rules.path); `vigil rules` lists it)")
                } catch {
                    tell("could not learn it: \(String(describing: error).terminalSafe)")
                }
            })
        return true
    }

    /// Where questions are asked (nil: no one can answer at this terminal), which session they are
    /// about, and how the person is told what was noted.
    func attach(
        keys: KeyReader?, session: @escaping @Sendable () -> Int64?, tell: @escaping @Sendable (String) -> Void, byNotification: Bool = false
    ) {
        lock.withLock { (self.keys, self.session, self.tell, self.byNotification) = (keys, session, tell, byNotification) }
    }

    static let returnButtons = [
        (key: EpisodeLabel.breakTime.rawValue, label: "A break"), (key: EpisodeLabel.meeting.rawValue, label: "A meeting or call"),
        (key: EpisodeLabel.offlineWork.rawValue, label: "Working away from the computer"),
        (key: EpisodeLabel.distracted.rawValue, label: "Distracted"),
    ]

    static let returnAnswers: [Character: String] = [
        "b": EpisodeLabel.breakTime.rawValue, "m": EpisodeLabel.meeting.rawValue, "o": EpisodeLabel.offlineWork.rawValue,
        "d": EpisodeLabel.distracted.rawValue,
    ]

    static func returnQuestion(_ e: Episode) -> String { "Welcome back: away \(humanDuration(e.duration ?? 0)). What was it?" }
    static let returnChoices = ["b a break", "m a meeting or call", "o working away from the computer", "d distracted", "Enter: as judged"]

    /// The person is back from `e`: ask what it was, and label it with the answer.
    func returned(_ e: Episode) {
        let (keys, session, tell, byNotification) = lock.withLock { (self.keys, self.session, self.tell, self.byNotification) }
        guard let id = session?() else { return }
        let eventLog = eventLog
        if keys == nil, byNotification {
            // Ten minutes to answer: long enough to read, and an answer later is `vigil episode`'s.
            AskByNotification.ask(
                summary: "Welcome back: away \(humanDuration(e.duration ?? 0))", body: "What was it? (Vigil, episode \(e.number))",
                choices: Self.returnButtons, timeout: 600
            ) { answer in
                switch answer {
                case .success(let key?):
                    if let label = EpisodeLabel(rawValue: key) { tell(Self.label(eventLog, session: id, episode: e.number, label)) }
                case .success(nil): break
                case .failure(let why):
                    tell(
                        "could not ask what your time away was (\(why.detail)); `vigil episode \(e.number) --session \(id) --was break|meeting|offline_work|distracted` says it"
                    )
                }
            }
            return
        }
        guard let keys else { return }
        keys.pose(
            Question(asked: Self.returnQuestion(e), choices: Self.returnChoices, answers: Self.returnAnswers) { answer in
                guard let label = answer.flatMap(EpisodeLabel.init(rawValue:)) else { return }
                tell(Self.label(eventLog, session: id, episode: e.number, label))
            })
    }

    /// Labels an episode; what to tell the person, whether it worked or not.
    static func label(_ eventLog: LocalLog, session id: Int64, episode: Int, _ label: EpisodeLabel) -> String {
        do {
            try eventLog.history(now: WallClock.now()).label(id, episode: episode, label)
            return "noted: episode \(episode) was \(label.words)" + Self.consequence(label)
        } catch {
            return "could not note your answer (\(String(describing: error).terminalSafe)); "
                + "`vigil episode \(episode) --session \(id) --was \(label.rawValue)` notes it later"
        }
    }

    /// What the label does to the statistics, in the person's words.
    static func consequence(_ label: EpisodeLabel) -> String {
        switch label.counted {
        case .neither: ", not procrastination: its time counts as neither focus nor distraction"
        case .focused: ": its time counts as focus"
        case .distracted: ""
        }
    }

    /// The end of a session without a terminal: the question as a notification, two minutes to
    /// answer it, as at a terminal.
    private func askIntentByNotification(_ intent: String, session id: Int64, later: String) async -> String {
        let (stream, continuation) = AsyncStream<AskByNotification.Answer>.makeStream()
        AskByNotification.ask(
            summary: "Did you do it?", body: intent, choices: [("done", "Done"), ("partly", "Partly"), ("no", "No")], timeout: 120
        ) { continuation.yield($0) }
        var answer: IntentAnswer?
        for await a in stream {
            if case .success(let key?) = a { answer = IntentAnswer(rawValue: key) }
            if case .failure(let why) = a { return "could not ask whether you did what you meant (\(why.detail)); \(later)" }
            break
        }
        return keep(answer, session: id, later: later)
    }

    static let intentAnswers: [Character: String] = [
        "d": IntentAnswer.done.rawValue, "p": IntentAnswer.partly.rawValue, "n": IntentAnswer.no.rawValue,
    ]

    /// At the end of a session with an intention: did the person do it? Asked where someone can
    /// answer (at most two minutes: no one may be there), else they are told how to answer later.
    /// A question still open (they came back just before the end) can be answered first: the
    /// person is asked anyway. Without an intention the session does not wait for anyone.
    /// Returns what to tell the person once the screen is gone.
    func atTheEnd(intent: String?, session id: Int64?, keys: KeyReader?) async -> String? {
        guard let intent, let id else { return nil }
        let later = "`vigil session intent \(id) done|partly|no` answers it later"
        guard let keys else {
            guard lock.withLock({ byNotification }) else { return "you meant to: \(intent.terminalSafe). Did you do it? \(later)" }
            return await askIntentByNotification(intent, session: id, later: later)
        }
        await keys.settle(timeout: .seconds(120))
        let question = "Did you do it? \"\(intent.terminalSafe)\""
        let choices = ["d done", "p partly", "n no", "Enter: later"]
        let answer = await keys.ask(question, choices: choices, answers: Self.intentAnswers, timeout: .seconds(120))
        return keep(answer.flatMap(IntentAnswer.init(rawValue:)), session: id, later: later)
    }

    /// Keeps the answer to the intention; what to tell the person.
    private func keep(_ answer: IntentAnswer?, session id: Int64, later: String) -> String {
        guard let answer else { return "your intention is not answered: \(later)" }
        do {
            try eventLog.history(now: WallClock.now()).answerIntent(id, answer)
            return "noted: your intention \(answer == .done ? "done" : answer == .partly ? "partly done" : "not done")"
        } catch {
            return "could not note your answer (\(String(describing: error).terminalSafe)); \(later)"
        }
    }
}
