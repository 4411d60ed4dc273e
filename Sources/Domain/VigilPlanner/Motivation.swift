/// Motivating lines: Vigil's own, and the person's (their motivation.yaml, read by VigilConfig).

/// A line that nudges: Vigil's own wording, or a public-domain quote with its attribution.
public struct Motivation: Hashable, Sendable {
    public enum Category: String, Sendable, CaseIterable { case focus, study, health }
    public var text: String
    public var author: String?
    public var source: String?
    public var category: Category

    public init(text: String, author: String? = nil, source: String? = nil, category: Category) {
        self.text = text
        self.author = author
        self.source = source
        self.category = category
    }

    /// The line as shown: the text, and for a quote "— author, source".
    public var line: String {
        guard let author else { return text }
        return "“\(text)” — \(author)" + (source.map { ", \($0)" } ?? "")
    }
}

/// The offline motivation collection: the one shipped in config/motivation.yaml (built in, so the
/// binary needs no data files; a test holds the two together) plus the person's own lines.
public struct MotivationCollection: Sendable {
    public var entries: [Motivation]

    public init(entries: [Motivation]) { self.entries = entries }

    /// A line for `category` (any if nil), never the one given as `avoiding` when there is another.
    public func pick<R: RandomNumberGenerator>(category: Motivation.Category? = nil, avoiding: Motivation? = nil, using rng: inout R) -> Motivation? {
        var pool = entries.filter { category == nil || $0.category == category }
        if pool.count > 1, let a = avoiding { pool.removeAll { $0 == a } }
        return pool.randomElement(using: &rng)
    }

    /// config/motivation.yaml, built in.
    public static let builtIn: [Motivation] = [
        Motivation(text: "Five focused minutes beat an hour of meaning to.", category: .focus),
        Motivation(text: "The task is smaller than the dread of it. Open the file.", category: .focus),
        Motivation(text: "Close the tab. The world will still be there in twenty-five minutes.", category: .focus),
        Motivation(text: "You came here to do one thing. Do the next small piece of it.", category: .focus),
        Motivation(text: "Write the next sentence badly. You can fix a bad sentence; you cannot fix an empty page.", category: .focus),
        Motivation(text: "Finish the step you are on before you judge the whole.", category: .focus),
        Motivation(text: "Explain the last page to yourself in one sentence, then read on.", category: .study),
        Motivation(text: "Pick one exercise and do it now; reading about it can wait.", category: .study),
        Motivation(text: "Tired eyes? Look at something far away for twenty seconds, then back to it.", category: .health),
        Motivation(text: "Stand up, drink some water, and come back to the same line you left.", category: .health),
        Motivation(text: "A walk is a fine break when you planned it. Plan the next one.", category: .health),
        Motivation(
            text: "While we are postponing, life speeds by.", author: "Seneca",
            source: "Letters to Lucilius, I (tr. Richard M. Gummere, 1917)", category: .focus),
        Motivation(
            text: "Nothing, Lucilius, is ours, except time.", author: "Seneca",
            source: "Letters to Lucilius, I (tr. Richard M. Gummere, 1917)", category: .focus),
        Motivation(
            text: "Do every act of thy life as if it were the last.", author: "Marcus Aurelius",
            source: "Meditations, II.5 (tr. George Long, 1862)", category: .focus),
        Motivation(text: "Lost time is never found again.", author: "Benjamin Franklin", source: "Poor Richard's Almanack, 1748", category: .focus),
        Motivation(
            text: "Either write something worth reading or do something worth writing.", author: "Benjamin Franklin",
            source: "Poor Richard's Almanack, 1738", category: .study),
    ]
}
