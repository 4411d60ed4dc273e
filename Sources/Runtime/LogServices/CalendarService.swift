import Foundation
import VigilCalendar
import VigilCore

/// An occurrence of a calendar's event as the commands show it (`vigil calendar`), and as the
/// daemon and reports use it: a meeting, or a scheduled focus block for a task or tag.
public struct ScheduledEvent: Sendable, Hashable {
    public var summary: String
    public var start: Timestamp
    public var end: Timestamp
    public var allDay: Bool
    /// Marked free (TRANSP:TRANSPARENT): shown, never a meeting.
    public var free: Bool
    /// The task or tag of a scheduled focus block; nil for anything else (an all-day event is no
    /// block: it has no time to begin at).
    public var focusSubject: String?
    public var uid: String
    public var file: String

    /// A meeting: busy time that is no focus block.
    public var isMeeting: Bool { !free && !allDay && focusSubject == nil }
}

/// The calendars of `calendar.files`, read through libical (VigilCalendar).
public struct CalendarService: Sendable {
    public let files: [String]
    public init(files: [String]) { self.files = files }

    public struct Listing: Sendable {
        public var events: [ScheduledEvent]
        /// Files that could not be read, or only in part, each named.
        public var problems: [String]
        public init(events: [ScheduledEvent], problems: [String]) {
            self.events = events
            self.problems = problems
        }
    }

    /// Every occurrence overlapping [from, to), in order of start.
    public func events(from: Timestamp, to: Timestamp, zone: TimeZone) throws -> Listing {
        let read = try CalendarReader.occurrences(paths: files, from: from, to: to, zone: zone)
        return Listing(
            events: read.events.map {
                ScheduledEvent(
                    summary: $0.summary, start: $0.start, end: $0.end, allDay: $0.allDay, free: $0.free,
                    focusSubject: $0.allDay ? nil : $0.focusSubject,
                    uid: $0.uid, file: $0.file)
            }, problems: read.problems)
    }
}
