/// The 21/90 streak model, shared by the procrastination-free streak of the reports and by habits.
///
/// A streak is a run of completed days. Its badge upgrades at 7 days (a week), 21 (a habit) and
/// 90 (a lifestyle change); each completed day adds the multiplier of the badge the streak has on
/// that day: x1 for days 1-6, x2 from day 7, x3 from day 21, x4 from day 60 (the issue leaves the
/// x4 step unnamed; two months is halfway from a habit to a lifestyle change), x5 from day 90.
/// Losing a streak costs one point per day of its length, never below zero: a short streak that
/// breaks gives back all it earned, a long one keeps its bonus.
public enum StreakModel {
    public enum Badge: String, Sendable, Codable, CaseIterable {
        case new, week, habit
        case strongHabit = "strong_habit"
        case lifestyle

        public var title: String {
            switch self {
            case .new: "new streak"
            case .week: "a week"
            case .habit: "a habit"
            case .strongHabit: "a strong habit"
            case .lifestyle: "a lifestyle change"
            }
        }
    }

    /// Day lengths at which the badge upgrades, with the badge and its multiplier.
    public static let steps: [(days: Int, badge: Badge, multiplier: Int)] = [
        (1, .new, 1), (7, .week, 2), (21, .habit, 3), (60, .strongHabit, 4), (90, .lifestyle, 5),
    ]
    public static let habitDays = 21
    public static let lifestyleDays = 90
    /// Points a lost streak costs per day of its length.
    public static let lossPerDay = 1

    public static func badge(forLength n: Int) -> Badge {
        steps.last { $0.days <= max(n, 1) }!.badge
    }

    public static func multiplier(forLength n: Int) -> Int {
        steps.last { $0.days <= max(n, 1) }!.multiplier
    }
}

/// Follows one streak day by day. Days must be given in order; days not given (no session, or not
/// scheduled for a habit) neither extend nor break the streak.
public struct StreakTracker: Sendable {
    public private(set) var current = 0
    public private(set) var best = 0
    public private(set) var score = 0
    public private(set) var bestScore = 0
    /// First day of the current streak (days since 1970-01-01, local).
    public private(set) var currentSince: Int?
    /// First and last day of the best streak.
    public private(set) var bestSpan: (from: Int, to: Int)?

    public init() {}

    /// Books one day. Returns the streak length reached (0 after a failure).
    @discardableResult
    public mutating func record(day: Int, completed: Bool) -> Int {
        if completed {
            if current == 0 { currentSince = day }
            current += 1
            score += StreakModel.multiplier(forLength: current)
            if current > best {
                best = current
                bestSpan = (currentSince!, day)
            }
            bestScore = max(bestScore, score)
        } else {
            score = max(0, score - current * StreakModel.lossPerDay)
            current = 0
            currentSince = nil
        }
        return current
    }

    public var badge: StreakModel.Badge { StreakModel.badge(forLength: current) }

    /// "N days until this becomes a habit / a lifestyle change", or the milestone reached.
    public var messages: [String] {
        var out: [String] = []
        if current < StreakModel.habitDays {
            let n = StreakModel.habitDays - current
            out.append("\(n) day\(n == 1 ? "" : "s") until this becomes a habit")
        }
        if current < StreakModel.lifestyleDays {
            let n = StreakModel.lifestyleDays - current
            out.append("\(n) day\(n == 1 ? "" : "s") until a lifestyle change")
        } else {
            out.append("\(current) days: a lifestyle change")
        }
        return out
    }
}
