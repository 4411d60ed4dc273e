import Foundation
import VigilCore
import Yams

/// A problem in a config file, with the place and the key.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line, 0 when the problem is not at one line (a relation between two keys).
    public var line: Int
    public var key: String
    public var message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// On one line, inert in a terminal: the file's name, a key and the values quoted in the
    /// message are the person's, and a crafted key must not start a line of its own.
    public var description: String {
        // A password in a URL is masked wherever a message quotes it (the values are cut where
        // they are quoted, the key here: an unknown key of 10 MB is named, not printed).
        let place = line > 0 ? "\(file):\(line)" : file
        let key = key.quotedValue()
        return (key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)").maskingPasswords.terminalSafe
    }
}

/// All the problems of one file: `vigil config check` lists them together.
public struct ConfigErrors: PersonFacingError, Sendable {
    public var errors: [ConfigError]
    public var exitStatus: ExitStatus { .dataError }
    /// The first `shown` errors, and how many more: a file of 200,000 unknown keys is not a
    /// config with typos, and its every line helps nobody.
    public var description: String {
        let shown = 50
        let more = errors.count - shown
        return (errors.prefix(shown).map(\.description) + (more > 0 ? ["... and \(more) more like these"] : [])).joined(separator: "\n")
    }
}

/// Reads Vigil's YAML config files onto the defaults.
///
/// Every key is known: an unknown or misspelt key is an error (with a suggestion), not silently
/// ignored, because a typo in `idle_grace` would otherwise leave the person with a default they
/// believe they changed.
public enum ConfigLoader {
    /// What the registered plug-ins add to the file while a load runs (the App's composition
    /// file passes them): the names `alarms.channels` may use, and the plug-ins' sections.
    @TaskLocal static var plugIns = ConfigPlugIns.builtIn
    static var channels: [AlarmChannel] { plugIns.channels }

    /// Applies the YAML text on top of `base`, with the plug-ins registered (`PlugInRegistry`'s
    /// channel names and sections).
    public static func load(
        yaml text: String, file: String, onto base: VigilConfiguration = .default, plugIns: ConfigPlugIns = .builtIn
    ) throws(ConfigErrors) -> VigilConfiguration {
        do {
            return try $plugIns.withValue(plugIns) { () throws(ConfigErrors) -> VigilConfiguration in
                try apply(yaml: text, file: file, onto: base)
            }
        } catch let e as ConfigErrors {
            throw e
        } catch {
            throw ConfigErrors(errors: [ConfigError(file: file, line: 0, key: "", message: "\(error)")])
        }
    }

    private static func apply(yaml text: String, file: String, onto base: VigilConfiguration) throws(ConfigErrors) -> VigilConfiguration {
        var config = base
        var errors: [ConfigError] = []
        // A suggestion for the first unknown names: a file of thousands is not a config with typos,
        // and suggesting for each took most of a minute for 200,000.
        var suggestionsLeft = 50
        func hint(_ word: String, _ known: [String]) -> String {
            suggestionsLeft -= 1
            return suggestionsLeft >= 0 ? suggestion(word, known) : ""
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigErrors(errors: [yamlSyntaxError(error, file: file)])
        } catch {
            throw ConfigErrors(errors: [
                ConfigError(file: file, line: 0, key: "", message: "not valid YAML: \(String(describing: error).quotedValue(limit: 300))")
            ])
        }
        if let root {
            guard case .mapping(let sections) = root else {
                throw ConfigErrors(errors: [
                    ConfigError(
                        file: file, line: root.mark?.line ?? 1, key: "",
                        message: "the top level must be a mapping of sections (session:, scoring:, input: ...)")
                ])
            }
            for (keyNode, value) in sections {
                let name = keyNode.string ?? "?"
                let line = keyNode.mark?.line ?? 0
                if name == "goals" {
                    errors += applyGoals(value, file: file, line: line, to: &config)
                    continue
                }
                guard let section = schema[name] ?? plugIns.sections.first(where: { $0.name == name }).map(plugInSchema) else {
                    let known = Array(schema.keys) + plugIns.sections.map(\.name)
                    errors.append(ConfigError(file: file, line: line, key: name, message: "unknown section\(hint(name, known))"))
                    continue
                }
                if case .scalar(let s) = value, s.tag == Tag(.null) || s.string.isEmpty { continue }
                guard case .mapping(let entries) = value else {
                    errors.append(ConfigError(file: file, line: value.mark?.line ?? line, key: name, message: "must be a mapping of keys"))
                    continue
                }
                for (k, v) in entries {
                    let keyName = k.string ?? "?"
                    let path = "\(name).\(keyName)"
                    guard let apply = section[keyName] else {
                        errors.append(
                            ConfigError(
                                file: file, line: k.mark?.line ?? line, key: path, message: "unknown key\(hint(keyName, Array(section.keys)))"))
                        continue
                    }
                    do {
                        try apply(&config, v)
                    } catch let e as ValueError {
                        errors.append(ConfigError(file: file, line: v.mark?.line ?? k.mark?.line ?? line, key: path, message: e.message))
                    } catch {
                        errors.append(ConfigError(file: file, line: v.mark?.line ?? line, key: path, message: "\(error)"))
                    }
                }
            }
        }
        // Ranges and relations between keys: point at the line of the named key if it is in this file.
        // Checked even when other keys failed, so one run names every problem.
        let lines = keyLines(root)
        let failed = Set(errors.map(\.key))
        for p in config.problems() where !failed.contains(p.key) {
            errors.append(ConfigError(file: file, line: lines[p.key] ?? 0, key: p.key, message: p.message))
        }
        guard errors.isEmpty else { throw ConfigErrors(errors: errors.sorted { ($0.line, $0.key) < ($1.line, $1.key) }) }
        return config
    }

