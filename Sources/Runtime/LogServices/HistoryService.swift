import VigilCore
import VigilPlanner
import VigilStore

/// Why a change to the session history was refused.
public enum HistoryError: Error, Equatable, Sendable {
    /// No session has this number.
    case noSession(Int64)
    /// The session was judged (`source`): its times are what was measured and stay.
    case judgedTimes(Int64, source: SessionSource?)
    /// The session is running: it ends first.
    case running(Int64)
    /// The times given cannot be a session (`SessionSpanRules`).
    case span(SessionSpanRules.Problem)
    /// The change changes nothing.
    case nothingToChange
    /// The session was started without an intention: there is nothing to answer.
    case noIntent(Int64)
    /// The session has no episode of this number.
    case noEpisode(session: Int64, number: Int)
}

/// What `vigil session edit` changes in a session. `task` is a task's number or title (linked)
/// or any name, resolved as `vigil start --task` resolves it; times are for a session nothing
/// judged only.
public struct SessionChange: Sendable, Hashable {
    public var task: FieldChange<String> = .keep
    public var addTags: [String] = []
    public var removeTags: [String] = []
    public var note: FieldChange<String> = .keep
    public var start: Timestamp?
    public var end: Timestamp?

    public init() {}
}

/// The session history as `vigil session` asks for it, as `PlannerService` serves tasks and
/// habits: each method is one request, applies the history's rules (what may be corrected, how
/// long a session lasts, what must end first) and reads or writes the store.
public struct HistoryService: Sendable {
    public let store: EventStore
    /// The instant the command runs: an added session must be over by then.
    public let now: Timestamp

    public init(store: EventStore, now: Timestamp) {
        self.store = store
        self.now = now
    }

    /// Sessions of `sources` started from `from` on, oldest first; with a tag, only those with it
    /// (normalised as tags are).
    public func sessions(from: Timestamp, sources: Set<SessionSource>, tag: String? = nil) throws -> [SessionRecord] {
        let sessions = try store.sessionRecords(from: from, to: Timestamp(nanoseconds: .max), sources: sources)
        guard let tag = tag.flatMap({ TaskItem.normalizedTags([$0]).first }) else { return sessions }
        let tagged = try store.sessionIDs(tagged: tag)
        return sessions.filter { tagged.contains($0.id) }
    }

    public func session(_ id: Int64) throws -> SessionRecord {
        guard let s = try store.sessionRecord(id: id) else { throw HistoryError.noSession(id) }
        return s
    }

    /// The `limit` latest sessions of `sources`, newest first, each with its episodes; and how
    /// many sessions of the other sources the log holds (what a listing leaves out is said).
    public func latest(_ limit: Int, sources: Set<SessionSource>) throws -> (
        sessions: [(session: SessionRecord, episodes: [EpisodeRecord])], others: [SessionSource: Int]
    ) {
        let sessions = try store.sessions(limit: limit, sources: sources).map { ($0, try store.episodes(session: $0.id)) }
        let others = try store.sessionsBySource(from: nil, to: Timestamp(nanoseconds: .max)).filter { !sources.contains($0.key) && $0.value > 0 }
        return (sessions, others)
    }

    /// Logs the sessions a replay of `recording` ran (`vigil replay --log`), all in one
    /// transaction, as replays: apart from the person's own. Their ids.
    public func logReplays(_ sessions: [[SessionEvent]], recording: String) throws -> [Int64] {
        try store.appendSessions(sessions, source: .replay, recording: recording)
    }

    /// A session with its distraction episodes.
    public func sessionWithEpisodes(_ id: Int64) throws -> (session: SessionRecord, episodes: [EpisodeRecord]) {
        let s = try session(id)
        return (s, try store.episodes(session: id))
    }

    /// What the session's actions did on the person's desktop (issue 36): the alarm deliveries that
    /// say what they did, in order.
    public func actions(_ id: Int64) throws -> [AlarmDelivery] {
        try store.deliveries(session: id).filter { $0.delivered && !$0.detail.isEmpty }
    }

