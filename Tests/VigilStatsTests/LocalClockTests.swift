import Foundation
import Testing
import VigilCore

@testable import VigilStats

/// Splitting time into local hours, checked against hand-worked DST nights and, for many random
/// intervals in several zones, against Foundation's calendar asked minute by minute.
@Suite struct LocalClockTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func split(_ clock: LocalClock, _ from: String, _ to: String) -> [String: Double] {
        var out: [String: Double] = [:]
        clock.split(from: parseRFC3339(from)!, to: parseRFC3339(to)!) { slot, seconds in
            let d = slot.date
            out[String(format: "%04d-%02d-%02d %02d", d.year, d.month, d.day, slot.hour), default: 0] += seconds / 60
        }
        return out
    }

    /// 2026-03-29, 02:00 CET becomes 03:00 CEST: 23:30 CET (22:30Z) to 03:30 CEST (01:30Z) is three
    /// real hours, and the local hour 2 does not exist that night.
    @Test func springForwardHasNoHourTwo() {
        let clock = LocalClock(timeZone: berlin, from: parseRFC3339("2026-03-28T00:00:00Z")!, to: parseRFC3339("2026-03-30T00:00:00Z")!)
        let got = split(clock, "2026-03-28T22:30:00Z", "2026-03-29T01:30:00Z")
        #expect(got == ["2026-03-28 23": 30, "2026-03-29 00": 60, "2026-03-29 01": 60, "2026-03-29 03": 30])
    }

    /// 2026-10-25, 03:00 CEST becomes 02:00 CET: 01:30 CEST (23:30Z) to 03:30 CET (02:30Z) is three
    /// real hours, two of them in the local hour 2.
    @Test func fallBackCountsHourTwoTwice() {
        let clock = LocalClock(timeZone: berlin, from: parseRFC3339("2026-10-24T00:00:00Z")!, to: parseRFC3339("2026-10-26T00:00:00Z")!)
        let got = split(clock, "2026-10-24T23:30:00Z", "2026-10-25T02:30:00Z")
        #expect(got == ["2026-10-25 01": 30, "2026-10-25 02": 120, "2026-10-25 03": 30])
    }

    @Test func weekdaysAreISO() {
        let clock = LocalClock(timeZone: berlin, from: parseRFC3339("2026-03-01T00:00:00Z")!, to: parseRFC3339("2026-04-01T00:00:00Z")!)
        #expect(clock.slot(at: parseRFC3339("2026-03-29T10:00:00Z")!).weekday == 7)  // a Sunday
        #expect(clock.slot(at: parseRFC3339("2026-03-30T10:00:00Z")!).weekday == 1)  // a Monday
        // 23:30 UTC on Saturday the 28th is already Sunday 00:30 in Berlin.
        #expect(
            clock.slot(at: parseRFC3339("2026-03-28T23:30:00Z")!) == HourSlot(day: clock.slot(at: parseRFC3339("2026-03-29T10:00:00Z")!).day, hour: 0)
        )
    }

    /// Random intervals in zones with DST on either hemisphere, a half-hour offset, a 45-minute one
    /// and Lord Howe Island's half-hour daylight saving (its clock changes off the hour), against
    /// Foundation's Calendar asked for the local date and hour of every minute.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"])
    func agreesWithFoundationMinuteByMinute(zone: String) {
        let tz = TimeZone(identifier: zone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        let from = parseRFC3339("2026-01-01T00:00:00Z")!
        let to = parseRFC3339("2027-01-01T00:00:00Z")!
        let clock = LocalClock(timeZone: tz, from: from, to: to)
        var rng = SplitMix64(seed: UInt64(zone.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        // The year's DST nights are in here for sure, plus random starts.
        var starts = (0..<40).map { _ in from + Double(rng.next() % 31_536_000 / 60 * 60) }
        var cursor = Date(timeIntervalSince1970: from.secondsSinceEpoch)
        while let t = tz.nextDaylightSavingTimeTransition(after: cursor), t.timeIntervalSince1970 < to.secondsSinceEpoch {
            starts.append(Timestamp(seconds: t.timeIntervalSince1970 - 7200))
            cursor = t
        }
        for start in starts {
            let end = start + Double(60 * (1 + Int(rng.next() % 300)))
            var got: [HourSlot: Double] = [:]
            clock.split(from: start, to: end) { got[$0, default: 0] += $1 / 60 }
            var want: [HourSlot: Double] = [:]
            var t = start
            while t < end {
                let c = calendar.dateComponents([.year, .month, .day, .hour], from: Date(timeIntervalSince1970: t.secondsSinceEpoch))
                let day = Int(CivilTime.daysFromCivil(year: c.year!, month: c.month!, day: c.day!))
                want[HourSlot(day: day, hour: c.hour!), default: 0] += 1
                t = t + 60
            }
            #expect(!want.isEmpty)
            #expect(got.mapValues { $0.rounded() } == want, "\(zone) from \(start) for \(end - start) s")
        }
    }

    /// The statistics' path in whole milliseconds (`split(_: Span)`, `slot(ms:)`) cuts and places
    /// time exactly as the path in nanoseconds: random spans of up to three days, before and after
    /// 1970 and across every clock change of the years, in zones with whole, half-hour and
    /// 45-minute offsets and a half-hour daylight saving.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"])
    func millisecondsAreCutAsNanosecondsAre(zone: String) {
        let tz = TimeZone(identifier: zone)!
        let from = Timestamp(milliseconds: -400 * 86_400_000)
        let to = parseRFC3339("2027-01-01T00:00:00Z")!
        let clock = LocalClock(timeZone: tz, from: from, to: to)
        var rng = SplitMix64(seed: UInt64(zone.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        let first = from.millisecondsSinceEpoch
        let range = UInt64(to.millisecondsSinceEpoch - 3 * 86_400_000 - first)
        var starts = (0..<2000).map { _ in first + Int64(rng.next() % range) }
        var cursor = Date(timeIntervalSince1970: from.secondsSinceEpoch)
        while let t = tz.nextDaylightSavingTimeTransition(after: cursor), t.timeIntervalSince1970 < to.secondsSinceEpoch - 86_400 {
            let change = Int64(t.timeIntervalSince1970.rounded()) * 1000
            starts += [change - 1, change, change + 1, change - 3_600_001]
            cursor = t
        }
        for start in starts {
            let span = Span(start, start + Int64(rng.next() % (3 * 86_400_000)))
            var got: [(HourSlot, Int64)] = []
            clock.split(span) { got.append(($0, $1)) }
            var want: [(HourSlot, Int64)] = []
            clock.split(from: Timestamp(milliseconds: span.start), to: Timestamp(milliseconds: span.end)) {
                want.append(($0, Int64(($1 * 1000).rounded())))
            }
            let same = got.count == want.count && zip(got, want).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            #expect(same, "\(zone) \(span)")
            let slot = clock.slot(ms: start)
            let expected = clock.slot(at: Timestamp(milliseconds: start))
            #expect(slot == expected, "\(zone) \(start)")
        }
    }
}
