import DesktopPresence
import Foundation
import SessionRuntime
import Synchronization
import TestSupport
import Testing
import VigilCore
import WaylandDetector
import X11Detector

/// `hide` and `refocus` on the stacking desktops, where hiding is minimising: an EWMH window
/// manager on X11 (Openbox on Xvfb, read back with xprop, not with Vigil's code) and GNOME Shell
/// (headless, through Vigil's extension; read back through the extension's own list of mutter's
/// windows and `Current`, the shell offering no other reader on Wayland). Driven through the alarm
/// dispatcher as a session drives it.
@Suite(.serialized) struct WindowActionsDesktopTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    static func apps(_ editor: String, _ videos: String) -> VigilConfiguration.Apps {
        var apps = VigilConfiguration.default.apps
        apps.rules = [
            AppRule(name: "editor", classes: [editor], category: .work), AppRule(name: "videos", classes: [videos], category: .distracting),
        ]
        return apps
    }

    /// Hide and refocus at level 1 through `control`, with the GTK windows' rules (the Wayland desktops).
    static func hidingAndRefocusing(_ control: any WindowControl) -> (AlarmDispatcher, WindowActionsTests.Deliveries) {
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.hide, .refocus]]
        let apps = Self.apps("org.example.Editor", "org.example.Videos")
        let deliveries = WindowActionsTests.Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil, sinks: [HideSink(control: control, apps: apps), RefocusSink(control: control, apps: apps)],
            onDelivery: { deliveries.add($0) }, report: { _ in })
        return (dispatcher, deliveries)
    }

    func alarm(_ level: Int, _ cause: Cause = .app) -> SessionEvent {
        SessionEvent(time: t0 + 60, kind: .alarm(level: level, repeat: 0, episode: 1, cause: cause, reason: "2 min in Videos"))
    }

    func cleared(_ closedBy: EpisodeCloser) -> SessionEvent {
        SessionEvent(time: t0 + 90, kind: .alarmCleared(level: 2, episode: 1, closedBy: closedBy, recoverySeconds: 30))
    }

    @Test func onAnEWMHWindowManagerTheDistractionIsMinimisedAndPutBackBehindTheWork() async throws {
        let x = try XServer()
        let wm = try OpenboxWindowManager(on: x)
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for cls in ["Editor", "Notes", "Videos"] {
            windows.append(try x.start("/usr/bin/xterm", ["-class", cls, "-T", cls.lowercased()]))
            #expect(try await eventually(30) { wm.activeClass == cls }, "\(cls) in front: \(String(describing: wm.activeClass))")
        }
        #expect(wm.state("Videos") == "Normal")

        // The desktop's own control, found from $DISPLAY as a session finds it.
        let control = try #require(WindowControls.forDesktop(environment: ["DISPLAY": x.display]))
        #expect(control.name == "Openbox on \(x.display)", "\(control.name)")
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.terminal], [.terminal, .hide, .refocus]]
        let apps = Self.apps("Editor", "Videos")
        let deliveries = WindowActionsTests.Deliveries()
        let told = Mutex<[String]>([])
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil, sinks: [HideSink(control: control, apps: apps), RefocusSink(control: control, apps: apps)],
            onDelivery: { deliveries.add($0) }, report: { line in told.withLock { $0.append(line) } })

        dispatcher.handle([alarm(1), alarm(2, .away)])
        dispatcher.drain()
        #expect(wm.state("Videos") == "Normal" && wm.activeClass == "Videos", "nothing moves below the level, or for being away")
        dispatcher.handle([alarm(2)])
        dispatcher.drain()
        #expect(wm.state("Videos") == "Iconic")
        #expect(try await eventually(10) { wm.activeClass == "Editor" }, "the work window in front: \(String(describing: wm.activeClass))")
        #expect(windows.allSatisfy { $0.isRunning }, "nothing closed")
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired && $0.delivered }.map { "\($0.channel.rawValue): \($0.detail)" }
        #expect(fired == ["hide: hid Videos (Openbox on \(x.display))", "refocus: brought back Editor (Openbox on \(x.display))"], "\(fired)")
        // The person is told what was done, and how it is undone (the terminal has no sink here).
        let said = told.withLock { $0 }.filter { !$0.hasPrefix("terminal") }
        #expect(
            said == [
                "hid Videos (Openbox on \(x.display)): not closed; it comes back where it was at your next break or pause, or at the session's end",
                "brought back Editor (Openbox on \(x.display))",
            ], "\(said)")

        // Back at work: the window stays out of sight. The session's end: it is shown again,
        // behind the work window, which keeps the focus.
        dispatcher.handle([cleared(.back)])
        dispatcher.drain()
        #expect(wm.state("Videos") == "Iconic")
        dispatcher.finish()
        #expect(wm.state("Videos") == "Normal")
        #expect(try await eventually(10) { wm.activeClass == "Editor" }, "\(String(describing: wm.activeClass))")
        let stack = wm.stacking
        #expect(
            (stack.firstIndex(of: "Videos") ?? .max) < (stack.firstIndex(of: "Editor") ?? -1), "behind the work window: \(stack)")
        #expect(windows.allSatisfy { $0.isRunning })
    }

    /// A window the person showed again meanwhile is left as it is; a window id that now names
    /// another application's window (after a restart) is not taken for the hidden one.
    @Test func onX11AWindowThePersonBroughtBackOrAnotherApplicationsIsLeftAlone() async throws {
        let x = try XServer()
        let wm = try OpenboxWindowManager(on: x)
        let videos = try x.start("/usr/bin/xterm", ["-class", "Videos", "-T", "cats"])
        defer { videos.kill() }
        #expect(try await eventually(30) { wm.activeClass == "Videos" })
        let windows = try #require(X11Windows(display: x.display))
        let control = try #require(X11WindowControl(windows))
        let id = try #require(try windows.windows(readTitles: false).first { $0.appClass == "Videos" }).id
        let token = try control.token(String(id))
        try control.hide(token)
        #expect(wm.state("Videos") == "Iconic")
        #expect(try !control.restore(String(id) + " Other"), "another application's window")
        #expect(wm.state("Videos") == "Iconic")
        // The person shows it (a taskbar activates it).
        x.run("/usr/bin/xdotool", ["windowactivate", String(id)])
        #expect(try await eventually(10) { wm.state("Videos") == "Normal" })
        #expect(try !control.restore(token), "already back")
        #expect(try !control.restore("not a token"))
        #expect(videos.isRunning)
    }

    @Test func onGNOMETheDistractionIsMinimisedThroughTheExtensionAndPutBack() async throws {
        let shell = try GnomeShell()
        let files = GnomeShellExtension(extensionsDirectory: shell.home + "/.local/share/gnome-shell/extensions")
        _ = try files.install(shellMajor: 43)
        _ = try GnomeShellSettings.enable(GnomeShellExtensionFiles.uuid, environment: shell.environment)
        try shell.start()
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        let ids = ["org.example.Editor", "org.example.Notes", "org.example.Videos"]
        for id in ids {
            let file = shell.directory + "/\(id).title"
            try id.write(toFile: file, atomically: true, encoding: .utf8)
            windows.append(try shell.launch("/usr/bin/python3", [WindowActionsTests.windowScript, id, file], name: id))
        }
        // Each shown and activated once (see GnomeFocusDetectorTests), then in order: the videos in front.
        for id in ids { try shell.activate(id) }
        for id in ids {
            try shell.activate(id)
            #expect(try await eventually(30) { shell.current.contains(id) }, "\(shell.current)")
        }
        let shellWindows = GnomeShellWindows(busAddress: shell.session.address)
        #expect(shellWindows.check() == nil)
        func minimised(_ id: String) throws -> Bool? { try shellWindows.windows().first { $0.appClass == id }?.minimised }

        let (dispatcher, deliveries) = Self.hidingAndRefocusing(GnomeWindowControl(shellWindows))
        dispatcher.handle([alarm(1)])
        dispatcher.drain()
        #expect(try minimised("org.example.Videos") == true)
        #expect(try await eventually(10) { shell.current.contains("org.example.Editor") }, "\(shell.current)")
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired && $0.delivered }.map(\.detail)
        #expect(fired == ["hid org.example.Videos (GNOME)", "brought back org.example.Editor (GNOME)"], "\(fired)\n\(shell.shellLog.suffix(2000))")

        // A break puts it back, behind the editor, which keeps the focus.
        dispatcher.handle([cleared(.onBreak)])
        dispatcher.drain()
        #expect(try minimised("org.example.Videos") == false)
        #expect(shell.current.contains("org.example.Editor"), "\(shell.current)")
        #expect(windows.allSatisfy { $0.isRunning }, "nothing closed")
        // dim through the extension: the window's actor at 40 % and back (GNOME Shell offers no
        // other program a way to read a window's opacity on Wayland: the extension's answer is it).
        let gnome = GnomeWindowControl(shellWindows)
        let videos = try #require(try gnome.windows().first { $0.appClass == "org.example.Videos" })
        let token = try gnome.token(videos.id)
        #expect(try gnome.dim(token, true))
        #expect(try gnome.dim(token, false))
        #expect(try !gnome.dim("999999 org.example.Videos", true), "a window that is gone")
    }

    /// On KDE Plasma's KWin (5.27, headless, with a private session bus): the same through one-shot
    /// KWin scripts, read back by a KWin script of the test's own.
    @Test func onKDEPlasmaTheDistractionIsMinimisedThroughAKWinScriptAndPutBack() async throws {
        let bus = try SessionBus()
        let kwin = try KWinCompositor(sessionBus: bus)
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        let ids = ["org.example.Editor", "org.example.Notes", "org.example.Videos"]
        for id in ids {
            try id.write(toFile: kwin.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try kwin.launch("/usr/bin/python3", [WindowActionsTests.windowScript, id, kwin.directory + "/\(id).title"], name: id))
            #expect(try await eventually(30) { try kwin.activate(id) }, "no \(id) in KWin")
        }
        #expect(try kwin.state("org.example.Videos") == "active")

        let (dispatcher, deliveries) = Self.hidingAndRefocusing(KWinWindowControl(KWinWindows(busAddress: bus.address)))
        dispatcher.handle([alarm(1)])
        dispatcher.drain()
        #expect(try kwin.state("org.example.Videos") == "minimized")
        #expect(try kwin.state("org.example.Editor") == "active")
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired }.map { "\($0.delivered) \($0.detail)" }
        #expect(fired == ["true hid org.example.Videos (KDE)", "true brought back org.example.Editor (KDE)"], "\(fired)")

        // A break puts it back, behind the editor, which keeps the focus.
        dispatcher.handle([cleared(.onBreak)])
        dispatcher.drain()
        #expect(try kwin.state("org.example.Videos") == "shown")
        #expect(try kwin.state("org.example.Editor") == "active")
        #expect(windows.allSatisfy { $0.isRunning }, "nothing closed")
    }

    /// On a wlroots compositor other than sway (phoc, headless), through
    /// wlr-foreign-toplevel-management, read back through the same protocol's states, as a taskbar
    /// reads them: the work window is brought back; phoc does not minimise windows (Phosh has no
    /// use for it), and hiding says so instead of claiming it hid anything, and writes nothing down.
    /// (Debian 12 has no wlroots compositor that minimises and runs without a GPU: labwc is not
    /// packaged, wayfire needs DRM, sway has no minimising.)
    @Test func onAWlrootsCompositorTheWorkWindowIsBroughtBackAndAnUnsupportedHideIsSaid() async throws {
        let phoc = try PhocCompositor()
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        let wayland = try #require(WaylandWindows(environment: ["WAYLAND_DISPLAY": phoc.waylandDisplay]))
        func front() -> String? { (try? wayland.windows())?.first { $0.focused }?.appClass }
        for id in ["org.example.Editor", "org.example.Notes", "org.example.Videos"] {
            let file = phoc.directory + "/\(id).title"
            try id.write(toFile: file, atomically: true, encoding: .utf8)
            windows.append(try phoc.launch("/usr/bin/python3", [WindowActionsTests.windowScript, id, file], name: id))
            #expect(try await eventually(30) { (try? wayland.windows())?.contains { $0.appClass == id } == true }, "\(id) listed")
            let listed = try #require(try wayland.windows().first { $0.appClass == id })
            #expect(try wayland.activate(listed.id))
            #expect(try await eventually(10) { front() == id }, "\(id) in front")
        }
        let journal = HiddenWindows(dataDirectory: phoc.directory)
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.hide, .refocus]]
        let apps = Self.apps("org.example.Editor", "org.example.Videos")
        let control = WaylandWindowControl(wayland)
        let deliveries = WindowActionsTests.Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil,
            sinks: [HideSink(control: control, apps: apps, journal: journal), RefocusSink(control: control, apps: apps)],
            onDelivery: { deliveries.add($0) }, report: { _ in })
        dispatcher.handle([alarm(1)])
        dispatcher.drain()
        #expect(try await eventually(10) { front() == "org.example.Editor" }, "the work window in front")
        #expect(try wayland.windows().first { $0.appClass == "org.example.Videos" }?.minimised == false)
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired }.map { "\($0.channel.rawValue) \($0.delivered) \($0.detail)" }
        let name = "Wayland \(phoc.waylandDisplay)"
        #expect(
            fired == [
                "hide false \(name): the window closed, or the compositor does not minimise windows",
                "refocus true brought back org.example.Editor (\(name))",
            ], "\(fired)")
        #expect(journal.entries().isEmpty, "nothing hidden, nothing written down")
        #expect(windows.allSatisfy { $0.isRunning }, "nothing closed")
    }

    /// `dim` on KWin: the distracting window at 40 % opacity at the level, as KWin's own scripting
    /// reads it back, and at full opacity again when the person is back.
    @Test func onKDEPlasmaTheDistractionIsDimmedAndBrightenedWhenThePersonIsBack() async throws {
        let bus = try SessionBus()
        let kwin = try KWinCompositor(sessionBus: bus)
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for id in ["org.example.Editor", "org.example.Videos"] {
            try id.write(toFile: kwin.directory + "/\(id).title", atomically: true, encoding: .utf8)
            windows.append(try kwin.launch("/usr/bin/python3", [WindowActionsTests.windowScript, id, kwin.directory + "/\(id).title"], name: id))
            #expect(try await eventually(30) { try kwin.activate(id) }, "no \(id) in KWin")
        }
        func opacity(_ id: String) throws -> String {
            try kwin.evaluate("String(workspace.clientList().find(c => String(c.resourceClass) === \"\(id)\").opacity)")
        }
        #expect(try opacity("org.example.Videos") == "1")
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.dim]]
        let journal = HiddenWindows(dataDirectory: kwin.directory)
        let deliveries = WindowActionsTests.Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil,
            sinks: [
                DimSink(
                    control: KWinWindowControl(KWinWindows(busAddress: bus.address)), apps: Self.apps("org.example.Editor", "org.example.Videos"),
                    journal: journal)
            ],
            onDelivery: { deliveries.add($0) }, report: { _ in })
        dispatcher.handle([alarm(1)])
        dispatcher.drain()
        #expect(try opacity("org.example.Videos") == "0.4")
        #expect(try opacity("org.example.Editor") == "1")
        #expect(journal.entries().map(\.action) == ["dim"], "written down, so a crash leaves nothing dim")
        dispatcher.handle([cleared(.back)])
        dispatcher.drain()
        #expect(try opacity("org.example.Videos") == "1")
        #expect(journal.entries().isEmpty)
        let details = deliveries.all.withLock { $0 }.filter(\.delivered).map(\.detail)
        #expect(details == ["dimmed org.example.Videos (KDE)", "brightened org.example.Videos"], "\(details)")
    }
}
