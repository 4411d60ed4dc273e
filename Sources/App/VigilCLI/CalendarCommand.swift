import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
import VigilCore
import VigilStats

/// `vigil calendar`: what Vigil reads in the calendars of `calendar.files`.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "List the events Vigil reads in your calendars: meetings and scheduled focus blocks.",
        discussion: """
            The calendars are the iCalendar files (or directories of them, as khal and vdirsyncer \
            keep them) listed in calendar.files in your config. Recurring events are expanded, \
            with their exceptions, in their own time zones; times are shown in yours. An event \
            whose summary begins with "focus:" (or with the category FOCUS) is a scheduled focus \
            block for the task or tag it names. Files that cannot be read are named; the others \
            are listed anyway.

            Examples:
              vigil calendar
              vigil calendar --days 14 --json
              vigil calendar --from monday --days 5
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("First day (default: today): YYYY-MM-DD, monday, tomorrow ...", valueName: "date")) var from: String?
    @Option(help: "How many days, from the first.") var days = 7
    @Flag(help: "Print a JSON object: the events, and the files that could not be read (docs/json.md).") var json = false

    func validate() throws {
        if !(1...366).contains(days) { throw ValidationError("--days must be from 1 to 366.") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            let now = try common.localNow()
            let first = try from.map { try DateOption.day($0, option: "--from", now: now, common: common) } ?? now.day
            var listing = CalendarService.Listing(events: [], problems: [])
            if config.calendar.files.isEmpty {
                note("no calendars: list your .ics files or calendar directories in calendar.files in your config (`vigil config paths` finds it)")
            } else {
                listing = try CalendarService(files: config.calendar.files).events(
                    from: now.startOfDay(first), to: now.startOfDay(first + days), zone: now.zone)
            }
            for problem in listing.problems { note(problem.terminalSafe) }
            if json {
                printJSON(CalendarListingView(listing: listing, now: now).json(from: first, to: first + days - 1))
            } else {
                let out = Output()
                for line in CalendarListingView(listing: listing, now: now).lines(from: first, to: first + days - 1) { out.line(line) }
                out.flush()
            }
        }
    }
}

/// The listing, day by day.
struct CalendarListingView {
    let listing: CalendarService.Listing
    let now: LocalNow

    func kind(_ e: ScheduledEvent) -> String {
        if let subject = e.focusSubject { return "focus block: \(subject)" }
        if e.free { return "free" }
        return e.allDay ? "all day" : "meeting"
    }

    func time(_ t: Timestamp) -> String { LocalTimeFormat(zone: now.zone).clock(t) }

    func lines(from: Int, to: Int) -> [String] {
        guard !listing.events.isEmpty else { return ["No events from \(civilDate(from)) to \(civilDate(to))."] }
        var out: [String] = []
        var shownDay: Int?
        for e in listing.events {
            let day = max(from, now.localDay(e.start))
            if day != shownDay {
                out.append((shownDay == nil ? "" : "\n") + civilDate(day))
                shownDay = day
            }
            let when = e.allDay ? "all day    " : "\(time(e.start))–\(time(e.end))"
            out.append("  \(when)  \(e.summary.terminalSafe)  (\(kind(e).terminalSafe))")
        }
        return out
    }

    func json(from: Int, to: Int) -> JSONValue {
        .object([
            ("from", .day(from)), ("to", .day(to)),
            (
                "events",
                .array(
                    listing.events.map { e in
                        .object([
                            ("summary", .str(e.summary)), ("start", .time(e.start)), ("end", .time(e.end)), ("all_day", .bool(e.allDay)),
                            ("kind", .str(e.focusSubject != nil ? "focus_block" : e.free ? "free" : e.allDay ? "all_day" : "meeting")),
                            ("focus_subject", e.focusSubject.map(JSONValue.str) ?? .null), ("uid", .str(e.uid)), ("file", .str(e.file)),
                        ])
                    })
            ),
            ("problems", .array(listing.problems.map(JSONValue.str))),
        ])
    }
}
