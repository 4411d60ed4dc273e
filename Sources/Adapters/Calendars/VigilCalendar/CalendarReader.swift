import CICal
import Foundation
import VigilCore
import VigilStats

/// One occurrence of an event of a calendar, as Vigil uses it: a meeting, or a scheduled focus block.
public struct CalendarEvent: Sendable, Hashable {
    public var uid: String
    public var summary: String
    /// CATEGORIES, as written (several properties or a comma-separated one).
    public var categories: [String]
    public var start: Timestamp
    public var end: Timestamp
    /// A day or days rather than a time (`DTSTART;VALUE=DATE`): from local midnight to midnight.
    public var allDay: Bool
    /// TRANSP:TRANSPARENT: the time stays free (a reminder, a holiday shown for information).
    public var free: Bool
    /// The file it came from.
    public var file: String
}

/// Calendars read through libical (`calendar.files`: `.ics` files, or directories of them as khal
/// and vdirsyncer keep them): every occurrence in a period, recurrences expanded by libical
/// (RRULE, RDATE, EXDATE), an occurrence moved or cancelled by a RECURRENCE-ID component replaced
/// by it, times in the zone each names (its VTIMEZONE, else libical's own from the system's
/// zoneinfo), a time without a zone in the person's. Never a hand-written parser.
public enum CalendarReader {
    /// What was read, and what could not be (each problem names its file).
    public struct Result: Sendable {
        public var events: [CalendarEvent] = []
        public var problems: [String] = []
    }

    /// A file larger than this is no calendar a person keeps (a year of a busy one is a few MB).
    static let largest = 32 << 20

    /// Every occurrence overlapping [from, to), in order of start.
    public static func occurrences(paths: [String], from: Timestamp, to: Timestamp, zone: TimeZone) throws(CalendarError) -> Result {
        var result = Result()
        for file in files(paths, problems: &result.problems) {
            read(file, from: from, to: to, zone: zone, into: &result)
        }
        result.events.sort { ($0.start, $0.end, $0.uid) < ($1.start, $1.end, $1.uid) }
        return result
    }

    /// The `.ics` files of `paths`: a file as it is, a directory's files ending in .ics, and those of
    /// its directories one level down (vdirsyncer keeps a directory per calendar).
    static func files(_ paths: [String], problems: inout [String]) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        func walk(_ dir: String, depth: Int) {
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else {
                problems.append("\(dir): cannot be read")
                return
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = dir + "/" + name
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    if depth > 0 { walk(path, depth: depth - 1) }
                } else if name.lowercased().hasSuffix(".ics") {
                    out.append(path)
                }
            }
        }
        for raw in paths {
            let path = (raw as NSString).expandingTildeInPath
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                problems.append("\(path): no such file or directory")
                continue
            }
            if isDir.boolValue { walk(path, depth: 1) } else { out.append(path) }
        }
        return out
    }

    private static func read(_ file: String, from: Timestamp, to: Timestamp, zone: TimeZone, into result: inout Result) {
        // A FIFO or a device named .ics would block the read (and the daemon with it).
        guard (try? FileManager.default.attributesOfItem(atPath: file)[.type] as? FileAttributeType) == .typeRegular else {
            result.problems.append("\(file): not a regular file, not read")
            return
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            result.problems.append("\(file): cannot be read")
            return
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: largest + 1)) ?? Data()
        guard data.count <= largest else {
            result.problems.append("\(file): larger than \(largest >> 20) MB, not read")
            return
        }
        // libical takes a C string: a NUL inside ends it there, invalid UTF-8 is replaced.
        let text = String(decoding: data, as: UTF8.self)
        do {
            try ICal.with { () throws(CalendarError) in
                guard let calendar = icalparser_parse_string(text) else {
                    throw CalendarError("\(file): not an iCalendar file (no BEGIN:VCALENDAR libical could read)")
                }
                defer { icalcomponent_free(calendar) }
                let errors = icalcomponent_count_errors(calendar)
                if errors > 0 {
                    result.problems.append("\(file): libical found \(errors) malformed line\(errors == 1 ? "" : "s"); the rest was read")
                }
                Expansion(file: file, zone: zone, from: from, to: to).run(calendar, into: &result.events, problems: &result.problems)
            }
        } catch {
            result.problems.append(error.description)
        }
    }
}

/// The occurrences of one parsed calendar (libical's lock held).
private struct Expansion {
    let file: String
    let zone: TimeZone
    let from: Timestamp
    let to: Timestamp

