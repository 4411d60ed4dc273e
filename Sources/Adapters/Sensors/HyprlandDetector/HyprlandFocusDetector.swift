import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

#if canImport(Glibc)
    import Glibc
#endif

/// The application in front under Hyprland, from its two IPC sockets (wiki.hypr.land/IPC):
/// `.socket2.sock` writes a line `EVENT>>DATA` for every event, among them
/// `activewindow>>CLASS,TITLE` at each change of the window in front (`activewindow>>,` for none);
/// `.socket.sock` answers one request per connection, here `j/activewindow` (the window in front as
/// JSON, `{}` for none), for the state before the first event.
///
/// The sockets are in `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/` (Hyprland 0.40 and
/// later) or `/tmp/hypr/$HYPRLAND_INSTANCE_SIGNATURE/` (before). Titles are used for matching and
/// dropped unless `apps.store_titles` (`FocusTracker`). When Hyprland goes away the detector says
/// so and reconnects with a growing delay.
public final class HyprlandFocusDetector: Detector, Sendable {
    public let sensor = SensorKind.app
    /// The instance's socket directory.
    public let directory: String
    private let apps: VigilConfiguration.Apps
    private let retry: Backoff

    /// - Parameters:
    ///   - directory: the folder holding the instance's `.socket.sock` and `.socket2.sock`.
    ///   - apps: the rules that categorise applications, and whether titles may be stored.
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public init(directory: String, apps: VigilConfiguration.Apps = .init(), retry: Backoff = .reconnect) {
        self.directory = directory
        self.apps = apps
        self.retry = retry
    }

    /// The socket folder of the Hyprland instance the environment names, nil outside Hyprland: the
    /// one under `$XDG_RUNTIME_DIR/hypr/` when its event socket is there, else the one under
    /// `/tmp/hypr/` (Hyprland before 0.40).
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty, !signature.contains("/"), signature != ".",
            signature != ".."
        else { return nil }
        let candidates = (environment["XDG_RUNTIME_DIR"].map { ["\($0)/hypr/\(signature)"] } ?? []) + ["/tmp/hypr/\(signature)"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/.socket2.sock") } ?? candidates[0]
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .app, threadName: "vigil-hyprland-focus") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        var tracker = FocusTracker(apps: apps)
        let events = directory + "/.socket2.sock"
        context.keepConnecting(retry: retry) {
            var connected = false
            do {
                let fd = try connectUnixSocket(events)
                defer { close(fd) }
                // Subscribed first, then asked: a change between the two is not missed, only told twice.
                let now = try Self.activeWindow(requestSocket: directory + "/.socket.sock")
                connected = true
                context.report(.available, "the window in front from Hyprland's event socket at \(events)")
                if let change = tracker.focus(appClass: now?.appClass, title: now?.title) { context.emit(.app(change)) }
                var lines = EventLines()
                var chunk = [UInt8](repeating: 0, count: 16384)
                while !context.isStopped {
                    guard waitReadable(fd, orStop: context.stopDescriptor, seconds: 60) else { continue }
                    if context.isStopped { break }
                    let count = try syscall("read", path: events) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
                    guard count > 0 else { throw HyprlandError.closed }
                    for line in try lines.take(chunk[0..<count]) {
                        guard let window = Self.activeWindowEvent(line) else { continue }
                        if let change = tracker.focus(appClass: window.appClass, title: window.title) { context.emit(.app(change)) }
                    }
                }
                return .stopped
            } catch {
                let message =
                    connected
                    ? "lost Hyprland's event socket at \(events) (\(error)); reconnecting"
                    : "cannot use Hyprland's sockets in \(directory) (\(error)); is Hyprland running? Retrying."
                return connected ? .lost(message) : .failed(message)
            }
        }
    }

    /// The window an `activewindow>>CLASS,TITLE` line names: nil for another event; a nil class
    /// for no window (`activewindow>>,`). The class holds no comma; the title may.
    static func activeWindowEvent(_ line: Substring) -> (appClass: String?, title: String?)? {
        let prefix = "activewindow>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        let comma = data.firstIndex(of: ",") ?? data.endIndex
        let appClass = String(data[..<comma])
        let title = comma < data.endIndex ? String(data[data.index(after: comma)...]) : ""
        return appClass.isEmpty ? (nil, nil) : (appClass, title)
    }

    /// The window in front, asked on the request socket (`j/activewindow`): nil for none. The
    /// connection is closed at once: Hyprland serves this socket synchronously.
    static func activeWindow(requestSocket path: String) throws -> (appClass: String, title: String)? {
        let fd = try connectUnixSocket(path)
        defer { close(fd) }
        let request = Array("j/activewindow".utf8)
        _ = try syscall("write", path: path) { request.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        let deadline = monotonicSeconds() + 5
        while reply.count < EventLines.longest {
            let left = deadline - monotonicSeconds()
            guard left > 0, waitReadable(fd, orStop: -1, seconds: left) else { throw HyprlandError.noReply }
            let count = try syscall("read", path: path) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
            if count == 0 { break }
            reply.append(contentsOf: chunk[0..<count])
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply))) as? [String: Any] else { throw HyprlandError.notHyprland }
        guard let appClass = object["class"] as? String, !appClass.isEmpty else { return nil }
        return (appClass, object["title"] as? String ?? "")
    }
}

/// What went wrong on Hyprland's sockets, besides a system call.
enum HyprlandError: Error, CustomStringConvertible {
    case closed, noReply, notHyprland, lineTooLong

    var description: String {
        switch self {
        case .closed: "Hyprland closed the connection"
        case .noReply: "no answer to j/activewindow within 5 s"
        case .notHyprland: "the answer to j/activewindow is not Hyprland's JSON"
        case .lineTooLong: "a line of over 1 MB: not Hyprland's event socket"
        }
    }
}

/// The event socket's bytes cut into lines (UTF-8, newline-ended); a line longer than `longest`
/// is not Hyprland talking.
struct EventLines {
    static let longest = 1 << 20
    private var pending: [UInt8] = []

    mutating func take(_ bytes: ArraySlice<UInt8>) throws(HyprlandError) -> [Substring] {
        pending.append(contentsOf: bytes)
        var lines: [Substring] = []
        var start = 0
        for i in pending.indices where pending[i] == UInt8(ascii: "\n") {
            lines.append(Substring(String(decoding: pending[start..<i], as: UTF8.self)))
            start = i + 1
        }
        pending.removeFirst(start)
        guard pending.count <= Self.longest else { throw .lineTooLong }
        return lines
    }
}
