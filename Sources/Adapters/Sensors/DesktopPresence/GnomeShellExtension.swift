import Foundation
import SystemCalls

/// Vigil's GNOME Shell extension on this machine: where it goes, which flavour the installed
/// GNOME Shell loads, installing it for the person and enabling it, and taking it away again.
///
/// The extension goes to `$XDG_DATA_HOME/gnome-shell/extensions/vigil@vigil.dev/` (GNOME Shell's
/// per-user folder; `~/.local/share` when unset). Enabling adds its uuid to the
/// `org.gnome.shell enabled-extensions` setting with `gsettings` (and takes it out of
/// `disabled-extensions`), the way GNOME's own Extensions app does, so it holds across logins.
/// GNOME Shell reads its extension folders when it starts: an extension installed while it runs
/// is loaded at the next login (on X11, Alt+F2 `r` restarts the shell sooner).
public struct GnomeShellExtension: Sendable {
    /// The folder of extensions the files go into (`…/gnome-shell/extensions`).
    public let extensionsDirectory: String

    public init(extensionsDirectory: String) {
        self.extensionsDirectory = extensionsDirectory
    }

    /// The person's own extensions folder, from the environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        self.init(extensionsDirectory: data + "/gnome-shell/extensions")
    }

    /// The extension's own folder.
    public var directory: String { extensionsDirectory + "/" + GnomeShellExtensionFiles.uuid }

    /// Whether the extension's files are there.
    public var isInstalled: Bool { FileManager.default.fileExists(atPath: directory + "/metadata.json") }

    /// The GNOME Shell installed here (`gnome-shell --version`: "GNOME Shell 43.9"): its version
    /// text and major number, nil when there is none.
    public static func installedShell(environment: [String: String] = ProcessInfo.processInfo.environment) -> (version: String, major: Int)? {
        guard let result = runProgram("gnome-shell", ["--version"], timeout: 10, environment: environment), result.status == 0 else { return nil }
        return shellVersion(result.output)
    }

    /// The version in `gnome-shell --version`'s answer.
    static func shellVersion(_ text: String) -> (version: String, major: Int)? {
        guard let word = text.split(whereSeparator: \.isWhitespace).last, let major = Int(word.split(separator: ".").first ?? "") else { return nil }
        return (String(word), major)
    }

    /// The files for a GNOME Shell of major version `shellMajor`: 45 and later load ES modules,
    /// 43 and 44 legacy scripts; nil for older shells, which this extension was not written for.
    public static func files(forShell shellMajor: Int) -> [(name: String, text: String)]? {
        if shellMajor >= 45 {
            return [("extension.js", GnomeShellExtensionFiles.moduleExtension), ("metadata.json", GnomeShellExtensionFiles.moduleMetadata)]
        }
        if shellMajor >= 43 {
            return [("extension.js", GnomeShellExtensionFiles.legacyExtension), ("metadata.json", GnomeShellExtensionFiles.legacyMetadata)]
        }
        return nil
    }

    /// Writes the flavour for `shellMajor` (each file whole or not at all, replacing an older
    /// copy of Vigil's); returns the files written.
    public func install(shellMajor: Int) throws -> [String] {
        guard let files = Self.files(forShell: shellMajor) else {
            throw GnomeSetupError("GNOME Shell \(shellMajor) is older than the oldest this extension supports (43)")
        }
        try makeDirectories(directory)
        var written: [String] = []
        for (name, text) in files {
            let path = directory + "/" + name
            let file = try OutputFile(path: path)
            try file.write(Array(text.utf8))
            try file.commit()
            written.append(path)
        }
        return written
    }

    /// Removes the extension's files and its folder (left in place, with what else is in it,
    /// when something not Vigil's was put there); whether anything was there.
    @discardableResult
    public func uninstall() throws -> Bool {
        var removed = false
        for name in ["extension.js", "metadata.json"] where FileManager.default.fileExists(atPath: directory + "/" + name) {
            try syscall("unlink", path: directory + "/" + name) { unlink(directory + "/" + name) }
            removed = true
        }
        rmdir(directory)
        return removed
    }

    private func makeDirectories(_ path: String) throws {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            try makeDirectory(built, mode: 0o755)
        }
    }
}

/// Turning extensions on and off in GNOME Shell's settings, through `gsettings`.
public enum GnomeShellSettings {
    static let schema = "org.gnome.shell"

