-- Vigil's sync server schema (issue 19): what `vigil sync` creates in the schema `vigil` of
-- the database named by sync.url. Generated from Sources/Adapters/Storage/VigilSync/ServerSchema.swift
-- (its migrations, in order; a test holds the two equal). docs/sync.md says what the tables mean.

CREATE SCHEMA vigil;
CREATE TABLE vigil.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());

-- Migration 1
CREATE TABLE vigil.server (
    id uuid PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE vigil.change_seq;
CREATE TABLE vigil.devices (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    first_sync timestamptz NOT NULL DEFAULT now(),
    last_sync timestamptz NOT NULL DEFAULT now(),
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq')
);

CREATE TABLE vigil.sessions (
    origin_device uuid NOT NULL REFERENCES vigil.devices(id),
    origin_id bigint NOT NULL,
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq'),
    deleted boolean NOT NULL DEFAULT false,
    task text,
    task_origin_device uuid,
    task_origin_id bigint,
    source text,
    started_ms bigint,
    planned_s double precision,
    ended_ms bigint,
    outcome text,
    active_s double precision,
    focused_s double precision,
    distracted_s double precision,
    paused_s double precision,
    gap_s double precision,
    episodes bigint,
    alarms bigint,
    last_event_ms bigint,
    PRIMARY KEY (origin_device, origin_id)
);
CREATE INDEX sessions_by_seq ON vigil.sessions (server_seq);

CREATE TABLE vigil.state_changes (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    session_id bigint NOT NULL,
    at_ms bigint NOT NULL,
    from_state text NOT NULL,
    to_state text NOT NULL,
    alarm_level bigint,
    score double precision NOT NULL,
    reason text,
    PRIMARY KEY (origin_device, origin_id),
    FOREIGN KEY (origin_device, session_id) REFERENCES vigil.sessions (origin_device, origin_id)
);
CREATE INDEX state_changes_by_session ON vigil.state_changes (origin_device, session_id);
CREATE TABLE vigil.episodes (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    session_id bigint NOT NULL,
    number bigint NOT NULL,
    started_ms bigint NOT NULL,
    confirmed_ms bigint NOT NULL,
    ended_ms bigint,
    cause text NOT NULL,
    peak_score double precision NOT NULL,
    reason text,
    alarm_level bigint NOT NULL,
    closed_by text,
    PRIMARY KEY (origin_device, origin_id),
    FOREIGN KEY (origin_device, session_id) REFERENCES vigil.sessions (origin_device, origin_id)
);
CREATE INDEX episodes_by_session ON vigil.episodes (origin_device, session_id);
CREATE TABLE vigil.alarms (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    session_id bigint NOT NULL,
    episode_number bigint NOT NULL,
    at_ms bigint NOT NULL,
    level bigint NOT NULL,
    repeat bigint NOT NULL,
    cause text NOT NULL,
    reason text,
    cleared_ms bigint,
    recovery_s double precision,
    PRIMARY KEY (origin_device, origin_id),
    FOREIGN KEY (origin_device, session_id) REFERENCES vigil.sessions (origin_device, origin_id)
);
CREATE INDEX alarms_by_session ON vigil.alarms (origin_device, session_id);
CREATE TABLE vigil.gaps (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    session_id bigint NOT NULL,
    from_ms bigint NOT NULL,
    to_ms bigint NOT NULL,
    PRIMARY KEY (origin_device, origin_id),
    FOREIGN KEY (origin_device, session_id) REFERENCES vigil.sessions (origin_device, origin_id)
);
CREATE INDEX gaps_by_session ON vigil.gaps (origin_device, session_id);

CREATE TABLE vigil.tasks (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq'),
    title text,
    note text,
    due_day bigint,
    due_minute bigint,
    priority text,
    term text,
    estimate_min bigint,
    tags text,
    created_ms bigint,
    done_ms bigint,
    hlc bigint NOT NULL,
    hlc_device uuid NOT NULL,
    deleted bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (origin_device, origin_id)
);
CREATE INDEX tasks_by_seq ON vigil.tasks (server_seq);
CREATE TABLE vigil.habits (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq'),
    name text,
    schedule text,
    goal bigint,
    color text,
    reminder text,
    priority text,
    flagged bigint,
    auto_task text,
    auto_minutes bigint,
    created_day bigint,
    archived_ms bigint,
    hlc bigint NOT NULL,
    hlc_device uuid NOT NULL,
    deleted bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (origin_device, origin_id)
);
CREATE INDEX habits_by_seq ON vigil.habits (server_seq);
CREATE TABLE vigil.habit_days (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    sub text NOT NULL,
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq'),
    status text,
    source text,
    hlc bigint NOT NULL,
    hlc_device uuid NOT NULL,
    deleted bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (origin_device, origin_id, sub)
);
CREATE INDEX habit_days_by_seq ON vigil.habit_days (server_seq);
CREATE TABLE vigil.habit_notes (
    origin_device uuid NOT NULL,
    origin_id bigint NOT NULL,
    sub text NOT NULL,
    server_seq bigint NOT NULL DEFAULT nextval('vigil.change_seq'),
    text text,
    hlc bigint NOT NULL,
    hlc_device uuid NOT NULL,
    deleted bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (origin_device, origin_id, sub)
);
CREATE INDEX habit_notes_by_seq ON vigil.habit_notes (server_seq);
INSERT INTO vigil.schema_version (version) VALUES (1);

-- Migration 2: sessions a person corrects (tags, a note, the clock of the last edit).
ALTER TABLE vigil.sessions ADD COLUMN tags text;
ALTER TABLE vigil.sessions ADD COLUMN note text;
ALTER TABLE vigil.sessions ADD COLUMN edited_hlc bigint;
INSERT INTO vigil.schema_version (version) VALUES (2);

-- Migration 3: the person's word (a session's intention and whether it was kept, its episodes'
-- labels as "2:break,5:work").
ALTER TABLE vigil.sessions ADD COLUMN intent text;
ALTER TABLE vigil.sessions ADD COLUMN intent_kept text;
ALTER TABLE vigil.sessions ADD COLUMN labels text;
INSERT INTO vigil.schema_version (version) VALUES (3);
