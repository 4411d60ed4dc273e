import CICal
import Foundation
import VigilCore

/// Why a calendar could not be read or written, in words for the person.
public struct CalendarError: PersonFacingError, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
    /// libical missing is the machine's; everything else names a file that cannot be used.
    public var exitStatus: ExitStatus { description.hasPrefix("libical could not be loaded") ? .unavailable : .dataError }
}

/// libical, opened when the calendar is first used. Its calls are made one at a time: libical keeps
/// process-wide state (its error state, its cache of built-in time zones, its ring of returned
/// strings) that is not safe to share between threads.
enum ICal {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened = false

    /// Runs `body` with libical open and to itself.
    static func with<T>(_ body: () throws(CalendarError) -> T) throws(CalendarError) -> T {
        lock.lock()
        defer { lock.unlock() }
        if !opened {
            var why = [CChar](repeating: 0, count: 512)
            guard vigil_load_libical(&why, why.count) == 0 else {
                let reason = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                throw CalendarError("libical could not be loaded (\(reason)): install the libical3 package (apt install libical3).")
            }
            // libical may be built to abort on a malformed input; a calendar is the person's file.
            icalerror_set_errors_are_fatal(0)
            opened = true
        }
        return try body()
    }

    /// A time in UTC (`DTSTAMP:20261129T103000Z`), to the second.
    static func utc(_ t: Timestamp) -> icaltimetype {
        icaltime_from_timet_with_zone(time_t(t.secondsSinceEpoch.rounded(.down)), 0, icaltimezone_get_utc_timezone())
    }

    /// A calendar date (`DUE;VALUE=DATE:20261130`): a day, not an instant.
    static func date(day: Int) -> icaltimetype {
        let c = CivilTime.civil(fromDays: day)
        var t = icaltimetype()
        t.year = Int32(c.year)
        t.month = Int32(c.month)
        t.day = Int32(c.day)
        t.is_date = 1
        return t
    }

    /// Text a calendar can carry: RFC 5545 allows no control characters in a text value but the tab
    /// (line breaks are escaped by libical), and other calendars refuse a file with one.
    static func text(_ s: String, lines: Bool = false) -> String {
        String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { c in
                    if c == "\t" || (lines && c == "\n") { return c }
                    return c.properties.generalCategory == .control ? " " : c
                }))
    }
}
