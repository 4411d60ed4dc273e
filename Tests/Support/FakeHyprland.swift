import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for Hyprland's two sockets in a folder of its own, speaking its documented IPC
/// (wiki.hypr.land/IPC): Hyprland is not in Debian 12, so it cannot run here (`HyprlandDetectorTests`).
public final class FakeHyprland: @unchecked Sendable {
    public let directory: String
    private let state: Mutex<(active: (String, String)?, clients: [Int32], stopped: Bool)>
    private let listeners: [Int32]

    /// Listens in `directory` (a new temporary folder when nil), with `active` (class, title) in front.
    public init(active: (String, String)?, directory: String? = nil) throws {
        let dir = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("hypr-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.directory = dir
        state = Mutex((active, [], false))
        listeners = [try Self.listen(dir + "/.socket.sock"), try Self.listen(dir + "/.socket2.sock")]
        let (requests, events) = (listeners[0], listeners[1])
        Thread { [self] in
            while let fd = accept(requests) {
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(fd, &buffer, buffer.count)
                let asked = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
                let reply: String
                if asked == "j/activewindow", let (c, t) = state.withLock({ $0.active }) {
                    let json = try? JSONSerialization.data(withJSONObject: ["class": c, "title": t, "address": "0x5e1f"])
                    reply = json.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                } else {
                    reply = asked == "j/activewindow" ? "{}" : "unknown request"
                }
                _ = reply.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
                close(fd)
            }
        }.start()
        Thread { [self] in
            while let fd = accept(events) { state.withLock { $0.clients.append(fd) } }
        }.start()
    }

    /// Whether a client listens on the event socket.
    public var hasSubscriber: Bool { !state.withLock { $0.clients.isEmpty } }

    /// Whether a client listens on the event socket, waited for up to `timeout` seconds.
    public func subscribed(timeout: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if hasSubscriber { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Writes `line` and a newline to every client of the event socket.
    public func event(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        state.withLock { s in for fd in s.clients { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } } }
    }

    /// Goes away as Hyprland quitting does: the sockets closed and removed.
    public func stop() {
        let clients = state.withLock { s -> [Int32] in
            guard !s.stopped else { return [] }
            s.stopped = true
            return s.clients
        }
        for fd in clients { close(fd) }
        // Closed, not only shut down: a connection still waiting to be accepted is refused too.
        for fd in listeners {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
        for name in [".socket.sock", ".socket2.sock"] { try? FileManager.default.removeItem(atPath: directory + "/" + name) }
    }

    /// The next client, close-on-exec: a child the tests start meanwhile must not hold it open
    /// (closing it here would then not end the connection).
    private func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    private static func listen(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else { throw TestFailure("cannot listen on \(path): \(String(cString: strerror(errno)))") }
        return fd
    }
}
