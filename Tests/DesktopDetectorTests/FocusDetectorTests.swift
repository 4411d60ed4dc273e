import Foundation
import TestSupport
import Testing
import VigilCore

@testable import I3Detector
@testable import X11Detector

/// The application in front, seen two ways at once on one real desktop: Xvfb with i3 (a real EWMH
/// window manager), real windows (xterm with set classes, xmessage), focus moved with xdotool and
/// i3-msg, titles changed with xdotool. `X11FocusDetector` reads the X properties, `I3FocusDetector`
/// i3's IPC socket; each runs once with titles private (the default) and once with
/// `store_titles`. Every title carries a marker that must not leave a private detector.
///
/// `I3FocusDetector` also runs against sway (headless, as uid 65534: sway refuses root) with
/// native Wayland windows, whose class is their app_id.
@Suite struct FocusDetectorTests {
    static let marker = "MARKER-\(UUID().uuidString.prefix(8))"

    static var apps: VigilConfiguration.Apps {
        var apps = VigilConfiguration.Apps()
        apps.rules = [
            AppRule(name: "youtube", title: "youtube", category: .distracting),
            AppRule(name: "editor", classes: ["editor", "org.example.editor"], category: .work),
        ]
        apps.fallback = .neutral
        return apps
    }

    struct Step {
        var what: String
        var action: () throws -> Void
        /// What the private detectors emit for it; nil when they emit nothing (a title change that
        /// keeps the category).
        var focus: AppFocus?
        /// The title the detectors storing titles emit with it.
        var title: String?
    }

    @Test func everyFocusChangeArrivesWithItsClassAndCategoryAndTitlesStayInside() async throws {
        let x = try XServer()
        let i3 = try I3WindowManager(on: x)
        var storing = Self.apps
        storing.storeTitles = true
        let detectors: [Watched] = [
            ("x11", false, Collector(X11FocusDetector(display: x.display, apps: Self.apps).readings())),
            ("x11+titles", true, Collector(X11FocusDetector(display: x.display, apps: storing).readings())),
            ("i3", false, Collector(I3FocusDetector(socketPath: i3.socket, apps: Self.apps).readings())),
            ("i3+titles", true, Collector(I3FocusDetector(socketPath: i3.socket, apps: storing).readings())),
        ]
        defer { for d in detectors { d.collector.stop() } }
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }

        // No window yet: an empty class, neutral.
        let nothing = AppFocus(appClass: "", category: .neutral)
        for d in detectors {
            let started = await d.collector.wait(timeout: 30) { $0.apps.last == nothing }
            #expect(started, "\(d.name): \(d.collector.all)")
            #expect(d.collector.statuses.first?.state == .available, "\(d.name): \(d.collector.statuses)")
        }

