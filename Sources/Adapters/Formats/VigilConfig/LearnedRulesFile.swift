import Foundation
import VigilCore
import Yams

/// `learned-rules.yaml`, beside the config: the rules the person taught Vigil (`LearnedRule`),
/// in a file Vigil owns and rewrites whole, so that the person's own config, with its comments,
/// is never touched. Each entry is a flow mapping of JSON strings (valid YAML), one a line:
///
///     learned:
///       - {"class": "firefox", "instead_of": "youtube", "category": "work", "learned": "2026-11-29", "from": "session 12, episode 3"}
public enum LearnedRulesFile {
    public static let name = "learned-rules.yaml"

    static let header = """
        # Rules Vigil learned from you: "this was work" (w on the live screen, or `vigil episode N
        # --was work --learn`) and "this is a distraction" (x). Vigil writes this file whole; your
        # config is never rewritten. Each rule outranks the one rule of your config it names
        # (instead_of; none: no rule matched, apps.fallback did), for that application only.
        # `vigil rules` lists them; `vigil rules forget N` removes one.

        """

    /// The rules in the file; none when there is no file.
    public static func load(path: String) throws(ConfigErrors) -> [LearnedRule] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigErrors(errors: [ConfigError(file: path, line: 0, key: "", message: "cannot be read as UTF-8 text")])
        }
        return try parse(yaml: text, file: path)
    }

    public static func parse(yaml: String, file: String) throws(ConfigErrors) -> [LearnedRule] {
        func fail(_ line: Int, _ key: String, _ message: String) -> ConfigErrors {
            ConfigErrors(errors: [ConfigError(file: file, line: line, key: key, message: message)])
        }
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch { throw ConfigErrors(errors: [ConfigLoader.yamlSyntaxError(error, file: file)]) }
        guard let root else { return [] }
        guard case .mapping(let top) = root, top.count == 1, let list = top["learned"] else {
            throw fail(root.mark?.line ?? 1, "", "expected `learned:` and a list of rules")
        }
        guard case .sequence(let items) = list else {
            if case .scalar(let s) = list, s.string.isEmpty || s.string == "[]" || s.string == "null" || s.string == "~" { return [] }
            throw fail(list.mark?.line ?? 1, "learned", "expected a list of rules")
        }
        var out: [LearnedRule] = []
        var errors: [ConfigError] = []
        for item in items {
            let line = item.mark?.line ?? 0
            guard case .mapping(let m) = item else {
                errors.append(
                    ConfigError(file: file, line: line, key: "learned", message: "a rule is a mapping: {class, instead_of, category, learned}"))
                continue
            }
            var fields: [String: String] = [:]
            for (k, v) in m {
                let key = k.string ?? "?"
                guard ["class", "instead_of", "category", "learned", "from"].contains(key) else {
                    errors.append(
                        ConfigError(
                            file: file, line: k.mark?.line ?? line, key: key,
                            message: "unknown key (known: class, instead_of, category, learned, from)"))
                    continue
                }
                fields[key] = v.string
            }
            guard let cls = fields["class"], !cls.trimmingCharacters(in: .whitespaces).isEmpty else {
                errors.append(ConfigError(file: file, line: line, key: "class", message: "missing: the application's class"))
                continue
            }
            guard let category = fields["category"].flatMap(AppCategory.init(rawValue:)) else {
                errors.append(
                    ConfigError(
                        file: file, line: line, key: "category", message: "expected work, neutral or distracting, got '\(fields["category"] ?? "")'"))
                continue
            }
            let insteadOf = fields["instead_of"].flatMap { $0 == "none" || $0.isEmpty ? nil : $0 }
            out.append(LearnedRule(appClass: cls, insteadOf: insteadOf, category: category, learned: fields["learned"] ?? "", from: fields["from"]))
        }
        if !errors.isEmpty { throw ConfigErrors(errors: errors) }
        return out
    }

    /// The file's text for `rules`, in order.
    public static func render(_ rules: [LearnedRule]) -> String {
        func quoted(_ s: String) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        guard !rules.isEmpty else { return header + "learned: []\n" }
        var text = header + "learned:\n"
        for r in rules {
            var fields = [("class", r.appClass), ("instead_of", r.insteadOf ?? "none"), ("category", r.category.rawValue), ("learned", r.learned)]
            if let from = r.from { fields.append(("from", from)) }
            text += "  - {" + fields.map { "\(quoted($0.0)): \(quoted($0.1))" }.joined(separator: ", ") + "}\n"
        }
        return text
    }
}