    /// Applies `change`, and returns the session as it is now. A judged session's times are
    /// refused (what was measured stays), and times must make a session (`SessionSpanRules`).
    @discardableResult
    public func edit(_ id: Int64, _ change: SessionChange) throws -> SessionRecord {
        let s = try session(id)
        guard change != SessionChange() else { throw HistoryError.nothingToChange }
        var edit = SessionEdit()
        switch change.task {
        case .keep: break
        case .clear: (edit.task, edit.taskId) = (.clear, .clear)
        case .set(let reference):
            let subject = try TaskLookup(store: store).sessionSubject(reference)
            (edit.task, edit.taskId) = (.set(subject.name), subject.taskId.map(FieldChange.set) ?? .clear)
        }
        if !change.addTags.isEmpty || !change.removeTags.isEmpty {
            edit.tags = Self.retagged(s.tags, adding: change.addTags, removing: change.removeTags)
        }
        edit.note = change.note
        if change.start != nil || change.end != nil {
            guard s.source?.isJudged == false else { throw HistoryError.judgedTimes(s.id, source: s.source) }
            let from = change.start ?? s.started
            let to = change.end ?? s.ended ?? from
            if let problem = SessionSpanRules.check(start: from, end: to, now: now) { throw HistoryError.span(problem) }
            (edit.started, edit.ended) = (from, to)
        }
        try store.editSession(id: s.id, edit)
        return try session(s.id)
    }

    /// The person's answer to a session's intention (nil: unanswered again); returns the session.
    @discardableResult
    public func answerIntent(_ id: Int64, _ answer: IntentAnswer?) throws -> SessionRecord {
        let s = try session(id)
        guard s.intent != nil, try store.answerIntent(session: s.id, answer) else { throw HistoryError.noIntent(s.id) }
        return try session(s.id)
    }

    /// The person's word on episode `number` of a session (nil: as judged again); returns it.
    @discardableResult
    public func label(_ id: Int64, episode number: Int, _ label: EpisodeLabel?) throws -> EpisodeRecord {
        let s = try session(id)
        guard try store.labelEpisode(session: s.id, number: number, label),
            let episode = try store.episodes(session: s.id).first(where: { $0.number == number })
        else { throw HistoryError.noEpisode(session: s.id, number: number) }
        return episode
    }

    /// The rule that would have judged episode `number` of a session as `category` (`vigil episode
    /// --was work` proposes `work`): the application in front when it began, instead of the rule
    /// that judged it so (`LearnedRule`). Nil for an episode no application caused, or when the
    /// application already had that category.
    public func proposedRule(_ id: Int64, episode number: Int, as category: AppCategory, today: String) throws -> LearnedRule? {
        guard let e = try store.episodes(session: id).first(where: { $0.number == number }), e.cause == Cause.app.rawValue,
            let app = try store.application(session: id, at: e.startedAt), app.category != category
        else { return nil }
        return LearnedRule(appClass: app.appClass, insteadOf: app.rule, category: category, learned: today, from: "session \(id), episode \(number)")
    }

    /// The session of the latest episode, of any source (a logged rehearsal is the person's too),
    /// for `vigil episode N` without `--session`.
    public func latestWithEpisodes() throws -> Int64? { try store.latestSessionWithEpisodes() }

    /// Adds and removes tags (normalised); returns the session's tags now.
    public func retag(_ id: Int64, adding: [String], removing: [String]) throws -> [String] {
        let s = try session(id)
        let tags = Self.retagged(s.tags, adding: adding, removing: removing)
        if tags != s.tags { try store.editSession(id: s.id, SessionEdit(tags: tags)) }
        return tags
    }

    /// Deletes an ended session and its episodes once `confirmed` says so (asked only of a
    /// session that may be deleted: a running one is refused before anyone is asked). Returns
    /// whether it was deleted.
    public func delete(_ id: Int64, confirmed: (SessionRecord) throws -> Bool) throws -> Bool {
        let s = try session(id)
        guard s.ended != nil else { throw HistoryError.running(s.id) }
        guard try confirmed(s) else { return false }
        try store.deleteSession(id: s.id)
        return true
    }

    /// Adds time the person spent without a session: nothing judged it, so it is tracked time,
    /// never focused time. `task` is resolved as `edit`'s is. Returns its number.
    public func add(task: String?, tags: [String], note: String?, from: Timestamp, to: Timestamp) throws -> Int64 {
        if let problem = SessionSpanRules.check(start: from, end: to, now: now) { throw HistoryError.span(problem) }
        let subject = try task.map { try TaskLookup(store: store).sessionSubject($0) }
        return try store.addSession(
            task: subject?.name, taskId: subject?.taskId, tags: TaskItem.normalizedTags(tags), note: note, from: from, to: to)
    }

    /// The tags with `adding` appended (each once) and `removing` taken out, both normalised.
    static func retagged(_ tags: [String], adding: [String], removing: [String]) -> [String] {
        let adding = TaskItem.normalizedTags(adding)
        let removing = TaskItem.normalizedTags(removing)
        return (tags + adding.filter { !tags.contains($0) }).filter { !removing.contains($0) }
    }
}