    /// The components of `calendar` (the calendar itself, or the VCALENDARs a file holds several of).
    func events(_ calendar: OpaquePointer) -> [OpaquePointer] {
        var out: [OpaquePointer] = []
        if icalcomponent_isa(calendar) == ICAL_VEVENT_COMPONENT { return [calendar] }
        var c = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
        while let e = c {
            out.append(e)
            c = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
        }
        var inner = icalcomponent_get_first_component(calendar, ICAL_VCALENDAR_COMPONENT)
        while let cal = inner {
            out += events(cal)
            inner = icalcomponent_get_next_component(calendar, ICAL_VCALENDAR_COMPONENT)
        }
        return out
    }

    /// Occurrences kept of one event in one read: a year of an hourly event, far beyond any
    /// calendar a person keeps; more is a broken or hostile file, not a schedule.
    static let mostOccurrences = 10_000

    /// Whether an event repeats every second or minute (RRULE FREQ=SECONDLY or MINUTELY): millions
    /// of occurrences a month, which no one schedules.
    func repeatsTooOften(_ e: OpaquePointer) -> Bool {
        var p = icalcomponent_get_first_property(e, ICAL_RRULE_PROPERTY)
        while let property = p {
            let freq = icalproperty_get_rrule(property).freq
            if freq == ICAL_SECONDLY_RECURRENCE || freq == ICAL_MINUTELY_RECURRENCE { return true }
            p = icalcomponent_get_next_property(e, ICAL_RRULE_PROPERTY)
        }
        return false
    }

    func run(_ calendar: OpaquePointer, into out: inout [CalendarEvent], problems: inout [String]) {
        let all = events(calendar)
        // Occurrences moved or cancelled by their own component (RECURRENCE-ID): the master's
        // occurrence at that instant is replaced.
        // Compared as wall times (RFC 5545 writes a RECURRENCE-ID as the master's DTSTART is
        // written, in its zone; libical leaves a RECURRENCE-ID's TZID unresolved).
        var replaced: [String: [icaltimetype]] = [:]
        for e in all {
            let rid = icalcomponent_get_recurrenceid(e)
            guard icaltime_is_null_time(rid) == 0, let uid = string(icalcomponent_get_uid(e)) else { continue }
            replaced[uid, default: []].append(rid)
        }
        let window = (ICal.utc(from - 86_400 * 2), ICal.utc(to + 86_400 * 2))
        for e in all where icalcomponent_get_status(e) != ICAL_STATUS_CANCELLED {
            let start = icalcomponent_get_dtstart(e)
            guard icaltime_is_null_time(start) == 0 else { continue }
            let uid = string(icalcomponent_get_uid(e)) ?? ""
            if repeatsTooOften(e) {
                problems.append("\(file): the event \(uid.isEmpty ? "without a UID" : uid) repeats every second or minute; left out")
                continue
            }
            let isOverride = icaltime_is_null_time(icalcomponent_get_recurrenceid(e)) == 0
            // A RECURRENCE-ID given in UTC (or another zone libical knows) is the master's
            // occurrence at that instant: its wall time in the DTSTART's zone.
            let skip: Set<WallTime> =
                isOverride
                ? []
                : Set(
                    (replaced[uid] ?? []).map { rid in
                        guard rid.zone != nil, rid.is_date == 0, let master = start.zone else { return WallTime(rid) }
                        return WallTime(icaltime_convert_to_zone(rid, master))
                    })
            let floating = start.zone == nil && start.is_date == 0
            let box = Spans()
            withExtendedLifetime(box) {
                icalcomponent_foreach_recurrence(
                    e, window.0, window.1,
                    { _, span, context in
                        guard let span, let context else { return }
                        Unmanaged<Spans>.fromOpaque(context).takeUnretainedValue().spans.append((Int64(span.pointee.start), Int64(span.pointee.end)))
                    }, Unmanaged.passUnretained(box).toOpaque())
            }
            let template = event(e, uid: uid)
            if box.spans.count > Self.mostOccurrences {
                problems.append("\(file): the event \(uid) occurs \(box.spans.count) times here; the first \(Self.mostOccurrences) are used")
                box.spans.removeLast(box.spans.count - Self.mostOccurrences)
            }
            for (s, end) in box.spans where skip.isEmpty || !skip.contains(wall(s, like: start)) {
                guard var occurrence = occurrence(template, start: s, end: end, dtstart: start, dtend: icalcomponent_get_dtend(e), floating: floating)
                else { continue }
                occurrence.file = file
                if occurrence.end > from && occurrence.start < to { out.append(occurrence) }
            }
        }
    }

