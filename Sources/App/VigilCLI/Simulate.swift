import ArgumentParser
import Foundation
import HistorySimulation
import SessionRuntime
import SessionViews
import VigilCore
import VigilStats

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fill a new event log with a simulated person's history, to try reports.",
        discussion: """
            Days of focus sessions, with pauses and sleeps, are fed through the real state \
            machine as samples of four sensors, and the events logged: input activity (typing, \
            spells away from the keyboard), the application in front (an editor, a terminal, a \
            reader, the browser; now and then a video site, a forum, chat or a game, classified by \
            the default apps rules; tab-hopping storms), microphone loudness (loud rooms) and \
            location (walks away); not the desktop's idle time or screen lock, nor calls. The same \
            seed gives the same history. It refuses a log that already \
            has sessions: give it a new --data-dir. With --watch, the day around the sessions \
            too, as the all-day watch (vigil daemon --watch) records it: mail, video, chat and \
            the editor between sessions, lunch and other spells away, locked screens, the night \
            asleep; the sessions are the same as without it.

            Examples:
              vigil simulate --data-dir /tmp/vigil-demo --days 90
              vigil report --data-dir /tmp/vigil-demo --last 30d
              vigil simulate --data-dir /tmp/vigil-day --days 30 --watch
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "How many days of history, ending yesterday (or --until).")
    var days = 90

    @Option(help: ArgumentHelp("Last simulated day (default: yesterday): YYYY-MM-DD, monday (the last one), 3d or 2w ago ...", valueName: "date"))
    var until: String?

    @Option(help: "Seed of the simulation.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Sessions on a working day, as MIN-MAX.", valueName: "range"))
    var sessionsPerDay: String?

    @Flag(help: "The day around the sessions too, as the all-day watch records it.")
    var watch = false

    @Flag(help: "A load test instead of a person: sessions back to back every day, five times the distractions (the report benchmark).")
    var stress = false

    func validate() throws {
        if days < 1 || days > 36_500 { throw ValidationError("--days must be between 1 and 36500.") }
        if sessionsPerDay != nil, sessionRange == nil {
            throw ValidationError("--sessions-per-day takes MIN-MAX, like 3-7; got '\((sessionsPerDay ?? "").terminalSafe)'.")
        }
    }

    var sessionRange: ClosedRange<Int>? {
        guard let sessionsPerDay else { return nil }
        let parts = sessionsPerDay.split(separator: "-")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 1, b >= a, b <= 60 else { return nil }
        return a...b
    }

    func run() async throws {
        await guarded {
            let zone = common.zone
            // What was typed is read before the log is opened: a bad --until creates nothing.
            let now = try common.localNow()
            let last = try until.map { try DateOption.day($0, option: "--until", now: now, common: common) } ?? now.day - 1
            var profile = stress ? HistorySimulator.Profile.stress : HistorySimulator.Profile()
            if let range = sessionRange { profile.sessionsPerDay = range }
            var simulator = HistorySimulator(seed: seed, timeZone: zone, signals: Composition.registry.signals, profile: profile)
            let log = try common.openLog()
            let progress = isatty(2) != 0
            let day = watch ? DaySimulator(seed: seed) : nil
            let (sessions, events) = try log.simulate(&simulator, days: last - days + 1...last, day: day) { done in
                if progress { writeStandardError("\rvigil: simulated \(done) of \(days) days") }
            }
            if progress { writeStandardError("\r\u{1B}[K") }
            print(
                "Simulated \(days) days ending \(Statistics.dateString(last)) in \(zone.identifier): \(sessions) sessions, \(events) events, logged to \(log.path.terminalSafe)."
            )
        }
    }
}

extension LogNotEmpty {
    var failure: Failure {
        Failure(
            "\(path.terminalSafe) already has \(sessions) sessions; a simulated history would mix with them. Give a new directory with --data-dir.",
            code: .dataError)
    }
}
