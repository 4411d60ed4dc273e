/// A limit or a goal, in the shape the field has settled on (RescueTime, aw-notify, FocusMe; see
/// docs/whole-day-design.md): what is measured, at least or at most, how much, per day, weekday or
/// week, with up to three thresholds on the way (the last is the goal or the limit itself).
public struct Goal: Hashable, Sendable {
    /// What is counted, in minutes.
    public enum Measure: Hashable, Sendable, CustomStringConvertible {
        /// Judged focused time in sessions.
        case focus
        /// Time in applications of a category, in sessions and (where the all-day watch runs)
        /// outside them.
        case category(AppCategory)
        /// Focused time in sessions of a task, or of sessions with a tag.
        case task(String)
        case tag(String)

        /// As the config writes it: `focus`, `category distracting`, `task thesis`, `tag deep`.
        public var description: String {
            switch self {
            case .focus: "focus"
            case .category(let c): "category \(c.rawValue)"
            case .task(let t): "task \(t)"
            case .tag(let t): "tag \(t)"
            }
        }

        /// Reads `focus`, `category NAME`, `task NAME` or `tag NAME`; nil for anything else.
        public init?(_ text: String) {
            let trimmed = Self.trimmed(Substring(text))
            if trimmed == "focus" {
                self = .focus
                return
            }
            guard let space = trimmed.firstIndex(of: " ") else { return nil }
            let rest = Self.trimmed(trimmed[space...])
            guard !rest.isEmpty else { return nil }
            switch trimmed[..<space] {
            case "category":
                guard let c = AppCategory(rawValue: rest) else { return nil }
                self = .category(c)
            case "task": self = .task(rest)
            case "tag": self = .tag(rest.lowercased())
            default: return nil
            }
        }

        /// Without spaces at either end (the core has no Foundation).
        private static func trimmed(_ s: Substring) -> String {
            String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
    }

    public enum Direction: String, Hashable, Sendable {
        case atLeast = "at_least"
        case atMost = "at_most"
    }

    /// The period a goal is met or missed in.
    public enum Per: String, Hashable, Sendable, CaseIterable {
        /// Every day.
        case day
        /// Monday to Friday; other days are not counted.
        case weekday
        /// ISO weeks, Monday to Sunday.
        case week
    }

    public var name: String
    public var measure: Measure
    public var direction: Direction
    /// The goal or limit, seconds.
    public var target: Double
    public var per: Per
    /// Ascending, seconds, the last equal to `target`: each is notified once per period.
    public var thresholds: [Double]

    public init(name: String, measure: Measure, direction: Direction, target: Double, per: Per, thresholds: [Double] = []) {
        self.name = name
        self.measure = measure
        self.direction = direction
        self.target = target
        self.per = per
        self.thresholds = thresholds.isEmpty ? [target] : thresholds
    }

    /// Whether `seconds` in a whole period meets it.
    public func met(_ seconds: Double) -> Bool { direction == .atLeast ? seconds >= target : seconds <= target }

    /// Whether a period's day counts (a weekday goal skips Saturday and Sunday). `weekday`: ISO, 1 Monday.
    public func counts(weekday: Int) -> Bool { per != .weekday || weekday <= 5 }
}
