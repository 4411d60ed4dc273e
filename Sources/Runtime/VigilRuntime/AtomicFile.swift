import Foundation
import SystemCalls
import VigilCore

/// Writes all of `bytes` to `fd`, however many write(2) calls that takes; an interrupted call is
/// made again. Throws the errno of the write that failed.
public func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(SystemError) {
    let buffer = Array(bytes)
    var offset = 0
    while offset < buffer.count {
        let n = try buffer.withUnsafeBufferPointer { (b) throws(SystemError) in
            try syscall("write") { Foundation.write(fd, b.baseAddress! + offset, b.count - offset) }
        }
        // write(2) returns 0 only for a count of 0; were it ever to, a retry would spin.
        guard n > 0 else { throw SystemError(call: "write", errno: EIO) }
        offset += n
    }
}

/// Text for standard error. A failed write (a full disk or a file-size limit where it is
/// redirected; a closed pipe, where SIGPIPE is ignored as `vigil start` does) is dropped:
/// Foundation's `FileHandle.write(_:)` would trap instead, and a message must never end a session.
public func writeStandardError(_ text: String) { try? writeAll(2, text.utf8) }

/// Text for standard output, with the same care.
public func writeStandardOutput(_ text: String) { try? writeAll(1, text.utf8) }

/// A file that cannot be written, with the path, what was being written and why.
public struct FileWriteError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The file (its temporary) could not be created: choose another path.
        case cannotCreate
        /// Writing, syncing or renaming it failed.
        case io
    }
    public var message: String
    public var kind: Kind
    /// On one line, inert in a terminal: the path is the person's.
    public var description: String { message.terminalSafe }
}

/// A file written through a temporary file next to it and renamed into place by `commit`: a
/// reader never sees half of it, and a failure leaves no partial file. Created 0600: what Vigil
/// writes describes a person. Errors name the file, say what was being written (`what`) and why.
public final class AtomicFile {
    public let path: String
    private let tmp: String
    private let what: String
    private var fd: Int32

    /// - Parameter hint: what to do when the file cannot be made, appended to the message.
    public init(path: String, what: String, hint: String = "") throws(FileWriteError) {
        self.path = path
        self.what = what
        let dir = (path as NSString).deletingLastPathComponent
        tmp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let tmp = tmp
        do {
            fd = try syscall("open", path: tmp) { open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        } catch {
            throw FileWriteError(message: "\(path): cannot write \(what): \(error.reason).\(hint.isEmpty ? "" : " " + hint)", kind: .cannotCreate)
        }
    }

    public func write(_ bytes: some Collection<UInt8>) throws(FileWriteError) {
        do { try writeAll(fd, bytes) } catch { throw failure(error) }
    }

    /// Puts the file in place; `sync` first makes it durable (fsync).
    public func commit(sync: Bool = true) throws(FileWriteError) {
        do {
            if sync { try syscall("fsync", path: tmp) { fsync(fd) } }
            let closing = fd
            // Gone whatever close says (Linux frees the descriptor even on EINTR): never closed twice.
            fd = -1
            try syscall("close", path: tmp, restartable: false) { close(closing) }
            try syscall("rename", path: tmp) { rename(tmp, path) }
        } catch {
            throw failure(error)
        }
    }

    /// Gives up the file (closed and unlinked) after `error`.
    private func failure(_ error: SystemError) -> FileWriteError {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(tmp)
        return FileWriteError(message: "\(path): cannot write \(what): \(error.reason).", kind: .io)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(tmp)
        }
    }
}
