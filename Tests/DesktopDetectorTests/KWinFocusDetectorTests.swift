import Foundation
import TestSupport
import Testing
import VigilCore

@testable import DesktopPresence

/// The application in front under a real KWin (Plasma 5.27's kwin_wayland, Debian 12's, on its
/// virtual backend with a private session bus): Vigil's detector loads its script into KWin over
/// D-Bus, and KWin calls back at each change. Native Wayland windows (GTK, app_id from the program
/// name); the focus moved by a KWin script of the test's own (`workspace.activeClient`, as a click
/// would), a title changed by the window itself. No title leaves a private detector.
@Suite struct KWinFocusDetectorTests {
    @Test func kwinTellsEachFocusAndTitleChangeThroughTheLoadedScriptAndItIsUnloadedAtTheEnd() async throws {
        let bus = try SessionBus()
        let kwin = try KWinCompositor(sessionBus: bus)
        let m = FocusDetectorTests.marker
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for (id, title) in [("org.example.Editor", "notes \(m)"), ("org.example.Browser", "Docs \(m)")] {
            try title.write(toFile: kwin.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try kwin.launch("/usr/bin/python3", [GnomeFocusDetectorTests.script, id, kwin.directory + "/\(id).title"], name: id))
        }
        // Both there, then the editor in front, before the detectors start.
        for id in ["org.example.Browser", "org.example.Editor"] {
            #expect(try await eventually(30) { try kwin.activate(id) }, "no \(id) in KWin")
        }

        var storing = FocusDetectorTests.apps
        storing.storeTitles = true
        let detectors: [FocusDetectorTests.Watched] = [
            ("kwin", false, Collector(KWinFocusDetector(apps: FocusDetectorTests.apps, busAddress: bus.address).readings())),
            ("kwin+titles", true, Collector(KWinFocusDetector(apps: storing, busAddress: bus.address).readings())),
        ]
        defer { for d in detectors { d.collector.stop() } }
        let editor = AppFocus(appClass: "org.example.Editor", category: .work, rule: "editor")
        for d in detectors {
            #expect(await d.collector.wait(timeout: 30) { !$0.apps.isEmpty }, "\(d.name): \(d.collector.all)")
            #expect(d.collector.statuses.first?.state == .available, "\(d.name): \(d.collector.statuses)")
        }
        let browser = AppFocus(appClass: "org.example.Browser", category: .neutral)
        let video = AppFocus(appClass: "org.example.Browser", category: .distracting, rule: "youtube")
        func activate(_ id: String) throws {
            guard try kwin.activate(id) else { throw TestFailure("no \(id) in KWin") }
        }
        await FocusDetectorTests.play(
            [
                .init(what: "the browser comes to the front", action: { try activate("org.example.Browser") }, focus: browser, title: "Docs \(m)"),
                .init(
                    what: "the browser goes to a video site",
                    action: {
                        try "Cat videos - YouTube \(m)".write(
                            toFile: kwin.directory + "/org.example.Browser.title", atomically: true, encoding: .utf8)
                    },
                    focus: video, title: "Cat videos - YouTube \(m)"),
                .init(what: "the editor comes back", action: { try activate("org.example.Editor") }, focus: editor, title: "notes \(m)"),
            ], from: editor, startTitle: "notes \(m)", on: detectors)

        // Each detector loaded a script of its own, and unloads it when the session ends.
        let plugins = detectors.compactMap { d in d.collector.statuses.first?.detail.split(separator: " ").last.map { String($0.dropLast()) } }
        #expect(plugins.count == 2 && Set(plugins).count == 2 && plugins.allSatisfy { $0.hasPrefix("vigil-focus-") }, "\(plugins)")
        func loaded(_ plugin: String) -> Bool {
            runTool(
                "/usr/bin/gdbus",
                [
                    "call", "--address", bus.address, "--dest", "org.kde.KWin", "--object-path", "/Scripting", "--method",
                    "org.kde.kwin.Scripting.isScriptLoaded", plugin,
                ],
                environment: ["PATH": "/usr/bin:/bin"]
            ).output.contains("true")
        }
        #expect(plugins.allSatisfy(loaded))
        for d in detectors { d.collector.stop() }
        #expect(try await eventually(30) { !plugins.contains(where: loaded) }, "\(plugins)")
    }

    /// No KWin on the bus: the detector says so, and the probe finds none until KWin starts.
    @Test func withoutKWinTheDetectorSaysSo() async throws {
        let bus = try SessionBus()
        #expect(DesktopShell.probe(busAddress: bus.address) == .none)
        let c = Collector(KWinFocusDetector(busAddress: bus.address, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty }, "\(c.all)")
        #expect(c.statuses.first?.state == .unavailable)
        #expect(c.statuses.first?.detail.contains("KWin is not running") == true, "\(c.statuses)")
        let kwin = try KWinCompositor(sessionBus: bus)
        #expect(try await eventually(30) { DesktopShell.probe(busAddress: bus.address) == .kwin })
        _ = kwin
    }
}
