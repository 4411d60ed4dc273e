import Foundation
import I3Detector
import SessionRuntime
import Synchronization
import TestSupport
import Testing
import VigilCore

/// `hide` and `refocus` on a real window manager: i3 on Xvfb with a work window (xterm, class
/// Editor) and a distracting one (class Videos), driven through the alarm dispatcher as a session
/// drives it, and read back from i3's own tree with i3-msg.
@Suite(.serialized) struct WindowActionsTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!
    /// A GTK window with its own app id (the desktop tests' script).
    static let windowScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DesktopDetectorTests/Data/wayland-window.py").path

    final class Deliveries: Sendable {
        let all = Mutex<[AlarmDelivery]>([])
        func add(_ d: AlarmDelivery) { all.withLock { $0.append(d) } }
    }

    static var apps: VigilConfiguration.Apps {
        var apps = VigilConfiguration.default.apps
        apps.rules = [
            AppRule(name: "editor", classes: ["editor"], category: .work), AppRule(name: "videos", classes: ["videos"], category: .distracting),
        ]
        return apps
    }

    /// Where the window of `cls` is in i3's tree: its workspace ("__i3_scratch" in the
    /// scratchpad), whether it floats, whether it has the focus.
    static func place(_ wm: I3WindowManager, _ cls: String) -> (workspace: String, floating: Bool, focused: Bool)? {
        place(tree: wm.msg(type: "get_tree").output, cls)
    }

    /// The same in sway's tree (its Wayland windows by app_id).
    static func place(_ sway: SwayCompositor, _ cls: String) -> (workspace: String, floating: Bool, focused: Bool)? {
        place(tree: runTool("/usr/bin/swaymsg", ["-s", sway.socket ?? "", "-t", "get_tree"]).output, cls)
    }

    static func place(tree text: String, _ cls: String) -> (workspace: String, floating: Bool, focused: Bool)? {
        guard let tree = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        func walk(_ node: [String: Any], _ workspace: String, _ floating: Bool) -> (String, Bool, Bool)? {
            let ws = node["type"] as? String == "workspace" ? node["name"] as? String ?? workspace : workspace
            let name = (node["window_properties"] as? [String: Any])?["class"] as? String ?? node["app_id"] as? String
            if name == cls { return (ws, floating, node["focused"] as? Bool == true) }
            for child in node["nodes"] as? [[String: Any]] ?? [] { if let f = walk(child, ws, floating) { return f } }
            for child in node["floating_nodes"] as? [[String: Any]] ?? [] { if let f = walk(child, ws, true) { return f } }
            return nil
        }
        return walk(tree, "", false).map { (workspace: $0.0, floating: $0.1, focused: $0.2) }
    }

    @Test func theDistractingWindowIsHiddenTheWorkWindowFocusedAndAllPutBack() async throws {
        let x = try XServer()
        let wm = try I3WindowManager(on: x)
        let editor = try x.start("/usr/bin/xterm", ["-class", "Editor", "-T", "draft.tex"])
        defer { editor.kill() }
        #expect(try await eventually(30) { Self.place(wm, "Editor") != nil }, "the editor's window")
        // A window neither work nor distracting, focused between the two: i3 gives it the focus
        // when the distracting one goes, and the work window must be brought back.
        let notes = try x.start("/usr/bin/xterm", ["-class", "Notes", "-T", "notes"])
        defer { notes.kill() }
        #expect(try await eventually(30) { Self.place(wm, "Notes")?.focused == true }, "the notes' window")
        let videos = try x.start("/usr/bin/xterm", ["-class", "Videos", "-T", "Cats"])
        defer { videos.kill() }
        #expect(try await eventually(30) { Self.place(wm, "Videos")?.focused == true }, "the videos' window, in front")
        let before = try #require(Self.place(wm, "Videos"))

        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.terminal], [.terminal, .hide, .refocus]]
        let control = I3WindowControl(I3Windows(socketPath: wm.socket))
        let deliveries = Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil, sinks: [HideSink(control: control, apps: Self.apps), RefocusSink(control: control, apps: Self.apps)],
            onDelivery: { deliveries.add($0) }, report: { _ in })
        func alarm(_ level: Int, _ cause: Cause = .app) -> SessionEvent {
            SessionEvent(time: t0 + 60, kind: .alarm(level: level, repeat: 0, episode: 1, cause: cause, reason: "2 min in Videos"))
        }

        // Level 1 is the terminal's: nothing moves. An away episode is not the window's doing.
        dispatcher.handle([alarm(1), alarm(2, .away)])
        dispatcher.drain()
        #expect(Self.place(wm, "Videos")?.focused == true)
        // The action's level: the distracting window goes to the scratchpad, the work window in front.
        dispatcher.handle([alarm(2)])
        dispatcher.drain()
        #expect(Self.place(wm, "Videos")?.workspace == "__i3_scratch", "\(String(describing: Self.place(wm, "Videos")))")
        #expect(Self.place(wm, "Editor")?.focused == true)
        #expect(editor.isRunning && videos.isRunning && notes.isRunning, "nothing closed")
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired && $0.delivered }.map { "\($0.channel.rawValue): \($0.detail)" }
        #expect(fired == ["hide: hid Videos (i3)", "refocus: brought back Editor (i3)"], "\(fired)")

        // The person is back at work: what hiding brought about, so the window stays out of sight.
        dispatcher.handle([SessionEvent(time: t0 + 90, kind: .alarmCleared(level: 2, episode: 1, closedBy: .back, recoverySeconds: 30))])
        dispatcher.drain()
        #expect(Self.place(wm, "Videos")?.workspace == "__i3_scratch")
        // The session's end: the window is where it was, tiled on its workspace, behind the work
        // the person is on, and still running.
        dispatcher.finish()
        let after = try #require(Self.place(wm, "Videos"))
        #expect(after.workspace == before.workspace && after.floating == before.floating, "\(before) → \(after)")
        #expect(Self.place(wm, "Editor")?.focused == true, "the person's window keeps the focus")
        #expect(editor.isRunning && videos.isRunning)
        let cleared = deliveries.all.withLock { $0 }.filter { $0.action == .cleared && $0.delivered }.map { "\($0.channel.rawValue): \($0.detail)" }
        #expect(cleared.isEmpty, "nothing put back when the person is back: \(cleared)")
    }

    /// A window the person brought back from the scratchpad meanwhile is left where the person put
    /// it; one that was closed is not looked for.
    @Test func aWindowThePersonBroughtBackIsLeftWhereThePersonPutIt() async throws {
        let x = try XServer()
        let wm = try I3WindowManager(on: x)
        let videos = try x.start("/usr/bin/xterm", ["-class", "Videos", "-T", "Cats"])
        defer { videos.kill() }
        #expect(try await eventually(30) { Self.place(wm, "Videos")?.focused == true })
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.hide]]
        let control = I3WindowControl(I3Windows(socketPath: wm.socket))
        let dispatcher = AlarmDispatcher(configuration: alarms, task: nil, sinks: [HideSink(control: control, apps: Self.apps)], report: { _ in })
        dispatcher.handle([SessionEvent(time: t0, kind: .alarm(level: 1, repeat: 0, episode: 1, cause: .app, reason: ""))])
        dispatcher.drain()
        #expect(Self.place(wm, "Videos")?.workspace == "__i3_scratch")
        // The person shows it again (floating, as i3 shows a scratchpad window) and leaves it so.
        wm.msg("[class=\"Videos\"] scratchpad show")
        #expect(try await eventually(10) { Self.place(wm, "Videos")?.floating == true })
        dispatcher.handle([SessionEvent(time: t0 + 30, kind: .alarmCleared(level: 1, episode: 1, closedBy: .onBreak, recoverySeconds: nil))])
        dispatcher.drain()
        #expect(Self.place(wm, "Videos")?.floating == true, "left as the person left it")
        #expect(videos.isRunning)
    }

    /// On sway, with native Wayland windows (GTK, their own app ids): the same, through the same
    /// IPC (sway speaks i3's).
    @Test func onSwayTheSameWithWaylandWindows() async throws {
        let sway = try SwayCompositor()
        var windows: [ChildProcess] = []
        defer { for w in windows { w.kill() } }
        for id in ["editor", "notes", "videos"] {
            let file = sway.directory + "/\(id).title"
            try id.write(toFile: file, atomically: true, encoding: .utf8)
            windows.append(try sway.start("/usr/bin/python3", [Self.windowScript, id, file]))
            #expect(try await eventually(30) { Self.place(sway, id)?.focused == true }, "\(id) in front")
        }
        let before = try #require(Self.place(sway, "videos"))
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.hide, .refocus]]
        let socket = try #require(sway.socket)
        let control = I3WindowControl(I3Windows(socketPath: socket))
        let deliveries = Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: alarms, task: nil, sinks: [HideSink(control: control, apps: Self.apps), RefocusSink(control: control, apps: Self.apps)],
            onDelivery: { deliveries.add($0) }, report: { _ in })
        dispatcher.handle([SessionEvent(time: t0, kind: .alarm(level: 1, repeat: 0, episode: 1, cause: .app, reason: ""))])
        dispatcher.drain()
        #expect(Self.place(sway, "videos")?.workspace == "__i3_scratch")
        #expect(Self.place(sway, "editor")?.focused == true)
        let fired = deliveries.all.withLock { $0 }.filter { $0.action == .fired && $0.delivered }.map(\.detail)
        #expect(fired == ["hid videos (sway)", "brought back editor (sway)"], "\(fired)")
        // A break puts it back.
        dispatcher.handle([SessionEvent(time: t0 + 30, kind: .alarmCleared(level: 1, episode: 1, closedBy: .onBreak, recoverySeconds: nil))])
        dispatcher.drain()
        let after = try #require(Self.place(sway, "videos"))
        #expect(Self.place(sway, "editor")?.focused == true, "the person's window keeps the focus")
        #expect(after.workspace == before.workspace && after.floating == before.floating, "\(before) → \(after)")
        #expect(windows.allSatisfy { $0.isRunning }, "nothing closed")
    }
}