    /// What enabling found and did.
    public struct Enabling: Sendable, Equatable {
        /// The uuid was already in `enabled-extensions`.
        public var wasEnabled: Bool
        /// `disable-user-extensions` is on: GNOME Shell loads no extension of the person's.
        public var userExtensionsOff: Bool
    }

    /// Adds `uuid` to `enabled-extensions` and takes it out of `disabled-extensions`.
    public static func enable(_ uuid: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Enabling {
        var enabled = try list("enabled-extensions", environment)
        let wasEnabled = enabled.contains(uuid)
        if !wasEnabled {
            enabled.append(uuid)
            try set("enabled-extensions", enabled, environment)
        }
        let disabled = try list("disabled-extensions", environment)
        if disabled.contains(uuid) { try set("disabled-extensions", disabled.filter { $0 != uuid }, environment) }
        let off = try gsettings(["get", schema, "disable-user-extensions"], environment).trimmingCharacters(in: .whitespacesAndNewlines) == "true"
        return Enabling(wasEnabled: wasEnabled, userExtensionsOff: off)
    }

    /// Takes `uuid` out of `enabled-extensions`; whether it was there.
    @discardableResult
    public static func disable(_ uuid: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        let enabled = try list("enabled-extensions", environment)
        guard enabled.contains(uuid) else { return false }
        try set("enabled-extensions", enabled.filter { $0 != uuid }, environment)
        return true
    }

    /// Whether `uuid` is in `enabled-extensions`; nil when the settings cannot be read (no
    /// gsettings, no GNOME Shell schema).
    public static func isEnabled(_ uuid: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool? {
        (try? list("enabled-extensions", environment))?.contains(uuid)
    }

    private static func list(_ key: String, _ environment: [String: String]) throws -> [String] {
        let text = try gsettings(["get", schema, key], environment)
        guard let values = parseStringArray(text) else {
            throw GnomeSetupError("gsettings gave \(schema) \(key) as \(text.trimmingCharacters(in: .whitespacesAndNewlines)), not a list of strings")
        }
        return values
    }

    /// Sets a list and reads it back: gsettings exits 0 even when dconf could not save the change
    /// (no session bus to reach its service), and says so only in a warning.
    private static func set(_ key: String, _ values: [String], _ environment: [String: String]) throws {
        let result = try run(["set", schema, key, formatStringArray(values)], environment)
        guard try list(key, environment) == values else {
            let why = result.said.isEmpty ? "" : ": \(result.said)"
            throw GnomeSetupError("GNOME's settings did not keep \(schema) \(key)\(why)")
        }
    }

    private static func gsettings(_ arguments: [String], _ environment: [String: String]) throws -> String {
        try run(arguments, environment).output
    }

    private static func run(_ arguments: [String], _ environment: [String: String]) throws -> ProgramResult {
        guard let result = runProgram("gsettings", arguments, environment: environment) else {
            throw GnomeSetupError("gsettings is not installed (Debian and Ubuntu: libglib2.0-bin)")
        }
        guard result.status == 0 else { throw GnomeSetupError("gsettings \(arguments.joined(separator: " ")) failed: \(result.said)") }
        return result
    }

    /// A GVariant string array as gsettings prints it: `['a@b', 'c']`, `@as []`; nil for
    /// anything else.
    static func parseStringArray(_ text: String) -> [String]? {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if rest.hasPrefix("@as ") { rest = rest.dropFirst(4) }
        guard rest.first == "[", rest.last == "]" else { return nil }
        rest = rest.dropFirst().dropLast()
        var values: [String] = []
        while true {
            rest = rest.drop { $0 == " " }
            guard let quote = rest.first else { return values }
            guard quote == "'" || quote == "\"" else { return nil }
            rest = rest.dropFirst()
            var value = ""
            var closed = false
            while let c = rest.first {
                rest = rest.dropFirst()
                if c == "\\" {
                    guard let next = rest.first else { return nil }
                    value.append(next)
                    rest = rest.dropFirst()
                } else if c == quote {
                    closed = true
                    break
                } else {
                    value.append(c)
                }
            }
            guard closed else { return nil }
            values.append(value)
            rest = rest.drop { $0 == " " }
            if rest.first == "," { rest = rest.dropFirst() } else if !rest.isEmpty { return nil }
        }
    }

    /// A string array as GVariant text, for `gsettings set`.
    static func formatStringArray(_ values: [String]) -> String {
        let quoted = values.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        return "[" + quoted.joined(separator: ", ") + "]"
    }
}

/// Why the GNOME Shell extension could not be set up, in words for the person.
public struct GnomeSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
