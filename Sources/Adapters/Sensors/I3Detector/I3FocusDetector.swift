import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// The application in front under i3 or sway, from their IPC socket's `window` events: one
/// implementation for both, since sway speaks i3's protocol.
///
/// Subscribes to `window` and `workspace` events. A `focus` event, or a `title` event of the
/// focused window, names the window in front: its class is `window_properties.class` (i3, and
/// Xwayland windows on sway) or `app_id` (native Wayland windows on sway), its title `name`. When
/// the focused window closes or another workspace gets the focus, the tree (GET_TREE) says what is
/// in front, so an empty workspace is seen as no window. Titles are used for matching and dropped
/// unless `apps.store_titles` (see `FocusTracker`).
///
/// The socket is `socketPath`, else $I3SOCK, else $SWAYSOCK. When the window manager goes away
/// (or restarts: i3 closes its IPC connections on `restart`) the detector reports the loss and
/// reconnects with a growing delay.
public final class I3FocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The IPC socket; nil uses $I3SOCK, then $SWAYSOCK.
    public let socketPath: String?
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff

    /// - Parameters:
    ///   - socketPath: the IPC socket; nil uses $I3SOCK, then $SWAYSOCK.
    ///   - apps: the rules that categorise applications, and whether titles may be stored.
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public init(
        socketPath: String? = nil, apps: VigilConfiguration.Apps = .init(), retry: Backoff = .reconnect
    ) {
        self.socketPath = socketPath
        self.apps = apps
        self.retry = retry
    }

    /// The socket the environment names: $I3SOCK (set by i3 for its children), else $SWAYSOCK.
    public static func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for key in ["I3SOCK", "SWAYSOCK"] { if let path = environment[key], !path.isEmpty { return path } }
        return nil
    }

    /// The window manager's name and version ("i3 4.22 (2023-01-02)", "sway 1.7") when
    /// `socketPath` (or the environment's socket) answers, nil when nothing does.
    public static func probe(socketPath: String? = nil) -> String? {
        guard let path = socketPath ?? Self.socketPath(), let c = try? I3Connection(path: path), (try? c.send(.getVersion)) != nil else { return nil }
        let deadline = monotonicSeconds() + 2
        while case let left = deadline - monotonicSeconds(), left > 0 {
            guard let messages = try? c.receive(waiting: left) else { return nil }
            if let reply = messages.first(where: { $0.type == I3Message.Request.getVersion.rawValue }) {
                return Self.versionText(reply.payload, socketPath: path, orElse: "i3 IPC")
            }
        }
        return nil
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-i3-focus") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        var tracker = FocusTracker(apps: apps)
        context.keepConnecting(retry: retry) {
            guard let path = socketPath ?? Self.socketPath() else {
                return .failed(
                    "no i3 or sway IPC socket: neither $I3SOCK nor $SWAYSOCK is set (not an i3 or sway session, or started outside it). Retrying.")
            }
            var subscribed = false
            let failure: I3IPCError
            do {
                let c = try I3Connection(path: path)
                try c.send(.getVersion)
                try c.send(.subscribe, #"["window","workspace"]"#)
                try c.send(.getTree)
                var version = "i3 IPC"
                while !context.isStopped {
                    for message in try c.receive(waiting: 60, stop: context.stopDescriptor) {
                        switch message.type {
                        case I3Message.Request.getVersion.rawValue:
                            version = Self.versionText(message.payload, socketPath: path, orElse: version)
                        case I3Message.Request.subscribe.rawValue:
                            guard Self.object(message.payload)?["success"] as? Bool == true else {
                                throw I3IPCError.refused(String(decoding: message.payload.prefix(200), as: UTF8.self))
                            }
                            subscribed = true
                            context.report(.available, "the window in front from \(version) at \(path)")
                        case I3Message.Request.getTree.rawValue:
                            let focused = Self.object(message.payload).flatMap(Self.focusedNode)
                            emit(focused.flatMap(Self.window), &tracker, context)
                        case I3Message.windowEvent:
                            guard let event = Self.object(message.payload), let container = event["container"] as? [String: Any] else { continue }
                            switch event["change"] as? String {
                            case "focus":
                                emit(Self.window(container), &tracker, context)
                            case "title" where container["focused"] as? Bool == true:
                                emit(Self.window(container), &tracker, context)
                            case "close", "move":
                                try c.send(.getTree)
                            default: break
                            }
                        case I3Message.workspaceEvent:
                            if Self.object(message.payload)?["change"] as? String == "focus" { try c.send(.getTree) }
                        default: break
                        }
                    }
                }
                return .stopped
            } catch let error as I3IPCError {
                failure = error
            } catch {
                failure = .closed
            }
            let message =
                context.lastReported == .available
                ? "lost the window manager's IPC at \(path) (\(failure)); reconnecting"
                : "cannot use the i3/sway IPC socket \(path) (\(failure)); is i3 or sway running? Retrying."
            return subscribed ? .lost(message) : .failed(message)
        }
    }

    private func emit(_ window: (appClass: String, title: String?)?, _ tracker: inout FocusTracker, _ context: DetectorContext) {
        if let change = tracker.focus(appClass: window?.appClass, title: window?.title) { context.emit(.app(change)) }
    }

    /// A GET_VERSION reply as people say it: i3 and sway give only the number in `human_readable`
    /// ("4.22 (2023-01-02)"); sway is told by its socket's name (`sway-ipc.*.sock`).
    static func versionText(_ payload: Data, socketPath: String, orElse fallback: String) -> String {
        guard let reply = object(payload), let version = reply["human_readable"] as? String else { return fallback }
        let name = socketPath.split(separator: "/").last?.hasPrefix("sway-ipc") == true ? "sway" : "i3"
        return version.first?.isNumber == true ? "\(name) \(version)" : version
    }

    static func object(_ payload: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }

    /// The class and title of a container holding a window; nil for a workspace or a split
    /// container (no window in front).
    static func window(_ container: [String: Any]) -> (appClass: String, title: String?)? {
        let title = container["name"] as? String
        if let properties = container["window_properties"] as? [String: Any] {
            return (properties["class"] as? String ?? "", title)
        }
        if let appID = container["app_id"] as? String { return (appID, title) }
        if container["window"] is NSNumber { return ("", title) }
        return nil
    }

    /// The node with `focused: true`, searched through tiling and floating children.
    static func focusedNode(_ node: [String: Any]) -> [String: Any]? {
        if node["focused"] as? Bool == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key] as? [[String: Any]] ?? [] {
                if let found = focusedNode(child) { return found }
            }
        }
        return nil
    }
}
