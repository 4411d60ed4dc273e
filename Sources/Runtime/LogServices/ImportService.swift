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

/// An export that cannot be read: where, and that nothing was imported (exit 65).
public struct ImportFailure: PersonFacingError {
    public let problem: ImportProblem
    public var description: String { problem.description + ". Nothing was imported." }
    public var exitStatus: ExitStatus { .dataError }
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
                detail: JSONValue.strings(interval.tags).text)
        }
        let count = try store.importSessions(sessions, dryRun: dryRun, at: now, from: name)
        let added = Set(count.addedKeys)
        return (count, sessions.filter { added.contains($0.key) })
    }

    /// Taskwarrior's `task export` (`data`, read from `file`) as tasks; what it held, and the
    /// count added (or that would be, on a dry run).
    public func importTaskwarrior(
        _ data: Data, file: String, dryRun: Bool, at now: Timestamp
    ) throws -> (export: TaskwarriorExport, count: ImportCount) {
        let export: TaskwarriorExport
        do throws(ImportProblem) {
            export = try TaskwarriorExport.parse(data, file: file, zone: .current, now: now)
        } catch {
            throw ImportFailure(problem: error)
        }
        return (export, try store.importTasks(export.tasks.map { ($0.uuid, $0.task) }, dryRun: dryRun, at: now, from: file))
    }

    /// Timewarrior's `timew export` (`data`, read from `file`), as `importTimewarrior(_:…)`.
    public func importTimewarrior(
        _ data: Data, file: String, dryRun: Bool, at now: Timestamp
    ) throws -> (export: TimewarriorExport, count: ImportCount, added: [ImportedSession]) {
        let export: TimewarriorExport
        do throws(ImportProblem) {
            export = try TimewarriorExport.parse(data, file: file, now: now)
        } catch {
            throw ImportFailure(problem: error)
        }
        let (count, added) = try importTimewarrior(export, dryRun: dryRun, at: now, from: file)
        return (export, count, added)
    }

    /// Loop Habit Tracker's two CSV files as habits and their days; `source` names the export in
    /// messages and in what the log remembers.
    public func importLoop(
        habits: (data: Data, file: String), checkmarks: (data: Data, file: String), from source: String, dryRun: Bool, today: Int,
        at now: Timestamp
    ) throws -> (export: LoopExport, count: ImportCount) {
        let export: LoopExport
        do throws(ImportProblem) {
            export = try LoopExport.parse(
                habitsCSV: habits.data, habitsFile: habits.file, checkmarksCSV: checkmarks.data, checkmarksFile: checkmarks.file, today: today)
        } catch {
            throw ImportFailure(problem: error)
        }
        return (export, try store.importHabits(export.habits, dryRun: dryRun, today: today, at: now, from: source))
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
