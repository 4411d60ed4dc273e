/// A plug-in's section of the config file, declared once by its module: each key with its name,
/// kind, range, default and comment. The config loader reads and checks the section from this
/// declaration (a wrong type or a value out of range is named with its file, line and key, as for
/// a built-in key); `config show` and `config init` document it from the same declaration; the
/// module's scorers and detector read the values through it (`value(_:in:)`), so a key is written
/// in one place only.
///
/// The built-in sections keep their typed structs (`VigilConfiguration.input` …), held key by key
/// to the loader's table and `config/vigil.yaml` by ConfigTests.
public struct ConfigSection: Sendable {
    /// The section's name in the file (`phone:`), the plug-in's sensor name.
    public var name: String
    /// One line or more saying what the section tunes, written above it.
    public var comment: String
    public var keys: [ConfigKey]

    public init(name: String, comment: String, keys: [ConfigKey]) {
        self.name = name
        self.comment = comment
        self.keys = keys
    }

    public func key(_ name: String) -> ConfigKey? { keys.first { $0.name == name } }

    /// The key's value in `configuration`: set in a config file, or its default.
    public func value(_ key: String, in configuration: VigilConfiguration) -> ConfigValue? {
        configuration.plugIns[name]?[key] ?? self.key(key)?.defaultValue
    }

    /// A number, a duration in seconds or a whole number as a `Double` (the default's when unset).
    public func number(_ key: String, in configuration: VigilConfiguration) -> Double {
        switch value(key, in: configuration) {
        case .number(let v)?: v
        case .integer(let v)?: Double(v)
        default: 0
        }
    }

    /// A yes-or-no key's value (the default's when unset).
    public func flag(_ key: String, in configuration: VigilConfiguration) -> Bool {
        if case .boolean(let v)? = value(key, in: configuration) { v } else { false }
    }

    /// The section as `config/vigil.yaml` documents a section: its comment, then each key with its
    /// comment above it and its default.
    public var documentedYAML: String {
        var lines = comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }
        lines.append("\(name):")
        for key in keys {
            lines += key.comment.split(separator: "\n", omittingEmptySubsequences: false).map { "  # " + $0 }
            lines.append("  \(key.name): \(key.kind.yaml(key.defaultValue))")
        }
        return lines.joined(separator: "\n")
    }
}

/// One key of a plug-in's section.
public struct ConfigKey: Sendable {
    public enum Kind: Sendable {
        /// Seconds, written `90`, `90s`, `2m` or `1h`, within `range`.
        case duration(ClosedRange<Double>)
        case number(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        case boolean
        /// One of the words listed.
        case word([String])

        /// A value of this kind as the config file writes it.
        public func yaml(_ value: ConfigValue) -> String {
            switch (self, value) {
            case (.duration, .number(let s)): ConfigKey.durationText(s)
            case (_, .number(let v)): v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
            case (_, .integer(let v)): String(v)
            case (_, .boolean(let v)): v ? "true" : "false"
            case (_, .word(let w)): w
            }
        }
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: ConfigValue
    public var comment: String

    public init(_ name: String, _ kind: Kind, default defaultValue: ConfigValue, comment: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.comment = comment
    }

    /// `90s`, `2m`, `1h`, `1m30s`: as a person writes a duration in the config file.
    static func durationText(_ seconds: Double) -> String {
        guard seconds == seconds.rounded(), seconds >= 0, seconds < 1e9 else { return String(seconds) }
        let s = Int(seconds)
        if s > 0, s % 3600 == 0 { return "\(s / 3600)h" }
        if s > 0, s % 60 == 0 { return "\(s / 60)m" }
        if s > 60 { return "\(s / 60)m\(s % 60)s" }
        return "\(s)s"
    }
}

/// A value of a plug-in's key, as read from a config file and checked against its `ConfigKey`.
public enum ConfigValue: Hashable, Sendable {
    /// A number, or a duration in seconds.
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case word(String)
}
