import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
import SessionViews
import SystemCalls
import VigilCore

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Everything Vigil stores about you as JSON, or your tasks and sessions as a calendar.",
        discussion: """
            --all: every row of every table of the event log, as one JSON document: sessions and \
            their events, episodes, alarms and deliveries, snoozes, sensor status changes, gaps, \
            tasks, habits and their days and notes, reminders sent. The columns are described in \
            privacy.md in the documentation (`vigil config paths` finds it).

            --ics: an iCalendar file (RFC 5545) for GNOME Calendar, Thunderbird, khal and the like: \
            tasks with a deadline as to-dos (done or not, with their priority and tags) and your \
            sessions as events (what Vigil judged in the description). Each keeps its identity \
            from one export to the next, so importing again updates rather than doubles. Your own \
            words (intentions, session and task notes) stay out unless you add --with-notes. \
            --from, --to or --period limit the sessions, as for `vigil report`.

            Examples:
              vigil export --all -o vigil-export.json
              vigil export --all | jq '.tables.sessions | length'
              vigil export --ics -o ~/vigil.ics
              vigil export --ics --period :month --with-notes > month.ics
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Everything stored, as JSON.") var all = false
    @Flag(help: "Tasks with deadlines and sessions, as an iCalendar file.") var ics = false
    @Flag(help: "With --ics: include intentions and notes.") var withNotes = false
    @Option(help: ArgumentHelp("With --ics: sessions from this day on (YYYY-MM-DD, monday, :lastweek ...).", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("With --ics: sessions up to this day.", valueName: "date")) var to: String?
    @Option(help: ArgumentHelp("With --ics: sessions of a range (:month, :lastweek ...) or one day.", valueName: "range"))
    var period: String?
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file (0600) instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if all == ics { throw ValidationError("say --all (everything, as JSON) or --ics (tasks and sessions, as a calendar).") }
        if all, withNotes || from != nil || to != nil || period != nil {
            throw ValidationError("--with-notes, --from, --to and --period go with --ics: --all exports everything.")
        }
        if period != nil, from != nil || to != nil { throw ValidationError("give --from and --to, or --period, not both.") }
        try validatePath(output, "--output")
    }

    func run() async throws {
        await guarded {
            guard try common.hasLog() else {
                throw Failure("no event log at \(common.paths.databasePath.terminalSafe): Vigil has stored nothing about you here.", code: .dataError)
            }
            let log = try common.openLog(readOnly: true)
            let file = try output.map { try OutputWriter(path: $0, what: "the export", journal: common.paths.outputJournal) }
            let sink = ExportSink(file: file)
            if ics {
                let now = try common.localNow()
                let options = CalendarExportService.Options(sessions: try sessionPeriod(now), withNotes: withNotes)
                let exported = try log.calendarExport.export(options, zone: now.zone, now: now.now, version: Vigil.configuration.version)
                sink.write(exported.text)
                try sink.finish()
                let what =
                    "\(exported.todos) task\(exported.todos == 1 ? "" : "s") and \(exported.sessions) session\(exported.sessions == 1 ? "" : "s")"
                if let file { note("exported \(what) to \(file.path.terminalSafe)") } else { note("exported \(what)") }
                return
            }
            try log.exportAll(sink.write)
            try sink.finish()
            if let file { note("exported to \(file.path.terminalSafe)") }
        }
    }

    /// The sessions' period from --from/--to/--period: local days, first to last inclusive.
    private func sessionPeriod(_ now: LocalNow) throws -> Range<Timestamp>? {
        if let period {
            let r = try DateOption.period(period, option: "--period", now: now, common: common)
            return now.startOfDay(r.lowerBound)..<now.startOfDay(r.upperBound + 1)
        }
        guard from != nil || to != nil else { return nil }
        let first = try from.map { try DateOption.day($0, option: "--from", now: now, common: common, ranges: true) }
        let last = try to.map { try DateOption.day($0, option: "--to", now: now, common: common, ranges: true, end: true) }
        if let first, let last, first > last {
            throw Failure("--from \(DateOption.shown(from ?? "", first)) is after --to \(DateOption.shown(to ?? "", last)).", code: .usage)
        }
        return (first.map(now.startOfDay) ?? Timestamp(nanoseconds: .min))..<(last.map { now.startOfDay($0 + 1) } ?? Timestamp(nanoseconds: .max))
    }
}

/// Where an export goes: the output file, or standard output; the first failure is kept and thrown
/// at the end (the store's export hands its text in pieces and cannot be stopped midway).
private final class ExportSink {
    let file: OutputWriter?
    private var failure: (any Error)?
    init(file: OutputWriter?) { self.file = file }

    func write(_ text: String) {
        guard failure == nil else { return }
        if let file {
            do { try file.write(text.utf8) } catch { failure = error }
        } else {
            do throws(SystemError) { try writeAll(1, text.utf8) } catch {
                failure = Failure("cannot write the export: \(error.reason).", code: .ioError)
            }
        }
    }

    /// Throws the first failure, or commits the file.
    func finish() throws {
        if let failure { throw failure }
        try file?.commit()
    }
}

struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete everything from a period: sessions, their events, habit days, reminders.",
        discussion: """
            Days are local and inclusive. The deleted content is overwritten in the file, not just \
            unlinked. In a terminal Vigil asks first; elsewhere give --yes.

            Days are written as for `vigil report`: YYYY-MM-DD, yesterday, monday (the last one), \
            3d or 2w ago, or a range such as :lastweek (--from takes its first day, --to its last).

            Examples:
              vigil forget --from 2026-11-01 --to 2026-11-07
              vigil forget --period yesterday --yes
              vigil forget --period :lastweek
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("First day to forget: YYYY-MM-DD, yesterday, monday, 3d ago, :lastweek ... (local).", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("Last day to forget, as --from (a range is its last day).", valueName: "date")) var to: String?
    @Option(help: ArgumentHelp("Instead of --from and --to: a range (:lastweek, :month ...) or one day.", valueName: "range"))
    var period: String?
    @Flag(help: "Do not ask.") var yes = false

    func validate() throws {
        guard (period == nil) == (from != nil && to != nil), period == nil || (from == nil && to == nil) else {
            throw ValidationError("give --from and --to, or --period (such as :lastweek or yesterday).")
        }
    }

    /// The days to forget, and how they were given (for the messages).
    private func days(_ now: LocalNow) throws -> (first: Int, last: Int) {
        if let period {
            let r = try DateOption.period(period, option: "--period", now: now, common: common)
            return (r.lowerBound, r.upperBound)
        }
        let first = try DateOption.day(from ?? "", option: "--from", now: now, common: common, ranges: true)
        let last = try DateOption.day(to ?? "", option: "--to", now: now, common: common, ranges: true, end: true)
        guard first <= last else {
            throw Failure(
                "--from \(DateOption.shown(from ?? "", first)) is after --to \(DateOption.shown(to ?? "", last)).", code: .usage)
        }
        return (first, last)
    }

    func run() async throws {
        await guarded {
            let now = try common.localNow()
            let (first, last) = try days(now)
            let (from, to) = (civilDate(first), civilDate(last))
            let privacy = PrivacyService(paths: common.paths)
            guard try common.hasLog() else {
                say(leftovers: privacy.removeLeftovers())
                print("Nothing to forget: there is no event log at \(common.paths.databasePath.terminalSafe).")
                return
            }
            let forgotten = try privacy.forget(first...last, in: try common.openLog(), now: now) { sessions in
                let what = "\(sessions) session\(sessions == 1 ? "" : "s") and everything else from \(from) to \(to)"
                return try confirmed(
                    "Delete \(what)? This cannot be undone.", refusal: "forgetting cannot be undone: add --yes to delete \(what).", given: yes)
            }
            guard let forgotten else { return }
            say(leftovers: forgotten.leftovers)
            let f = forgotten.rows
            print(
                "Forgot \(f.sessions) session\(f.sessions == 1 ? "" : "s") with \(f.events) event\(f.events == 1 ? "" : "s"), \(f.habitDays) habit day\(f.habitDays == 1 ? "" : "s") and \(f.reminders) reminder\(f.reminders == 1 ? "" : "s") from \(from) to \(to)."
            )
        }
    }

    /// The temporaries of outputs a killed Vigil left (an export, a report, a recording, the
    /// status file), which forgetting removed: each held what its output held, of any period.
    private func say(leftovers removed: [String]) {
        guard !removed.isEmpty else { return }
        print(
            "Removed \(removed.count) unfinished output file\(removed.count == 1 ? "" : "s") an interrupted Vigil left: \(removed.joined(separator: ", "))."
        )
    }
}

extension PrivacyError {
    var failure: Failure {
        switch self {
        case .sessionRunning: Failure("a session is running: end it (`vigil stop`) before forgetting.", code: .failure)
        }
    }
}
