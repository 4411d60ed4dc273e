import VigilCore

/// What the focus detectors (X11, i3 and sway) share: the application in front categorised by the
/// `apps` rules, reported only when it changes, with the title kept only on opt-in.
///
/// The title is used here, for matching, and dropped: it is put into the `AppFocus` only with
/// `apps.store_titles`, and then a new title is a change of its own. Without it, a title that
/// changes the category (a browser tab turning to a video site) is a change; one that does not is
/// not reported at all.
public struct FocusTracker: Sendable {
    public let apps: VigilConfiguration.Apps
    private var last: AppFocus?
    /// When a "no window" told by `settling` is reported, if nothing comes before.
    private var noWindowDue: Double?

    /// How long a "no window" waits in `settling`: KWin and wlroots compositors say "no window"
    /// between two windows (the old one deactivated, then the new one activated), a moment apart.
    public static let noWindowSettles = 0.25

    public init(apps: VigilConfiguration.Apps) {
        self.apps = apps
    }

    /// Whether titles matter at all: a rule matches on them or they are stored. When not, a
    /// detector need not read them.
    public var needsTitles: Bool { apps.storeTitles || apps.rules.contains(where: \.readsTitles) }

    /// The focus to emit for the window now in front, nil when nothing changed. `appClass` nil is
    /// no window in front (an empty workspace, the desktop).
    public mutating func focus(appClass: String?, title: String?) -> AppFocus? {
        let next: AppFocus
        if let appClass {
            let (category, rule) = apps.categorize(appClass: appClass, title: title)
            next = AppFocus(appClass: appClass, category: category, rule: rule, title: apps.storeTitles ? title : nil)
        } else {
            next = AppFocus(appClass: "", category: .neutral)
        }
        guard next != last else { return nil }
        last = next
        return next
    }

    /// As `focus`, for a desktop that says "no window" between two windows: a window is taken at
    /// once, "no window" only once nothing has followed it for `noWindowSettles` seconds (call
    /// `settled(now:)` when `settlesIn(now:)` has passed). `now` is monotonic seconds.
    public mutating func settling(appClass: String?, title: String?, now: Double) -> AppFocus? {
        guard appClass == nil else {
            noWindowDue = nil
            return focus(appClass: appClass, title: title)
        }
        if noWindowDue == nil { noWindowDue = now + Self.noWindowSettles }
        return settled(now: now)
    }

    /// Seconds until a "no window" waiting in `settling` is due; nil when none waits.
    public func settlesIn(now: Double) -> Double? { noWindowDue.map { max(0, $0 - now) } }

    /// The "no window" waiting in `settling`, once it is due.
    public mutating func settled(now: Double) -> AppFocus? {
        guard let due = noWindowDue, now >= due else { return nil }
        noWindowDue = nil
        return focus(appClass: nil, title: nil)
    }
}