    /// `goals:`: each key a goal's name (a file's goals replace those of the files before it).
    private static func applyGoals(_ value: Node, file: String, line: Int, to config: inout VigilConfiguration) -> [ConfigError] {
        if case .scalar(let s) = value, s.tag == Tag(.null) || s.string.isEmpty { return [] }
        guard case .mapping(let entries) = value else {
            return [ConfigError(file: file, line: value.mark?.line ?? line, key: "goals", message: "must be a mapping of goals by name")]
        }
        var errors: [ConfigError] = []
        var goals: [Goal] = []
        for (k, v) in entries {
            let name = k.string ?? "?"
            do {
                guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValueError(message: "a goal needs a name") }
                goals.append(try GoalsConfig.goal(name: name, v))
            } catch let e as ValueError {
                errors.append(ConfigError(file: file, line: v.mark?.line ?? k.mark?.line ?? line, key: "goals.\(name)", message: e.message))
            } catch {
                errors.append(ConfigError(file: file, line: v.mark?.line ?? line, key: "goals.\(name)", message: "\(error)"))
            }
        }
        config.goals = goals
        return errors
    }

    /// Loads `path` on top of `base`, naming the file when it cannot be read.
    public static func load(
        path: String, onto base: VigilConfiguration = .default, plugIns: ConfigPlugIns = .builtIn
    ) throws(ConfigErrors) -> VigilConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "is a directory, not a config file" : "cannot be read as UTF-8 text"
            throw ConfigErrors(errors: [ConfigError(file: path, line: 0, key: "", message: reason)])
        }
        return try load(yaml: text, file: path, onto: base, plugIns: plugIns)
    }

    /// Every built-in key path the loader knows, `section.key`.
    static var knownKeys: [String] {
        schema.flatMap { section, keys in keys.keys.map { "\(section).\($0)" } }.sorted()
    }

    /// A plug-in's section as the loader's table: each key read as its kind says and checked
    /// against its range, into `VigilConfiguration.plugIns`.
    private static func plugInSchema(_ section: ConfigSection) -> [String: Apply] {
        var table: [String: Apply] = [:]
        for key in section.keys {
            table[key.name] = { config, node in config.plugIns[section.name, default: [:]][key.name] = try value(of: key, node) }
        }
        return table
    }

    private static func keyLines(_ root: Node?) -> [String: Int] {
        var out: [String: Int] = [:]
        guard case .mapping(let sections)? = root else { return out }
        for (k, v) in sections {
            guard let name = k.string, case .mapping(let entries) = v else { continue }
            for (k2, v2) in entries {
                guard let key = k2.string else { continue }
                out["\(name).\(key)"] = k2.mark?.line
                if case .mapping(let inner) = v2 {
                    for (k3, _) in inner { if let s = k3.string { out["\(name).\(key).\(s)"] = k3.mark?.line } }
                }
            }
        }
        return out
    }

    /// A YAML file's syntax error at its line (the config's, and Vigil's learned rules').
    static func yamlSyntaxError(_ error: any Error, file: String) -> ConfigError {
        guard let error = error as? YamlError else {
            return ConfigError(file: file, line: 0, key: "", message: "not valid YAML: \(String(describing: error).quotedValue(limit: 300))")
        }
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ConfigError(file: file, line: mark.line, key: "", message: "not valid YAML: \(problem.quotedValue(limit: 300))")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigError(file: file, line: context.mark.line, key: duplicates.joined(separator: ", "), message: "set twice in the same section")
        default:
            return ConfigError(file: file, line: 0, key: "", message: "not valid YAML: \(String(describing: error).quotedValue(limit: 300))")
        }
    }

    /// " (did you mean 'idle_grace'?)" when a known key is a short edit away.
    static func suggestion(_ word: String, _ known: [String]) -> String {
        if word.count >= 3, let full = known.sorted().first(where: { $0.hasPrefix(word) }) { return " (did you mean '\(full)'?)" }
        // Only names close enough in length can be close enough in spelling (the lengths'
        // difference is a lower bound of the distance): a long junk key costs nothing.
        let limit = max(2, word.count / 3)
        let best = known.filter { abs($0.count - word.count) <= limit }.map { ($0, editDistance(word, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (name, d) = best, d <= limit else {
            return " (known: \(known.sorted().joined(separator: ", ")))"
        }
        return " (did you mean '\(name.quotedValue())'?)"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}

/// What the registered plug-ins add to the config file: the channel names `alarms.channels` may
/// use (the built-in ones and the channel modules'), and the signal modules' own sections.
public struct ConfigPlugIns: Sendable {
    public var channels: [AlarmChannel]
    public var sections: [ConfigSection]

    /// A section named like a built-in one, or like a section before it, is left out: the
    /// built-in keys keep their meaning, and no name is in the file twice.
    public init(channels: [AlarmChannel], sections: [ConfigSection]) {
        self.channels = channels
        var names = Set(schema.keys)
        self.sections = sections.filter { names.insert($0.name).inserted }
    }

    public static let builtIn = ConfigPlugIns(channels: AlarmChannel.builtIn, sections: [])
}
