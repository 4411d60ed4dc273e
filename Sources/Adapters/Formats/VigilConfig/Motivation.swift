import Foundation
import VigilPlanner
import Yams

extension MotivationCollection {
    /// The built-in collection with the person's file (if it exists) added.
    public static func load(userFile: String?) throws(ConfigErrors) -> MotivationCollection {
        var entries = builtIn
        if let path = userFile, FileManager.default.fileExists(atPath: path) {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ConfigErrors(errors: [ConfigError(file: path, line: 0, key: "", message: "cannot be read as UTF-8 text")])
            }
            entries += try parse(yaml: text, file: path)
        }
        return MotivationCollection(entries: entries)
    }

    /// Entries from a YAML list of `{text, author, source, category}`.
    public static func parse(yaml: String, file: String) throws(ConfigErrors) -> [Motivation] {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch {
            throw ConfigErrors(errors: [ConfigError(file: file, line: 0, key: "", message: "not valid YAML: \(error)")])
        }
        guard let root else { return [] }
        guard case .sequence(let items) = root else {
            throw ConfigErrors(errors: [
                ConfigError(file: file, line: root.mark?.line ?? 1, key: "", message: "expected a list of entries (- text: ...)")
            ])
        }
        var out: [Motivation] = []
        var errors: [ConfigError] = []
        for item in items {
            let line = item.mark?.line ?? 0
            guard case .mapping(let m) = item else {
                errors.append(ConfigError(file: file, line: line, key: "", message: "an entry is a mapping with text and category"))
                continue
            }
            var text: String?
            var author: String?
            var source: String?
            var category: Motivation.Category?
            for (k, v) in m {
                let key = k.string ?? "?"
                switch key {
                case "text": text = v.string.map { $0.trimmingCharacters(in: .whitespaces) }
                case "author": author = v.string
                case "source": source = v.string
                case "category":
                    category = v.string.flatMap(Motivation.Category.init(rawValue:))
                    if category == nil {
                        errors.append(
                            ConfigError(
                                file: file, line: v.mark?.line ?? line, key: "category",
                                message: "expected focus, study or health, got '\(v.string ?? "?")'"))
                    }
                default:
                    errors.append(
                        ConfigError(
                            file: file, line: k.mark?.line ?? line, key: key,
                            message: "unknown key\(ConfigLoader.suggestion(key, ["text", "author", "source", "category"]))"))
                }
            }
            guard let t = text, !t.isEmpty else {
                errors.append(ConfigError(file: file, line: line, key: "text", message: "an entry needs a text"))
                continue
            }
            out.append(Motivation(text: t, author: author, source: source, category: category ?? .focus))
        }
        guard errors.isEmpty else { throw ConfigErrors(errors: errors) }
        return out
    }
}
