import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
import SystemCalls
import VigilCore
import VigilPlanner

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in tasks, tracked time and habits from Taskwarrior, Timewarrior and Loop Habit Tracker.",
        discussion: """
            Each import is all or nothing: a record that cannot be read stops it (exit 65, with the \
            file, the record and the field) before anything is written. Records follow the rules \
            the commands keep (a session as `vigil session add` takes it; no NUL in text). \
            `vigil undo` takes the last import back. Every record is remembered \
            by its id in the other tool, so importing the same export again (or a later one) adds \
            only what is new. --dry-run says what would be imported and writes nothing.

            Examples:
              task export > tasks.json && vigil import taskwarrior tasks.json
              timew export | vigil import timewarrior -
              unzip "Loop Habits CSV 2026-11-20.zip" -d loop && vigil import loop loop
            """,
        subcommands: [Taskwarrior.self, Timewarrior.self, Loop.self]
    )

    struct Taskwarrior: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "taskwarrior",
            abstract: "Import Taskwarrior's `task export` as tasks.",
            discussion: """
                The title, due date (local time), priority (H, M, L; none is medium), tags, the \
                project (as one more tag) and annotations (as the note) come across; a completed \
                task is done when Taskwarrior says it was; deleted tasks and recurrence templates \
                are skipped (their instances are imported).

                Examples:
                  task export > tasks.json && vigil import taskwarrior tasks.json --dry-run
                  task export | vigil import taskwarrior -
                """)
        @OptionGroup var options: ImportOptions

        func run() async throws {
            await guarded {
                let now = try options.common.currentTime()
                let (data, name) = try options.read()
                let (parsed, count) = try options.service().importTaskwarrior(data, file: name, dryRun: options.dryRun, at: now)
                if options.dryRun {
                    let added = Set(count.addedKeys)
                    for e in parsed.tasks where added.contains(e.uuid) {
                        let t = e.task
                        let facts = [
                            t.done.map { "done \(CivilTime($0).iso8601)" }, t.due.map { "due \($0.text)" }, "\(t.priority.rawValue) priority",
                            t.tags.isEmpty ? nil : "tags " + t.tags.joined(separator: ","),
                        ].compactMap { $0 }
                        print("  \(t.title.terminalSafe) (\(facts.joined(separator: ", ").terminalSafe))")
                    }
                }
                let skipped =
                    [
                        count.already > 0 ? "\(count.already) already imported" : nil,
                        parsed.deleted > 0 ? "\(parsed.deleted) skipped: deleted" : nil,
                        parsed.recurring > 0 ? "\(parsed.recurring) skipped: recurrence template\(parsed.recurring == 1 ? "" : "s")" : nil,
                    ].compactMap { $0 }
                print(options.summary("\(count.added) task\(count.added == 1 ? "" : "s")", skipped, from: name))
            }
        }
    }

    struct Timewarrior: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timewarrior",
            abstract: "Import Timewarrior's `timew export` as sessions of their own.",
            discussion: """
                Each closed interval becomes a session with the source "imported" and the \
                interval's tags as its tags (lower case, as `vigil session tag` keeps them). Its task \
                is the first tag that is one of your tasks' titles (Timewarrior's hook for \
                Taskwarrior tags intervals with their task's description), else none. Vigil did not \
                watch that time: it is tracked time, never focused time, and reports show it apart \
                ("Tracked"). An interval still being tracked is skipped; import again once it is \
                stopped.

                Examples:
                  timew export > time.json && vigil import timewarrior time.json
                  timew export :year | vigil import timewarrior -
                  vigil session list --last all --tag thesis
                  vigil report --last all --tag thesis
                """)
        @OptionGroup var options: ImportOptions

        func run() async throws {
            await guarded {
                let now = try options.common.currentTime()
                let (data, name) = try options.read()
                let (parsed, count, new) = try options.service().importTimewarrior(data, file: name, dryRun: options.dryRun, at: now)
                if options.dryRun {
                    for s in new {
                        let tags = s.tags.isEmpty ? "no tags" : "[" + s.tags.joined(separator: ", ") + "]"
                        let task = s.task.map { ", task \"\($0)\"" } ?? ""
                        print(
                            "  \(CivilTime(s.start).iso8601) to \(CivilTime(s.end).iso8601), \(humanDuration(s.end - s.start)): \((tags + task).terminalSafe)"
                        )
                    }
                }
                let total = new.reduce(0.0) { $0 + ($1.end - $1.start) }
                let time = new.isEmpty ? [] : [humanDuration(total)]
                let skipped = [
                    count.already > 0 ? "\(count.already) already imported" : nil,
                    parsed.open > 0 ? "\(parsed.open) skipped: still being tracked" : nil,
                    parsed.empty > 0 ? "\(parsed.empty) skipped: no time (the same start and end)" : nil,
                ].compactMap { $0 }
                print(options.summary("\(count.added) session\(count.added == 1 ? "" : "s")", time + skipped, from: name))
                if count.added > 0, !options.dryRun {
                    print("Imported time is tracked, not judged: reports show it as Tracked, never as focused time (`vigil session list` lists it).")
                }
            }
        }
    }

    struct Loop: AsyncParsableCommand {
        /// Habits.csv and Checkmarks.csv, read from the folder (or the Habits.csv) given.
        private func readFiles() throws -> (habits: (data: Data, file: String), checkmarks: (data: Data, file: String)) {
            guard options.file != "-" else {
                throw Failure(
                    "vigil import loop reads two files (Habits.csv and Checkmarks.csv), not standard input: give the folder Loop's zip unpacks to.",
                    code: .usage)
            }
            let habits: String
            let checkmarks: String
            do throws(ImportLocationError) {
                (habits, checkmarks) = try ImportService.loopFiles(at: options.file)
            } catch {
                throw Failure(
                    "\(options.file.terminalSafe): a zip archive: unzip it first (`unzip FILE -d loop`), then give the folder: `vigil import loop loop`.",
                    code: .dataError)
            }
            return ((try readFile(habits), habits), (try readFile(checkmarks), checkmarks))
        }

        /// A habit a dry run would import: `  Read (new, every day, 12 days done)`.
        static func wouldImport(_ name: String, new: Bool, _ schedule: String, done: Int, archived: Bool) -> String {
            let what = new ? "new" : "into the existing habit"
            return "  \(name.terminalSafe) (\(what), \(schedule), \(done) day\(done == 1 ? "" : "s") done\(archived ? ", archived" : ""))"
        }

        /// Marks on days after `today`, left out, with where the first three are.
        static func leftOut(_ marks: [(place: String, day: Int)], today: Int) -> String {
            let count = marks.count
            let places = marks.prefix(3).map { "\($0.place): \(civilDate($0.day))" }
            return
                ("Left out \(count) mark\(count == 1 ? "" : "s") on days after today (\(civilDate(today))): a day is marked once it has come. "
                + places.joined(separator: "; ") + (count > 3 ? "; and \(count - 3) more" : "")
                + ". Mark \(count == 1 ? "it" : "them") with `vigil habit check` when the day comes.").terminalSafe
        }

        static let configuration = CommandConfiguration(
            commandName: "loop",
            abstract: "Import Loop Habit Tracker's CSV export as habits and their days.",
            discussion: """
                Loop exports a zip ("Loop Habits CSV DATE.zip"): unzip it and give the folder (or \
                its Habits.csv; Checkmarks.csv is read from beside it). A day you checked is done, \
                a skipped day skipped; the others are not marked. Every day stays every day, N \
                times a week stays so, other frequencies become the times a week nearest above \
                (the summary says which). A habit of the same name, or imported before, gets the \
                days it has not marked. Numerical habits are skipped: Vigil's are done or not.

                Examples:
                  unzip "Loop Habits CSV 2026-11-20.zip" -d loop
                  vigil import loop loop --dry-run
                  vigil import loop loop/Habits.csv
                """)
        @OptionGroup var options: ImportOptions

        func run() async throws {
            await guarded {
                let now = try options.common.currentTime()
                let local = LocalNow(at: now, zone: options.common.zone)
                let (habits, checkmarks) = try readFiles()
                let (parsed, count) = try options.service().importLoop(
                    habits: habits, checkmarks: checkmarks, from: options.file, dryRun: options.dryRun, today: local.day, at: now)
                if options.dryRun {
                    let added = Set(count.addedKeys)
                    for h in parsed.habits {
                        let done = h.days.values.filter { $0 == .completed }.count
                        print(Self.wouldImport(h.name, new: added.contains(h.name), h.schedule.description, done: done, archived: h.archived))
                    }
                }
                for note in parsed.notes { print("Note: \(note.terminalSafe).") }
                // Marks on days that have not come (a phone's clock ahead, a mark set ahead in
                // Loop): left out, as `vigil habit check` refuses them, and said where they are.
                if !parsed.future.isEmpty {
                    print(Self.leftOut(parsed.future.map { ("\($0.file), record \($0.line), field '\($0.habit)'", $0.day) }, today: local.day))
                }
                let skipped = [
                    count.merged > 0 ? "\(count.merged) into habits already here" : nil,
                    count.already > 0 ? "\(count.already) imported before and deleted since: left out" : nil,
                    parsed.numerical.isEmpty
                        ? nil : "\(parsed.numerical.count) skipped: numerical (\(parsed.numerical.map { $0.terminalSafe }.joined(separator: ", ")))",
                ].compactMap { $0 }
                print(
                    options.summary(
                        "\(count.added) habit\(count.added == 1 ? "" : "s") and \(count.days) day\(count.days == 1 ? "" : "s")", skipped,
                        from: options.file))
            }
        }
    }
}

