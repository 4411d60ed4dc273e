import Foundation
import SystemCalls

/// The windows a session hid (`hide`) or dimmed (`dim`), written down before each is hidden and
/// struck off once it is back, so that none stays out of sight when the session cannot put it back itself: killed,
/// crashed, its terminal closed. The next `vigil start`, or `vigil restore`, puts back what a
/// session that is gone left hidden (docs/actions-design.md).
///
/// One JSON file in the data directory (`hidden-windows.json`), replaced whole and synced at
/// each change: a crash leaves the old list or the new one, never half of one.
public final class HiddenWindows: @unchecked Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        /// The session's process.
        public var pid: Int32
        /// The desktop that hid it ("i3", "sway") and what it needs to put it back.
        public var desktop: String
        public var token: String
        public var appClass: String
        /// What was done to it: nil for hidden, "dim" for dimmed.
        public var action: String? = nil

        public init(pid: Int32, desktop: String, token: String, appClass: String, action: String? = nil) {
            self.pid = pid
            self.desktop = desktop
            self.token = token
            self.appClass = appClass
            self.action = action
        }
    }

    public let path: String
    private let lock = NSLock()

    public init(dataDirectory: String) { path = dataDirectory + "/hidden-windows.json" }

    /// What the file lists; a file that cannot be read lists nothing (`problem` says why).
    public func entries() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }

    /// Why the file cannot be read, when it is there and cannot be (damaged, or written by hand);
    /// nil when it reads or is not there. The windows it named may still be out of sight.
    public func problem() -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard (try? JSONDecoder().decode([Entry].self, from: data)) == nil else { return nil }
        return "\(path) cannot be read (not the list Vigil writes); it is kept as \(damagedPath) once Vigil writes the list again, and "
            + "the windows it named may still be hidden or dimmed: bring them back from your desktop's window list"
    }

    /// Where a list that cannot be read is set aside, for the person to read, before a new one is written.
    public var damagedPath: String { path + ".damaged" }

    /// Notes a window before it is hidden; throws when it cannot be written (then it is not hidden).
    public func add(_ entry: Entry) throws(FileWriteError) {
        lock.lock()
        defer { lock.unlock() }
        setAsideIfDamaged()
        try save(entries() + [entry])
    }

    /// Strikes a window off once it is back (or gone); `action` as it was added.
    public func remove(token: String, action: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        setAsideIfDamaged()
        try? save(entries().filter { $0.token != token || $0.action != action })
    }

    /// A list that cannot be read is not written over: what it named is kept where the person can read it.
    private func setAsideIfDamaged() {
        if problem() != nil { rename(path, damagedPath) }
    }

    /// What sessions that are no longer running left hidden.
    public func leftBehind() -> [Entry] {
        entries().filter { $0.pid != getpid() && !processExists($0.pid) }
    }

    private func save(_ list: [Entry]) throws(FileWriteError) {
        if list.isEmpty {
            unlink(path)
            return
        }
        let writer = try OutputWriter(path: path, what: "the list of hidden windows")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writer.write((try? encoder.encode(list)) ?? Data("[]".utf8))
        try writer.commit(sync: true)
    }

    /// Puts back, through this desktop's control, the windows sessions that are gone left hidden;
    /// returns the classes put back. Entries of another desktop stay for it; a window that is gone
    /// or was brought back already is struck off.
    public func restoreLeftBehind(control: (any WindowControl)?) -> (restored: [String], problems: [String]) {
        var restored: [String] = []
        var problems: [String] = []
        for entry in leftBehind() {
            guard let control, control.name == entry.desktop else { continue }
            do {
                let back = entry.action == "dim" ? try control.dim(entry.token, false) : try control.restore(entry.token)
                if back { restored.append(entry.appClass) }
                remove(token: entry.token, action: entry.action)
            } catch {
                problems.append("\(entry.appClass): \(error.detail)")
            }
        }
        return (restored, problems)
    }
}
