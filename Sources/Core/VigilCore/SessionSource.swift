/// Where a logged session came from. Figures about the person (reports, `vigil log`, achievements,
/// habits completed by sessions) count `live` and `simulated` sessions unless asked otherwise:
/// a replay or a rehearsal re-judges a recording of time already lived (or of someone else's), and
/// counting it would count that time twice; an imported session is time another tool tracked,
/// which Vigil never watched. A simulated history stands in for a person's live log
/// (it is only ever written by `vigil simulate`, into a log of its own).
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
    /// `vigil session add`: time the person says they spent, after the fact. Nothing judged it, so
    /// it is never focused or distracted time: `vigil session list` shows it, and a report counts it
    /// only among the sources, even with `--source added`.
    case added

    /// What figures count when no `--source` is given.
    public static let counted: Set<SessionSource> = [.live, .simulated]

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
