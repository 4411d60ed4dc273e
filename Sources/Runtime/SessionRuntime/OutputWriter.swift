import Foundation
import Synchronization
import SystemCalls

/// Text for standard error. A failed write (a full disk or a file-size limit where it is
/// redirected; a closed pipe, where SIGPIPE is ignored as `vigil start` does) is dropped:
/// Foundation's `FileHandle.write(_:)` would trap instead, and a message must never end a session.
public func writeStandardError(_ text: String) { try? writeAll(2, text.utf8) }

/// Text for standard output, with the same care; a failure is kept for `standardOutputFailure()`.
public func writeStandardOutput(_ text: String) { writeStandardOutput(text.utf8) }

/// Bytes for standard output; a failure is kept for `standardOutputFailure()`.
public func writeStandardOutput(_ bytes: some Collection<UInt8>) {
    do throws(SystemError) { try writeAll(1, bytes) } catch { firstOutputFailure.withLock { $0 = $0 ?? error } }
}

private let firstOutputFailure = Mutex<SystemError?>(nil)

/// Why standard output could not all be written, if it could not: the first failed write of
/// `writeStandardOutput`, or of `print` (stdio's buffer, flushed here: glibc keeps what a failed
/// write could not write, so the flush fails again and says why). A command whose output is its
/// product (a report, a listing) then fails with exit 74 rather than end as if it had succeeded
/// with half its output on a full disk.
public func standardOutputFailure() -> String? {
    // All streams: `stdout` itself is a C global that Swift 6 will not read outside an actor.
    if fflush(nil) != 0 { return SystemError.current(call: "fflush").reason }
    return firstOutputFailure.withLock { $0 }?.reason
}

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
    public var description: String { message }
}

/// One of Vigil's outputs (a report, an export, the status file) written to a file through
/// `OutputFile`: a temporary renamed into place, or a FIFO or device written where it is. Created
/// 0600, since what Vigil writes describes a person. Errors name the file, say what was being
/// written (`what`) and why.
public final class OutputWriter {
    public let path: String
    private let what: String
    private let file: OutputFile

    /// - Parameters:
    ///   - hint: what to do when the file cannot be made, appended to the message.
    ///   - journal: where the temporary's path is kept while it exists (`VigilPaths.outputJournal`),
    ///     so that `vigil forget` finds it if the process is killed.
    public init(path: String, what: String, hint: String = "", journal: String? = nil) throws(FileWriteError) {
        self.path = path
        self.what = what
        do {
            file = try OutputFile(path: path, journal: journal)
        } catch {
            throw FileWriteError(message: "\(path): cannot write \(what): \(error.reason).\(hint.isEmpty ? "" : " " + hint)", kind: .cannotCreate)
        }
    }

    public func write(_ bytes: some Collection<UInt8>) throws(FileWriteError) {
        do { try file.write(bytes) } catch { throw failure(error) }
    }

    /// Puts the file in place; `sync` first makes it durable (fsync).
    public func commit(sync: Bool = true) throws(FileWriteError) {
        do { try file.commit(sync: sync) } catch { throw failure(error) }
    }

    private func failure(_ error: SystemError) -> FileWriteError {
        FileWriteError(message: "\(path): cannot write \(what): \(error.reason).", kind: .io)
    }
}
