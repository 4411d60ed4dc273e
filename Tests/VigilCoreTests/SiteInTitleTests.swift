import Testing

@testable import VigilCore

/// `site:` rules: the site a browser window's title shows, by its address or its name.
@Suite struct SiteInTitleTests {
    @Test(arguments: [
        // The site's name at the end of the page title, after the browser's suffix is taken off.
        ("Cats - YouTube — Mozilla Firefox", ["youtube.com"], true),
        ("Cats - YouTube - Google Chrome", ["youtube.com"], true),
        ("Cats - YouTube - Chromium", ["youtube.com"], true),
        ("Rust borrow checker - Stack Overflow — Mozilla Firefox", ["stackoverflow.com"], true),
        ("xQc - Twitch", ["twitch.tv", "youtube.com"], true),
        ("Home / X — Mozilla Firefox Private Browsing", ["x.com"], true),
        // The address, as URL-in-title extensions add it, a subdomain of a listed site included.
        ("Watch later https://m.youtube.com/playlist?list=WL — Mozilla Firefox", ["youtube.com"], true),
        ("Some video - www.youtube.com/watch?v=abc", ["youtube.com"], true),
        ("reading old.reddit.com (r/swift)", ["reddit.com"], true),
        // Not the site: a name elsewhere in the title, a host that only ends with its letters,
        // another site, no title to look at.
        ("YouTube API reference - Google Developers - Google Chrome", ["youtube.com"], false),
        ("notyoutube.com - a parody", ["youtube.com"], false),
        ("Cats - Vimeo — Mozilla Firefox", ["youtube.com"], false),
        ("main.swift - Code", ["youtube.com"], false),
        ("", ["youtube.com"], false),
        ("Cats - YouTube", [], false),
    ])
    func aTitleShowsItsSite(title: String, sites: [String], shows: Bool) {
        #expect(SiteInTitle.shows(sites, in: title) == shows, "\(title)")
    }

    @Test func rulesWithSitesCategoriseBrowserWindowsByTheSiteShown() {
        var apps = VigilConfiguration.Apps()
        apps.rules = [
            AppRule(name: "video", classes: ["firefox"], sites: ["youtube.com", "twitch.tv"], category: .distracting),
            AppRule(name: "docs", sites: ["developer.apple.com", "swift.org"], category: .work),
            AppRule(name: "browsers", classes: ["firefox"], category: .neutral),
        ]
        #expect(apps.categorize(appClass: "firefox", title: "Cats - YouTube — Mozilla Firefox") == (.distracting, "video"))
        #expect(apps.categorize(appClass: "Firefox", title: "https://www.swift.org/documentation/ — Mozilla Firefox") == (.work, "docs"))
        #expect(apps.categorize(appClass: "firefox", title: "Inbox - Mail — Mozilla Firefox") == (.neutral, "browsers"))
        // The class still decides first: a site rule for Firefox does not take another program.
        #expect(apps.categorize(appClass: "mpv", title: "Cats - YouTube") == (.neutral, nil))
        #expect(apps.categorize(appClass: "firefox", title: nil) == (.neutral, "browsers"))
        #expect(apps.rules.map(\.readsTitles) == [true, true, false])
    }
}
