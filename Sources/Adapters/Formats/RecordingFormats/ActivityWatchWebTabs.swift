import VigilCore

extension ActivityWatchExport {
    /// aw-watcher-web's pulse time: it sends the tab in front every minute, and at each change of
    /// tab, with a pulse time of 80 s (its interval + 20 s), so one tab's heartbeats merge into
    /// one event and a new page begins a new one (the old one closed a millisecond before).
    static let webPulseTime = 80.0

    /// The names window watchers give each browser's windows (class, app id or process, any case),
    /// by the browser's name in aw-watcher-web's bucket id (`aw-watcher-web-firefox_myhost`).
    static let browserWindows: [String: Set<String>] = [
        "firefox": [
            "firefox", "firefox.exe", "firefox-esr", "firefox developer edition", "firefoxdeveloperedition", "firefox beta", "nightly",
            "org.mozilla.firefox", "librewolf", "io.gitlab.librewolf-community",
        ],
        "chrome": [
            "google-chrome", "google chrome", "chrome", "chrome.exe", "google-chrome-stable", "google-chrome-beta", "google-chrome-unstable",
            "chromium", "chromium-browser", "chromium-browser-chromium", "chromium.exe", "org.chromium.chromium", "brave-browser",
        ],
        "chromium": ["chromium", "chromium-browser", "chromium-browser-chromium", "chromium.exe", "org.chromium.chromium"],
        "brave": ["brave-browser", "brave", "brave.exe", "com.brave.browser"],
        "edge": ["microsoft-edge", "microsoft edge", "msedge", "msedge.exe"],
        "opera": ["opera", "opera.exe"],
        "vivaldi": ["vivaldi", "vivaldi-stable", "vivaldi-snapshot", "vivaldi.exe"],
    ]

    /// One `web.tab.current` bucket: which browser's tab was in front, from when to when.
    ///
    /// aw-watcher-web reports the active tab whether or not the browser is in front, so a tab
    /// counts only while a window of its browser is (as ActivityWatch's own queries intersect the
    /// two). A tab holds until the next one begins, or through the pulse time after its last
    /// heartbeat: a page opened in the same tab is only seen at the next heartbeat, up to a
    /// minute later, and nothing finer is in the data.
    struct WebTabs {
        /// The window names of its browser; nil: a browser Vigil does not know by name, whose tabs
        /// go with any browser's windows.
        let windows: Set<String>?
        /// The computer it ran on, when the bucket says.
        let hostname: String?
        let starts: [Timestamp]
        /// When each tab stops being the one in front.
        let ends: [Timestamp]
        /// Each tab's page (`Names.pages`), -1 for a tab without an address.
        let pages: [Int32]

        init(bucket: Bucket, events: [Event]) {
            var family = Substring(bucket.name.lowercased())
            if family.hasPrefix("aw-watcher-web-") { family = family.dropFirst("aw-watcher-web-".count) }
            if let host = family.firstIndex(of: "_") { family = family[..<host] }
            windows = browserWindows[String(family)]
            hostname = bucket.hostname.flatMap { $0 == "unknown" || $0.isEmpty ? nil : $0 }
            starts = events.map(\.start)
            pages = events.map(\.app)
            ends = events.indices.map { i in
                let held = events[i].end + ActivityWatchExport.webPulseTime
                return i + 1 < events.count ? min(held, max(events[i].end, events[i + 1].start)) : held
            }
        }

        /// An address as a URL-in-title extension shows it: without the user name or password and
        /// the port (`https://user@www.youtube.com:443/watch` as `https://www.youtube.com/watch`).
        static func shown(address: String) -> String {
            guard let scheme = address.firstRange(of: "://") else { return address }
            let rest = address[scheme.upperBound...]
            let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var host = rest[..<pathStart]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = host[..<colon] }
            return String(address[..<scheme.upperBound]) + host + rest[pathStart...]
        }

        /// Whether its tabs are what `app`'s windows show.
        func shows(in app: String, on host: String?) -> Bool {
            if let hostname, let host, hostname != host { return false }
            if let windows { return windows.contains(app.lowercased()) }
            return browserWindows.values.contains { $0.contains(app.lowercased()) }
        }

        /// The tabs in front during [from, to), clipped to it, in time order.
        func tabs(from: Timestamp, to: Timestamp) -> [(start: Timestamp, end: Timestamp, page: Int32)] {
            // The first tab that could reach `from`: the last one starting at or before it.
            var (low, high) = (0, starts.count)
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] <= from { low = mid + 1 } else { high = mid }
            }
            var found: [(Timestamp, Timestamp, Int32)] = []
            var i = max(0, low - 1)
            while i < starts.count, starts[i] < to {
                let (s, e) = (max(starts[i], from), min(ends[i], to))
                if s < e, pages[i] >= 0 { found.append((s, e, pages[i])) }
                i += 1
            }
            return found
        }

        /// The window events with each stretch a browser's window showed a tab split off, matched
        /// against the rules with the tab's page: so `site:` rules and title pieces see the address
        /// even when the page's title does not name the site. Neighbouring stretches the same rule
        /// matches stay one event.
        static func withPages(_ events: [Event], of bucket: Bucket, tabs: [WebTabs], categorizer: inout WindowCategorizer) -> [Event] {
            let names = categorizer.names
            var browsers: [Int32: [Int]] = [:]
            var out: [Event] = []
            out.reserveCapacity(events.count)
            for e in events {
                let shown: [Int]
                if let known = browsers[e.app] {
                    shown = known
                } else {
                    shown = tabs.indices.filter { tabs[$0].shows(in: names.apps[Int(e.app)], on: bucket.hostname) }
                    browsers[e.app] = shown
                }
                guard !shown.isEmpty, e.duration > 0 else {
                    out.append(e)
                    continue
                }
                // The first bucket with a tab in this stretch tells (a person with two browsers
                // of one kind has two buckets of it; the window is one of them).
                let pieces = shown.lazy.map { tabs[$0].tabs(from: e.start, to: e.end) }.first { !$0.isEmpty } ?? []
                var cursor = e.start
                func add(_ from: Timestamp, _ to: Timestamp, rule: Int32) {
                    guard from < to else { return }
                    if let last = out.last, last.order == e.order, last.rule == rule, last.end == from {
                        out[out.count - 1].duration = to - last.start
                    } else {
                        out.append(Event(start: from, duration: to - from, app: e.app, rule: rule, title: e.title, order: e.order, afk: false))
                    }
                }
                for p in pieces {
                    add(cursor, p.start, rule: e.rule)
                    add(p.start, p.end, rule: categorizer.rule(app: e.app, page: p.page))
                    cursor = p.end
                }
                add(cursor, e.end, rule: e.rule)
            }
            return out
        }
    }
}
