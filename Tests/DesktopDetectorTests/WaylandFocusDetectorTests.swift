import Foundation
import TestSupport
import Testing
import VigilCore

@testable import WaylandDetector

/// The application in front under wlroots compositors, from their window list
/// (`wlr-foreign-toplevel-management`): real sway (focus moved with swaymsg, as i3's IPC tests
/// do) and real phoc (focus moved through the protocol's own `activate`, as a taskbar does; phoc
/// stands in for wayfire, which cannot start without a GPU: see `PhocCompositor`), native Wayland
/// windows with their own app_ids, titles changed by the windows themselves. No title leaves a
/// private detector.
@Suite struct WaylandFocusDetectorTests {
    typealias Open = (_ appID: String, _ titleFile: String) throws -> ChildProcess

    /// Opens the editor and the browser and plays focus and title changes, `focus` moving it.
    func play(display: String, directory: String, open: Open, focus: @escaping (String) throws -> Void) async throws {
        let m = FocusDetectorTests.marker
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for (id, title) in [("org.example.Editor", "notes \(m)"), ("org.example.Browser", "Docs \(m)")] {
            try title.write(toFile: directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try open(id, directory + "/\(id).title"))
        }
        var storing = FocusDetectorTests.apps
        storing.storeTitles = true
        // Both windows listed, then the editor in front, before the detectors start.
        let lister = try WaylandConnection(display: display, timeout: 10)
        let list = try #require(try ForeignToplevels(on: lister, timeout: 10), "no window list on \(display)")
        #expect(
            try await eventually(30) {
                lister.wait(seconds: 0.1)
                return Set(list.list.toplevels.map(\.appID)).isSuperset(of: ["org.example.Editor", "org.example.Browser"])
            }, "\(list.list.toplevels.map(\.appID))")
        try focus("org.example.Editor")
        #expect(
            try await eventually(30) {
                lister.wait(seconds: 0.1)
                return list.active?.appID == "org.example.Editor"
            }, "\(String(describing: list.active?.appID))")
        let detectors: [FocusDetectorTests.Watched] = [
            ("wlroots", false, Collector(WaylandFocusDetector(display: display, apps: FocusDetectorTests.apps).readings())),
            ("wlroots+titles", true, Collector(WaylandFocusDetector(display: display, apps: storing).readings())),
        ]
        defer { for d in detectors { d.collector.stop() } }
        for d in detectors {
            #expect(await d.collector.wait(timeout: 30) { !$0.apps.isEmpty }, "\(d.name): \(d.collector.all)")
            #expect(d.collector.statuses.first?.state == .available, "\(d.name): \(d.collector.statuses)")
            #expect(d.collector.statuses.first?.detail.contains("wlr-foreign-toplevel-management") == true, "\(d.collector.statuses)")
        }
        let editor = AppFocus(appClass: "org.example.Editor", category: .work, rule: "editor")
        let browser = AppFocus(appClass: "org.example.Browser", category: .neutral)
        let video = AppFocus(appClass: "org.example.Browser", category: .distracting, rule: "youtube")
        await FocusDetectorTests.play(
            [
                .init(what: "the browser comes to the front", action: { try focus("org.example.Browser") }, focus: browser, title: "Docs \(m)"),
                .init(
                    what: "the browser goes to a video site",
                    action: {
                        try "Cat videos - YouTube \(m)".write(toFile: directory + "/org.example.Browser.title", atomically: true, encoding: .utf8)
                    },
                    focus: video, title: "Cat videos - YouTube \(m)"),
                .init(what: "the editor comes back", action: { try focus("org.example.Editor") }, focus: editor, title: "notes \(m)"),
            ], from: editor, startTitle: "notes \(m)", on: detectors)
    }

    @Test func swayListsItsWindowsAndWhichIsInFront() async throws {
        let sway = try SwayCompositor()
        try await play(
            display: sway.waylandDisplay, directory: sway.directory,
            open: { id, file in try sway.start("/usr/bin/python3", [GnomeFocusDetectorTests.script, id, file]) },
            focus: { id in
                let r = sway.msg("[app_id=\"\(id)\"] focus")
                guard r.status == 0 else { throw TestFailure("swaymsg: \(r.output)") }
            })
    }

    @Test func phocListsItsWindowsAndActivatesTheOneATaskbarAsksFor() async throws {
        let phoc = try PhocCompositor()
        let taskbar = try WaylandConnection(display: phoc.waylandDisplay, timeout: 10)
        let windows = try #require(try ForeignToplevels(on: taskbar, timeout: 10))
        try await play(
            display: phoc.waylandDisplay, directory: phoc.directory,
            open: { id, file in try phoc.launch("/usr/bin/python3", [GnomeFocusDetectorTests.script, id, file], name: id) },
            focus: { id in
                try taskbar.roundtrip(timeout: 10)
                guard windows.activate(appID: id) else { throw TestFailure("no \(id) in phoc's window list") }
            })
    }

    /// A compositor without the protocol (Weston): the detector says so, and the probe too.
    @Test func aCompositorWithoutAWindowListIsSaidSo() async throws {
        let x = try XServer()
        let weston = try WestonCompositor(on: x)
        #expect(!WaylandCompositor.probe(display: weston.waylandDisplay).listsWindows)
        let c = Collector(WaylandFocusDetector(display: weston.waylandDisplay, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty }, "\(c.all)")
        #expect(c.statuses.first?.state == .unavailable)
        #expect(c.statuses.first?.detail.contains("does not list its windows") == true, "\(c.statuses)")
        let sway = try SwayCompositor()
        #expect(WaylandCompositor.probe(display: sway.waylandDisplay).listsWindows)
    }
}
