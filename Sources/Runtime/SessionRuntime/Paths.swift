import Foundation
import SystemCalls
import VigilConfig
import VigilCore
import VigilPlanner

/// Where Vigil keeps its files, following the XDG Base Directory specification.
public struct VigilPaths: Sendable {
    /// The data directory: `--data-dir`, else `$XDG_DATA_HOME/vigil`, else `~/.local/share/vigil`.
    public var dataDirectory: String
    /// The user config file: `--config`, else `$XDG_CONFIG_HOME/vigil/config.yaml`, else `~/.config/vigil/config.yaml`.
    public var configFile: String
    /// Whether `configFile` was named explicitly (then it must exist).
    public var configExplicit: Bool

    public init(dataDirectory: String? = nil, configFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        // The spec says relative XDG paths are invalid and must be ignored.
        func xdg(_ name: String, _ fallback: String) -> String {
            if let v = environment[name], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        self.dataDirectory = dataDirectory ?? xdg("XDG_DATA_HOME", ".local/share") + "/vigil"
        self.configFile = configFile ?? xdg("XDG_CONFIG_HOME", ".config") + "/vigil/config.yaml"
        self.configExplicit = configFile != nil
    }

    public var databasePath: String { dataDirectory + "/vigil.sqlite3" }

    /// Where each output file's temporary is named while it is written (`OutputFile`'s journal),
    /// so that `vigil forget` can remove what a killed process left, wherever it was writing.
    public var outputJournal: String { Self.outputJournal(dataDirectory: dataDirectory) }

    public static func outputJournal(dataDirectory: String) -> String { dataDirectory + "/unfinished-outputs" }

    /// The effective configuration: the defaults, overridden by the user file if there is one.
    /// `plugIns`: what the registered modules add to the file (`PlugInRegistry.config`).
    public func loadConfiguration(plugIns: ConfigPlugIns) throws(ConfigErrors) -> VigilConfiguration {
        if !configExplicit && !FileManager.default.fileExists(atPath: configFile) { return .default }
        return try ConfigLoader.load(path: configFile, plugIns: plugIns)
    }

    /// The rules Vigil learned from the person (`LearnedRulesFile`), beside the config file.
    public var learnedRulesFile: String { FilePaths.directory(of: configFile) + "/" + LearnedRulesFile.name }

    public func loadLearnedRules() throws(ConfigErrors) -> [LearnedRule] { try LearnedRulesFile.load(path: learnedRulesFile) }

    /// The motivation collection: the built-in lines and the person's own motivation.yaml next to
    /// the config file.
    public func loadMotivation() throws(ConfigErrors) -> MotivationCollection {
        try MotivationCollection.load(userFile: FilePaths.directory(of: configFile) + "/motivation.yaml")
    }
}
