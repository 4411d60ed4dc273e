import Foundation
import VigilCore
import VigilStats

/// The day around a simulated person's sessions, as the all-day watch records it (`vigil simulate
/// --watch`): the computer used between sessions (mail, the browser on video or a forum, chat, the
/// editor), lunch and other spells away, now and then a locked screen, and the night asleep.
/// Its own random sequence, so a history with the day is the same history of sessions as without.
public struct DaySimulator: Sendable {
    public let configuration: VigilConfiguration
    private var random: SplitMix64

    /// What the computer is used for outside sessions, and how often (weights).
    static let uses: [(appClass: String, title: String, weight: Double)] = [
        ("thunderbird", "Inbox - Mozilla Thunderbird", 3), ("firefox", "YouTube - Mozilla Firefox", 2.5),
        ("firefox", "reddit: the front page of the internet", 1.5), ("discord", "#general - Discord", 1.5), ("code", "todo.md", 2),
        ("gnome-terminal-server", "~", 1), ("firefox", "Wikipedia - Mozilla Firefox", 1.5), ("evince", "paper.pdf", 1),
    ]
    private let apps: [(focus: AppFocus, weight: Double)]

    public init(seed: UInt64, configuration: VigilConfiguration = VigilConfiguration()) {
        self.configuration = configuration
        // Another stream than the sessions' (HistorySimulator's), from the same seed.
        random = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
        apps = Self.uses.map { u in
            let (category, rule) = configuration.apps.categorize(appClass: u.appClass, title: u.title)
            return (AppFocus(appClass: u.appClass, category: category, rule: rule), u.weight)
        }
    }

    /// The stretches of local day `day` outside `sessions` (each a start and an end), from waking
    /// to the night's sleep, which runs into the next morning.
    public mutating func day(_ day: Int, clock: LocalClock, sessions: [(start: Timestamp, end: Timestamp)], workday: Bool) -> [DayStretch] {
        let midnight = clock.startOfDay(day)
        let wake = midnight + random.uniform(7, 8.5) * 3600
        let bed = midnight + random.uniform(22.5, 24.5) * 3600
        // On a day off the computer is opened now and then: an hour or three in the afternoon.
        var open: [(Timestamp, Timestamp)] = [(wake, bed)]
        if !workday {
            let from = midnight + random.uniform(13, 17) * 3600
            open = random.chance(0.6) ? [(from, from + random.uniform(1, 3) * 3600)] : []
        }
        var out: [DayStretch] = []
        for (from, to) in open {
            var t = from
            for gap in Self.gaps(from: from, to: to, sessions: sessions) {
                t = gap.start
                while t < gap.end {
                    let minutes: Double
                    var stretch: DayStretch
                    let hour = clock.slot(at: t).hour
                    if hour == 12 && random.chance(0.5) {
                        minutes = random.uniform(25, 60)  // lunch
                        stretch = DayStretch(kind: .away, start: t, end: t)
                    } else if random.chance(0.12) {
                        minutes = random.uniform(3, 25)
                        stretch = DayStretch(kind: random.chance(0.3) ? .locked : .away, start: t, end: t)
                    } else {
                        minutes = random.uniform(1, 18)
                        let f = pick()
                        stretch = DayStretch(kind: .app, appClass: f.appClass, category: f.category, rule: f.rule, start: t, end: t)
                    }
                    // Whole seconds, as everything the simulation logs.
                    let end = min(gap.end, Timestamp(milliseconds: (t + minutes * 60).millisecondsSinceEpoch / 1000 * 1000))
                    guard end > t else { break }
                    stretch.end = end
                    out.append(stretch)
                    t = end
                }
            }
        }
        if workday || !open.isEmpty {
            // Until before the next morning's earliest waking (7:00), so no two stretches overlap.
            out.append(DayStretch(kind: .asleep, start: bed, end: clock.startOfDay(day + 1) + 6.5 * 3600))
        }
        return out
    }

    private mutating func pick() -> AppFocus {
        var r = random.uniform(0, apps.reduce(0) { $0 + $1.weight })
        for a in apps {
            r -= a.weight
            if r < 0 { return a.focus }
        }
        return apps[apps.count - 1].focus
    }

    /// [from, to) less the sessions.
    static func gaps(from: Timestamp, to: Timestamp, sessions: [(start: Timestamp, end: Timestamp)]) -> [(start: Timestamp, end: Timestamp)] {
        var out: [(Timestamp, Timestamp)] = []
        var cursor = from
        for s in sessions.sorted(by: { $0.start < $1.start }) where s.end > cursor && s.start < to {
            if s.start > cursor { out.append((cursor, s.start)) }
            cursor = max(cursor, s.end)
        }
        if cursor < to { out.append((cursor, to)) }
        return out
    }
}
