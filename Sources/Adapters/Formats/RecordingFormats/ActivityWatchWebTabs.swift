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
        /// What each tab's page matches (`PageRules`), -1 for a tab without an address.
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
        func shows(in app: String) -> Bool {
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
    }

    /// What a tab's page (its title and address, as a URL-in-title extension shows them) matches:
    /// for each rule that reads titles, whether its title piece and its sites are there, as
    /// `VigilConfiguration.Apps.categorize` would find them. Worked out once per page as it is
    /// read, and kept as a number (pages that match the same rules share it), so the pages
    /// themselves are never kept: an export of a year's tabs costs a few distinct numbers.
    final class PageRules {
        let apps: VigilConfiguration.Apps
        let names: Names
        /// The rules that read titles, by index, and each one's piece in lower case.
        private let reading: [Int]
        private let pieces: [String?]
        /// The ASCII pieces as bytes, for a byte search.
        private let pieceBytes: [[UInt8]?]
        private var masks: [[UInt64]] = []
        private var numbers: [[UInt64]: Int32] = [:]
        /// The rule for (application, mask).
        private var rules: [Int64: Int32] = [:]
        private var candidates: [Int32: [Int32]] = [:]

        init(_ apps: VigilConfiguration.Apps, names: Names) {
            self.apps = apps
            self.names = names
            reading = apps.rules.indices.filter { apps.rules[$0].readsTitles }
            pieces = reading.map { apps.rules[$0].title?.lowercased() }
            pieceBytes = pieces.map { p in p.flatMap { $0.utf8.allSatisfy { $0 < 0x80 } ? Array($0.utf8) : nil } }
        }

        /// The number of what `page` matches.
        func mask(of page: String) -> Int32 {
            var bits = [UInt64](repeating: 0, count: (reading.count + 63) / 64)
            var lowered = page.lowercased()
            let ascii = lowered.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
            var site: SiteInTitle.Page?
            for (k, r) in reading.enumerated() {
                let rule = apps.rules[r]
                if let piece = pieces[k] {
                    // A byte search of the lowered page: a piece whose bytes are not there is not
                    // there; one found in ASCII (without CR) is; elsewhere a letter's combining mark
                    // may follow it, and the search of characters tells.
                    let found: Bool
                    if let bytes = pieceBytes[k] {
                        found = lowered.withUTF8 { WindowCategorizer.contains($0, lowercased: bytes) } && (ascii || lowered.contains(piece))
                    } else {
                        found = lowered.contains(piece)
                    }
                    guard found else { continue }
                }
                if !rule.sites.isEmpty {
                    if site == nil { site = SiteInTitle.Page(page) }
                    guard site!.shows(rule.sites) else { continue }
                }
                bits[k / 64] |= 1 << UInt64(k % 64)
            }
            if let known = numbers[bits] { return known }
            let n = Int32(masks.count)
            masks.append(bits)
            numbers[bits] = n
            return n
        }

        /// The rule that matches a window of `app` showing a page that matches `mask`; -1: none.
        func rule(app: Int32, mask: Int32) -> Int32 {
            let key = Int64(app) << 32 | Int64(mask)
            if let known = rules[key] { return known }
            let list = candidates[app] ?? WindowCategorizer.classRules(apps, appClass: names.apps[Int(app)])
            candidates[app] = list
            let bits = masks[Int(mask)]
            var answer: Int32 = -1
            for r in list {
                guard apps.rules[Int(r)].readsTitles else {
                    answer = r
                    break
                }
                guard let k = reading.firstIndex(of: Int(r)) else { continue }
                if bits[k / 64] & (1 << UInt64(k % 64)) != 0 {
                    answer = r
                    break
                }
            }
            rules[key] = answer
            return answer
        }
    }
}
