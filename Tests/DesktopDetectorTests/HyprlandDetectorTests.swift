import Foundation
import HyprlandDetector
import Synchronization
import TestSupport
import Testing
import VigilCore

/// Hyprland is not in Debian 12, so it cannot run here: these tests stand a fake in its place
/// that speaks its documented IPC (wiki.hypr.land/IPC): `.socket.sock` answers `j/activewindow`
/// with the window in front as JSON (`{}` for none) and closes; `.socket2.sock` writes each event
/// as a line `EVENT>>DATA`, the window in front as `activewindow>>CLASS,TITLE`.
@Suite struct HyprlandDetectorTests {
    static var apps: VigilConfiguration.Apps {
        var apps = VigilConfiguration.Apps()
        apps.rules = [
            AppRule(name: "youtube", title: "youtube", category: .distracting),
            AppRule(name: "editor", classes: ["org.example.editor"], category: .work),
        ]
        apps.fallback = .neutral
        return apps
    }

    @Test func eachChangeOfTheWindowInFrontArrivesCategorisedAndTitlesStayInside() async throws {
        let hyprland = try FakeHyprland(active: ("org.example.Editor", "notes MARKER"))
        defer { hyprland.stop() }
        let c = Collector(HyprlandFocusDetector(directory: hyprland.directory, apps: Self.apps).readings())
        defer { c.stop() }
        let editor = AppFocus(appClass: "org.example.Editor", category: .work, rule: "editor")
        #expect(await c.wait(timeout: 30) { $0.apps == [editor] }, "\(c.all)")
        #expect(c.statuses.first?.state == .available && c.statuses.first?.detail.contains(hyprland.directory) == true, "\(c.statuses)")
        try #require(await hyprland.subscribed(timeout: 30))

        hyprland.event("workspace>>2")
        hyprland.event("activewindow>>org.example.Browser,Docs, part 2 MARKER")
        let browser = AppFocus(appClass: "org.example.Browser", category: .neutral)
        #expect(await c.wait(timeout: 30) { $0.apps.last == browser }, "\(c.apps)")
        // A title with commas, the same application turning distracting: a change.
        hyprland.event("activewindow>>org.example.Browser,Cats, dogs - YouTube MARKER")
        let video = AppFocus(appClass: "org.example.Browser", category: .distracting, rule: "youtube")
        #expect(await c.wait(timeout: 30) { $0.apps.last == video }, "\(c.apps)")
        hyprland.event("activewindow>>,")
        #expect(await c.wait(timeout: 30) { $0.apps.last == AppFocus(appClass: "", category: .neutral) }, "\(c.apps)")
        #expect(c.apps == [editor, browser, video, AppFocus(appClass: "", category: .neutral)], "each change once")
        #expect(!"\(c.all)".contains("MARKER"), "no title left the detector")
    }

    @Test func hyprlandGoingAwayIsLostThenPickedUpAgain() async throws {
        let hyprland = try FakeHyprland(active: nil)
        let directory = hyprland.directory
        let c = Collector(HyprlandFocusDetector(directory: directory, apps: Self.apps, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { $0.states == [.available] && $0.apps == [AppFocus(appClass: "", category: .neutral)] }, "\(c.all)")
        // Gone once the detector's connection is its client (not still waiting to be accepted).
        try #require(await hyprland.subscribed(timeout: 30))
        hyprland.stop()
        #expect(await c.wait(timeout: 30) { $0.states.contains(.lost) }, "\(c.statuses)")
        #expect(c.statuses.last?.detail.contains("lost Hyprland's event socket") == true, "\(c.statuses)")
        let again = try FakeHyprland(active: ("org.example.Editor", "x"), directory: directory)
        defer { again.stop() }
        #expect(await c.wait(timeout: 30) { $0.states.last == .available && $0.apps.last?.appClass == "org.example.Editor" }, "\(c.all)")
    }

    @Test func noInstanceIsUnavailableAndSaysWhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hypr-none-\(UUID().uuidString)").path
        let c = Collector(HyprlandFocusDetector(directory: directory, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty }, "\(c.all)")
        #expect(c.statuses.first?.state == .unavailable, "\(c.statuses)")
        #expect(c.statuses.first?.detail.contains("cannot use Hyprland's sockets in \(directory)") == true, "\(c.statuses)")
    }

    @Test func theEnvironmentNamesTheInstancesFolder() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let env = ["HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_RUNTIME_DIR": runtime]
        // No socket anywhere yet: the current layout is named (for the message).
        #expect(HyprlandFocusDetector.directory(environment: env) == runtime + "/hypr/abc_123")
        #expect(HyprlandFocusDetector.directory(environment: ["XDG_RUNTIME_DIR": runtime]) == nil, "not in Hyprland")
        #expect(HyprlandFocusDetector.directory(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "../x"]) == nil, "no path in a signature")
        #expect(HyprlandFocusDetector.directory(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "abc"]) == "/tmp/hypr/abc", "before 0.40")
    }
}
