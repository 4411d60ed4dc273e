import Foundation
import VigilCore
import Yams

/// One key as a YAML file sets it: for `vigil config show`, which says where each effective value
/// came from, and `vigil config init`, which writes the documented defaults commented out.
public struct ConfigSetting: Sendable, Equatable {
    /// `section.key`.
    public var key: String
    /// The value as YAML text: a scalar or a flat list on the first line; a list of mappings one
    /// item a line after it (`rules`), as a person would write it.
    public var value: [String]
    /// 1-based line of the key in its file.
    public var line: Int
}

extension ConfigLoader {
    /// The `section.key` settings of a config text, in the order written. Nil when the text is not
    /// a mapping of sections (`load` says why); keys it does not know are listed too, since the
    /// caller only reads files `load` accepted.
    public static func settings(yaml text: String) -> [ConfigSetting]? {
        guard case .mapping(let sections)? = try? Yams.compose(yaml: text) else { return nil }
        var out: [ConfigSetting] = []
        for (sectionKey, section) in sections {
            guard let name = sectionKey.string, case .mapping(let entries) = section else { continue }
            for (key, value) in entries {
                guard let keyName = key.string else { continue }
                out.append(ConfigSetting(key: "\(name).\(keyName)", value: lines(of: value), line: key.mark?.line ?? 0))
            }
        }
        return out
    }

    /// `config/vigil.yaml`'s text, then each plug-in's section as its module documents it.
    public static func documented(plugIns: ConfigPlugIns) -> String {
        ([DocumentedConfig.text] + plugIns.sections.map(\.documentedYAML)).joined(separator: "\n\n")
    }

    /// The documented defaults with every key commented out (`#key: value`, as sshd_config ships),
    /// so a new file changes nothing and each default stays in view where it would be changed.
    public static func commentedOut(_ documented: String) -> String {
        var out: [Substring] = []
        for line in documented.split(separator: "\n", omittingEmptySubsequences: false) {
            let body = line.drop { $0 == " " }
            let indent = line.count - body.count
            if indent >= 2, !body.isEmpty, !body.hasPrefix("#") {
                out.append(line.prefix(2) + "#" + line.dropFirst(2))
            } else {
                out.append(line)
            }
        }
        return out.joined(separator: "\n")
    }

    private static func lines(of node: Node) -> [String] {
        if case .sequence(let items) = node, items.contains(where: { if case .mapping = $0 { true } else { false } }) {
            return [""] + items.map { "- " + flow($0) }
        }
        return [flow(node)]
    }

    /// A node in YAML's flow style, on one line.
    private static func flow(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            // Quoted as written when it was (a time "09:00" would read as a number of minutes in
            // YAML 1.1), plain otherwise.
            guard s.style == .singleQuoted || s.style == .doubleQuoted else { return s.string }
            return "\"" + s.string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .sequence(let items):
            return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let pairs):
            return "{" + pairs.map { "\(flow($0.key)): \(flow($0.value))" }.joined(separator: ", ") + "}"
        case .alias:
            return "*alias"
        }
    }
}
