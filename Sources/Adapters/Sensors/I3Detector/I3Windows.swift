import Foundation
import SystemCalls

/// A window as i3 or sway lists it, for the actions (issue 36): who it is, where it is, and, for
/// matching only, its title.
public struct I3Window: Sendable, Equatable {
    /// i3's container id (`con_id`), stable while the window lives.
    public var id: Int
    /// `window_properties.class` (X11 windows) or `app_id` (sway's Wayland windows).
    public var appClass: String
    /// For the `apps:` rules only: never kept.
    public var title: String?
    /// The workspace it is on (nil: the scratchpad).
    public var workspace: String?
    public var floating: Bool
    public var focused: Bool
}

/// Where a hidden window was, to put it back.
public struct I3HiddenWindow: Sendable, Equatable, Codable {
    public var id: Int
    public var appClass: String
    public var workspace: String?
    public var floating: Bool
}

/// The windows of i3 or sway, and what the actions do with them, through the IPC socket's
/// commands: focus a window (`[con_id=N] focus`), hide it in the scratchpad (`move scratchpad`,
/// which keeps the window and its program as they are), and put it back where it was
/// (`scratchpad show`, then `floating disable` for a tiled one and `move container to workspace`).
/// Nothing here closes or kills a window.
public final class I3Windows: @unchecked Sendable {
    public let socketPath: String
    private var connection: I3Connection?

    public init(socketPath: String) { self.socketPath = socketPath }

    /// The socket the environment names ($I3SOCK, else $SWAYSOCK).
    public convenience init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = I3FocusDetector.socketPath(environment: environment) else { return nil }
        self.init(socketPath: path)
    }

    /// The windows, the most recently focused first (i3 keeps each container's children in the
    /// order they had the focus: the tree walked in that order), the scratchpad's last.
    public func windows() throws(I3IPCError) -> [I3Window] {
        guard let tree = I3FocusDetector.object(try request(.getTree)) else { throw .closed }
        var found: [I3Window] = []
        func walk(_ node: [String: Any], workspace: String?, floating: Bool) {
            var workspace = workspace
            if node["type"] as? String == "workspace" {
                let name = node["name"] as? String
                workspace = name == "__i3_scratch" ? nil : name
            }
            if let (appClass, title) = I3FocusDetector.window(node), let id = node["id"] as? Int {
                found.append(
                    I3Window(
                        id: id, appClass: appClass, title: title, workspace: workspace, floating: floating, focused: node["focused"] as? Bool == true)
                )
            }
            let children =
                ((node["nodes"] as? [[String: Any]]) ?? []).map { ($0, false) }
                + ((node["floating_nodes"] as? [[String: Any]]) ?? []).map { ($0, true) }
            let order = (node["focus"] as? [Int]) ?? []
            let ranked = children.sorted { a, b in
                let (x, y) = (order.firstIndex(of: a.0["id"] as? Int ?? -1) ?? .max, order.firstIndex(of: b.0["id"] as? Int ?? -1) ?? .max)
                return x < y
            }
            for (child, isFloating) in ranked { walk(child, workspace: workspace, floating: floating || isFloating) }
        }
        walk(tree, workspace: nil, floating: false)
        return found.filter { $0.workspace != nil } + found.filter { $0.workspace == nil }
    }

    /// Brings the window to the front.
    public func focus(_ id: Int) throws(I3IPCError) { try command("[con_id=\(id)] focus") }

    /// Where a window is now, to hide it and put it back there.
    public func place(of window: I3Window) -> I3HiddenWindow {
        I3HiddenWindow(id: window.id, appClass: window.appClass, workspace: window.workspace, floating: window.floating)
    }

    /// Moves the window to the scratchpad.
    public func hide(id: Int) throws(I3IPCError) { try command("[con_id=\(id)] move scratchpad") }

    /// Puts a hidden window back on its workspace, tiled or floating as it was, behind the window
    /// the person is on (which keeps the focus: the distraction does not come back to the front);
    /// false when the window is gone (closed meanwhile) or is no longer in the scratchpad (the
    /// person took it out): then nothing is done.
    @discardableResult
    public func restore(_ hidden: I3HiddenWindow) throws(I3IPCError) -> Bool {
        let all = try windows()
        guard let now = all.first(where: { $0.id == hidden.id }), now.workspace == nil else { return false }
        var steps = ["[con_id=\(hidden.id)] scratchpad show"]
        if !hidden.floating { steps.append("[con_id=\(hidden.id)] floating disable") }
        if let workspace = hidden.workspace {
            let quoted = workspace.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            steps.append("[con_id=\(hidden.id)] move container to workspace \"\(quoted)\"")
        }
        if let front = all.first(where: \.focused) { steps.append("[con_id=\(front.id)] focus") }
        try command(steps.joined(separator: "; "))
        return true
    }

    /// Runs a command; throws when the window manager says it failed.
    private func command(_ text: String) throws(I3IPCError) {
        let reply = try request(.runCommand, text)
        let results = (try? JSONSerialization.jsonObject(with: reply)) as? [[String: Any]] ?? []
        if let failed = results.first(where: { $0["success"] as? Bool != true }) {
            throw .commandFailed("\(text): \(failed["error"] as? String ?? "failed")")
        }
    }

    /// One request and its reply, on a connection kept for the next (made again if it was lost).
    private func request(_ type: I3Message.Request, _ payload: String = "") throws(I3IPCError) -> Data {
        for attempt in 0..<2 {
            do throws(I3IPCError) {
                let c: I3Connection
                if let open = connection { c = open } else { c = try I3Connection(path: socketPath) }
                connection = c
                try c.send(type, payload)
                let deadline = monotonicSeconds() + 5
                while case let left = deadline - monotonicSeconds(), left > 0 {
                    if let reply = try c.receive(waiting: left).first(where: { $0.type == type.rawValue }) { return reply.payload }
                }
                throw .closed
            } catch {
                connection = nil
                if attempt == 1 { throw error }
            }
        }
        throw .closed
    }
}
