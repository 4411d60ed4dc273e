import ArgumentParser
import DisplayWidth
import Foundation
import SessionRuntime
import VigilCore

/// `vigil apps`: the applications recent sessions saw in front, with their time and category, so a
/// person can classify them in `apps.rules`.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the applications your sessions saw in front, with their time and category.",
        discussion: """
            Time counts while a session judged (not paused, no gap). The category is the one the \
            application had when it was in front; "now" shows what your current `apps.rules` \
            say of its class (rules on titles cannot be shown: titles are not kept). Change a \
            category by adding a rule to `apps.rules` in your config (`vigil config paths`).

            Your own sessions count (live ones and a simulated history); --source adds replays \
            and rehearsals.

            Examples:
              vigil apps
              vigil apps --days 90 --json
              vigil apps --source replay
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "How many days back to look, today included.")
    var days = 30

    @OptionGroup var source: SourceOptions

    @Flag(help: "Print a JSON object: the applications, longest in front first, and calls (docs/json.md).")
    var json = false

    func validate() throws {
        if !(1...36_500).contains(days) { throw ValidationError("--days must be from 1 to 36500.") }
    }

    func run() async throws {
        await guarded {
            let configuration = try common.loadConfiguration()
            let now = try common.localNow()
            guard try common.hasLog() else {
                if json {
                    printJSON(AppsListing(totals: [], apps: configuration.apps).json(from: now.day - days + 1, to: now.day))
                } else {
                    print(Log.noSessions)
                }
                return
            }
            let totals = try common.openLog(readOnly: true).reports.activityTotals(
                from: now.startOfDay(now.day - days + 1), to: now.startOfDay(now.day + 1), sources: source.sources)
            if json {
                printJSON(AppsListing(totals: totals, apps: configuration.apps).json(from: now.day - days + 1, to: now.day))
                return
            }
            let out = Output()
            for line in AppsListing(totals: totals, apps: configuration.apps).lines() { out.line(line) }
            out.flush()
        }
    }
}

/// The listing itself: applications longest first, then calls.
struct AppsListing {
    let totals: [ActivityTotal]
    let apps: VigilConfiguration.Apps

    /// The listing as `apps --json` prints it (docs/json.md): the local days it covers, each
    /// application with its category then and by its class now, and the calls.
    func json(from: Int, to: Int) -> JSONValue {
        let applications = totals.filter { !$0.isCall && $0.appClass != nil }
        let calls = totals.filter(\.isCall)
        return .object([
            ("from", .day(from)), ("to", .day(to)),
            (
                "apps",
                .array(
                    applications.map { t in
                        .object([
                            ("app_class", .string(t.appClass!)), ("category", .string(t.category?.rawValue ?? "neutral")),
                            ("category_now", .string(apps.categorize(appClass: t.appClass!, title: nil).category.rawValue)),
                            ("time_s", .seconds(t.seconds)), ("stretches", .int(t.stretches)),
                        ])
                    })
            ),
            ("calls", .object([("count", .int(calls.map(\.stretches).reduce(0, +))), ("time_s", .seconds(calls.map(\.seconds).reduce(0, +)))])),
        ])
    }

    func lines() -> [String] {
        let applications = totals.filter { !$0.isCall && $0.appClass != nil }
        let calls = totals.filter(\.isCall)
        guard !applications.isEmpty || !calls.isEmpty else {
            return [
                "No applications seen in front in this period. The application in front is seen on X11 window managers, i3 and "
                    + "sway (`vigil sensors` says whether it is here)."
            ]
        }
        // An application's class is what the window said of itself: inert, and padded as shown.
        let names = applications.map { $0.appClass!.terminalSafe }
        let width = max(12, names.map(\.displayWidth).max() ?? 0)
        var out = zip(applications, names).map { t, shown in
            let name = shown.padded(toWidth: width)
            let had = t.category?.rawValue ?? "neutral"
            let now = apps.categorize(appClass: t.appClass!, title: nil).category.rawValue
            let time = humanDuration(t.seconds)
            return "\(name)  \(time.padded(toWidth: 12))  \(had)" + (now != had ? " (by class now: \(now))" : "")
        }
        for c in calls { out.append("calls: \(c.stretches), \(humanDuration(c.seconds)) in all") }
        return out
    }
}