/// What every import takes: the file, --dry-run, and the common options.
struct ImportOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions
    @Argument(help: ArgumentHelp("The export to read; - for standard input.", valueName: "file")) var file: String
    @Flag(help: "Say what would be imported, and write nothing.") var dryRun = false

    func validate() throws { try validatePath(file, "FILE", naming: "the export (- for standard input)") }

    /// The file's contents and its name for messages.
    func read() throws -> (Data, String) {
        if file == "-" { return (FileHandle.standardInput.readDataToEndOfFile(), "standard input") }
        return (try readFile(file), file)
    }

    /// The log to import into; for a dry run without a log, an empty one in memory (a dry run
    /// creates nothing).
    func service() throws -> ImportService {
        if dryRun, !(try common.hasLog()) { return LocalLog.inMemory().imports }
        return try common.openLog().imports
    }

    /// `Imported 12 tasks (3 skipped: deleted) from FILE.`, or with --dry-run what would be.
    func summary(_ what: String, _ notes: [String], from name: String) -> String {
        let detail = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        return (dryRun ? "Would import " : "Imported ") + what + detail + " from \(name.terminalSafe)"
            + (dryRun ? "; nothing was written (--dry-run)." : ".")
    }
}

/// A file's contents; a file that cannot be read is an I/O failure (exit 74) that names it.
private func readFile(_ path: String) throws -> Data {
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
        throw Failure("\(path.terminalSafe): cannot read: \(reason ?? "\(error)".terminalSafe).", code: .ioError)
    }
}
