import Foundation
import SystemCalls

/// The log's side of sync between devices (docs/sync.md), as migration v7 creates it.
///
/// - `devices`: this device (`is_self`: a random id made once per log, so a copied data directory
///   is the same device) and the others its rows came from, with their names.
/// - Every synced row has a global identity: (`origin_device`, `origin_id`), its device and its id
///   there. Rows made here keep `origin_device` NULL (their id is their origin id); rows pulled from
///   elsewhere are stored with both, unique, so receiving a row twice cannot duplicate it.
/// - Sessions only grow: `pushed` says the server has the session with its events.
/// - Tasks, habits, habit days and notes are edited: `hlc` is a hybrid logical clock of the last
///   change (wall milliseconds × 1000 plus a counter, never behind the latest stamp seen), with
///   `hlc_device` the device that made it; the later (hlc, device) wins a merge. `dirty` says the
///   change is not on the server yet. The triggers below stamp every local change (whatever code
///   makes it) and record deletes as tombstones, so that they travel; sync's own writes are made
///   while `sync_applying` holds a row, which the triggers leave alone.
enum SyncMigration {
    /// Wall-clock now in the clock's unit (ms × 1000); SQLite's `julianday` is exact to the ms.
    private static let wallClock = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER) * 1000"
    /// Advances the log's clock past both its last stamp and the wall clock.
    private static let tick = "UPDATE sync_clock SET hlc = max(hlc + 1, \(wallClock));"
    private static let stamp = "hlc = (SELECT hlc FROM sync_clock), hlc_device = (SELECT id FROM devices WHERE is_self = 1), dirty = 1"
    private static let notApplying = "NOT EXISTS (SELECT 1 FROM sync_applying)"
    private static let selfID = "(SELECT id FROM devices WHERE is_self = 1)"

    /// Triggers that stamp an edited table's inserts and content updates. `key`: how the row is found.
    private static func stampTriggers(_ table: String, contentColumns: String, key: String) -> String {
        """
        CREATE TRIGGER \(table)_stamp_insert AFTER INSERT ON \(table) WHEN \(notApplying) BEGIN
            \(tick)
            UPDATE \(table) SET \(stamp) WHERE \(key);
        END;
        CREATE TRIGGER \(table)_stamp_update AFTER UPDATE OF \(contentColumns) ON \(table) WHEN \(notApplying) BEGIN
            \(tick)
            UPDATE \(table) SET \(stamp) WHERE \(key);
        END;
        """
    }

    /// The columns of an edited table's clock: its last change, where it was made, whether it is sent.
    private static func clockColumns(_ table: String) -> String {
        """
        ALTER TABLE \(table) ADD COLUMN hlc INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE \(table) ADD COLUMN hlc_device TEXT;
        ALTER TABLE \(table) ADD COLUMN dirty INTEGER NOT NULL DEFAULT 1;
        """
    }

    static let sql = """
        CREATE TABLE sync_clock (hlc INTEGER NOT NULL);
        INSERT INTO sync_clock VALUES (0);
        CREATE TABLE sync_applying (flag INTEGER);
        CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE sync_tombstones (
            tbl TEXT NOT NULL,
            origin_device TEXT NOT NULL,
            origin_id INTEGER NOT NULL,
            sub TEXT NOT NULL DEFAULT '',
            hlc INTEGER NOT NULL,
            hlc_device TEXT NOT NULL,
            pushed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (tbl, origin_device, origin_id, sub)
        );

        ALTER TABLE sessions ADD COLUMN origin_device TEXT;
        ALTER TABLE sessions ADD COLUMN origin_id INTEGER;
        ALTER TABLE sessions ADD COLUMN pushed INTEGER NOT NULL DEFAULT 0;
        CREATE UNIQUE INDEX sessions_origin ON sessions(origin_device, origin_id) WHERE origin_device IS NOT NULL;
        CREATE INDEX sessions_unpushed ON sessions(id) WHERE pushed = 0 AND ended_ms IS NOT NULL;

        ALTER TABLE tasks ADD COLUMN origin_device TEXT;
        ALTER TABLE tasks ADD COLUMN origin_id INTEGER;
        ALTER TABLE habits ADD COLUMN origin_device TEXT;
        ALTER TABLE habits ADD COLUMN origin_id INTEGER;
        CREATE UNIQUE INDEX tasks_origin ON tasks(origin_device, origin_id) WHERE origin_device IS NOT NULL;
        CREATE UNIQUE INDEX habits_origin ON habits(origin_device, origin_id) WHERE origin_device IS NOT NULL;
        \(["tasks", "habits", "habit_days", "habit_notes"].map(clockColumns).joined(separator: "\n"))
        CREATE INDEX tasks_dirty ON tasks(id) WHERE dirty = 1;
        CREATE INDEX habits_dirty ON habits(id) WHERE dirty = 1;
        CREATE INDEX habit_days_dirty ON habit_days(habit_id, day) WHERE dirty = 1;
        CREATE INDEX habit_notes_dirty ON habit_notes(habit_id, week) WHERE dirty = 1;

        -- What exists already was last changed when it was made, as far as anyone can tell now.
        UPDATE tasks SET hlc = created_ms * 1000, hlc_device = \(selfID);
        UPDATE habits SET hlc = created_day * 86400000000, hlc_device = \(selfID);
        UPDATE habit_days SET hlc = day * 86400000000, hlc_device = \(selfID);
        UPDATE habit_notes SET hlc_device = \(selfID);

        \(stampTriggers("tasks", contentColumns: "title, note, due_day, due_minute, priority, term, estimate_min, tags, created_ms, done_ms", key: "id = NEW.id"))
        \(stampTriggers("habits", contentColumns: "name, schedule, goal, color, reminder, priority, flagged, auto_task, auto_minutes, created_day, archived_ms", key: "id = NEW.id"))
        \(stampTriggers("habit_days", contentColumns: "status, source", key: "habit_id = NEW.habit_id AND day = NEW.day"))
        \(stampTriggers("habit_notes", contentColumns: "text", key: "habit_id = NEW.habit_id AND week = NEW.week"))

        -- Deletes travel as tombstones. A session is one only if the server may have it.
        CREATE TRIGGER sessions_tombstone AFTER DELETE ON sessions
        WHEN \(notApplying) AND (OLD.pushed = 1 OR OLD.origin_device IS NOT NULL) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, hlc, hlc_device)
            VALUES ('sessions', coalesce(OLD.origin_device, \(selfID)), coalesce(OLD.origin_id, OLD.id), (SELECT hlc FROM sync_clock), \(selfID));
        END;
        CREATE TRIGGER tasks_tombstone AFTER DELETE ON tasks WHEN \(notApplying) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, hlc, hlc_device)
            VALUES ('tasks', coalesce(OLD.origin_device, \(selfID)), coalesce(OLD.origin_id, OLD.id), (SELECT hlc FROM sync_clock), \(selfID));
        END;
        CREATE TRIGGER habits_tombstone AFTER DELETE ON habits WHEN \(notApplying) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, hlc, hlc_device)
            VALUES ('habits', coalesce(OLD.origin_device, \(selfID)), coalesce(OLD.origin_id, OLD.id), (SELECT hlc FROM sync_clock), \(selfID));
        END;
        -- A day or note unmarked; not those that go with their deleted habit (its tombstone says it).
        CREATE TRIGGER habit_days_tombstone AFTER DELETE ON habit_days
        WHEN \(notApplying) AND EXISTS (SELECT 1 FROM habits WHERE id = OLD.habit_id) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, sub, hlc, hlc_device)
            SELECT 'habit_days', coalesce(h.origin_device, \(selfID)), coalesce(h.origin_id, h.id), CAST(OLD.day AS TEXT),
                (SELECT hlc FROM sync_clock), \(selfID)
            FROM habits h WHERE h.id = OLD.habit_id;
        END;
        CREATE TRIGGER habit_notes_tombstone AFTER DELETE ON habit_notes
        WHEN \(notApplying) AND EXISTS (SELECT 1 FROM habits WHERE id = OLD.habit_id) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, sub, hlc, hlc_device)
            SELECT 'habit_notes', coalesce(h.origin_device, \(selfID)), coalesce(h.origin_id, h.id), OLD.week,
                (SELECT hlc FROM sync_clock), \(selfID)
            FROM habits h WHERE h.id = OLD.habit_id;
        END;
        """

    /// Migration v8: sessions get tags (normalized like a task's, comma-separated), a note, and
    /// `edited_hlc`, the clock of their last edit (0: never edited). `pushed` gains a third value:
    /// 0 never sent, 1 on the server, 2 on the server but edited since, to be sent again without
    /// its events (the server keeps the later edit). The trigger stamps every edit of a closed
    /// session, whatever code makes it (a live session's own writes, before it is closed, are not
    /// edits); a deleted session is a tombstone whenever the server may have it. `undo_journal`:
    /// the last change a command made, as `vigil undo` puts it back (UndoJournal).
    static let sessionEdits = """
        ALTER TABLE sessions ADD COLUMN tags TEXT NOT NULL DEFAULT '';
        ALTER TABLE sessions ADD COLUMN note TEXT;
        ALTER TABLE sessions ADD COLUMN edited_hlc INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX sessions_edited ON sessions(id) WHERE pushed = 2;
        CREATE TRIGGER sessions_stamp_edit AFTER UPDATE OF task, task_id, tags, note, started_ms, ended_ms ON sessions
        WHEN \(notApplying) AND OLD.ended_ms IS NOT NULL BEGIN
            \(tick)
            UPDATE sessions SET edited_hlc = (SELECT hlc FROM sync_clock), pushed = CASE WHEN pushed = 0 THEN 0 ELSE 2 END WHERE id = NEW.id;
        END;
        CREATE TABLE undo_journal (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            label TEXT NOT NULL,
            tbl TEXT NOT NULL,
            cond TEXT NOT NULL,
            args TEXT NOT NULL,
            image TEXT NOT NULL
        );
        DROP TRIGGER sessions_tombstone;
        CREATE TRIGGER sessions_tombstone AFTER DELETE ON sessions
        WHEN \(notApplying) AND (OLD.pushed <> 0 OR OLD.origin_device IS NOT NULL) BEGIN
            \(tick)
            INSERT OR REPLACE INTO sync_tombstones (tbl, origin_device, origin_id, hlc, hlc_device)
            VALUES ('sessions', coalesce(OLD.origin_device, \(selfID)), coalesce(OLD.origin_id, OLD.id), (SELECT hlc FROM sync_clock), \(selfID));
        END;
        """

    /// Migration v13: a session's intention (`start --intent`, the person's words) and their
    /// answer (`done`, `partly`, `no`; NULL unanswered); an episode's label (`EpisodeLabel`; NULL as
    /// judged). Each is an edit of the session, stamped as v9's are: an episode's label travels
    /// in its session's row (`SyncTable.sessions`' `labels`), since its events are sent once.
    static let personsWord = """
        ALTER TABLE sessions ADD COLUMN intent TEXT;
        ALTER TABLE sessions ADD COLUMN intent_kept TEXT;
        ALTER TABLE episodes ADD COLUMN label TEXT;
        CREATE INDEX episodes_labelled ON episodes(session_id) WHERE label IS NOT NULL;
        DROP TRIGGER sessions_stamp_edit;
        CREATE TRIGGER sessions_stamp_edit AFTER UPDATE OF task, task_id, tags, note, started_ms, ended_ms, intent, intent_kept ON sessions
        WHEN \(notApplying) AND OLD.ended_ms IS NOT NULL BEGIN
            \(tick)
            UPDATE sessions SET edited_hlc = (SELECT hlc FROM sync_clock), pushed = CASE WHEN pushed = 0 THEN 0 ELSE 2 END WHERE id = NEW.id;
        END;
        CREATE TRIGGER episodes_stamp_label AFTER UPDATE OF label ON episodes
        WHEN \(notApplying) AND NEW.label IS NOT OLD.label BEGIN
            \(tick)
            UPDATE sessions SET edited_hlc = (SELECT hlc FROM sync_clock), pushed = CASE WHEN pushed = 0 THEN 0 ELSE 2 END
            WHERE id = NEW.session_id AND ended_ms IS NOT NULL;
        END;
        """

    /// The table the migration creates first, before its SQL (whose stamps name this device).
    static let devicesTable = """
        CREATE TABLE devices (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            is_self INTEGER NOT NULL DEFAULT 0,
            created_ms INTEGER
        );
        CREATE UNIQUE INDEX devices_self ON devices(is_self) WHERE is_self = 1;
        """
}

/// How a device is named and identified when its log is made.
enum DeviceIdentity {
    /// A random (version 4) UUID, lower case as PostgreSQL prints them.
    static func newID() -> String { UUID().uuidString.lowercased() }

    /// The host name, which is what a person calls their computer; "this computer" without one.
    static func defaultName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this computer" }
        let name = cText(buffer)
        return name.isEmpty ? "this computer" : name
    }
}
