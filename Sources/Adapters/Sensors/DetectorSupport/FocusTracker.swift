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
}
