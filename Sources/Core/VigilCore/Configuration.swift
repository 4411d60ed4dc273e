/// Everything the engine can be tuned by. Durations are in seconds, distances in metres.
///
/// The defaults here are the ones documented in `config/vigil.yaml`; a test holds the two together.
public struct VigilConfiguration: Hashable, Sendable {
    public var session = Session()
    public var scoring = Scoring()
    public var input = Input()
    public var switching = Switching()
    public var audio = Audio()
    public var location = Location()
    public var desktop = Desktop()
    public var apps = Apps()
    public var media = Media()
    public var alarms = Alarms()
    public var reminders = Reminders()
    public var daemon = Daemon()
    /// Limits and goals (`goals:`), in the order written.
    public var goals: [Goal] = []
    public var sync = Sync()
    public var calendar = Calendar()
    /// The plug-ins' sections as the config files set them, by section name, then key: each
    /// checked against its module's `ConfigSection`, which also holds the defaults.
    public var plugIns: [String: [String: ConfigValue]] = [:]

    public init() {}

    public static let `default` = VigilConfiguration()

    public struct Session: Hashable, Sendable {
        /// Planned length of a session when none is given.
        public var defaultMinutes: Double = 50
        /// Samples further apart than this mean the machine slept or Vigil was not running.
        public var gap: Double = 90
        /// How often the live engine re-evaluates between samples.
        public var tick: Double = 1
        /// A pause or a break by the person freezes the planned time: the session ends later by the
        /// time away, as every timer people know does. False: the plan runs on through them. (A
        /// pomodoro set keeps its own clock: its breaks are part of the plan.)
        public var pauseExtendsPlan = true
        /// Every session is strict (`vigil start --strict`, issue 36): a commitment the person
        /// makes in advance. q, `vigil stop`, Ctrl-C and SIGTERM do not end it before its planned
        /// end, it cannot be paused or snoozed, and ending it early takes `strictCoolOff`.
        public var strict = false
        /// How long after `vigil stop --early` a strict session ends: the cooling-off the person set
        /// beforehand, for the urge to pass (as Plucky delays loosening a block).
        public var strictCoolOff: Double = 600
        /// The media player (its MPRIS name, or a piece of its name) that plays while the person
        /// works: started at the session's start, paused at breaks and at the end. Nil: none.
        public var music: String? = nil
        /// After an away or locked stretch at least this long, the session asks the person what it
        /// was (a break, a meeting, work away from the computer, a distraction); 0: never asks.
        public var askAfter: Double = 300
        public init() {}
    }

    public struct Scoring: Hashable, Sendable {
        /// Combined score at which focus turns into drifting, and below which drifting returns to focus.
        public var driftEnter: Double = 0.30
        public var driftExit: Double = 0.20
        /// Combined score at which drifting becomes a distraction episode, and below which it ends.
        public var distractEnter: Double = 0.60
        public var distractExit: Double = 0.40
        /// The combined score must stay at or above `distractEnter` this long before an episode opens.
        public var distractConfirm: Double = 10
        public init() {}
    }

    public struct Input: Hashable, Sendable {
        public var enabled = true
        /// The udev seat whose keyboards, mice and touchpads libinput follows (hot-plug included);
        /// nil follows none and reads only `devices`.
        public var seat: String? = "seat0"
        /// Extra device nodes opened with libinput's path backend (`/dev/input/by-id/...-event-kbd`).
        public var devices: [String] = []
        /// Length of one input window: the detector emits one sample of counts per window.
        public var window: Double = 5
        /// Idle time that scores nothing: thinking and reading pauses.
        public var idleGrace: Double = 120
        /// Idle time at which the idle score reaches 1.
        public var idleFull: Double = 300
        /// Pointer travel in one window below this is a bump of the desk, not activity.
        public var minPointerTravel: Double = 20
        /// Activity events (keys, clicks, scroll ticks, pointer windows) needed within `resumeWithin`
        /// before someone who was away counts as back. One key or one nudge of the mouse is not enough.
        public var resumeEvents: Int = 4
        public var resumeWithin: Double = 15
        public var weight: Double = 1.0
        public init() {}
    }

