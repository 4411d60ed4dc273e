/// The `apps` rules: what the person's config says of applications, and what they taught Vigil.

/// One line of `apps:`: applications (and optionally windows, by title) and their category.
public struct AppRule: Hashable, Sendable {
    public var name: String
    /// WM_CLASS classes or app_ids, any case; `jetbrains-*` matches a prefix; empty matches any.
    public var classes: [String]
    /// A case-insensitive piece of the window title; nil matches any title.
    public var title: String?
    /// Sites (host names, lower case) one of which the window's title must show (`SiteInTitle`);
    /// empty matches any.
    public var sites: [String]
    public var category: AppCategory

    public init(name: String, classes: [String] = [], title: String? = nil, sites: [String] = [], category: AppCategory) {
        self.name = name
        self.classes = classes
        self.title = title
        self.sites = sites
        self.category = category
    }

    /// Whether the rule looks at titles (a title piece or sites).
    public var readsTitles: Bool { title != nil || !sites.isEmpty }

    /// Whether a class pattern of a rule matches a class (in lower case).
    public static func matches(pattern: String, _ lowercasedClass: String) -> Bool {
        let p = pattern.lowercased()
        if p.hasSuffix("*") { return lowercasedClass.hasPrefix(p.dropLast()) }
        return p == lowercasedClass
    }

    /// Video sites, social media and games are distracting; editors, terminals and office
    /// programs are work; everything else is neutral. `config/vigil.yaml` lists the same.
    public static let defaults: [AppRule] = [
        AppRule(name: "youtube", title: "youtube", category: .distracting),
        AppRule(name: "netflix", title: "netflix", category: .distracting),
        AppRule(name: "twitch", title: "twitch", category: .distracting),
        AppRule(name: "reddit", title: "reddit", category: .distracting),
        AppRule(name: "social", title: "facebook", category: .distracting),
        AppRule(name: "instagram", title: "instagram", category: .distracting),
        AppRule(name: "tiktok", title: "tiktok", category: .distracting),
        AppRule(name: "games", classes: ["steam", "lutris", "minecraft*", "heroic"], category: .distracting),
        AppRule(name: "chat", classes: ["discord"], category: .distracting),
        AppRule(
            name: "editors",
            classes: ["code", "code-oss", "vscodium", "emacs", "gvim", "jetbrains-*", "org.gnome.texteditor", "kate", "sublime_text"],
            category: .work),
        AppRule(
            name: "terminals",
            classes: ["xterm", "gnome-terminal-server", "org.gnome.terminal", "konsole", "kitty", "alacritty", "foot", "tilix", "urxvt"],
            category: .work),
        AppRule(name: "office", classes: ["libreoffice*", "soffice", "evince", "okular", "zotero"], category: .work),
    ]
}

/// A rule the person taught Vigil: on an application Vigil judged distracting, "this was work"
/// (or the opposite, "this is a distraction"). It names one application (its class, in lower
/// case) and the rule of the config that categorised it (`insteadOf`; nil: no rule matched,
/// the fallback did), and outranks exactly that: `firefox` instead of `youtube` is YouTube in
/// Firefox, not every site in it. Kept in a file Vigil owns (`learned-rules.yaml` beside the
/// config), so that the person's commented config is never rewritten.
public struct LearnedRule: Hashable, Sendable {
    public var appClass: String
    public var insteadOf: String?
    public var category: AppCategory
    /// The local day it was learned, YYYY-MM-DD.
    public var learned: String
    /// What it was learned from, as the person would find it ("session 12, episode 3").
    public var from: String?

    public init(appClass: String, insteadOf: String?, category: AppCategory, learned: String, from: String? = nil) {
        self.appClass = appClass.lowercased()
        self.insteadOf = insteadOf
        self.category = category
        self.learned = learned
        self.from = from
    }

    /// Its name, as a stretch's rule and `vigil apps` show it.
    public var name: String { "learned: \(appClass)" + (insteadOf.map { " (\($0))" } ?? "") }

    /// In words: "firefox where the youtube rule matches is work".
    public var words: String {
        (insteadOf.map { "\(appClass) where the \($0) rule matches" } ?? appClass) + " is \(category.rawValue)"
    }
}
