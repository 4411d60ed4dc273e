import Foundation
import VigilConfig
import VigilCore

/// A config file with problems, as `vigil config check` reports it: every problem, how many,
/// and that nothing was changed (exit 65).
public struct ConfigCheckFailure: PersonFacingError {
    let errors: ConfigErrors
    public var description: String {
        let n = errors.errors.count
        return errors.description + "\n\(n) problem\(n == 1 ? "" : "s") found; nothing was changed."
    }
    public var exitStatus: ExitStatus { .dataError }
}

/// The config file as `vigil config` works on it, with the keys of the plug-ins registered:
/// every key commented out to start a file from, a check, and each key in effect with where it
/// comes from.
public struct ConfigService: Sendable {
    public let paths: VigilPaths
    public let plugIns: ConfigPlugIns

    public init(paths: VigilPaths, plugIns: ConfigPlugIns) {
        self.paths = paths
        self.plugIns = plugIns
    }

    /// The documented config file: every key, uncommented, with its default and its comment, the
    /// registered plug-ins' sections included (what vigil.yaml(5) is made from).
    public func documented() -> String { ConfigLoader.documented(plugIns: plugIns) }

    /// Every documented key commented out (`#key: value`) with its comment, without the
    /// documented file's first paragraph (how to use that file: a new file has its own header).
    public func commentedDefaults() -> String {
        ConfigLoader.commentedOut(Self.withoutItsHeader(ConfigLoader.documented(plugIns: plugIns)))
    }

    /// The documented config without its first paragraph: up to its first empty line.
    static func withoutItsHeader(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let end = lines.firstIndex(of: "") else { return text }
        return lines[end...].joined(separator: "\n")
    }

    /// Reads the file through; every problem is in the failure.
    public func check() throws(ConfigCheckFailure) {
        do throws(ConfigErrors) {
            _ = try ConfigLoader.load(path: paths.configFile, plugIns: plugIns)
        } catch {
            throw ConfigCheckFailure(errors: error)
        }
    }

    /// A key as it is in effect.
    public struct Setting: Sendable, Equatable {
        /// `section.key`.
        public var key: String
        /// The value as YAML text, a line each (a list of mappings one item a line after the first).
        public var value: [String]
        /// The line of the config file that set it; nil for a default.
        public var line: Int?
    }

    /// Every documented key in its order, with the value the file gives it (else its default).
    public func settingsInEffect() -> [Setting] {
        let defaults = ConfigLoader.settings(yaml: ConfigLoader.documented(plugIns: plugIns)) ?? []
        var fromFile: [String: ConfigSetting] = [:]
        if FileManager.default.fileExists(atPath: paths.configFile), let text = try? String(contentsOfFile: paths.configFile, encoding: .utf8) {
            for s in ConfigLoader.settings(yaml: text) ?? [] { fromFile[s.key] = s }
        }
        return defaults.map { d in
            let set = fromFile[d.key]
            return Setting(key: d.key, value: (set ?? d).value, line: set?.line)
        }
    }
}
