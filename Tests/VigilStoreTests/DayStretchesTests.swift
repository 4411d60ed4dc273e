import Foundation
import GRDB
import Testing
import VigilCore

@testable import VigilStore

/// The all-day watch's rows: merged when they continue each other, a day long at most, found by
/// any period they reach into, and never bringing back what `vigil forget` deleted.
@Suite struct DayStretchesTests {
    static let t0 = Timestamp(seconds: 1_800_000_000)
    static func away(_ from: Double, _ to: Double) -> DayStretch { DayStretch(kind: .away, start: t0 + from, end: t0 + to) }

    @Test func rowsMergeSplitByTheDayAndAreFoundFromAnyDayTheyReach() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        // Away, a moment, away again: one row. A week asleep: seven rows of a day.
        try store.recordStretches([Self.away(0, 60)])
        try store.recordStretches([Self.away(60, 120)])
        try store.recordStretches([DayStretch(kind: .asleep, start: Self.t0 + 200, end: Self.t0 + 200 + 7 * 86_400)])
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT kind, start_ms, end_ms FROM day_stretches ORDER BY start_ms") }
        #expect(rows.count == 8, "\(rows)")
        #expect(rows.allSatisfy { ($0[2] as Int64) - ($0[1] as Int64) <= 86_400_000 })
        // The sixth day of the sleep is found by its own day, though the sleep began a week before.
        let sixth = try store.dayStretches(from: Self.t0 + 5.5 * 86_400, to: Self.t0 + 5.6 * 86_400)
        #expect(sixth.map(\.kind) == [.asleep] && sixth.first.map { $0.end - $0.start } == 0.1 * 86_400, "\(sixth)")
    }

    @Test func aStretchThatEndsAfterAForgetDoesNotBringThePeriodBack() throws {
        let store = try EventStore(path: tempDir() + "/vigil.sqlite3")
        // A stretch in progress since before the period that `vigil forget` deletes now, written
        // when it ends: only the part outside the forgotten period is kept.
        let started = Timestamp(seconds: Date().timeIntervalSince1970 - 3600)
        try store.forget(from: started + 600, to: started + 1200, fromDay: 0, toDay: 0)
        try store.recordStretches([DayStretch(kind: .app, appClass: "firefox", category: .distracting, start: started, end: started + 1800)])
        let kept = try store.dayStretches(from: started - 60, to: started + 3600)
        #expect(kept.map { ($0.start - started, $0.end - started) }.map { "\(Int($0.0))-\(Int($0.1))" } == ["0-600", "1200-1800"], "\(kept)")
    }
}
