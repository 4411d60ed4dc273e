import Foundation
import SystemCalls
import VigilConfig
import VigilCore

/// The rules the person taught Vigil, as `vigil rules`, `vigil episode --learn` and the live
/// screen's w and x change them (`LearnedRulesFile`, beside the config). The file is Vigil's own
/// and written whole, a new file renamed over the old one: never half-written; the person's config
/// is never touched.
public struct LearnedRules: Sendable {
    public let path: String

    public init(paths: VigilPaths) { path = paths.learnedRulesFile }

    public func list() throws(ConfigErrors) -> [LearnedRule] { try LearnedRulesFile.load(path: path) }

    /// Whether the rules already say what `rule` says: the same application and rule, the same category.
    public func knows(_ rule: LearnedRule) throws(ConfigErrors) -> Bool { try list().contains { Self.says($0, rule) } }

    /// `a` is about the same application and rule as `b`, and gives it the same category.
    private static func says(_ a: LearnedRule, _ b: LearnedRule) -> Bool {
        a.appClass == b.appClass && a.insteadOf == b.insteadOf && a.category == b.category
    }

    /// Adds `rule`; one for the same application and rule (the opposite, taught before) gives way
    /// to it. Returns whether anything changed.
    @discardableResult
    public func learn(_ rule: LearnedRule) throws -> Bool {
        var rules = try list()
        guard !rules.contains(where: { Self.says($0, rule) }) else { return false }
        rules.removeAll { $0.appClass == rule.appClass && $0.insteadOf == rule.insteadOf }
        rules.append(rule)
        try save(rules)
        return true
    }

    /// Removes rule `number` (1-based, as `vigil rules` lists them); returns it, nil when there is none.
    public func forget(_ number: Int) throws -> LearnedRule? {
        var rules = try list()
        guard number >= 1, number <= rules.count else { return nil }
        let gone = rules.remove(at: number - 1)
        try save(rules)
        return gone
    }

    private func save(_ rules: [LearnedRule]) throws {
        let directory = FilePaths.directory(of: path)
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let writer = try OutputWriter(path: path, what: "the rules Vigil learned")
        try writer.write(Array(LearnedRulesFile.render(rules).utf8))
        try writer.commit(sync: true)
    }
}
