/// What travels between the log and the sync server, table by table (docs/sync.md): the columns of
/// each, in the order a row is sent, and how the row is identified everywhere. The server's schema
/// (VigilSync's migrations) has the same tables and columns; a test holds the two together.
///
/// What never travels: samples and recordings (not in the log at all), sensor status
/// (`sensor_events`), alarm deliveries and snoozes (diagnostics of one machine's channels), the
/// application classes of `activities`, reminder bookkeeping; and, unless the person opts in
/// (`sync.share_reasons`), the reasons' words, which can name an application or a place: the cause
/// travels, its wording stays.
public struct SyncTable: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Sessions: sent with their events once closed; a session edited after (its task, tags,
        /// note, times, intention, its episodes' labels: `edited_hlc`) is sent again without them,
        /// and the later edit wins.
        case session
        /// A session's events, sent and received with it: `session_id` is the session's origin id.
        case sessionEvent
        /// Rows that are edited, merged by hybrid logical clock: identified by (origin_device, origin_id).
        case edited
        /// Rows of a habit, merged by clock (habit days first by who marked them): identified by
        /// the habit's (origin_device, origin_id) and `sub` (the day, or the week of a note).
        case habitPart
    }

    public enum ColumnType: Sendable, Hashable {
        case integer, real, text, uuid
        /// PostgreSQL's type for it.
        public var serverType: String {
            switch self {
            case .integer: "bigint"
            case .real: "double precision"
            case .text: "text"
            case .uuid: "uuid"
            }
        }
    }

    public struct Column: Sendable, Hashable {
        public let name: String
        public let type: ColumnType
        init(_ name: String, _ type: ColumnType) {
            self.name = name
            self.type = type
        }
    }

    public let name: String
    public let kind: Kind
    /// In the order a row's values are sent and received; the identity columns first.
    public let columns: [Column]

    /// Columns whose words can name an application or a place: sent only when the person opts in.
    public static let reasonColumns: Set<String> = ["reason"]

    public static let sessions = SyncTable(
        name: "sessions", kind: .session,
        columns: [
            Column("origin_device", .uuid), Column("origin_id", .integer), Column("task", .text), Column("task_origin_device", .uuid),
            Column("task_origin_id", .integer), Column("source", .text), Column("started_ms", .integer), Column("planned_s", .real),
            Column("ended_ms", .integer), Column("outcome", .text), Column("active_s", .real), Column("focused_s", .real),
            Column("distracted_s", .real), Column("paused_s", .real), Column("gap_s", .real), Column("episodes", .integer),
            Column("alarms", .integer), Column("last_event_ms", .integer), Column("tags", .text), Column("note", .text),
            Column("intent", .text), Column("intent_kept", .text), Column("labels", .text), Column("edited_hlc", .integer),
        ])

    /// The session's column that carries its episodes' labels (`SessionLabels`): its events are
    /// sent once, and a label is given after.
    public static let labelsColumn = "labels"

    public static let episodes = SyncTable(
        name: "episodes", kind: .sessionEvent,
        columns: eventIdentity + [
            Column("number", .integer), Column("started_ms", .integer), Column("confirmed_ms", .integer), Column("ended_ms", .integer),
            Column("cause", .text), Column("peak_score", .real), Column("reason", .text), Column("alarm_level", .integer),
            Column("closed_by", .text),
        ])

    public static let alarms = SyncTable(
        name: "alarms", kind: .sessionEvent,
        columns: eventIdentity + [
            Column("episode_number", .integer), Column("at_ms", .integer), Column("level", .integer), Column("repeat", .integer),
            Column("cause", .text), Column("reason", .text), Column("cleared_ms", .integer), Column("recovery_s", .real),
        ])

    public static let stateChanges = SyncTable(
        name: "state_changes", kind: .sessionEvent,
        columns: eventIdentity + [
            Column("at_ms", .integer), Column("from_state", .text), Column("to_state", .text), Column("alarm_level", .integer),
            Column("score", .real), Column("reason", .text),
        ])

    public static let gaps = SyncTable(
        name: "gaps", kind: .sessionEvent, columns: eventIdentity + [Column("from_ms", .integer), Column("to_ms", .integer)])

    public static let tasks = SyncTable(
        name: "tasks", kind: .edited,
        columns: editedIdentity + [
            Column("title", .text), Column("note", .text), Column("due_day", .integer), Column("due_minute", .integer),
            Column("priority", .text), Column("term", .text), Column("estimate_min", .integer), Column("tags", .text),
            Column("created_ms", .integer), Column("done_ms", .integer),
        ])

    public static let habits = SyncTable(
        name: "habits", kind: .edited,
        columns: editedIdentity + [
            Column("name", .text), Column("schedule", .text), Column("goal", .integer), Column("color", .text), Column("reminder", .text),
            Column("priority", .text), Column("flagged", .integer), Column("auto_task", .text), Column("auto_minutes", .integer),
            Column("created_day", .integer), Column("archived_ms", .integer),
        ])

    public static let habitDays = SyncTable(
        name: "habit_days", kind: .habitPart, columns: habitPartIdentity + [Column("status", .text), Column("source", .text)])

    public static let habitNotes = SyncTable(name: "habit_notes", kind: .habitPart, columns: habitPartIdentity + [Column("text", .text)])

    /// A session's events, in the order they are sent.
    public static let sessionEvents: [SyncTable] = [.stateChanges, .episodes, .alarms, .gaps]
    /// The edited tables, parents first: a habit arrives before its days.
    public static let editedTables: [SyncTable] = [.tasks, .habits, .habitDays, .habitNotes]

    /// The hybrid logical clock columns of an edited row, after its content. `deleted`: 1 for a tombstone.
    public static let clockColumns = [Column("hlc", .integer), Column("hlc_device", .uuid), Column("deleted", .integer)]

    private static let eventIdentity = [Column("origin_device", .uuid), Column("origin_id", .integer), Column("session_id", .integer)]
    private static let editedIdentity = [Column("origin_device", .uuid), Column("origin_id", .integer)]
    private static let habitPartIdentity = [Column("origin_device", .uuid), Column("origin_id", .integer), Column("sub", .text)]

    /// Every column sent for a row of this table: the content, then for edited rows the clock.
    public var sentColumns: [Column] { kind == .edited || kind == .habitPart ? columns + Self.clockColumns : columns }

    /// The columns that identify a row on the server.
    public var keyColumns: [String] {
        switch kind {
        case .session, .sessionEvent, .edited: ["origin_device", "origin_id"]
        case .habitPart: ["origin_device", "origin_id", "sub"]
        }
    }
}

/// A value of a synced column, as it travels.
public enum SyncValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}
