import Foundation
import PostgresNIO
import VigilStore

/// A shared group's schema, `vigil_group`, in a database its members share (docs/sync.md, "A
/// shared group"): one row per person and local day, and nothing finer. Migrations as the sync
/// schema's: never edited once released.
enum GroupSchema {
    static let migrations: [String] = [
        """
        CREATE TABLE vigil_group.days (
            group_name text NOT NULL,
            person uuid NOT NULL,
            alias text NOT NULL,
            day date NOT NULL,
            focused_minutes double precision NOT NULL,
            distracted_minutes double precision NOT NULL,
            sessions integer NOT NULL,
            streak integer NOT NULL,
            published_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (group_name, person, day)
        )
        """,
        // 2: each member writes only their own rows (docs/sync.md, "A shared group"). A row
        // belongs to the database role that wrote it (`owner`); row-level security, forced on the
        // tables' owner too, lets a role insert, change and delete only its own rows, and publish
        // only for a person id it claimed first in `people` (a policy may not read its own table).
        // Every role that may connect to the database may read the group and publish itself: who
        // may connect is who is in the group. Rows from before belong to the role upgrading.
        """
        CREATE TABLE vigil_group.people (
            group_name text NOT NULL,
            person uuid NOT NULL,
            owner name NOT NULL DEFAULT current_user,
            PRIMARY KEY (group_name, person)
        );
        INSERT INTO vigil_group.people (group_name, person) SELECT DISTINCT group_name, person FROM vigil_group.days;
        ALTER TABLE vigil_group.days ADD COLUMN owner name NOT NULL DEFAULT current_user;
        ALTER TABLE vigil_group.people ENABLE ROW LEVEL SECURITY;
        ALTER TABLE vigil_group.people FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_read ON vigil_group.people FOR SELECT USING (true);
        CREATE POLICY members_claim ON vigil_group.people FOR INSERT WITH CHECK (owner = current_user);
        CREATE POLICY members_unclaim ON vigil_group.people FOR DELETE USING (owner = current_user);
        ALTER TABLE vigil_group.days ENABLE ROW LEVEL SECURITY;
        ALTER TABLE vigil_group.days FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_read ON vigil_group.days FOR SELECT USING (true);
        CREATE POLICY members_add_their_own ON vigil_group.days FOR INSERT WITH CHECK (
            owner = current_user
            AND EXISTS (SELECT 1 FROM vigil_group.people p WHERE p.group_name = days.group_name AND p.person = days.person AND p.owner = current_user));
        CREATE POLICY members_change_their_own ON vigil_group.days FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user);
        CREATE POLICY members_delete_their_own ON vigil_group.days FOR DELETE USING (owner = current_user);
        GRANT USAGE ON SCHEMA vigil_group TO PUBLIC;
        GRANT SELECT ON vigil_group.schema_version TO PUBLIC;
        GRANT SELECT, INSERT, DELETE ON vigil_group.people TO PUBLIC;
        GRANT SELECT, INSERT, UPDATE, DELETE ON vigil_group.days TO PUBLIC;
        """,
    ]
}

/// One person's local day, as the group sees it.
public struct GroupDay: Sendable, Equatable {
    /// `YYYY-MM-DD`, local to the person.
    public var day: String
    public var focusedMinutes: Double
    public var distractedMinutes: Double
    public var sessions: Int
    /// Procrastination-free days in a row, that day included (0 when it was not one).
    public var streak: Int
    public init(day: String, focusedMinutes: Double, distractedMinutes: Double, sessions: Int, streak: Int) {
        self.day = day
        self.focusedMinutes = focusedMinutes
        self.distractedMinutes = distractedMinutes
        self.sessions = sessions
        self.streak = streak
    }
}

/// A member's figures over a period, summed from their days.
public struct GroupMember: Sendable, Equatable {
    public var alias: String
    /// The database role that published the figures: who the server says wrote them.
    public var role: String
    public var focusedMinutes: Double
    public var distractedMinutes: Double
    public var sessions: Int
    /// The streak of procrastination-free days on the latest day they published.
    public var streak: Int
    public var days: Int
    /// Days not counted because their figures are out of range (`IncomingRows.groupMinutes`, `groupCount`).
    public var skippedDays: Int
}

/// Publishing to a shared group and reading it.
public enum GroupClient {
    /// Replaces `person`'s published `days` (and their alias everywhere), in one transaction.
    /// `person` is the id of the person's own sync server, the same on all their devices.
    public static func publish(address: ServerAddress, group: String, person: String, alias: String, days: [GroupDay]) async throws(SyncError) {
        try await withServer(address) { server throws(SyncError) in
            try await server.prepareGroupSchema()
            try await server.publish(group: group, person: person, alias: alias, days: days)
        }
    }

