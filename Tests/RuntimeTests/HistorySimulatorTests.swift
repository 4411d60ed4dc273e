import Foundation
import HistorySimulation
import Testing
import VigilCore

/// `vigil simulate`'s person works in applications: the log it fills has stretches in editors,
/// terminals, readers and the browser, and distracting ones that cause `app` episodes, the same
/// history for the same seed.
@Suite struct HistorySimulatorTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// Forty days up to 2026-11-21, session by session.
    func history(seed: UInt64) -> [[SessionEvent]] {
        var simulator = HistorySimulator(seed: seed, timeZone: berlin, signals: .builtIn)
        var sessions: [[SessionEvent]] = []
        let last = civilDay("2026-11-21")!
        simulator.run(days: (last - 39)...last) { sessions.append($0) }
        return sessions
    }

    @Test func sessionsHaveApplicationsAndDistractingOnesCauseEpisodes() throws {
        let sessions = history(seed: 1)
        var categories: [AppCategory: Set<String>] = [:]
        var causes: [Cause: Int] = [:]
        var withApplications = 0
        for events in sessions {
            var stretches: [ActivitySpan] = []
            for e in events {
                if case .activity(let span) = e.kind, case .app(let cls, let category, _) = span.activity {
                    categories[category, default: []].insert(cls)
                    stretches.append(span)
                }
            }
            if !stretches.isEmpty { withApplications += 1 }
            for e in events {
                guard case .episodeStarted(let episode) = e.kind else { continue }
                causes[episode.cause, default: 0] += 1
                // An app episode begins while a distracting application is in front.
                if episode.cause == .app {
                    let held = stretches.first { $0.start <= episode.start && episode.start < $0.end }
                    guard case .app(_, let category, _)? = held?.activity else {
                        Issue.record("no stretch holds the app episode at \(episode.start)")
                        continue
                    }
                    #expect(category == .distracting)
                }
            }
        }
        #expect(withApplications == sessions.count, "every session has the application in front")
        #expect(categories[.work] == ["code", "evince", "gnome-terminal-server", "zotero"], "\(categories)")
        #expect(categories[.neutral] == ["firefox", "thunderbird"], "\(categories)")
        #expect(categories[.distracting] == ["discord", "firefox", "steam"], "\(categories)")
        // Distracting applications cause episodes; tab-hopping (Ctrl+Tab, counted even with the
        // application known) still makes switching ones, and the other causes stay.
        for cause in [Cause.app, .switching, .away, .noise, .location] { #expect((causes[cause] ?? 0) > 0, "\(cause): \(causes)") }
    }

    @Test func theSameSeedGivesTheSameHistory() {
        #expect(history(seed: 3) == history(seed: 3))
        #expect(history(seed: 3) != history(seed: 4))
    }
}