    public struct Switching: Hashable, Sendable {
        public var enabled = true
        /// Sliding window over which app switches are counted.
        public var window: Double = 120
        /// Switches per window that score nothing.
        public var calm: Int = 6
        /// Switches per window that score 1.
        public var storm: Int = 14
        public var weight: Double = 0.8
        public init() {}
    }

    public struct Audio: Hashable, Sendable {
        public var enabled = true
        /// PulseAudio server (`unix:/run/user/1000/pulse/native`, `tcp:host`); nil is libpulse's
        /// default ($PULSE_SERVER, then the desktop session's server).
        public var server: String? = nil
        /// Source to record (`pactl list short sources`); nil is the server's default source.
        public var source: String? = nil
        /// Length of one level window: the detector emits one level sample per window.
        public var window: Double = 1
        /// Level (short-term LUFS, or RMS dBFS when loudness is unknown) above which the room is loud.
        public var loud: Double = -30
        /// Quieter moments shorter than this do not end a loud stretch (pauses between sentences).
        public var quietDip: Double = 10
        /// A loud stretch shorter than this scores nothing.
        public var grace: Double = 60
        /// A loud stretch this long scores 1.
        public var full: Double = 180
        public var weight: Double = 0.7
        public init() {}
    }

    public struct Workplace: Hashable, Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var radius: Double
        public init(name: String, latitude: Double, longitude: Double, radius: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    public struct Location: Hashable, Sendable {
        public var enabled = true
        /// Where gpsd listens.
        public var gpsdHost = "localhost"
        public var gpsdPort = "2947"
        /// The workplace; `nil` means "where the session started" (the first good fix).
        public var workplace: Workplace? = nil
        /// Geofence radius around the session's starting point when no workplace is configured.
        public var radius: Double = 75
        /// Fixes whose horizontal error estimate is worse than this are ignored.
        public var maxAccuracy: Double = 100
        /// The person's opt-in to keep exact coordinates in what the detector hands over (and so in
        /// recordings they make); by default only the distance from the workplace and a coarse cell
        /// leave it (`LocationPrivacy`).
        public var exactCoordinates = false
        /// Time outside the geofence that scores nothing (a GPS fix wandering over the fence).
        /// Short: leaving the workplace is judged within a minute of crossing the fence.
        public var grace: Double = 20
        /// Time outside the geofence at which the location score reaches 1.
        public var full: Double = 60
        public var weight: Double = 1.0
        public init() {}
    }

    /// The desktop session: idle time and screen lock without special permissions, and sleep.
    public struct Desktop: Hashable, Sendable {
        public var enabled = true
        /// Which interface to ask; nil picks the first that answers (see `DesktopBackend`).
        public var backend: DesktopBackend? = nil
        /// How often the idle time is asked for where the desktop cannot announce it (X11,
        /// org.freedesktop.ScreenSaver), or reported where it only announces idle after a
        /// threshold (Wayland: the threshold is this, at most 5 s).
        public var poll: Double = 1
        /// A locked screen counts as away at once.
        public var lockIsAway = true
        public init() {}
    }

    /// The application in front and how time in it counts.
    public struct Apps: Hashable, Sendable {
        public var enabled = true
        /// Where the application in front comes from; nil picks the desktop's own (see `AppBackend`).
        public var backend: AppBackend? = nil
        /// Time in distracting applications that scores nothing (a glance at the chat).
        public var grace: Double = 60
        /// Time in distracting applications at which the score reaches 1.
        public var full: Double = 180
        public var weight: Double = 0.9
        /// Keep window titles in recordings (they are used for matching rules either way, inside
        /// the detector). Titles carry what people read and write: off unless the person opts in.
        public var storeTitles = false
        /// Count each change of the application in front as an app switch (instead of the
        /// Alt+Tab and Super gestures libinput sees, which would count the same switch twice).
        public var countSwitches = true
        /// The category of an application no rule matches.
        public var fallback: AppCategory = .neutral
        /// First match wins.
        public var rules: [AppRule] = AppRule.defaults
        /// Rules the person taught Vigil ("this was work"), from the file Vigil owns beside the
        /// config (`LearnedRule`): each outranks the one rule it names, for one application.
        public var learned: [LearnedRule] = []
        public init() {}

        /// The category of an application, and the rule that said so. Classes match without
        /// regard to case (a trailing `*` matches any end); titles by case-insensitive substring;
        /// sites by what the title shows of them (`SiteInTitle`).
        public func categorize(appClass: String, title: String?) -> (category: AppCategory, rule: String?) {
            let cls = appClass.lowercased()
            var lowerTitle: String?
            for rule in rules {
                guard rule.classes.isEmpty || rule.classes.contains(where: { AppRule.matches(pattern: $0, cls) }) else { continue }
                if let pattern = rule.title {
                    if lowerTitle == nil { lowerTitle = title?.lowercased() ?? "" }
                    guard lowerTitle!.contains(pattern.lowercased()) else { continue }
                }
                if !rule.sites.isEmpty {
                    guard let title, SiteInTitle.shows(rule.sites, in: title) else { continue }
                }
                return learnedOver(appClass: cls, rule: rule.name) ?? (rule.category, rule.name)
            }
            return learnedOver(appClass: cls, rule: nil) ?? (fallback, nil)
        }

        /// The category a learned rule gives an application the rules gave `rule` (nil: the
        /// fallback), with the learned rule's name; nil when none was learned for it.
        private func learnedOver(appClass lowercased: String, rule: String?) -> (category: AppCategory, rule: String?)? {
            guard !learned.isEmpty, let l = learned.first(where: { $0.appClass == lowercased && $0.insteadOf == rule }) else { return nil }
            return (l.category, l.name)
        }

        /// A recorded application (its category and rule as they were when it was recorded) as
        /// the learned rules now see it; nil when none applies. A replay of a recording made before
        /// a rule was learned judges as a session would now (the title that matched the rule is
        /// not in the recording, but the rule's name is).
        public func relearned(_ f: AppFocus) -> AppFocus? {
            guard !learned.isEmpty, !f.appClass.isEmpty, let l = learnedOver(appClass: f.appClass.lowercased(), rule: f.rule) else { return nil }
            var out = f
            (out.category, out.rule) = l
            return out
        }
    }

    /// Calls and playback on the sound server.
    public struct Media: Hashable, Sendable {
        public var enabled = true
        /// Another program recording from a microphone (a call) means the person is there and
        /// busy: no away and no noise score during it.
        public var callsArePresence = true
        /// Sound playing while there is no input: presence (a lecture) when true; when false it is
        /// judged as no input, with its own reason ("watching/listening, no input for 6 min").
        public var playbackIsPresence = false
        public init() {}
    }

    /// `vigil daemon`: reminders for habits and tasks.
    /// Sync between a person's devices through PostgreSQL (docs/sync.md).
    public struct Sync: Hashable, Sendable {
        /// The server, as libpq takes it: `postgres://user@host:5432/vigil?sslmode=verify-full`;
        /// nil: sync is not set up.
        public var url: String? = nil
        /// A file holding the password (private to its owner, as ~/.pgpass must be); without it,
        /// `PGPASSWORD`, or the URL's own.
        public var passwordFile: String? = nil
        /// How often the daemon syncs (seconds).
        public var every: Double = 600
        /// Send the words of reasons ("12 min in Firefox"), which can name an application or a place.
        public var shareReasons = false
        /// A shared group to publish daily figures to (opt-in); nil: none.
        public var group: String? = nil
        /// The group's database, shared by its members, as libpq takes a URL; nil: sync.url's.
        public var groupURL: String? = nil
        /// The name the group sees; nil: the login name.
        public var alias: String? = nil
        public init() {}
    }

    /// How dates are read (docs/dates.md).
    public struct Calendar: Hashable, Sendable {
        /// The ISO weekday a week starts on for `:week` and `:lastweek` (1 Monday ... 7 Sunday);
        /// nil: the locale's (LC_TIME), Monday when the locale says nothing (C, POSIX).
        public var weekStarts: Int? = nil
        /// iCalendar files, or directories of them, as written (`~` not yet expanded).
        public var files: [String] = []
        public init() {}
    }

    /// `vigil daemon`'s own work besides reminders and sync: the all-day watch (issue 38).
    public struct Daemon: Hashable, Sendable {
        /// Record the whole day (the application in front, away, locked, asleep) outside sessions.
        public var watch = false
        /// No input for this long is away (seconds).
        public var watchAwayAfter: Double = 300
        /// The watch's stretches are kept this many days.
        public var watchDays = 90
        /// Last week's report and headline on Monday mornings.
        public var weeklySummary = true
        public init() {}
    }

    public struct Reminders: Hashable, Sendable {
        /// For habits without their own reminder time and tasks due on a day without a time:
        /// minutes after local midnight.
        public var defaultTime = 9 * 60
        /// How long before a task's due time it is reminded (seconds).
        public var beforeDue: Double = 3600
        /// A habit not done yet is reminded again at this interval through the day (seconds).
        public var repeatEvery: Double = 7200
        /// No reminders from `quietFrom` to `quietTo` (minutes after local midnight).
        public var quietFrom = 22 * 60
        public var quietTo = 8 * 60
        /// How often the daemon looks for due reminders (seconds).
        public var check: Double = 30
        public init() {}
    }

    public struct Alarms: Hashable, Sendable {
        /// Alarm level N fires this many seconds after the person became distracted.
        public var escalation: [Double] = [30, 120, 300, 600]
        /// The last level repeats at this interval until the person is back at work.
        public var repeatEvery: Double = 60
        /// The channels each level is delivered through, one entry per level; levels past the last
        /// entry use the last one.
        public var channels: [[AlarmChannel]] = [
            [.terminal], [.terminal, .desktop, .pauseMedia], [.terminal, .desktop, .sound, .pauseMedia], [.terminal, .desktop, .sound, .pauseMedia],
        ]
        /// Snoozes allowed per session; each silences the alarms of the episode for `snooze`.
        public var snoozes: Int = 3
        public var snooze: Double = 300
        /// A WAV file the sound channel plays instead of the tone; nil plays the tone.
        public var soundFile: String? = nil
        /// Pitch of the alarm tone, Hz.
        public var tone: Double = 880
        /// Peak level of the tone at each level, dBFS, rising; levels past the last use it.
        public var toneLevels: [Double] = [-24, -18, -12, -6]
        public init() {}

        /// The tone's peak level for alarm `level` (1-based).
        public func toneLevel(level: Int) -> Double {
            guard !toneLevels.isEmpty else { return -12 }
            return toneLevels[min(max(level, 1), toneLevels.count) - 1]
        }

        /// The channels of alarm `level` (1-based).
        public func channels(level: Int) -> [AlarmChannel] {
            guard !channels.isEmpty else { return [] }
            return channels[min(max(level, 1), channels.count) - 1]
        }
    }
}

/// Where the desktop's idle time and lock come from, in the order `auto` tries them.
public enum DesktopBackend: String, Hashable, Sendable, CaseIterable {
    /// GNOME (X11 and Wayland): org.gnome.Mutter.IdleMonitor and org.gnome.ScreenSaver.
    case gnome
    /// KDE and others: org.freedesktop.ScreenSaver.
    case freedesktop
    /// Wayland compositors with an idle protocol (sway, KWin, Hyprland…): ext-idle-notify-v1 or
    /// KDE's org_kde_kwin_idle. Idle only; the lock comes from logind.
    case wayland
    /// Any X11 desktop: the MIT-SCREEN-SAVER extension.
    case x11
}

/// Where the application in front comes from, in the order `auto` tries them.
public enum AppBackend: String, Hashable, Sendable, CaseIterable {
    /// Hyprland's event socket.
    case hyprland
    /// i3's or sway's IPC socket.
    case i3
    /// GNOME Shell (Wayland and X11), through Vigil's Shell extension.
    case gnome
    /// KDE Plasma's KWin (Wayland and X11), through a KWin script Vigil loads for the session.
    case kwin
    /// wlroots compositors (sway, wayfire, labwc, river…): wlr-foreign-toplevel-management.
    case wlroots
    /// Any X11 window manager: EWMH's `_NET_ACTIVE_WINDOW`.
    case x11
}

/// A way an alarm reaches the person, or an action on a distraction: the name of a channel module
/// (`ChannelModule`), as `alarms.channels` names it for each level and the log records each
/// delivery. A stable string. The built-in ones are `terminal`, `desktop` and `sound`; others are
/// registered beside them.
public struct AlarmChannel: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A banner and the bell in the terminal running the session.
    public static let terminal = AlarmChannel(rawValue: "terminal")
    /// A desktop notification (freedesktop notification service on the session D-Bus).
    public static let desktop = AlarmChannel(rawValue: "desktop")
    /// A tone played through PulseAudio.
    public static let sound = AlarmChannel(rawValue: "sound")
    /// Pauses the media players that are playing, and resumes them when the person is back.
    public static let pauseMedia = AlarmChannel(rawValue: "pause_media")
    /// Dims the distracting window in front (GNOME, KDE), and brightens it when the episode ends.
    public static let dim = AlarmChannel(rawValue: "dim")
    /// Hides the distracting window in front, and puts it back at a break, a pause or the end.
    public static let hide = AlarmChannel(rawValue: "hide")
    /// Brings the last work window back to the front.
    public static let refocus = AlarmChannel(rawValue: "refocus")
    /// The built-in channels, in the order an alarm goes through them.
    public static let builtIn: [AlarmChannel] = [.terminal, .desktop, .sound, .pauseMedia, .dim, .hide, .refocus]

