import Foundation
import VigilCore
import Yams

/// The `goals:` section: a goal or limit per key, its name (docs/whole-day-design.md, "Limits and
/// goals"):
///
///     goals:
///       less video: {what: category distracting, at_most: 30m, per: day, thresholds: [15m, 30m]}
///       deep work: {what: focus, at_least: 4h, per: weekday}
///       thesis: {what: task thesis, at_least: 6h, per: week}
enum GoalsConfig {
    static let keys = ["what", "at_least", "at_most", "per", "thresholds"]

    /// One goal from its name and mapping.
    static func goal(name: String, _ node: Node) throws -> Goal {
        guard case .mapping(let m) = node else {
            throw ValueError(message: "expected a mapping such as {what: category distracting, at_most: 30m, per: day}")
        }
        var measure: Goal.Measure?
        var target: (Goal.Direction, Double)?
        var per = Goal.Per.day
        var thresholds: [Double] = []
        for (k, v) in m {
            switch k.string ?? "" {
            case "what":
                guard let text = v.string, let parsed = Goal.Measure(text) else {
                    throw ValueError(
                        message: "what: expected focus, category work|neutral|distracting, task NAME or tag NAME, got \(describe(v))")
                }
                measure = parsed
            case "at_least", "at_most":
                guard target == nil else { throw ValueError(message: "give at_least or at_most, not both") }
                target = (Goal.Direction(rawValue: k.string ?? "") ?? .atLeast, try duration(v))
            case "per":
                guard let text = v.string, let p = Goal.Per(rawValue: text) else {
                    throw ValueError(message: "per: expected day, weekday or week, got \(describe(v))")
                }
                per = p
            case "thresholds": thresholds = try durations(v)
            case let other:
                throw ValueError(message: "unknown key '\(other.quotedValue())'\(ConfigLoader.suggestion(other, keys))")
            }
        }
        guard let measure else { throw ValueError(message: "needs what: focus, category NAME, task NAME or tag NAME") }
        guard let (direction, seconds) = target else { throw ValueError(message: "needs at_least or at_most (a duration such as 4h)") }
        if let above = thresholds.first(where: { $0 > seconds }) {
            throw ValueError(
                message: "thresholds lead up to the goal or limit (\(humanDuration(seconds))): \(humanDuration(above)) is above it")
        }
        // The goal itself is the last threshold, whether the list says it or not.
        if !thresholds.contains(seconds) { thresholds.append(seconds) }
        return Goal(name: name, measure: measure, direction: direction, target: seconds, per: per, thresholds: thresholds.sorted())
    }
}
