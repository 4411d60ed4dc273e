import Foundation
import VigilCore

/// Instants as a person reads them, in one time zone (a command's `--time-zone`, else TZ): the one
/// formatter of local times for listings, JSON and the status. Computed from the zone's offset at
/// each instant, so a time months back is shown in the offset it had then (summer or winter time).
public struct LocalTimeFormat: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone = .current) { self.zone = zone }

    /// `2026-11-24 09:30`: local time to the minute.
    public func minute(_ t: Timestamp) -> String {
        let (day, second, _) = local(t)
        return civilDate(day) + " " + two(second / 3600) + ":" + two(second / 60 % 60)
    }

    /// `09:30`: the local time of day, to the minute.
    public func clock(_ t: Timestamp) -> String {
        let (_, second, _) = local(t)
        return two(second / 3600) + ":" + two(second / 60 % 60)
    }

    /// `2026-11-24T09:30:00+01:00`: local time to the second, with the offset from UTC then.
    public func iso8601(_ t: Timestamp) -> String {
        let (day, second, offset) = local(t)
        let sign = offset < 0 ? "-" : "+"
        return civilDate(day) + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + sign
            + two(abs(offset) / 3600) + ":" + two(abs(offset) / 60 % 60)
    }

    /// `2026-11-24 09:30:00 CET`: to the second, with the zone's abbreviation then.
    public func secondWithZone(_ t: Timestamp) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.calendar = Calendar(identifier: .gregorian)
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss zzz"
        return f.string(from: Date(timeIntervalSince1970: Double(wholeSeconds(t))))
    }

    /// The local day, the second of that day, and the offset in seconds, at `t` (to the second
    /// below it).
    private func local(_ t: Timestamp) -> (day: Int, second: Int, offset: Int) {
        let utc = wholeSeconds(t)
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc)))
        let seconds = utc + Int64(offset)
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (Int(day), Int(seconds - day * 86_400), offset)
    }

    private func wholeSeconds(_ t: Timestamp) -> Int64 {
        let ns = t.nanoseconds
        return ns >= 0 ? ns / 1_000_000_000 : -((-ns + 999_999_999) / 1_000_000_000)
    }

    private func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}