    /// Built-in channels first, in their order; others after them by name.
    public static func < (a: AlarmChannel, b: AlarmChannel) -> Bool { builtInOrder(a.rawValue, b.rawValue, builtIn.map(\.rawValue)) }
    public var description: String { rawValue }
}

/// A configuration value that cannot work, named by its key path (`scoring.drift_exit`).
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
    public var description: String { "\(key): \(message)" }
}

extension VigilConfiguration {
    /// Checks the relations between values that a type alone cannot express.
    public func problems() -> [ConfigurationProblem] {
        var out: [ConfigurationProblem] = []
        func check(_ ok: Bool, _ key: String, _ message: String) {
            if !ok { out.append(ConfigurationProblem(key: key, message: message)) }
        }
        func unit(_ v: Double, _ key: String) { check((0...1).contains(v), key, "must be between 0 and 1, got \(v)") }
        // Every duration has an upper bound as well as a lower one: time arithmetic on instants
        // (nanoseconds in 64 bits, about 292 years) must never overflow, and a value no person
        // means (a gap of 300,000 years) is an error to say, not a crash to have later.
        let day = 86_400.0
        func shown(_ v: Double) -> String { v.isFinite ? jsonNumber(v) : "\(v)" }
        func seconds(_ v: Double, _ key: String, above low: Double = 0, orEqual: Bool = false, max high: Double = 86_400) {
            let ok = v.isFinite && (orEqual ? v >= low : v > low) && v <= high
            let days = Int(high / day)
            let limit = (high >= day ? "\(days) day\(days == 1 ? "" : "s")" : humanDuration(high)) + " (\(shown(high)) s)"
            let range = orEqual ? "from \(shown(low)) s to \(limit)" : "greater than \(shown(low)) s and at most \(limit)"
            check(ok, key, "must be \(range), got \(shown(v)) s")
        }
        func positive(_ v: Double, _ key: String, max high: Double = 86_400) { seconds(v, key, max: high) }
        func nonNegative(_ v: Double, _ key: String, max high: Double = 86_400) { seconds(v, key, orEqual: true, max: high) }
        // Half the Earth's circumference: no distance on it is longer (`SampleLimits.distance`).
        func metres(_ v: Double, _ key: String) {
            let high = SampleLimits.distance.upperBound
            check(
                v > 0 && v <= high, key,
                "must be greater than 0 and at most \(shown(high)) m (half the Earth's circumference), got \(shown(v))")
        }
        func count(_ v: Int, _ key: String, from low: Int, to high: Int) {
            check((low...high).contains(v), key, "must be a whole number from \(low) to \(high), got \(v)")
        }

        check(
            session.defaultMinutes > 0 && session.defaultMinutes <= 24 * 60, "session.default_minutes",
            "must be greater than 0 and at most 1440 (a day), got \(shown(session.defaultMinutes))")
        positive(session.gap, "session.gap")
        positive(session.tick, "session.tick", max: 60)
        check(session.tick < session.gap, "session.tick", "must be shorter than session.gap (\(session.gap) s)")
        nonNegative(session.strictCoolOff, "session.strict_cooloff")
        nonNegative(session.askAfter, "session.ask_after")

        unit(scoring.driftEnter, "scoring.drift_enter")
        unit(scoring.driftExit, "scoring.drift_exit")
        unit(scoring.distractEnter, "scoring.distract_enter")
        unit(scoring.distractExit, "scoring.distract_exit")
        check(
            scoring.driftExit < scoring.driftEnter, "scoring.drift_exit",
            "must be lower than scoring.drift_enter (\(scoring.driftEnter)) so the state cannot flicker")
        check(
            scoring.distractExit < scoring.distractEnter, "scoring.distract_exit",
            "must be lower than scoring.distract_enter (\(scoring.distractEnter)) so the state cannot flicker")
        check(
            scoring.driftEnter <= scoring.distractEnter, "scoring.drift_enter",
            "must not be higher than scoring.distract_enter (\(scoring.distractEnter))")
        nonNegative(scoring.distractConfirm, "scoring.distract_confirm")

        nonNegative(input.idleGrace, "input.idle_grace")
        positive(input.idleFull, "input.idle_full")
        check(input.idleFull > input.idleGrace, "input.idle_full", "must be longer than input.idle_grace (\(input.idleGrace) s)")
        check(
            input.minPointerTravel >= 0 && input.minPointerTravel <= 1_000_000, "input.min_pointer_travel",
            "must be from 0 to 1000000, got \(shown(input.minPointerTravel))")
        count(input.resumeEvents, "input.resume_events", from: 1, to: 10_000)
        positive(input.resumeWithin, "input.resume_within")
        unit(input.weight, "input.weight")
        check(
            input.window >= 0.1 && input.window <= session.gap / 2, "input.window",
            "must be between 0.1 s and half of session.gap (\(session.gap / 2) s), got \(input.window)")
        check(
            input.seat != nil || !input.devices.isEmpty || !input.enabled, "input.seat",
            "is none and input.devices is empty: there is nothing to read (set input.enabled: false instead)")

        positive(switching.window, "switching.window")
        count(switching.calm, "switching.calm", from: 0, to: 100_000)
        count(switching.storm, "switching.storm", from: 1, to: 100_000)
        check(switching.storm > switching.calm, "switching.storm", "must be greater than switching.calm (\(switching.calm))")
        unit(switching.weight, "switching.weight")

        check(audio.loud <= 0 && audio.loud > -120, "audio.loud", "must be a level between -120 and 0 (LUFS or dBFS), got \(audio.loud)")
        nonNegative(audio.quietDip, "audio.quiet_dip")
        nonNegative(audio.grace, "audio.grace")
        positive(audio.full, "audio.full")
        check(audio.full > audio.grace, "audio.full", "must be longer than audio.grace (\(audio.grace) s)")
        unit(audio.weight, "audio.weight")
        check(
            audio.window >= 0.1 && audio.window <= session.gap / 2, "audio.window",
            "must be between 0.1 s and half of session.gap (\(session.gap / 2) s), got \(audio.window)")

        if let w = location.workplace {
            check((-90...90).contains(w.latitude), "location.workplace.latitude", "must be between -90 and 90, got \(w.latitude)")
            check((-180...180).contains(w.longitude), "location.workplace.longitude", "must be between -180 and 180, got \(w.longitude)")
            metres(w.radius, "location.workplace.radius")
        }
        metres(location.radius, "location.radius")
        metres(location.maxAccuracy, "location.max_accuracy")
        nonNegative(location.grace, "location.grace")
        positive(location.full, "location.full")
        check(location.full > location.grace, "location.full", "must be longer than location.grace (\(location.grace) s)")
        unit(location.weight, "location.weight")

        check(
            desktop.poll >= 0.1 && desktop.poll <= min(60, session.gap / 2), "desktop.poll",
            "must be between 0.1 s and \(min(60, session.gap / 2)) s (at most a minute, and half of session.gap), got \(desktop.poll)")
        nonNegative(apps.grace, "apps.grace")
        positive(apps.full, "apps.full")
        check(apps.full > apps.grace, "apps.full", "must be longer than apps.grace (\(apps.grace) s)")
        unit(apps.weight, "apps.weight")
        for (i, rule) in apps.rules.enumerated() {
            check(!rule.name.isEmpty, "apps.rules[\(i)].name", "must not be empty")
            check(!(rule.title?.isEmpty ?? false), "apps.rules[\(i)].title", "must not be empty (leave it out to match any title)")
        }

        check(!alarms.escalation.isEmpty, "alarms.escalation", "needs at least one level")
        for (i, v) in alarms.escalation.enumerated() {
            nonNegative(v, "alarms.escalation")
            if i > 0 {
                check(
                    v > alarms.escalation[i - 1], "alarms.escalation",
                    "must grow from level to level (level \(i + 1) at \(v) s is not after level \(i) at \(alarms.escalation[i - 1]) s)")
            }
        }
        positive(alarms.repeatEvery, "alarms.repeat_every")
        count(alarms.snoozes, "alarms.snoozes", from: 0, to: 1000)
        positive(alarms.snooze, "alarms.snooze")
        check(alarms.escalation.count <= 100, "alarms.escalation", "has at most 100 levels, got \(alarms.escalation.count)")

        // The daemon sleeps `check` between looks: 0 would spin a core (it runs as a service).
        seconds(reminders.check, "reminders.check", above: 1, orEqual: true, max: 3600)
        nonNegative(reminders.beforeDue, "reminders.before_due", max: 366 * day)
        positive(reminders.repeatEvery, "reminders.repeat_every", max: day)
        for (key, minutes) in [
            ("reminders.default_time", reminders.defaultTime), ("reminders.quiet_from", reminders.quietFrom),
            ("reminders.quiet_to", reminders.quietTo),
        ] {
            check((0..<1440).contains(minutes), key, "must be a time of day from 00:00 to 23:59")
        }
        seconds(sync.every, "sync.every", above: 60, orEqual: true, max: day)
        seconds(daemon.watchAwayAfter, "daemon.watch_away_after", above: 10, orEqual: true, max: 3600)
        count(daemon.watchDays, "daemon.watch_days", from: 1, to: 3660)
        for goal in goals {
            let key = "goals.\(goal.name)"
            let most: Double = goal.per == .week ? 7 * day : day
            seconds(goal.target, key, above: 0, max: most)
            check(goal.thresholds.count <= 3, key, "takes at most three thresholds, the goal or limit itself included; got \(goal.thresholds.count)")
            check(
                zip(goal.thresholds, goal.thresholds.dropFirst()).allSatisfy { $0 < $1 } && goal.thresholds.allSatisfy { $0 > 0 }, key,
                "thresholds must grow, each above 0")
            check(goal.thresholds.last == goal.target, key, "the last threshold must be the goal or limit itself (\(humanDuration(goal.target)))")
        }
        check((100...8000).contains(alarms.tone), "alarms.tone", "must be between 100 and 8000 Hz, got \(alarms.tone)")
        check(
            !alarms.toneLevels.isEmpty && alarms.toneLevels.allSatisfy { (-60...0).contains($0) }, "alarms.tone_levels",
            "must be levels between -60 and 0 dBFS, one per alarm level, got \(alarms.toneLevels)")
        return out
    }
}
