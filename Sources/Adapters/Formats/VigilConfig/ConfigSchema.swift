import Foundation
import VigilCore
import Yams

// The loader's table of the built-in sections: each key, the value reader that checks its type,
// and where it goes in `VigilConfiguration`; and the plug-in keys' readers (`ConfigKey.Kind`).
// Held key by key to `config/vigil.yaml` and the struct's defaults by ConfigTests.
struct ValueError: Error { var message: String }

typealias Apply = @Sendable (inout VigilConfiguration, Node) throws -> Void

func number(_ node: Node) throws -> Double {
    guard case .scalar(let s) = node, let v = Double(s.string.trimmingCharacters(in: .whitespaces)), v.isFinite else {
        throw ValueError(message: "expected a number, got \(describe(node))")
    }
    return v
}

func integer(_ node: Node) throws -> Int {
    let v = try number(node)
    guard v == v.rounded(), abs(v) < 1e9 else { throw ValueError(message: "expected a whole number, got \(describe(node))") }
    return Int(v)
}

func boolean(_ node: Node) throws -> Bool {
    guard case .scalar(let s) = node else { throw ValueError(message: "expected true or false, got \(describe(node))") }
    switch s.string.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default: throw ValueError(message: "expected true or false, got \(describe(node))")
    }
}

/// Durations: `90` (seconds), `90s`, `2m`, `1h`, `1m30s`, `1.5m`.
func duration(_ node: Node) throws -> Double {
    guard case .scalar(let s) = node else { throw ValueError(message: "expected a duration such as 90s or 2m, got \(describe(node))") }
    let text = s.string.trimmingCharacters(in: .whitespaces).lowercased()
    if let v = Double(text), v.isFinite { return v }
    var total = 0.0
    var numberText = ""
    var sawUnit = false
    var chars = Array(text)
    chars.append(" ")
    var i = 0
    while i < chars.count - 1 {
        let c = chars[i]
        if c.isNumber || c == "." {
            numberText.append(c)
        } else {
            var unit = String(c)
            if c == "m", chars[i + 1] == "i" || chars[i + 1] == "s" {
                // "min" or "ms"
                if chars[i + 1] == "s" {
                    unit = "ms"
                    i += 1
                } else if i + 2 < chars.count, chars[i + 2] == "n" {
                    i += 2
                }
            }
            guard let v = Double(numberText), v.isFinite else {
                throw ValueError(message: "expected a duration such as 90s, 2m or 1h, got \(describe(node))")
            }
            switch unit {
            case "h": total += v * 3600
            case "m": total += v * 60
            case "s": total += v
            case "ms": total += v / 1000
            default: throw ValueError(message: "unknown unit '\(unit.quotedValue())' in \(describe(node)): use s, m or h")
            }
            numberText = ""
            sawUnit = true
        }
        i += 1
    }
    guard sawUnit, numberText.isEmpty else {
        throw ValueError(message: "expected a duration such as 90s, 2m or 1h, got \(describe(node))")
    }
    return total
}

