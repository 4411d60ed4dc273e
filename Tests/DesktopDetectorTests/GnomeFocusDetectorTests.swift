import Foundation
import TestSupport
import Testing
import VigilCore

@testable import DesktopPresence

/// The application in front under a real GNOME Shell (43.9, headless Wayland: `GnomeShell`) with
/// Vigil's own extension installed from the files compiled into Vigil, as `vigil desktop install`
/// writes them. Native Wayland windows (GTK, app_id from the program name); the focus moved by the
/// extension's `Activate` (a headless shell has no input to click with), a title changed by the
/// window itself. The same marker rules as the X11, i3 and sway detectors' tests: no title leaves a
/// private detector.
@Suite struct GnomeFocusDetectorTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/wayland-window.py").path

    /// Installs Vigil's extension into the shell's home and enables it, as `vigil desktop install` does.
    static func installExtension(_ shell: GnomeShell) throws {
        let files = GnomeShellExtension(extensionsDirectory: shell.home + "/.local/share/gnome-shell/extensions")
        _ = try files.install(shellMajor: 43)
        let enabling = try GnomeShellSettings.enable(GnomeShellExtensionFiles.uuid, environment: shell.environment)
        #expect(!enabling.wasEnabled && !enabling.userExtensionsOff)
    }

    @Test func everyFocusAndTitleChangeArrivesFromTheShellAndTitlesStayInside() async throws {
        let shell = try GnomeShell()
        try Self.installExtension(shell)
        try shell.start()
        let m = FocusDetectorTests.marker
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        func open(_ appID: String, _ title: String) throws {
            let file = shell.directory + "/\(appID).title"
            try title.write(toFile: file, atomically: true, encoding: .utf8)
            windows.append(try shell.launch("/usr/bin/python3", [Self.script, appID, file], name: appID))
        }
        try open("org.example.Editor", "notes \(m)")
        try open("org.example.Browser", "Docs \(m)")
        // Both shown, then the editor in front, before the detectors start. Mutter gives a new
        // window the focus (or not) when it first shows it, a moment after the window maps, and
        // the extension's Activate finds only windows already shown: once both were activated,
        // no window is left to take the focus by itself, and what is in front is what the test
        // activated last.
        for id in ["org.example.Browser", "org.example.Editor"] { try shell.activate(id) }
        // Asked again until it holds: under load mutter may show a window (and give it the
        // focus) only after the first Activate of the other one.
        for id in ["org.example.Browser", "org.example.Editor"] {
            #expect(
                try await eventually(60) {
                    try shell.activate(id)
                    return shell.current.contains(id)
                }, "\(shell.current)")
        }

        var storing = FocusDetectorTests.apps
        storing.storeTitles = true
        let bus = shell.session.address
        let detectors: [FocusDetectorTests.Watched] = [
            ("gnome", false, Collector(GnomeFocusDetector(apps: FocusDetectorTests.apps, busAddress: bus).readings())),
            ("gnome+titles", true, Collector(GnomeFocusDetector(apps: storing, busAddress: bus).readings())),
        ]
        defer { for d in detectors { d.collector.stop() } }
        let editor = AppFocus(appClass: "org.example.Editor", category: .work, rule: "editor")
        for d in detectors {
            #expect(await d.collector.wait(timeout: 30) { !$0.apps.isEmpty }, "\(d.name): \(d.collector.all)\n\(shell.shellLog.suffix(3000))")
            #expect(d.collector.statuses.first?.state == .available, "\(d.name): \(d.collector.statuses)")
            #expect(d.collector.statuses.first?.detail.contains("GNOME Shell extension") == true, "\(d.collector.statuses)")
        }
        let browser = AppFocus(appClass: "org.example.Browser", category: .neutral)
        let video = AppFocus(appClass: "org.example.Browser", category: .distracting, rule: "youtube")
        await FocusDetectorTests.play(
            [
                .init(
                    what: "the browser comes to the front", action: { try shell.activate("org.example.Browser") }, focus: browser, title: "Docs \(m)"),
                .init(
                    what: "the browser goes to a video site",
                    action: {
                        try "Cat videos - YouTube \(m)".write(
                            toFile: shell.directory + "/org.example.Browser.title", atomically: true, encoding: .utf8)
                    },
                    focus: video, title: "Cat videos - YouTube \(m)"),
                .init(what: "the editor comes back", action: { try shell.activate("org.example.Editor") }, focus: editor, title: "notes \(m)"),
            ], from: editor, startTitle: "notes \(m)", on: detectors)

        // Disabled while the session runs (the Extensions app, here over GNOME Shell's own D-Bus
        // API): the detector says it lost the extension.
        let disabled = shell.gdbus(
            ["--method", "org.gnome.Shell.Extensions.DisableExtension", GnomeShellExtensionFiles.uuid], path: "/org/gnome/Shell")
        #expect(disabled.status == 0, "\(disabled.output)")
        for d in detectors {
            #expect(await d.collector.wait(timeout: 30) { $0.states.contains(.lost) }, "\(d.name): \(d.collector.statuses)")
            #expect(d.collector.statuses.last?.detail.contains("was disabled") == true, "\(d.collector.statuses)")
        }
    }

    /// GNOME Shell without Vigil's extension (the person has not run `vigil desktop install`, or
    /// the shell has not loaded it yet): the probe says so, and the detector says what to run.
    @Test func withoutTheExtensionTheDetectorSaysWhatToRun() async throws {
        let shell = try GnomeShell()
        try shell.start(expectingExtension: false)
        #expect(DesktopShell.probe(busAddress: shell.session.address) == .gnome(extensionRunning: false))
        let c = Collector(GnomeFocusDetector(busAddress: shell.session.address, retry: .init(first: 0.05, longest: 0.2)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty }, "\(c.all)")
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable, "\(status)")
        #expect(status.detail.contains("GNOME Shell runs without Vigil's extension"), "\(status.detail)")
        #expect(status.detail.contains("vigil desktop install"), "\(status.detail)")
        #expect(c.apps.isEmpty)
        #expect(DesktopShell.probe(busAddress: "unix:path=\(shell.directory)/nothing") == .none)
    }
}