    /// Each member's sums over the days from `fromDay` (`YYYY-MM-DD`) on, most focused first.
    public static func members(address: ServerAddress, group: String, fromDay: String) async throws(SyncError) -> [GroupMember] {
        try await withServer(address) { server throws(SyncError) in
            try await server.prepareGroupSchema()
            return try await server.members(group: group, fromDay: fromDay)
        }
    }

    private static func withServer<T>(_ address: ServerAddress, _ body: (Server) async throws(SyncError) -> T) async throws(SyncError) -> T {
        let connection = try await SyncClient.connect(address)
        do {
            let result = try await body(Server(connection: connection, address: address, isGroup: true))
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension Server {
    func publish(group: String, person: String, alias: String, days: [GroupDay]) async throws(SyncError) {
        try await transaction("BEGIN") {
            // The person id is this role's from its first publication on (another role's claim
            // makes the days below refused by the row-level security).
            try await connection.query(
                "INSERT INTO vigil_group.people (group_name, person) VALUES (\(group), \(person)::uuid) ON CONFLICT DO NOTHING", logger: logger)
            try await connection.query(
                "UPDATE vigil_group.days SET alias = \(alias) WHERE group_name = \(group) AND person = \(person)::uuid", logger: logger)
            for d in days {
                try await connection.query(
                    """
                    INSERT INTO vigil_group.days (group_name, person, alias, day, focused_minutes, distracted_minutes, sessions, streak)
                    VALUES (\(group), \(person)::uuid, \(alias), \(d.day)::date, \(d.focusedMinutes), \(d.distractedMinutes), \(d.sessions), \(d.streak))
                    ON CONFLICT (group_name, person, day) DO UPDATE SET alias = excluded.alias, focused_minutes = excluded.focused_minutes,
                        distracted_minutes = excluded.distracted_minutes, sessions = excluded.sessions, streak = excluded.streak,
                        published_at = now()
                    """, logger: logger)
            }
        }
    }

    /// Each member's sums; a day whose figures no day can have (NaN, Infinity, more minutes than a
    /// day holds, a negative count: written by a damaged Vigil or by hand) is left out of them and
    /// counted in `skippedDays`, so that one member's row cannot stop everyone's report.
    func members(group: String, fromDay: String) async throws(SyncError) -> [GroupMember] {
        do {
            var out: [GroupMember] = []
            let (minutes, counts) = (IncomingRows.groupMinutes, IncomingRows.groupCount)
            let valid = """
                focused_minutes BETWEEN \(minutes.lowerBound) AND \(minutes.upperBound) AND distracted_minutes BETWEEN \(minutes.lowerBound) AND \(minutes.upperBound)
                AND sessions BETWEEN \(counts.lowerBound) AND \(counts.upperBound) AND streak BETWEEN \(counts.lowerBound) AND \(counts.upperBound)
                """
            var binds = PostgresBindings()
            binds.append(group)
            binds.append(fromDay)
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT (array_agg(alias ORDER BY day DESC))[1], (array_agg(owner::text ORDER BY day DESC))[1],
                            coalesce(sum(focused_minutes) FILTER (WHERE \(valid)), 0), coalesce(sum(distracted_minutes) FILTER (WHERE \(valid)), 0),
                            coalesce(sum(sessions::bigint) FILTER (WHERE \(valid)), 0)::bigint,
                            coalesce((array_agg(streak ORDER BY day DESC) FILTER (WHERE \(valid)))[1], 0)::bigint,
                            count(*) FILTER (WHERE \(valid)), count(*) FILTER (WHERE NOT coalesce(\(valid), false))
                        FROM vigil_group.days WHERE group_name = $1 AND day >= $2::date
                        GROUP BY person ORDER BY 3 DESC, 1
                        """, binds: binds), logger: logger)
            for try await (alias, role, focused, distracted, sessions, streak, days, skipped) in rows.decode(
                (String, String, Double, Double, Int64, Int64, Int64, Int64).self)
            {
                out.append(
                    GroupMember(
                        alias: alias, role: role, focusedMinutes: focused, distractedMinutes: distracted, sessions: Int(sessions),
                        streak: Int(streak), days: Int(days), skippedDays: Int(skipped)))
            }
            return out
        } catch {
            throw SyncError.from(error, address: address, group: true)
        }
    }
}
