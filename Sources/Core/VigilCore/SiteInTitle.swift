/// The site a browser window shows, as its title tells it, for `apps.rules`' `site:`. Browsers put
/// no address in the title, but two things there name the site:
/// - an address, which extensions that put the URL in the title add ("Add URL to Window Title",
///   aw-watcher-web's recommended companion), as `https://www.youtube.com/watch?v=…`,
///   `www.youtube.com/…` or a bare host;
/// - the site's own name, which most sites end their page titles with ("Cats - YouTube",
///   "Rust | Stack Overflow").
/// The browser's own suffix (" — Mozilla Firefox", " - Google Chrome"…) is taken off first. A
/// listed site matches a host that is it or ends with "." and it (`youtube.com` matches
/// `m.youtube.com`), and a name that is its first label without spaces or case (`YouTube` for
/// `youtube.com`, `Stack Overflow` for `stackoverflow.com`). The title is looked at here and
/// nowhere kept.
public enum SiteInTitle {
    /// The suffixes browsers add to a page's title.
    static let browserSuffixes = [
        " — mozilla firefox private browsing", " - mozilla firefox private browsing", " — mozilla firefox", " - mozilla firefox",
        " — firefox developer edition", " - google chrome", " - chromium", " - brave", " - microsoft edge", " - vivaldi", " - opera",
        " — librewolf", " - librewolf", " — tor browser",
    ]

    /// Whether `title` shows one of `sites` (host names, lower case).
    public static func shows(_ sites: [String], in title: String) -> Bool {
        guard !sites.isEmpty else { return false }
        return Page(title).shows(sites)
    }

    /// A title read once for the sites it shows, to ask about several lists of sites.
    public struct Page: Sendable {
        let hosts: [Substring]
        let name: String?

        public init(_ title: String) {
            var page = Substring(title.lowercased())
            for suffix in SiteInTitle.browserSuffixes where page.hasSuffix(suffix) {
                page = page.dropLast(suffix.count)
                break
            }
            hosts = SiteInTitle.hosts(in: page)
            name = SiteInTitle.siteName(of: page)
        }

        /// Whether it shows one of `sites` (host names, lower case).
        public func shows(_ sites: [String]) -> Bool {
            sites.contains { site in
                hosts.contains { $0 == site || $0.hasSuffix("." + site) } || (name != nil && name == SiteInTitle.label(of: site))
            }
        }
    }

    /// The host names written in the text: words with a dot between letters and digits, after any
    /// `scheme://`, up to a `/`, `:` or `?`.
    static func hosts(in text: Substring) -> [Substring] {
        var found: [Substring] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "<" || $0 == ">" }) {
            var w = word
            if let scheme = w.firstRange(of: "://") { w = w[scheme.upperBound...] }
            if let end = w.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == "?" || $0 == "#" }) { w = w[..<end] }
            while w.last == "." || w.last == "," { w = w.dropLast() }
            let labels = w.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }),
                labels.last!.allSatisfy(\.isLetter)
            else { continue }
            found.append(w)
        }
        return found
    }

    /// The name a page title ends with after a separator (" - ", " | ", " — ", " · ", " – ",
    /// " / "), lower case without spaces; nil for a title without one.
    static func siteName(of page: Substring) -> String? {
        var last: Substring?
        for separator in [" - ", " | ", " — ", " · ", " – ", " / "] {
            if let r = page.ranges(of: separator).last, last.map({ r.upperBound > $0.startIndex }) ?? true {
                last = page[r.upperBound...]
            }
        }
        guard let name = last?.filter({ $0 != " " }), !name.isEmpty else { return nil }
        return name
    }

    /// A site's first label that is not `www` (`stackoverflow` for `www.stackoverflow.com`).
    static func label(of site: String) -> String {
        let labels = site.split(separator: ".")
        return String((labels.first == "www" ? labels.dropFirst() : labels[...]).first ?? "")
    }
}
