import Foundation
import SystemCalls
import VigilCore
import VigilImports
import VigilPlanner
import VigilStore

/// Why an import could not find what to read.
public enum ImportLocationError: Error, Equatable, Sendable {
    /// Loop's zip itself was given: it must be unpacked first.
    case zipArchive(String)
}

/// Other tools' exports as `vigil import` brings them in: each parsed export (VigilImports) turned
/// into the log's records and written all or nothing (VigilStore), remembered by its id in the
/// other tool so that a later export adds only what is new.
public struct ImportService: Sendable {
    public let store: EventStore

    public init(store: EventStore) { self.store = store }

    /// Timewarrior's closed intervals as sessions of their own: tracked, never judged. A
    /// session's task is the first of its tags that is one of the tasks' titles (Timewarrior's
    /// hook for Taskwarrior tags intervals with their task's description); its tags are kept as
    /// Timewarrior wrote them, too, beside the normalised ones. Returns the count, and the
    /// sessions added (or that would be, on a dry run).
    public func importTimewarrior(
        _ export: TimewarriorExport, dryRun: Bool, at now: Timestamp, from name: String
    ) throws -> (count: ImportCount, added: [ImportedSession]) {
        let tasks = TaskByTag(try store.tasks())
        let sessions = export.intervals.map { interval in
            let task = tasks.task(for: interval.tags)
            return ImportedSession(
                key: interval.key, task: task?.title, taskId: task?.id, tags: interval.sessionTags, start: interval.start, end: interval.end,
                detail: "[" + interval.tags.map(jsonString).joined(separator: ",") + "]")
        }
        let count = try store.importSessions(sessions, dryRun: dryRun, at: now, from: name)
        let added = Set(count.addedKeys)
        return (count, sessions.filter { added.contains($0.key) })
    }

    /// Where Loop Habit Tracker's two files are for `path`: the folder its zip unpacks to, or
    /// that folder's Habits.csv (Checkmarks.csv is read from beside it).
    public static func loopFiles(at path: String) throws(ImportLocationError) -> (habits: String, checkmarks: String) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue, path.lowercased().hasSuffix(".zip") { throw .zipArchive(path) }
        let folder = exists && isDirectory.boolValue ? path : FilePaths.directory(of: path)
        return (exists && isDirectory.boolValue ? folder + "/Habits.csv" : path, folder + "/Checkmarks.csv")
    }
}
