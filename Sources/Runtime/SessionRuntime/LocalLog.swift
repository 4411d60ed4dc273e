import Foundation
import VigilCore
import VigilStore

/// The event log on this computer as the commands reach it: opened once per command (read-only
/// when the command only reads), and the services over it. Commands name no store type; they ask
/// the log for a service, or for one of the few facts no rule stands between them and (the
/// devices, the last change to undo), in the style of GRDB's `AppDatabase`. A session writes to it
/// (`SessionRunner`); the services over it are LogServices'.
public struct LocalLog: Sendable {
    /// For the runtime's modules (the session and the services over the log); commands name no store.
    package let store: EventStore

    /// The log a store already open keeps (tests, and the runtime's own callers).
    public init(_ store: EventStore) { self.store = store }

    /// The log cannot be opened: what is in it cannot be used (exit 65), or it cannot be made or
    /// reached (exit 73).
    public struct OpenError: PersonFacingError {
        let underlying: StoreError
        public var description: String { underlying.description }
        public var exitStatus: ExitStatus { underlying.kind == .contents ? .dataError : .cannotCreate }
    }

    /// Opens (and creates, or brings up to date, unless `readOnly`) the log at `path`.
    /// - Parameter readOnly: the command only reads (a read-only file is read, not refused).
    public static func open(at path: String, readOnly: Bool = false) throws(OpenError) -> LocalLog {
        do {
            return LocalLog(try EventStore(path: path, readOnly: readOnly))
        } catch {
            throw OpenError(underlying: error)
        }
    }

    /// A log in memory, dropped at the end: a dry run's, or a rehearsal's that is not kept.
    public static func inMemory() -> LocalLog { LocalLog(EventStore()) }

    /// The file, for messages.
    public var path: String { store.path }

    /// What opening it found worth saying (a log from a newer Vigil read as far as it can be).
    public var warning: String? { store.warning }

    // Facts without a rule between them and the person.

    /// Takes back the last change the person made by hand; its label, or nil when there is none.
    public func undoLastChange() throws -> String? { try store.undoLastChange() }

    /// The devices this log knows, this one first.
    public func devices() throws -> [SyncDevice] { try store.devices() }

    /// Renames this device as other devices will see it.
    public func renameThisDevice(_ name: String) throws { try store.renameThisDevice(name) }

    /// Everything stored, as the export's JSON text in pieces.
    public func exportAll(_ emit: (String) -> Void) throws { try store.exportAll(emit) }
}
