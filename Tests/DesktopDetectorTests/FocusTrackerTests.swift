import DetectorSupport
import Testing
import VigilCore

/// What every focus detector shares: a change is told once, the title only decides the category,
/// and a "no window" between two windows (KWin, wlroots) is told only once it lasts.
@Suite struct FocusTrackerTests {
    static var apps: VigilConfiguration.Apps {
        var apps = VigilConfiguration.default.apps
        apps.rules = [AppRule(name: "video", classes: ["firefox"], sites: ["youtube.com"], category: .distracting)]
        return apps
    }

    @Test func aChangeIsToldOnceAndATitleOnlyByItsCategory() {
        var tracker = FocusTracker(apps: Self.apps)
        #expect(tracker.focus(appClass: "firefox", title: "Docs") == AppFocus(appClass: "firefox", category: .neutral))
        #expect(tracker.focus(appClass: "firefox", title: "Other docs") == nil, "another title, the same category")
        #expect(tracker.focus(appClass: "firefox", title: "Cats - YouTube") == AppFocus(appClass: "firefox", category: .distracting, rule: "video"))
        #expect(tracker.focus(appClass: nil, title: nil) == AppFocus(appClass: "", category: .neutral))
    }

    @Test func noWindowBetweenTwoWindowsIsNotTold() {
        var tracker = FocusTracker(apps: Self.apps)
        #expect(tracker.settling(appClass: "code", title: nil, now: 10) == AppFocus(appClass: "code", category: .neutral))
        #expect(tracker.settlesIn(now: 10) == nil)
        // The old window deactivated, the new one activated a moment later: only the new one.
        #expect(tracker.settling(appClass: nil, title: nil, now: 11) == nil)
        #expect(tracker.settlesIn(now: 11) == FocusTracker.noWindowSettles)
        #expect(tracker.settled(now: 11.1) == nil)
        #expect(tracker.settling(appClass: "firefox", title: "Docs", now: 11.1) == AppFocus(appClass: "firefox", category: .neutral))
        #expect(tracker.settlesIn(now: 11.1) == nil && tracker.settled(now: 20) == nil, "nothing waits after a window")
        // No window that lasts: told once it is due, whether asked by `settled` or another "no window".
        #expect(tracker.settling(appClass: nil, title: nil, now: 30) == nil)
        #expect(tracker.settling(appClass: nil, title: nil, now: 30.1) == nil, "a second one does not restart the wait")
        #expect(tracker.settled(now: 30 + FocusTracker.noWindowSettles) == AppFocus(appClass: "", category: .neutral))
        #expect(tracker.settlesIn(now: 31) == nil)
    }
}
