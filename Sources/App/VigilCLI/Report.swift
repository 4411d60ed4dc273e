import ArgumentParser
import Foundation
import LogServices
import ReportViews
import SessionRuntime
import SessionViews
import VigilCore
import VigilPlanner
import VigilStats

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report when, how long and why you procrastinate.",
        discussion: """
            When you focus well and when you drift: focus share and episodes per judged hour by \
            hour of the day and weekday (the best and worst hours need an hour of judged time), \
            the change from the period before, the week-by-week profile, tasks, causes, \
            procrastination-free days and streaks (the 21/90 model), alarms and recovery, \
            achievements, and each application's time in front and the episodes it caused. \
            Days and hours are in the local time zone (TZ, or --time-zone), which \
            the report names.

            Formats: text (fits the terminal and pages through $PAGER, as git does, when longer \
            than the screen; NO_COLOR is respected), json and csv (stable fields, see \
            \(documented("report-fields.md")); csv one --table at a time), markdown, html (one \
            self-contained dashboard, light and dark, no network needed).

            Examples:
              vigil report
              vigil report --last 30d --task thesis
              vigil report --period :lastweek
              vigil report --from monday
              vigil report --from 2026-11-01 --to 2026-11-30 --format html -o november.html
              vigil report --last all --format csv -o days.csv
              vigil report --last 90d --format csv --table hours
              vigil report --source all

            Only your own sessions count unless --source says otherwise: live ones and a simulated \
            history, judged by Vigil, and time tracked without being judged (imported by `vigil \
            import timewarrior`, added by `vigil session add`), which the report shows apart as \
            "Tracked", never as focused time. Replays (`vigil replay --log`) and rehearsals (`vigil \
            start --replay --log`) re-judge time already lived; the report says how many it left out.

            Dates are local: YYYY-MM-DD, today, yesterday, a weekday (the last one, today \
            included), 3d/2w/1mo/1y ago, and the ranges :week (calendar.week_starts), :lastweek, \
            :month, :lastmonth, :quarter, :lastquarter, :year, :lastyear, :today, :yesterday.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(
        help: ArgumentHelp(
            "First day: YYYY-MM-DD, yesterday, monday (the last one, today included), 3d, 2w or 1mo ago, or a range's first day (:lastmonth).",
            valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last day (default: today), as --from; a range is its last day.", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("The period ending today: 7d, 2w, 1mo, 1y, any number of days or weeks, or all (default: 7d).", valueName: "span"))
    var last: String?

    @Option(
        help: ArgumentHelp(
            "A range, up to today: :today, :yesterday, :week, :lastweek, :month, :lastmonth, :quarter, :lastquarter, :year, :lastyear (or one day).",
            valueName: "range"))
    var period: String?

    @Option(help: ArgumentHelp("Only the sessions of this task: its number or title, or a session's name (`vigil start --task`).", valueName: "task"))
    var task: String?

    @Option(help: ArgumentHelp("Only the sessions with this tag (`vigil start --tag`), or on a task with it.", valueName: "tag"))
    var tag: String?

    @Option(help: ArgumentHelp("Only the sessions of this device, by its name (`vigil device`; default: every synced device).", valueName: "name"))
    var device: String?

    @Flag(help: "Compare the members of your group (sync.group) over the period: their daily figures, nothing finer.")
    var group = false

    @Option(name: .customLong("source"), help: sourceHelp(default: SessionSource.own), completion: sourceCompletion)
    var sourceText: String?

    @Option(help: ArgumentHelp("text, json, csv, markdown or html.", valueName: "format"), completion: .list(ReportFormat.allCases.map(\.rawValue)))
    var format: String = "text"

    @Option(
        help: ArgumentHelp(
            "With --format csv: which table, days, hours, weekdays, weeks, tasks, devices or apps (default: days).", valueName: "table"),
        completion: .list(Report.CSVTable.allCases.map(\.rawValue)))
    var table: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the report to a file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        try validateSources(sourceText)
        guard ReportFormat(rawValue: format) != nil else {
            throw ValidationError(
                "--format must be one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(format.terminalSafe)'.")
        }
        if let table {
            guard format == "csv" else { throw ValidationError("--table goes with --format csv: the other formats hold every table.") }
            guard Report.CSVTable(rawValue: table) != nil else {
                throw ValidationError(
                    "--table must be one of \(Report.CSVTable.allCases.map(\.rawValue).joined(separator: ", ")); got '\(table.terminalSafe)'.")
            }
        }
        if last != nil, from != nil || to != nil {
            throw ValidationError("use either --last or --from/--to, not both.")
        }
        if period != nil, from != nil || to != nil || last != nil {
            throw ValidationError("use either --period or --from/--to or --last, not two of them.")
        }
        try validatePath(output, "--output")
    }

    /// `--group`: vigil-sync reads the group's database and prints the comparison (the PostgreSQL
    /// client is in vigil-sync only). The period: --last (7 days by default), as text or JSON.
    func compareGroup() throws {
        let configuration = try common.loadConfiguration()
        guard let url = configuration.sync.url, configuration.sync.group != nil else {
            throw Failure(
                "no group is set up: add sync.url and sync.group (and sync.group_url if the group has a database of its own) to \(common.paths.configFile.terminalSafe) (keys in man vigil.yaml, section sync).",
                code: .configuration)
        }
        guard from == nil, to == nil, period == nil, task == nil, tag == nil, device == nil, last != "all", format == "text" || format == "json"
        else {
            throw Failure(
                "--group takes --last (7d, 2w, 1mo ...) and --format text or json only: the group has daily figures, nothing by task or device.",
                code: .usage)
        }
        let today = try common.localNow().day
        let days = today - (try Self.firstDay(ofLast: last ?? "7d", today: today)) + 1
        var call = SyncToolCall(log: common.paths.databasePath, url: url, sync: configuration.sync)
        call.arguments += ["--group-report", String(days)] + (format == "json" ? ["--json"] : [])
        throw Failure(try execSyncTool(call), code: .unavailable)
    }

    /// The first day of `--last` (`7d`: today and the six days before).
    static func firstDay(ofLast span: String, today: Int) throws -> Int {
        guard let first = DateExpression.firstDay(ofLast: span, today: today) else {
            throw Failure(
                "--last: '\(span.terminalSafe)' is not a span; use 7d, 2w, 1mo or 1y (the days ending today, a month: since this day last month), or all; "
                    + "for a range such as :week, --period.", code: .usage)
        }
        return first
    }

    /// The period's days: `--period`, `--from`/`--to`, or `--last` (nil first day: all of it).
    func days(_ now: LocalNow) throws -> (from: Int?, to: Int) {
        let today = now.day
        if let period {
            let r = try DateOption.period(period, option: "--period", now: now, common: common)
            guard r.lowerBound <= today else {
                throw Failure(
                    "--period: '\(period.terminalSafe)' (from \(civilDate(r.lowerBound))) has not begun yet; a report ends today.", code: .usage)
            }
            return (r.lowerBound, min(r.upperBound, today))
        }
        let toDay = try to.map { try DateOption.day($0, option: "--to", now: now, common: common, ranges: true, end: true) } ?? today
        guard let from else { return (last == "all" ? nil : try Self.firstDay(ofLast: last ?? "7d", today: toDay), toDay) }
        let first = try DateOption.day(from, option: "--from", now: now, common: common, ranges: true)
        guard first <= toDay else {
            throw Failure(
                to == nil
                    ? "--from \(DateOption.shown(from, first)) is after the period's last day (\(civilDate(toDay)), today); give --to as well for a period ahead."
                    : "--from \(DateOption.shown(from, first)) is after --to \(DateOption.shown(to ?? "", toDay)).", code: .usage)
        }
        return (first, toDay)
    }

    func run() async throws {
        await guarded {
            if group { try compareGroup() }
            let zone = common.zone
            let now = try common.localNow()
            let (fromDay, toDay) = try days(now)
            let sources = sourceText.flatMap(SessionSource.selection) ?? SessionSource.own

            // Reading must not create anything: without a log the report is empty.
            let service = try common.hasLog() ? try common.openLog(readOnly: true).reports : ReportService.withoutLog
            var query = ReportQuery(from: fromDay, to: toDay, zone: zone, today: now.day, task: task, tag: tag, device: device, sources: sources)
            let config = try common.loadConfiguration()
            query.learnedDays = config.apps.learned.compactMap { civilDay($0.learned) }
            query.goals = config.goals
            query.calendarFiles = config.calendar.files
            query.now = now.now
            query.calendarProblem = { note($0.terminalSafe) }
            let report = try service.report(query)
            let kind = ReportFormat(rawValue: format)!
            func rendered(color: Bool = false, width: Int = 80) -> String {
                kind == .csv ? report.csv(table.flatMap(Report.CSVTable.init) ?? .days) : report.rendered(as: kind, color: color, width: width)
            }
            if let output {
                let file = try OutputWriter(
                    path: output, what: "the report", hint: "Choose another file with -o.", journal: common.paths.outputJournal)
                try file.write(rendered().utf8)
                try file.commit()
                if isatty(2) != 0 { note("report written to \(output.terminalSafe)") }
            } else if kind == .text, let screen = Pager.terminalSize() {
                let env = ProcessInfo.processInfo.environment
                let color = (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
                Pager.show(rendered(color: color, width: screen.columns), rows: screen.rows)
            } else {
                // As rendered, byte for byte: CSV lines end in CRLF.
                writeStandardOutput(rendered())
            }
        }
    }

}

extension ReportError {
    var failure: Failure {
        switch self {
        case .noTask(let task, _, logExists: false):
            Failure(
                "no session has the task '\(task.terminalSafe)': the event log is empty. Give a session a task with `vigil start --task NAME`.",
                code: .dataError)
        case .noTask(let task, let known, logExists: true):
            Failure(
                "no session has the task '\(task.terminalSafe)'."
                    + (known.isEmpty
                        ? " No session has a task yet: give one with `vigil start --task NAME`."
                        : " Known tasks: \(known.map { "'\($0.terminalSafe)'" }.joined(separator: ", "))."),
                code: .dataError)
        case .noDevice(let device, let known):
            Failure(
                "no device is named '\(device.terminalSafe)'. Known devices: \(known.map { "'\($0.terminalSafe)'" }.joined(separator: ", ")) (`vigil device`).",
                code: .dataError)
        }
    }
}
