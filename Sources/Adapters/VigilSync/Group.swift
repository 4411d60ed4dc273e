import Foundation
import PostgresNIO

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
        """
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
    public var focusedMinutes: Double
    public var distractedMinutes: Double
    public var sessions: Int
    /// The streak of procrastination-free days on the latest day they published.
    public var streak: Int
    public var days: Int
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
            let result = try await body(Server(connection: connection, address: address))
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

    func members(group: String, fromDay: String) async throws(SyncError) -> [GroupMember] {
        do {
            var out: [GroupMember] = []
            let rows = try await connection.query(
                """
                SELECT (array_agg(alias ORDER BY day DESC))[1], sum(focused_minutes), sum(distracted_minutes), sum(sessions)::bigint,
                    (array_agg(streak ORDER BY day DESC))[1]::bigint, count(*)::bigint
                FROM vigil_group.days WHERE group_name = \(group) AND day >= \(fromDay)::date
                GROUP BY person ORDER BY 2 DESC, 1
                """, logger: logger)
            for try await (alias, focused, distracted, sessions, streak, days) in rows.decode((String, Double, Double, Int64, Int64, Int64).self) {
                out.append(
                    GroupMember(
                        alias: alias, focusedMinutes: focused, distractedMinutes: distracted, sessions: Int(sessions), streak: Int(streak),
                        days: Int(days)))
            }
            return out
        } catch {
            throw SyncError.from(error, address: address)
        }
    }
}
