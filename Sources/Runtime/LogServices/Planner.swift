import Foundation
import VigilCore
import VigilPlanner
import VigilStats
import VigilStore

/// "Now" in the person's time zone: the instant, the local day and the local minute.
public struct LocalNow: Sendable {
    public let now: Timestamp
    public let zone: TimeZone
    public let clock: LocalClock

    public init(at now: Timestamp, zone: TimeZone = .current) {
        self.now = now
        self.zone = zone
        clock = LocalClock(timeZone: zone, from: now - 40 * 86_400, to: now + 40 * 86_400)
    }

    /// Local day, days since 1970-01-01.
    public var day: Int { clock.slot(at: now).day }
    /// Local minutes since 1970-01-01.
    public var minute: Int { localMinute(now) }

    /// The local minute (since 1970-01-01) `t` falls in.
    public func localMinute(_ t: Timestamp) -> Int {
        let local = t.nanoseconds / 1_000_000_000 + Int64(clock.offset(at: t))
        return Int(local >= 0 ? local / 60 : (local - 59) / 60)
    }

    /// The local day `t` falls on.
    public func localDay(_ t: Timestamp) -> Int {
        let m = localMinute(t)
        return m >= 0 ? m / 1440 : (m - 1439) / 1440
    }

    /// The first instant of a local day.
    public func startOfDay(_ day: Int) -> Timestamp { clock.startOfDay(day) }
}

/// What has to happen before habits are shown or reminded: days that sessions completed are
/// marked completed, then scheduled days nobody marked are failed ("the next day the tool runs").
public enum PlannerHousekeeping {
    /// How far back sessions may complete a habit's day that is still unmarked.
    public static let sessionLookBackDays = 7

    @discardableResult
    public static func run(store: EventStore, now: LocalNow) throws(StoreError) -> (completedBySessions: [(habit: Habit, day: Int)], failed: Int) {
        var completed: [(Habit, Int)] = []
        for h in try store.habits() {
            guard let task = h.autoTask, let minutes = h.autoMinutes else { continue }
            let marks = try store.habitDays(id: h.id)
            for day in max(h.createdDay, now.day - sessionLookBackDays)...now.day where marks[day] == nil && h.schedule.isScheduled(day) {
                let focused = try store.focusedMinutes(from: now.startOfDay(day), to: now.startOfDay(day + 1), task: task)
                if focused >= Double(minutes) {
                    try store.setHabitDay(id: h.id, day: day, status: .completed, source: "session")
                    completed.append((h, day))
                }
            }
        }
        let failed = try store.failUnmarkedHabitDays(today: now.day)
        return (completed, failed)
    }
}