func describe(_ node: Node) -> String {
    switch node {
    case .scalar(let s): return "'\(s.string.quotedValue())'"
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
}

func workplace(_ node: Node) throws -> VigilConfiguration.Workplace? {
    if case .scalar(let s) = node {
        let text = s.string.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text == "~" || text == "null" || text == "session_start" { return nil }
    }
    guard case .mapping(let m) = node else {
        throw ValueError(message: "expected session_start or a mapping with name, latitude, longitude and radius")
    }
    var name = "your workplace"
    var lat: Double?
    var lon: Double?
    var radius = 75.0
    for (k, v) in m {
        switch k.string ?? "" {
        case "name": name = v.string ?? name
        case "latitude": lat = try number(v)
        case "longitude": lon = try number(v)
        case "radius": radius = try number(v)
        case let other:
            throw ValueError(
                message:
                    "unknown key '\(other.quotedValue())' in workplace\(ConfigLoader.suggestion(other, ["name", "latitude", "longitude", "radius"]))")
        }
    }
    guard let lat, let lon else { throw ValueError(message: "a workplace needs latitude and longitude (degrees)") }
    return VigilConfiguration.Workplace(name: name, latitude: lat, longitude: lon, radius: radius)
}

/// A word, or nil for the word that means "none" / "the default" (`none`, `default`, empty).
func optionalString(_ node: Node, nothing: String) throws -> String? {
    guard case .scalar(let sc) = node else { throw ValueError(message: "expected a name, got \(describe(node))") }
    let text = sc.string.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || text == "~" || text == "null" || text == nothing { return nil }
    return text
}

func strings(_ node: Node) throws -> [String] {
    if case .scalar(let sc) = node, sc.string.isEmpty || sc.string == "~" || sc.string == "null" { return [] }
    guard case .sequence(let seq) = node else { throw ValueError(message: "expected a list such as [/dev/input/by-id/usb-kbd-event-kbd]") }
    return try seq.map { item in
        guard case .scalar(let sc) = item, !sc.string.isEmpty else { throw ValueError(message: "expected a device path, got \(describe(item))") }
        return sc.string
    }
}

/// `host:port`, `host` (port 2947) or `[::1]:2947`.
func gpsdAddress(_ node: Node) throws -> (host: String, port: String) {
    guard case .scalar(let sc) = node, !sc.string.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ValueError(message: "expected host:port such as localhost:2947, got \(describe(node))")
    }
    var text = sc.string.trimmingCharacters(in: .whitespaces)
    var host = text
    var port = "2947"
    if text.hasPrefix("[") {
        guard let close = text.firstIndex(of: "]") else { throw ValueError(message: "unclosed '[' in \(describe(node))") }
        host = String(text[text.index(after: text.startIndex)..<close])
        text = String(text[text.index(after: close)...])
        if text.hasPrefix(":") {
            port = String(text.dropFirst())
        } else if !text.isEmpty {
            throw ValueError(message: "expected [address]:port, got \(describe(node))")
        }
    } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
        host = String(text[..<colon])
        port = String(text[text.index(after: colon)...])
    }
    guard let p = Int(port), (1...65535).contains(p), !host.isEmpty else {
        throw ValueError(message: "expected host:port with a port from 1 to 65535, got \(describe(node))")
    }
    return (host, port)
}

/// `[[terminal], [terminal, desktop], ...]`: one list of channels per alarm level.
func alarmChannels(_ node: Node) throws -> [[AlarmChannel]] {
    let example = "a list with one list of channels per level, such as [[terminal], [terminal, desktop], [terminal, desktop, sound]]"
    guard case .sequence(let levels) = node, !levels.isEmpty else { throw ValueError(message: "expected \(example)") }
    return try levels.enumerated().map { i, level in
        guard case .sequence(let names) = level else {
            throw ValueError(message: "level \(i + 1): expected a list of channels, got \(describe(level)); \(example)")
        }
        return try names.map { name in
            let known = ConfigLoader.channels
            guard case .scalar(let sc) = name, case let c = AlarmChannel(rawValue: sc.string.trimmingCharacters(in: .whitespaces)), known.contains(c)
            else {
                let word = name.string ?? describe(name)
                throw ValueError(
                    message: "level \(i + 1): unknown channel '\(word.quotedValue())'\(ConfigLoader.suggestion(word, known.map(\.rawValue)))")
            }
            return c
        }
    }
}

/// `tone`, or the path of a WAV file (`~` is the home directory) that exists.
func soundFile(_ node: Node) throws -> String? {
    guard case .scalar(let sc) = node else { throw ValueError(message: "expected tone or the path of a WAV file, got \(describe(node))") }
    let text = sc.string.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || text == "tone" { return nil }
    let path = (text as NSString).expandingTildeInPath
    var info = stat()
    guard stat(path, &info) == 0 else { throw ValueError(message: "no such file: \(path) (give the path of a WAV file, or tone)") }
    // A regular file only: a FIFO would block the alarm (and `vigil start`) forever, a device or a
    // directory is no sound.
    guard info.st_mode & S_IFMT == S_IFREG else {
        throw ValueError(message: "\(path) is not a regular file (give the path of a WAV file, or tone)")
    }
    // And a WAV file: RIFF....WAVE, read from its first 12 bytes (not /etc/passwd played as noise).
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw ValueError(message: "\(path) cannot be read (give the path of a WAV file you can read, or tone)") }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 12)
    let n = read(fd, &head, 12)
    guard n == 12, head[0..<4] == [0x52, 0x49, 0x46, 0x46], head[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
        throw ValueError(message: "\(path) is not a WAV file (it does not start with RIFF…WAVE); give a WAV file, or tone")
    }
    return path
}

func numbers(_ node: Node) throws -> [Double] {
    guard case .sequence(let seq) = node else { throw ValueError(message: "expected a list of numbers such as [-24, -18, -12, -6]") }
    return try seq.map(number)
}

func durations(_ node: Node) throws -> [Double] {
    guard case .sequence(let seq) = node else { throw ValueError(message: "expected a list of durations such as [30s, 2m, 5m, 10m]") }
    return try seq.map(duration)
}

