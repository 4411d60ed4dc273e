import Foundation
import GRDB
import SystemCalls
import VigilCore

/// The store cannot be opened or written, with the path and what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The file or its directory cannot be made, opened or written.
        case access
        /// What is in the file cannot be used: damaged, or written by a newer Vigil.
        case contents
    }
    public var path: String
    public var message: String
    public var kind: Kind
    public init(path: String, message: String, kind: Kind = .access) {
        self.path = path
        self.message = message
        self.kind = kind
    }
    /// On one line, inert in a terminal: the path is the person's (`--data-dir`), and SQLite's
    /// message may quote what it read.
    public var description: String { "\(path): \(message)".terminalSafe }
}

extension StoreError: PersonFacingError {
    /// A log with contents Vigil cannot use is a data error; one it cannot reach, an I/O error.
    public var exitStatus: ExitStatus { kind == .contents ? .dataError : .ioError }
}

extension DatabaseReader {
    /// Reads the log at `path`; a failure says so, with the file and why.
    func read<T>(logAt path: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try storeCall(path, failing: "cannot read the event log") { try read(body) }
    }
}

extension DatabaseWriter {
    /// Writes to the log at `path` in one transaction; a failure says so, with the file and why.
    func write<T>(logAt path: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try storeCall(path, failing: "cannot write to the event log") { try write(body) }
    }
}

/// Runs `call` on the log at `path`; its failure becomes a `StoreError`: "`what`: why".
func storeCall<T>(_ path: String, failing what: String, _ call: () throws -> T) throws(StoreError) -> T {
    do {
        return try call()
    } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
        // SQLite's words alone ("database disk image is malformed") leave the person stuck.
        throw StoreError(
            path: path,
            message: "\(what): \(reasonText(error)). The log is damaged: restore it from a backup, or recover what still reads with "
                + "`sqlite3 \(path) .recover | sqlite3 recovered.sqlite3` and use that file (move the damaged one aside first); "
                + "`vigil export --all -o FILE` saves what can still be read.",
            kind: .contents)
    } catch {
        throw StoreError(path: path, message: "\(what): \(reasonText(error))")
    }
}

/// Why a database call failed, in words for a message: SQLite's own for its errors.
func reasonText(_ error: any Error) -> String {
    if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
    if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
        // Foundation's file errors carry the errno of the call beneath; only its text is wanted.
        return SystemError(call: "Foundation", errno: Int32(u.code)).reason
    }
    return "\(error)"
}
