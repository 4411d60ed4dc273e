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
        abstract: "Everything Vigil stores about you, as one JSON document.",
        discussion: """
            Every row of every table of the event log: sessions and their events, episodes, alarms \
            and deliveries, snoozes, sensor status changes, gaps, tasks, habits and their days and \
            notes, reminders sent. The columns are described in privacy.md in the documentation (`vigil config paths` finds it).

            Examples:
              vigil export --all -o vigil-export.json
              vigil export --all | jq '.tables.sessions | length'
            """)
    @OptionGroup var common: CommonOptions
    @Flag(help: "Everything (the only export there is, for now; say it to mean it).") var all = false
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file (0600) instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if !all { throw ValidationError("say --all: vigil export --all gives everything stored about you.") }
        try validatePath(output, "--output")
    }

    func run() async throws {
        await guarded {
            guard try common.hasLog() else {
                throw Failure("no event log at \(common.paths.databasePath.terminalSafe): Vigil has stored nothing about you here.", code: .dataError)
            }
            let log = try common.openLog(readOnly: true)
            let file = try output.map { try OutputWriter(path: $0, what: "the export", journal: common.paths.outputJournal) }
            var failure: (any Error)?
            try log.exportAll { text in
                guard failure == nil else { return }
                if let file {
                    do { try file.write(text.utf8) } catch { failure = error }
                } else {
                    do throws(SystemError) { try writeAll(1, text.utf8) } catch {
                        failure = Failure("cannot write the export: \(error.reason).", code: .ioError)
                    }
                }
            }
            if let failure { throw failure }
            if let file {
                try file.commit()
                note("exported to \(file.path.terminalSafe)")
            }
        }
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