/// A plug-in key's value, read as its kind says and held to its range (the message says the range
/// in the key's own units, as the built-in keys' do).
func value(of key: ConfigKey, _ node: Node) throws -> ConfigValue {
    func inRange(_ v: Double, _ range: ClosedRange<Double>, _ shown: (Double) -> String) throws -> Double {
        guard range.contains(v) else {
            throw ValueError(message: "must be from \(shown(range.lowerBound)) to \(shown(range.upperBound)), got \(shown(v))")
        }
        return v
    }
    switch key.kind {
    case .duration(let range):
        return .number(try inRange(try duration(node), range) { key.kind.yaml(.number($0)) })
    case .number(let range):
        return .number(try inRange(try number(node), range) { key.kind.yaml(.number($0)) })
    case .integer(let range):
        let v = try integer(node)
        guard range.contains(v) else { throw ValueError(message: "must be from \(range.lowerBound) to \(range.upperBound), got \(v)") }
        return .integer(v)
    case .boolean:
        return .boolean(try boolean(node))
    case .word(let words):
        guard case .scalar(let sc) = node, case let w = sc.string.trimmingCharacters(in: .whitespaces), words.contains(w) else {
            throw ValueError(message: "expected one of \(words.joined(separator: ", ")), got \(describe(node))")
        }
        return .word(w)
    }
}

