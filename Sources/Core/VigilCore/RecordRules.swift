/// The rules a session of tracked time keeps wherever it comes from: `vigil session add` and
/// `vigil session edit`, and every import (Timewarrior's intervals). One place, so that an import
/// cannot bring in what the command refuses.
public enum SessionSpanRules {
    /// A session lasts at most a day: longer time is added day by day.
    public static let longest = 86_400.0

    /// Why a span cannot be a session.
    public enum Problem: Error, Equatable, Sendable {
        /// It does not end after it starts.
        case endsBeforeStart
        /// It lasts longer than a day (`longest`).
        case longerThanADay(seconds: Double)
        /// It has not ended yet.
        case notOver

        /// A long span in the unit that reads best: 26 h 00 min, 3 days, 230 years.
        static func length(_ seconds: Double) -> String {
            if seconds < 2 * 86_400 { return humanDuration(seconds) }
            if seconds < 730 * 86_400 { return "\(Int(seconds / 86_400)) days" }
            return "\(Int(seconds / 31_557_600)) years"
        }

        /// What is wrong, as a sentence's end: "the session must end after it starts".
        public var reason: String {
            switch self {
            case .endsBeforeStart: "the session must end after it starts"
            case .longerThanADay(let seconds):
                "a session lasts at most a day, and this one lasts \(Self.length(seconds))"
            case .notOver: "it ends in the future: a session is added once it is over"
            }
        }
    }

    /// The first rule the span from `start` to `end` breaks at `now`, or nil when it keeps them.
    public static func check(start: Timestamp, end: Timestamp, now: Timestamp) -> Problem? {
        guard end > start else { return .endsBeforeStart }
        guard end - start <= longest else { return .longerThanADay(seconds: end - start) }
        guard end <= now else { return .notOver }
        return nil
    }
}

/// The rule text from outside keeps wherever it comes from (an import's titles, tags and names, an
/// ActivityWatch export's applications and titles): no NUL character. SQLite and every C string
/// would end the text there, silently, so it is refused instead, with the record named.
public enum TextRules {
    /// What to do about a NUL, for a message.
    public static let nulRemedy = "it would cut the text short where Vigil keeps it; remove it in the program that wrote the file and export again"

    /// Why `text` cannot be taken as it is, or nil.
    public static func problem(_ text: String) -> String? {
        text.utf8.contains(0) ? "holds a NUL character (\\0): \(nulRemedy)" : nil
    }
}