    /// One occurrence from libical's span (Unix seconds; for a date, its midnight in UTC; for a
    /// time without a zone, its wall time read as UTC).
    func occurrence(_ template: CalendarEvent, start: Int64, end: Int64, dtstart: icaltimetype, dtend: icaltimetype, floating: Bool) -> CalendarEvent?
    {
        var e = template
        // A calendar may name any date from year 1 to 9999; Vigil's instants hold 1970 to 2199
        // (`SupportedDates`): an occurrence outside is not one of the person's days, and an end
        // beyond is cut there.
        let latest = Double(SupportedDates.seconds.upperBound - 1)
        if dtstart.is_date != 0 {
            // A whole day or days: from local midnight of its first to that of the day after its last.
            let first = floorDiv(start, 86_400)
            let supported = SupportedDates.seconds.lowerBound / 86_400...(SupportedDates.seconds.upperBound / 86_400 - 2)
            guard supported.contains(first) else { return nil }
            var days = 1
            // At most a year: longer is no day of the person's to plan around.
            if icaltime_is_null_time(dtend) == 0, dtend.is_date != 0 { days = min(366, max(1, dayNumber(dtend) - dayNumber(dtstart))) }
            let last = min(first + Int64(days), supported.upperBound + 1)
            let clock = LocalClock(timeZone: zone, days: Int(first)...Int(last))
            e.start = clock.startOfDay(Int(first))
            e.end = clock.startOfDay(Int(last))
            e.allDay = true
            return e
        }
        let length = Double(max(0, end - start))
        let s = floating ? local(wall: start) : start
        guard let begin = Timestamp(checkedSeconds: Double(s)) else { return nil }
        e.start = begin
        e.end = Timestamp(checkedSeconds: Double(s) + length) ?? Timestamp(seconds: latest)
        return e
    }

    /// A wall time (seconds as if UTC) in the person's zone.
    func local(wall: Int64) -> Int64 {
        let guess = wall - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall))))
        return wall - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(guess))))
    }

    func event(_ e: OpaquePointer, uid: String) -> CalendarEvent {
        var categories: [String] = []
        var p = icalcomponent_get_first_property(e, ICAL_CATEGORIES_PROPERTY)
        while let property = p {
            if let text = string(icalproperty_get_categories(property)) {
                categories += text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            p = icalcomponent_get_next_property(e, ICAL_CATEGORIES_PROPERTY)
        }
        let transparent =
            icalcomponent_get_first_property(e, ICAL_TRANSP_PROPERTY).map { icalproperty_get_transp($0) == ICAL_TRANSP_TRANSPARENT } ?? false
        return CalendarEvent(
            uid: uid, summary: string(icalcomponent_get_summary(e)) ?? "", categories: categories, start: Timestamp(nanoseconds: 0),
            end: Timestamp(nanoseconds: 0), allDay: false, free: transparent, file: file)
    }

    /// An occurrence's start (libical's span) as the wall time its DTSTART is written in.
    func wall(_ start: Int64, like dtstart: icaltimetype) -> WallTime {
        // A date's span and a floating time's are their wall time read as UTC already.
        let zone = dtstart.is_date != 0 || dtstart.zone == nil ? icaltimezone_get_utc_timezone() : dtstart.zone
        var t = icaltime_from_timet_with_zone(time_t(start), 0, zone)
        t.is_date = dtstart.is_date
        return WallTime(t)
    }

    /// Days since 1970 of a date as written (libical keeps a date's fields within 0...9999 and 0...31).
    func dayNumber(_ t: icaltimetype) -> Int {
        Int(CivilTime.daysFromCivil(year: Int(min(max(t.year, 0), 9999)), month: Int(min(max(t.month, 1), 12)), day: Int(min(max(t.day, 1), 31))))
    }

    func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
}

/// A date and time as written, without its zone: how a RECURRENCE-ID names the occurrence it replaces.
private struct WallTime: Hashable {
    let fields: [Int32]
    init(_ t: icaltimetype) {
        fields = t.is_date != 0 ? [t.year, t.month, t.day] : [t.year, t.month, t.day, t.hour, t.minute, t.second]
    }
}

/// The spans libical's recurrence walk hands its callback.
private final class Spans {
    var spans: [(Int64, Int64)] = []
}