let schema: [String: [String: Apply]] = [
    "session": [
        "default_minutes": { $0.session.defaultMinutes = try number($1) },
        "gap": { $0.session.gap = try duration($1) },
        "tick": { $0.session.tick = try duration($1) },
        "pause_extends_plan": { $0.session.pauseExtendsPlan = try boolean($1) },
        "strict": { $0.session.strict = try boolean($1) },
        "strict_cooloff": { $0.session.strictCoolOff = try duration($1) },
        "music": { $0.session.music = try optionalString($1, nothing: "none") },
        "ask_after": { $0.session.askAfter = try duration($1) },
    ],
    "scoring": [
        "drift_enter": { $0.scoring.driftEnter = try number($1) },
        "drift_exit": { $0.scoring.driftExit = try number($1) },
        "distract_enter": { $0.scoring.distractEnter = try number($1) },
        "distract_exit": { $0.scoring.distractExit = try number($1) },
        "distract_confirm": { $0.scoring.distractConfirm = try duration($1) },
    ],
    "input": [
        "enabled": { $0.input.enabled = try boolean($1) },
        "seat": { $0.input.seat = try optionalString($1, nothing: "none") },
        "devices": { $0.input.devices = try strings($1) },
        "window": { $0.input.window = try duration($1) },
        "idle_grace": { $0.input.idleGrace = try duration($1) },
        "idle_full": { $0.input.idleFull = try duration($1) },
        "min_pointer_travel": { $0.input.minPointerTravel = try number($1) },
        "resume_events": { $0.input.resumeEvents = try integer($1) },
        "resume_within": { $0.input.resumeWithin = try duration($1) },
        "weight": { $0.input.weight = try number($1) },
    ],
    "switching": [
        "enabled": { $0.switching.enabled = try boolean($1) },
        "window": { $0.switching.window = try duration($1) },
        "calm": { $0.switching.calm = try integer($1) },
        "storm": { $0.switching.storm = try integer($1) },
        "weight": { $0.switching.weight = try number($1) },
    ],
    "audio": [
        "enabled": { $0.audio.enabled = try boolean($1) },
        "server": { $0.audio.server = try optionalString($1, nothing: "default") },
        "source": { $0.audio.source = try optionalString($1, nothing: "default") },
        "window": { $0.audio.window = try duration($1) },
        "loud": { $0.audio.loud = try number($1) },
        "quiet_dip": { $0.audio.quietDip = try duration($1) },
        "grace": { $0.audio.grace = try duration($1) },
        "full": { $0.audio.full = try duration($1) },
        "weight": { $0.audio.weight = try number($1) },
    ],
    "location": [
        "enabled": { $0.location.enabled = try boolean($1) },
        "gpsd": { ($0.location.gpsdHost, $0.location.gpsdPort) = try gpsdAddress($1) },
        "workplace": { $0.location.workplace = try workplace($1) },
        "radius": { $0.location.radius = try number($1) },
        "max_accuracy": { $0.location.maxAccuracy = try number($1) },
        "exact_coordinates": { $0.location.exactCoordinates = try boolean($1) },
        "grace": { $0.location.grace = try duration($1) },
        "full": { $0.location.full = try duration($1) },
        "weight": { $0.location.weight = try number($1) },
    ],
    "desktop": [
        "enabled": { $0.desktop.enabled = try boolean($1) },
        "backend": { $0.desktop.backend = try backend($1) },
        "poll": { $0.desktop.poll = try duration($1) },
        "lock_is_away": { $0.desktop.lockIsAway = try boolean($1) },
    ],
    "apps": [
        "enabled": { $0.apps.enabled = try boolean($1) },
        "backend": { $0.apps.backend = try backend($1) },
        "grace": { $0.apps.grace = try duration($1) },
        "full": { $0.apps.full = try duration($1) },
        "weight": { $0.apps.weight = try number($1) },
        "store_titles": { $0.apps.storeTitles = try boolean($1) },
        "count_switches": { $0.apps.countSwitches = try boolean($1) },
        "fallback": { $0.apps.fallback = try appCategory($1) },
        "rules": { $0.apps.rules = try appRules($1) },
    ],
    "media": [
        "enabled": { $0.media.enabled = try boolean($1) },
        "calls_are_presence": { $0.media.callsArePresence = try boolean($1) },
        "playback_is_presence": { $0.media.playbackIsPresence = try boolean($1) },
    ],
    "alarms": [
        "escalation": { $0.alarms.escalation = try durations($1) },
        "repeat_every": { $0.alarms.repeatEvery = try duration($1) },
        "channels": { $0.alarms.channels = try alarmChannels($1) },
        "tone": { $0.alarms.tone = try number($1) },
        "sound": { $0.alarms.soundFile = try soundFile($1) },
        "snoozes": { $0.alarms.snoozes = try integer($1) },
        "snooze": { $0.alarms.snooze = try duration($1) },
        "tone_levels": { $0.alarms.toneLevels = try numbers($1) },
    ],
    "reminders": [
        "default_time": { $0.reminders.defaultTime = try timeOfDay($1) },
        "before_due": { $0.reminders.beforeDue = try duration($1) },
        "repeat_every": { $0.reminders.repeatEvery = try duration($1) },
        "quiet_from": { $0.reminders.quietFrom = try timeOfDay($1) },
        "quiet_to": { $0.reminders.quietTo = try timeOfDay($1) },
        "check": { $0.reminders.check = try duration($1) },
    ],
    "daemon": [
        "watch": { $0.daemon.watch = try boolean($1) },
        "watch_away_after": { $0.daemon.watchAwayAfter = try duration($1) },
        "watch_days": { $0.daemon.watchDays = try integer($1) },
        "weekly_summary": { $0.daemon.weeklySummary = try boolean($1) },
    ],
    "sync": [
        "url": { $0.sync.url = try syncURL($1) },
        "password_file": { $0.sync.passwordFile = try optionalString($1, nothing: "none").map { ($0 as NSString).expandingTildeInPath } },
        "every": { $0.sync.every = try duration($1) },
        "share_reasons": { $0.sync.shareReasons = try boolean($1) },
        "group": { $0.sync.group = try groupName($1) },
        "group_url": { $0.sync.groupURL = try syncURL($1) },
        "alias": { $0.sync.alias = try groupName($1) },
    ],
    "calendar": [
        "week_starts": { $0.calendar.weekStarts = try weekday($1) },
        "files": { $0.calendar.files = try strings($1).map { ($0 as NSString).expandingTildeInPath } },
    ],
]

/// `locale` (nil), or a weekday's name: `monday`, `sunday`, `sat` ...
func weekday(_ node: Node) throws -> Int? {
    let expected = "expected locale or a weekday such as monday, sunday or saturday"
    guard case .scalar(let sc) = node else { throw ValueError(message: "\(expected), got \(describe(node))") }
    let text = sc.string.trimmingCharacters(in: .whitespaces)
    if text.lowercased() == "locale" { return nil }
    guard let day = DateExpression.weekday(named: text) else { throw ValueError(message: "\(expected), got \(describe(node))") }
    return day
}

/// `none`, or a PostgreSQL URL as libpq takes it, held to the rules sync holds it to (`SyncURL`).
func syncURL(_ node: Node) throws -> String? {
    guard let text = try optionalString(node, nothing: "none") else { return nil }
    guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
        throw ValueError(
            message: "expected a PostgreSQL URL such as postgres://me@db.example.org/vigil?sslmode=verify-full, or none; got '\(text.quotedValue())'")
    }
    do {
        _ = try SyncURL(text)
    } catch {
        throw ValueError(message: error.description)
    }
    return text
}

