/// Where a logged session came from. Figures about the person (reports, `vigil log`, achievements,
/// habits completed by sessions) count `live` and `simulated` sessions unless asked otherwise:
/// a replay or a rehearsal re-judges a recording of time already lived (or of someone else's), and
/// counting it would count that time twice. A simulated history stands in for a person's live log
/// (it is only ever written by `vigil simulate`, into a log of its own).
///
/// `imported` and `added` sessions are *tracked* time: another tool, or the person, says the time
/// was spent; nothing judged it. They are never focused or distracted time, whatever `--source`
/// says: a report shows them apart, as tracked time (`isJudged`).
public enum SessionSource: String, CaseIterable, Hashable, Sendable, Comparable {
    /// `vigil start` with the live detectors.
    case live
    /// `vigil simulate`.
    case simulated
    /// `vigil replay --log`.
    case replay
    /// `vigil start --replay --log`.
    case rehearsal
    /// `vigil import timewarrior`: time tracked by another tool, which Vigil did not judge.
    case imported
    /// `vigil session add`: time the person says they spent, after the fact. Nothing judged it.
    case added

    /// What figures count when no `--source` is given.
    public static let counted: Set<SessionSource> = [.live, .simulated]

    /// Whether Vigil judged the session (its detectors, live or from a recording): only judged time
    /// is focused or distracted. Imported and added sessions are tracked time, judged by nobody.
    public var isJudged: Bool {
        switch self {
        case .live, .simulated, .replay, .rehearsal: true
        case .imported, .added: false
        }
    }

    /// The sources of tracked time, never judged: `imported` and `added`.
    public static let tracked = Set(allCases.filter { !$0.isJudged })

    /// The person's own time, judged and tracked: what `vigil report` and `vigil session list` take
    /// when no `--source` is given (the tracked part is shown apart from the judged figures).
    public static let own = counted.union(tracked)

    /// Every source, in their order, for help texts and refusals: "live, simulated, …, added".
    public static var names: String { allCases.sorted().map(\.rawValue).joined(separator: ", ") }

    /// A selection as `--source` takes it: "live,simulated".
    public static func list(_ sources: Set<SessionSource>) -> String { sources.sorted().map(\.rawValue).joined(separator: ",") }

    /// The order they are listed in: the person's own sessions first.
    private var rank: Int {
        switch self {
        case .live: 0
        case .simulated: 1
        case .replay: 2
        case .rehearsal: 3
        case .imported: 4
        case .added: 5
        }
    }

    public static func < (a: SessionSource, b: SessionSource) -> Bool { a.rank < b.rank }

    /// A `--source` value: sources separated by commas, or `all`. Nil when a word is none of them.
    public static func selection(_ text: String) -> Set<SessionSource>? {
        let words = text.split(separator: ",").map { String($0.filter { !$0.isWhitespace }).lowercased() }
        guard !words.isEmpty else { return nil }
        if words == ["all"] { return Set(allCases) }
        var out: Set<SessionSource> = []
        for w in words {
            guard let s = SessionSource(rawValue: w) else { return nil }
            out.insert(s)
        }
        return out
    }

    /// The SQL list of a selection, for `source IN (…)`: only these fixed words, never input.
    public static func sqlList(_ sources: Set<SessionSource>) -> String {
        sources.sorted().map { "'\($0.rawValue)'" }.joined(separator: ",")
    }
}
