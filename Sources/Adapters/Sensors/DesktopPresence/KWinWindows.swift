import DBusSupport
import Foundation
import SystemCalls

/// A window as KWin's scripting lists it.
public struct KWinListedWindow: Sendable, Equatable, Decodable {
    /// KWin's `internalId` ("{0b6c…}"), stable while the window lives.
    public var id: String
    /// The resource class (on Wayland the app_id).
    public var appClass: String
    public var title: String
    public var focused: Bool
    public var minimised: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case appClass = "cls"
        case title, focused
        case minimised = "minimized"
    }
}

/// KDE Plasma's windows (KWin 5.27 and 6, Wayland and X11) for the window actions (issue 36), from
/// one-shot KWin scripts loaded over D-Bus as the focus detector loads its own
/// (`KWinFocusDetector.loadScript`): each does one thing (lists the windows, top of the stack
/// first; activates one; minimises one; shows one again behind the window in front) and calls
/// back `org.vigil.KWinWindows1.Done(json)` on this connection, then is unloaded. KWin lets no
/// other program do these on Wayland.
public final class KWinWindows: Sendable {
    static let interface = "org.vigil.KWinWindows1"
    static let path = "/org/vigil/KWinWindows"
    private let busAddress: String?

    public init(busAddress: String? = nil) { self.busAddress = busAddress }

    /// The normal windows, the top of the stack first (for a window manager that raises what it
    /// focuses, the most recently used first), minimised ones included.
    public func windows() throws(DBusFailure) -> [KWinListedWindow] {
        let answer = try run(
            "done(stacking().filter(w => w.normalWindow).reverse().map(w => ({id: String(w.internalId), cls: String(w.resourceClass || \"\"), "
                + "title: String(w.caption || \"\"), focused: w === active(), minimized: !!w.minimized})));")
        guard let list = try? JSONDecoder().decode([KWinListedWindow].self, from: Data(answer.utf8)) else {
            throw DBusFailure(.badReply, "Vigil's KWin script listed the windows in a form Vigil does not read")
        }
        return list
    }

    /// Brings the window to the front; false when it is gone.
    public func activate(_ id: String) throws(DBusFailure) -> Bool {
        try run("const w = find(\(Self.literal(id))); if (w) activate(w); done(!!w);") == "true"
    }

    /// Minimises the window; false when it is gone or cannot be minimised.
    public func minimise(_ id: String) throws(DBusFailure) -> Bool {
        try run("const w = find(\(Self.literal(id))); if (w && w.minimizable) w.minimized = true; done(!!(w && w.minimized));") == "true"
    }

    /// Shows a minimised window of `appClass` again behind the window in front, which keeps the
    /// focus; false when it is gone, is not minimised (the person brought it back) or is another
    /// application's.
    public func unminimise(_ id: String, appClass: String) throws(DBusFailure) -> Bool {
        try run(
            """
            const w = find(\(Self.literal(id))); const front = active();
            if (!w || !w.minimized || String(w.resourceClass) !== \(Self.literal(appClass))) { done(false); } else {
                w.minimized = false; if (front && front !== w) activate(front); done(true); }
            """) == "true"
    }

    /// Dims the window (opacity 40 %) or brightens it again; false when it is gone.
    public func dim(_ id: String, _ on: Bool) throws(DBusFailure) -> Bool {
        try run("const w = find(\(Self.literal(id))); if (w) w.opacity = \(on ? "0.4" : "1.0"); done(!!w);") == "true"
    }

    /// What every script starts with: KWin 6 and 5.27 name the same things differently
    /// (`windowList`/`clientList`, `activeWindow`/`activeClient`).
    static func prelude(service: String) -> String {
        """
        const vigil = \(literal(service));
        function all() { return workspace.windowList ? workspace.windowList() : workspace.clientList(); }
        function stacking() { const s = workspace.stackingOrder; return s && s.length !== undefined ? Array.from(s) : all(); }
        function find(id) { return all().find(w => String(w.internalId) === id) || null; }
        function active() { return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient; }
        function activate(w) { if (workspace.activeWindow !== undefined) workspace.activeWindow = w; else workspace.activeClient = w; }
        function done(result) { callDBus(vigil, "\(path)", "\(interface)", "Done", JSON.stringify(result)); }

        """
    }

    /// A JavaScript string literal of `text` (JSON's, which JavaScript reads).
    static func literal(_ text: String) -> String {
        let data = (try? JSONEncoder().encode([text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// Loads a script made of the prelude and `body` into KWin, waits (up to 5 s) for its answer,
    /// and unloads it.
    private func run(_ body: String) throws(DBusFailure) -> String {
        let bus = try BusConnection(.session, address: busAddress)
        guard let owner = try bus.nameOwner(KWinFocusDetector.kwin) else {
            throw DBusFailure(.noService, "KWin is not running (nothing owns \(KWinFocusDetector.kwin) on the session bus)")
        }
        let plugin = "vigil-windows-\(getpid())-\(bus.uniqueName.filter(\.isNumber))"
        try KWinFocusDetector.loadScript(bus, plugin: plugin, source: Self.prelude(service: bus.uniqueName) + body + "\n")
        defer { _ = try? bus.call(KWinFocusDetector.kwin, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(plugin)], timeout: 2) }
        let deadline = monotonicSeconds() + 5
        while monotonicSeconds() < deadline {
            guard let message = try bus.nextSignal(timeout: max(0, deadline - monotonicSeconds()), answeringCalls: true) else { continue }
            if message.sender == owner, message.interface == Self.interface, message.member == "Done", let answer = message.arguments.first?.string {
                return answer
            }
        }
        throw DBusFailure(.timedOut, "KWin ran Vigil's window script but it did not answer within 5 s")
    }
}