/// `none`, or a group's name: letters, digits, `-` and `_`, as it is shared with others.
func groupName(_ node: Node) throws -> String? {
    guard let text = try optionalString(node, nothing: "none") else { return nil }
    guard text.count <= 64, text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }),
        text.unicodeScalars.first.map({ $0.properties.isAlphabetic }) == true
    else {
        throw ValueError(message: "a group's name starts with a letter and has letters, digits, - and _ (at most 64); got '\(text.quotedValue())'")
    }
    return text
}

/// `auto` (nil: the first that answers) or a backend's name (`desktop.backend`, `apps.backend`).
func backend<B: RawRepresentable & CaseIterable>(_ node: Node) throws -> B? where B.RawValue == String {
    guard let name = try optionalString(node, nothing: "auto") else { return nil }
    guard let b = B(rawValue: name) else {
        let names = (["auto"] + B.allCases.map(\.rawValue)).joined(separator: ", ")
        throw ValueError(message: "unknown backend '\(name.quotedValue())': expected one of \(names)")
    }
    return b
}

func appCategory(_ node: Node) throws(ValueError) -> AppCategory {
    guard case .scalar(let sc) = node, let c = AppCategory(rawValue: sc.string.trimmingCharacters(in: .whitespaces)) else {
        throw ValueError(message: "expected work, neutral or distracting, got \(describe(node))")
    }
    return c
}

/// `rules:` — a list of `{name, class: x | [x, y], title: piece, category}`.
func appRules(_ node: Node) throws -> [AppRule] {
    if case .scalar(let sc) = node, sc.string.isEmpty || sc.string == "~" || sc.string == "null" { return [] }
    guard case .sequence(let seq) = node else {
        throw ValueError(message: "expected a list of rules such as [{name: youtube, title: youtube, category: distracting}]")
    }
    let keys = ["name", "class", "title", "site", "category"]
    return try seq.enumerated().map { (i, item) in
        guard case .mapping(let m) = item else { throw ValueError(message: "rule \(i + 1): expected a mapping with name, class, title and category") }
        var name: String?
        var classes: [String] = []
        var title: String?
        var sites: [String] = []
        var category: AppCategory?
        for (k, v) in m {
            switch k.string ?? "" {
            case "name": name = v.string
            case "class":
                if case .scalar(let sc) = v { classes = [sc.string] } else { classes = try strings(v) }
            case "title": title = v.string
            case "site":
                if case .scalar(let sc) = v { sites = [sc.string] } else { sites = try strings(v) }
                sites = sites.map { $0.lowercased() }
                if let bad = sites.first(where: { !isHostName($0) }) {
                    throw ValueError(message: "rule \(i + 1): '\(bad.quotedValue())' is not a site's host name (like youtube.com)")
                }
            case "category":
                do throws(ValueError) { category = try appCategory(v) } catch { throw ValueError(message: "rule \(i + 1): \(error.message)") }
            case let other:
                throw ValueError(message: "rule \(i + 1): unknown key '\(other.quotedValue())'\(ConfigLoader.suggestion(other, keys))")
            }
        }
        guard let category else { throw ValueError(message: "rule \(i + 1): needs a category (work, neutral or distracting)") }
        guard !classes.isEmpty || title != nil || !sites.isEmpty else {
            throw ValueError(message: "rule \(i + 1): needs a class, a title or a site to match")
        }
        return AppRule(
            name: name ?? classes.first ?? title ?? sites.first ?? "rule \(i + 1)", classes: classes, title: title, sites: sites, category: category)
    }
}

/// Whether `text` is a host name: dot-separated labels of letters, digits and hyphens, at least two.
func isHostName(_ text: String) -> Bool {
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    return labels.count >= 2 && text.count <= 253
        && labels.allSatisfy { !$0.isEmpty && $0.count <= 63 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
}

/// `"07:30"`: minutes after local midnight.
func timeOfDay(_ node: Node) throws -> Int {
    guard case .scalar(let sc) = node else { throw ValueError(message: "expected a time of day in quotes, like \"07:30\", got \(describe(node))") }
    let text = sc.string.trimmingCharacters(in: .whitespaces)
    let hm = text.split(separator: ":")
    guard hm.count == 2, (1...2).contains(hm[0].count), hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h),
        (0..<60).contains(m)
    else {
        throw ValueError(message: "expected a time of day like \"07:30\", got '\(text.quotedValue())'")
    }
    return h * 60 + m
}
