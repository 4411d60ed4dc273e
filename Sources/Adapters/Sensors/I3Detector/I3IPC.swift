import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A failure on an i3 or sway IPC socket.
public enum I3IPCError: Error, Equatable, CustomStringConvertible {
    /// A system call on the socket failed (connect: No such file or directory).
    case system(SystemError)
    /// The window manager closed the connection (it quit or restarted).
    case closed
    /// The bytes do not start with "i3-ipc": not an i3 or sway socket.
    case notIPC
    /// The SUBSCRIBE request was refused.
    case refused(String)
    /// A command failed (the window manager's words).
    case commandFailed(String)

    public var description: String {
        switch self {
        case .system(let e): e.description
        case .closed: "the window manager closed the connection"
        case .notIPC: "the socket does not speak i3's IPC protocol"
        case .refused(let reply): "the window manager refused the subscription: \(reply)"
        case .commandFailed(let what): "the window manager did not do it: \(what)"
        }
    }
}

/// One message of i3's IPC protocol, which sway speaks too: "i3-ipc", the payload's length and the
/// type (32-bit, host byte order), then JSON. Replies carry their request's type; events have bit
/// 31 set.
struct I3Message: Equatable {
    var type: UInt32
    var payload: Data

    static let magic = Data("i3-ipc".utf8)
    static let headerSize = 14
    static let maximumPayload: UInt32 = 64 << 20

    enum Request: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getTree = 4
        case getVersion = 7
    }

    static let workspaceEvent: UInt32 = 0x8000_0000
    static let windowEvent: UInt32 = 0x8000_0003

    /// The bytes on the wire.
    var encoded: Data {
        var data = I3Message.magic
        withUnsafeBytes(of: UInt32(payload.count)) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { data.append(contentsOf: $0) }
        data.append(payload)
        return data
    }

    /// Takes the first whole message off the front of `buffer`; nil until one has arrived.
    static func take(from buffer: inout Data) throws(I3IPCError) -> I3Message? {
        guard buffer.count >= headerSize else { return nil }
        let start = buffer.startIndex
        guard buffer[start..<start + 6] == magic else { throw .notIPC }
        let header = Data(buffer[start + 6..<start + headerSize])
        let (length, type) = header.withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 0, as: UInt32.self), $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        }
        // A longer payload than any tree of windows is not the window manager talking.
        guard length <= maximumPayload else { throw .notIPC }
        guard buffer.count >= headerSize + Int(length) else { return nil }
        let payload = Data(buffer[start + headerSize..<start + headerSize + Int(length)])
        buffer = Data(buffer[(start + headerSize + Int(length))...])
        return I3Message(type: type, payload: payload)
    }
}

/// A connection to an i3 or sway IPC socket. Owns the descriptor and closes it in `deinit`.
final class I3Connection {
    let fd: Int32
    let path: String
    private var buffer = Data()
    /// What one `read` takes, kept between reads rather than allocated for each.
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init(path: String) throws(I3IPCError) {
        self.path = path
        do {
            fd = try connectUnixSocket(path)
        } catch { throw .system(error) }
    }

    deinit { close(fd) }

    func send(_ request: I3Message.Request, _ payload: String = "") throws(I3IPCError) {
        let data = I3Message(type: request.rawValue, payload: Data(payload.utf8)).encoded
        var sent = 0
        while sent < data.count {
            do {
                // MSG_NOSIGNAL: a window manager that has quit is EPIPE here, not SIGPIPE for the process.
                sent += try syscall("send", path: path) {
                    data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                }
            } catch { throw .system(error) }
        }
    }

    /// The messages that arrive within `seconds` (none when nothing came, or when `stop` became
    /// readable: the session stops).
    func receive(waiting seconds: Double, stop: Int32 = -1) throws(I3IPCError) -> [I3Message] {
        var messages: [I3Message] = []
        while let m = try I3Message.take(from: &buffer) { messages.append(m) }
        guard messages.isEmpty else { return messages }
        guard waitReadable(fd, orStop: stop, seconds: seconds) else { return [] }
        let count: Int
        do {
            count = try syscall("read", path: path) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
        } catch { throw .system(error) }
        guard count > 0 else { throw .closed }
        buffer.append(contentsOf: chunk[0..<count])
        while let m = try I3Message.take(from: &buffer) { messages.append(m) }
        return messages
    }
}
