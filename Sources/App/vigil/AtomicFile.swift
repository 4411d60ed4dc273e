import Foundation

/// Writes all of `bytes` to `fd`, however many write(2) calls that takes. False on an error
/// (errno says which).
@discardableResult
func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
    let buffer = Array(bytes)
    var offset = 0
    while offset < buffer.count {
        let n = buffer.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
    }
    return true
}

/// Text for standard error. A failed write (a full disk or a file-size limit where it is
/// redirected; a closed pipe, where SIGPIPE is ignored as `vigil start` does) is dropped:
/// Foundation's `FileHandle.write(_:)` would trap instead, and a message must never end a session.
func writeStandardError(_ text: String) { writeAll(2, text.utf8) }

/// Text for standard output, with the same care.
func writeStandardOutput(_ text: String) { writeAll(1, text.utf8) }

/// A file written through a temporary file next to it and renamed into place by `commit`: a
/// reader never sees half of it, and a failure leaves no partial file. Created 0600: what Vigil
/// writes describes a person. Errors name the file, say what was being written (`what`) and why.
final class AtomicFile {
    let path: String
    private let tmp: String
    private let what: String
    private var fd: Int32

    /// - Parameter hint: what to do when the file cannot be made, appended to the message.
    init(path: String, what: String, hint: String = "") throws {
        self.path = path
        self.what = what
        let dir = (path as NSString).deletingLastPathComponent
        tmp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure("\(path): cannot write \(what): \(String(cString: strerror(errno))).\(hint.isEmpty ? "" : " " + hint)", code: .cannotCreate)
        }
    }

    func write(_ bytes: some Collection<UInt8>) throws {
        guard writeAll(fd, bytes) else { throw failure() }
    }

    /// Puts the file in place; `sync` first makes it durable (fsync).
    func commit(sync: Bool = true) throws {
        guard !sync || fsync(fd) == 0, close(fd) == 0 else { throw failure() }
        fd = -1
        guard rename(tmp, path) == 0 else { throw failure() }
    }

    private func failure() -> Failure {
        let reason = String(cString: strerror(errno))
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(tmp)
        return Failure("\(path): cannot write \(what): \(reason).", code: .ioError)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(tmp)
        }
    }
}