        let m = Self.marker
        let editor = AppFocus(appClass: "Editor", category: .work, rule: "editor")
        let browser = AppFocus(appClass: "Browser", category: .neutral)
        let video = AppFocus(appClass: "Browser", category: .distracting, rule: "youtube")
        let message = AppFocus(appClass: "Xmessage", category: .neutral)
        func browserWindow() throws -> String { try #require(x.windows(ofClass: "Browser").first) }
        func setBrowserTitle(_ title: String) throws {
            let r = x.run("/usr/bin/xdotool", ["set_window", "--name", title, try browserWindow()])
            #expect(r.status == 0, "\(r.output)")
        }
        func i3Focus(_ command: String) {
            let r = i3.msg(command)
            #expect(r.status == 0 && r.output.contains("\"success\":true"), "\(command): \(r.output)")
        }
        let steps: [Step] = [
            Step(
                what: "an editor opens",
                action: { windows.append(try x.start("/usr/bin/xterm", ["-class", "Editor", "-T", "notes \(m)", "-e", "sleep", "600"])) },
                focus: editor, title: "notes \(m)"),
            Step(
                what: "a browser opens",
                action: { windows.append(try x.start("/usr/bin/xterm", ["-class", "Browser", "-T", "Docs \(m)", "-e", "sleep", "600"])) },
                focus: browser, title: "Docs \(m)"),
            Step(
                what: "a message pops up",
                action: { windows.append(try x.start("/usr/bin/xmessage", ["-name", "firstapp", "-title", "Note \(m)", "hello"])) }, focus: message,
                title: "Note \(m)"),
            Step(
                what: "xdotool activates the browser", action: { x.run("/usr/bin/xdotool", ["windowactivate", try browserWindow()]) }, focus: browser,
                title: "Docs \(m)"),
            Step(
                what: "the browser goes to a video site", action: { try setBrowserTitle("Cat videos - YouTube \(m)") }, focus: video,
                title: "Cat videos - YouTube \(m)"),
            Step(what: "i3 focuses the editor", action: { i3Focus("[class=\"Editor\"] focus") }, focus: editor, title: "notes \(m)"),
            Step(what: "an empty workspace", action: { i3Focus("workspace 2") }, focus: nothing, title: nil),
            Step(what: "back to the first workspace", action: { i3Focus("workspace 1") }, focus: editor, title: "notes \(m)"),
            Step(what: "i3 focuses the browser", action: { i3Focus("[class=\"Browser\"] focus") }, focus: video, title: "Cat videos - YouTube \(m)"),
            Step(
                what: "the browser leaves the video site", action: { try setBrowserTitle("Docs again \(m)") }, focus: browser,
                title: "Docs again \(m)"),
            Step(what: "a new page, same category", action: { try setBrowserTitle("Docs page 2 \(m)") }, focus: nil, title: "Docs page 2 \(m)"),
            Step(
                what: "xdotool activates the message",
                action: { x.run("/usr/bin/xdotool", ["windowactivate", try #require(x.windows(ofClass: "Xmessage").first)]) }, focus: message,
                title: "Note \(m)"),
        ]

        await Self.play(steps, from: nothing, on: detectors)
    }

    typealias Watched = (name: String, stores: Bool, collector: Collector)

    /// Takes the steps one by one; after each, waits until every detector has emitted what the
    /// step should make it emit. At the end each detector has emitted every change once, in order,
    /// and nothing else; the marker is in the samples of the detectors that store titles and
    /// nowhere in the others'.
    static func play(_ steps: [Step], from start: AppFocus, startTitle: String? = nil, on detectors: [Watched]) async {
        var expected = [start]
        var titledStart = start
        titledStart.title = startTitle
        var expectedWithTitles = [titledStart]
        for step in steps {
            do { try step.action() } catch { Issue.record("\(step.what): \(error)") }
            if let focus = step.focus { expected.append(focus) }
            var titled = step.focus ?? expectedWithTitles.last!
            titled.title = step.title
            expectedWithTitles.append(titled)
            for d in detectors {
                let want = d.stores ? expectedWithTitles : expected
                let arrived = await d.collector.wait(timeout: 30) { $0.apps.count >= want.count && $0.apps.last == want.last }
                #expect(arrived, "\(d.name), \(step.what): wanted \(want.last!), got \(d.collector.apps.suffix(3))")
            }
        }
        for d in detectors {
            #expect(d.collector.apps == (d.stores ? expectedWithTitles : expected), "\(d.name)")
            let everything = "\(d.collector.all)"
            if d.stores {
                #expect(everything.contains(marker), "\(d.name) stores titles")
            } else {
                #expect(!everything.contains(marker), "\(d.name): a title left the detector: \(everything)")
                #expect(d.collector.apps.allSatisfy { $0.title == nil })
            }
        }
    }

    /// The same protocol from sway: native Wayland windows (GTK, app_id from the program name),
    /// focus moved with swaymsg, a title changed by the window itself.
    @Test func swaySpeaksTheSameProtocolWithAppIDs() async throws {
        let sway = try SwayCompositor()
        let socket = try #require(sway.socket)
        var storing = Self.apps
        storing.storeTitles = true
        let detectors: [Watched] = [
            ("sway", false, Collector(I3FocusDetector(socketPath: socket, apps: Self.apps).readings())),
            ("sway+titles", true, Collector(I3FocusDetector(socketPath: socket, apps: storing).readings())),
        ]
        defer { for d in detectors { d.collector.stop() } }
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        let nothing = AppFocus(appClass: "", category: .neutral)
        for d in detectors {
            #expect(await d.collector.wait(timeout: 30) { $0.apps.last == nothing }, "\(d.name): \(d.collector.all)")
            #expect(d.collector.statuses.first?.detail.contains("sway") == true, "\(d.collector.statuses)")
        }
        let m = Self.marker
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/wayland-window.py").path
        func open(_ appID: String, _ title: String) throws {
            let file = sway.directory + "/\(appID).title"
            try title.write(toFile: file, atomically: true, encoding: .utf8)
            windows.append(try sway.start("/usr/bin/python3", [script, appID, file]))
        }
        func retitle(_ appID: String, _ title: String) throws {
            try title.write(toFile: sway.directory + "/\(appID).title", atomically: true, encoding: .utf8)
        }
        func swaymsg(_ command: String) {
            let r = sway.msg(command)
            #expect(r.status == 0, "\(command): \(r.output)")
        }
        let editor = AppFocus(appClass: "org.example.Editor", category: .work, rule: "editor")
        let browser = AppFocus(appClass: "org.example.Browser", category: .neutral)
        let video = AppFocus(appClass: "org.example.Browser", category: .distracting, rule: "youtube")
        await Self.play(
            [
                Step(what: "an editor opens", action: { try open("org.example.Editor", "notes \(m)") }, focus: editor, title: "notes \(m)"),
                Step(what: "a browser opens", action: { try open("org.example.Browser", "Docs \(m)") }, focus: browser, title: "Docs \(m)"),
                Step(
                    what: "the browser goes to a video site", action: { try retitle("org.example.Browser", "Cat videos - YouTube \(m)") },
                    focus: video, title: "Cat videos - YouTube \(m)"),
                Step(
                    what: "sway focuses the editor", action: { swaymsg("[app_id=\"org.example.Editor\"] focus") }, focus: editor, title: "notes \(m)"),
                Step(what: "an empty workspace", action: { swaymsg("workspace 2") }, focus: nothing, title: nil),
                Step(what: "back to the first workspace", action: { swaymsg("workspace 1") }, focus: editor, title: "notes \(m)"),
            ], from: nothing, on: detectors)
    }

    @Test func theDisplayNamesI3sSocketAndTheWindowManagerAnswersTheProbe() async throws {
        let x = try XServer()
        let bare = X11Display.probe(display: x.display)
        #expect(bare.reachable && bare.screenSaver && !bare.activeWindow && bare.i3Socket == nil, "\(bare)")
        let i3 = try I3WindowManager(on: x)
        let probe = X11Display.probe(display: x.display)
        #expect(probe.reachable && probe.screenSaver && probe.activeWindow, "\(probe)")
        #expect(probe.i3Socket == i3.socket)
        let version = try #require(I3FocusDetector.probe(socketPath: i3.socket))
        #expect(version.contains("4."), "\(version)")
        #expect(I3FocusDetector.probe(socketPath: x.directory + "/nothing.sock") == nil)
        #expect(I3FocusDetector.socketPath(environment: ["SWAYSOCK": "/s", "I3SOCK": "/i"]) == "/i")
        #expect(I3FocusDetector.socketPath(environment: ["SWAYSOCK": "/s"]) == "/s")
        #expect(I3FocusDetector.socketPath(environment: [:]) == nil)
    }

    @Test func aWindowManagerThatGoesAwayIsLostAndNoSocketIsUnavailable() async throws {
        let x = try XServer()
        var i3: I3WindowManager? = try I3WindowManager(on: x)
        let socket = i3!.socket
        let c = Collector(I3FocusDetector(socketPath: socket, apps: Self.apps, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { $0.states.contains(.available) })
        i3 = nil
        #expect(await c.wait(timeout: 30) { $0.states.contains(.lost) }, "\(c.statuses)")
        #expect(c.statuses.last?.detail.contains(socket) == true)

        let none = Collector(I3FocusDetector(socketPath: x.directory + "/nothing.sock").readings())
        defer { none.stop() }
        #expect(await none.wait(timeout: 30) { !$0.statuses.isEmpty })
        #expect(none.statuses.first?.state == .unavailable)
        #expect(none.statuses.first?.detail.contains("No such file") == true, "\(none.statuses)")
    }
}
