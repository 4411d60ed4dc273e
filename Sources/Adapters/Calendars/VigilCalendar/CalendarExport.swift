import CICal
import VigilCore

/// A task as another calendar shows it: a VTODO.
public struct CalendarTodo: Sendable, Hashable {
    /// When it is due: a day (`DUE;VALUE=DATE`), or an instant (a deadline with a time of day).
    public enum Due: Sendable, Hashable {
        case day(Int)
        case instant(Timestamp)
    }
    /// The same on every export and every device, so that a calendar that reads the file again
    /// updates the task instead of adding it twice.
    public var uid: String
    public var title: String
    public var note: String?
    public var due: Due
    /// RFC 5545's 1 (highest) to 9 (lowest).
    public var priority: Int
    public var tags: [String]
    public var created: Timestamp
    public var done: Timestamp?

    public init(
        uid: String, title: String, note: String? = nil, due: Due, priority: Int, tags: [String] = [], created: Timestamp, done: Timestamp? = nil
    ) {
        self.uid = uid
        self.title = title
        self.note = note
        self.due = due
        self.priority = priority
        self.tags = tags
        self.created = created
        self.done = done
    }
}

/// A focus session as another calendar shows it: a VEVENT.
public struct CalendarSession: Sendable, Hashable {
    public var uid: String
    public var summary: String
    public var description: String?
    public var start: Timestamp
    public var end: Timestamp
    public var tags: [String]

    public init(uid: String, summary: String, description: String? = nil, start: Timestamp, end: Timestamp, tags: [String] = []) {
        self.uid = uid
        self.summary = summary
        self.description = description
        self.start = start
        self.end = end
        self.tags = tags
    }
}

/// Vigil's tasks and sessions as one iCalendar file (RFC 5545), written by libical, for GNOME
/// Calendar, Thunderbird, khal and the like.
public enum CalendarWriter {
    /// The whole file: CRLF line ends, long lines folded, text escaped, all by libical.
    /// - Parameters: stamp: when it was written (each component's DTSTAMP); product: PRODID.
    public static func calendar(todos: [CalendarTodo], sessions: [CalendarSession], stamp: Timestamp, product: String) throws(CalendarError)
        -> String
    {
        try ICal.with { () throws(CalendarError) -> String in
            guard let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT) else { throw CalendarError("libical could not make a calendar.") }
            defer { icalcomponent_free(calendar) }
            icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
            icalcomponent_add_property(calendar, icalproperty_new_prodid(product))
            icalcomponent_add_property(calendar, icalproperty_new_calscale("GREGORIAN"))
            for todo in todos { icalcomponent_add_component(calendar, component(todo, stamp: stamp)) }
            for session in sessions { icalcomponent_add_component(calendar, component(session, stamp: stamp)) }
            guard let text = icalcomponent_as_ical_string_r(calendar) else { throw CalendarError("libical could not write the calendar.") }
            defer { icalmemory_free_buffer(text) }
            return String(cString: text)
        }
    }

    private static func component(_ todo: CalendarTodo, stamp: Timestamp) -> OpaquePointer? {
        let c = icalcomponent_new(ICAL_VTODO_COMPONENT)
        add(c, icalproperty_new_uid(todo.uid))
        add(c, icalproperty_new_dtstamp(ICal.utc(stamp)))
        add(c, icalproperty_new_created(ICal.utc(todo.created)))
        add(c, icalproperty_new_summary(ICal.text(todo.title)))
        if let note = todo.note { add(c, icalproperty_new_description(ICal.text(note, lines: true))) }
        switch todo.due {
        case .day(let day): add(c, icalproperty_new_due(ICal.date(day: day)))
        case .instant(let t): add(c, icalproperty_new_due(ICal.utc(t)))
        }
        add(c, icalproperty_new_priority(Int32(min(max(todo.priority, 1), 9))))
        if let done = todo.done {
            add(c, icalproperty_new_status(ICAL_STATUS_COMPLETED))
            add(c, icalproperty_new_completed(ICal.utc(done)))
        } else {
            add(c, icalproperty_new_status(ICAL_STATUS_NEEDSACTION))
        }
        // One CATEGORIES per tag: libical escapes a comma inside a value, which would make the
        // tags one category.
        for tag in todo.tags { add(c, icalproperty_new_categories(ICal.text(tag))) }
        return c
    }

    private static func component(_ session: CalendarSession, stamp: Timestamp) -> OpaquePointer? {
        let c = icalcomponent_new(ICAL_VEVENT_COMPONENT)
        add(c, icalproperty_new_uid(session.uid))
        add(c, icalproperty_new_dtstamp(ICal.utc(stamp)))
        add(c, icalproperty_new_dtstart(ICal.utc(session.start)))
        add(c, icalproperty_new_dtend(ICal.utc(max(session.end, session.start))))
        add(c, icalproperty_new_summary(ICal.text(session.summary)))
        if let description = session.description { add(c, icalproperty_new_description(ICal.text(description, lines: true))) }
        // Time that was spent, not time that is offered: it blocks the calendar as a meeting would.
        add(c, icalproperty_new_transp(ICAL_TRANSP_OPAQUE))
        for tag in session.tags { add(c, icalproperty_new_categories(ICal.text(tag))) }
        return c
    }

    private static func add(_ component: OpaquePointer?, _ property: OpaquePointer?) { icalcomponent_add_property(component, property) }
}
