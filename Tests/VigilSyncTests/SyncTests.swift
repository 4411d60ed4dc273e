import Foundation
import GRDB
import HistorySimulation
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilPlanner
import VigilSync

@testable import VigilStore

/// One PostgreSQL server for the suite (a database per test): starting one takes a second.
let postgres: Result<PostgresServer, any Error> = Result { try PostgresServer() }

/// A server with TLS, for the sslmode tests.
let tlsPostgres: Result<PostgresServer, any Error> = Result { try PostgresServer(tls: true) }

/// A device: its own data directory and log.
struct Device {
    let directory: String
    let store: EventStore
    init(_ name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-sync-\(name)-\(UUID().uuidString.prefix(8))").path
        store = try EventStore(path: directory + "/vigil.sqlite3")
        try store.renameThisDevice(name)
    }

    /// `days` of simulated history ending `lastDay`, as `vigil simulate` writes it.
    func simulate(seed: UInt64, days: Int, lastDay: Int = 20_400) throws {
        var simulator = HistorySimulator(seed: seed, timeZone: TimeZone(identifier: "Europe/Berlin")!, signals: .builtIn)
        var sessions: [[SessionEvent]] = []
        simulator.run(days: (lastDay - days + 1)...lastDay) { sessions.append($0) }
        try store.appendSessions(sessions, source: .simulated)
    }

    func counts() throws -> [String: Int] { try store.counts() }
}

func syncAddress(_ server: PostgresServer, _ database: String, password: String? = nil) throws -> ServerAddress {
    try ServerAddress(url: server.url(database), passwordFile: nil, environment: ["PGPASSWORD": password ?? server.password])
}

/// Rows of the synced tables that say what happened, in an order of their own: equal on two
/// devices when they hold the same history, whatever the local ids.
func history(_ store: EventStore) throws -> [String] {
    let sessions = try store.sessions(limit: 1_000_000, sources: Set(SessionSource.allCases))
    return sessions.map { "\($0.started.millisecondsSinceEpoch) \($0.task ?? "-") \($0.outcome ?? "open") \($0.focusedSeconds ?? -1)" }
        .sorted()
}

/// The error a sync ends with; nil when it succeeded.
func syncFailure(_ store: EventStore, _ address: ServerAddress, options: SyncOptions = SyncOptions()) async -> SyncError? {
    do {
        _ = try await SyncClient.sync(store: store, address: address, options: options)
        return nil
    } catch {
        return error
    }
}

@Suite(.serialized) struct SyncTests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    @Test func twoDevicesEndWithTheSameHistoryAndASecondSyncMovesNothing() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        try laptop.simulate(seed: 1, days: 30)
        try desktop.simulate(seed: 2, days: 30)
        let before = (laptop: try laptop.counts(), desktop: try desktop.counts())

        let first = try await SyncClient.sync(store: laptop.store, address: address)
        let second = try await SyncClient.sync(store: desktop.store, address: address)
        let third = try await SyncClient.sync(store: laptop.store, address: address)
        let firstSent = first.sent["sessions"] ?? 0
        let desktopReceived = second.received["sessions"] ?? 0
        let laptopReceived = third.received["sessions"] ?? 0
        #expect(firstSent == before.laptop["sessions"])
        #expect(desktopReceived == before.laptop["sessions"])
        #expect(laptopReceived == before.desktop["sessions"])
        let after = (laptop: try laptop.counts(), desktop: try desktop.counts())
        for table in ["sessions", "episodes", "alarms", "state_changes", "gaps"] {
            let expected = (before.laptop[table] ?? 0) + (before.desktop[table] ?? 0)
            #expect(after.laptop[table] == expected, "\(table) on the laptop")
            #expect(after.desktop[table] == expected, "\(table) on the desktop")
        }
        let laptopHistory = try history(laptop.store)
        let desktopHistory = try history(desktop.store)
        #expect(laptopHistory == desktopHistory)

        // Nothing new: nothing moves, nothing doubles.
        let again = try await SyncClient.sync(store: desktop.store, address: address)
        let movedAgain = again.sent.values.reduce(0, +) + again.received.values.reduce(0, +)
        #expect(movedAgain == 0)
        let serverSessions = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        #expect(Int(serverSessions) == (before.laptop["sessions"] ?? 0) + (before.desktop["sessions"] ?? 0))
        let names = try laptop.store.devices().map(\.name)
        #expect(names == ["laptop", "desktop"])
    }

    /// A session edited (task, tags, note) on another device after it was sent reaches the device
    /// it was recorded on, and a session deleted there leaves every device; the later edit wins,
    /// events are not sent twice, and a sync after that moves nothing.
    @Test func sessionEditsAndDeletesAfterSendingReachEveryDevice() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        try laptop.simulate(seed: 5, days: 3)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let own = try await laptop.store.db.read { try Int64.fetchAll($0, sql: "SELECT id FROM sessions ORDER BY id LIMIT 2") }
        let (edited, deleted) = (own[0], own[1])
        let copied = try await desktop.store.db.read {
            try Int64.fetchOne($0, sql: "SELECT id FROM sessions WHERE origin_id = ?", arguments: [edited])
        }
        let copy = try #require(copied)
        let events = try server.sql("SELECT count(*) FROM vigil.state_changes", database: database)

        // The desktop corrects the laptop's session; the laptop deletes another one.
        try desktop.store.editSession(id: copy, SessionEdit(task: .set("novel"), tags: ["deep"], note: .set("door closed")))
        try laptop.store.deleteSession(id: deleted)
        let fromDesktop = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(fromDesktop.sent["sessions"] == 1)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)

        let record = try laptop.store.sessionRecord(id: edited)
        let onLaptop = try #require(record)
        #expect(onLaptop.task == "novel" && onLaptop.tags == ["deep"] && onLaptop.note == "door closed")
        let onServer = try server.sql(
            "SELECT task || ' ' || tags || ' ' || note FROM vigil.sessions WHERE origin_id = \(edited)", database: database)
        #expect(onServer == "novel deep door closed")
        let eventsAfter = try server.sql("SELECT count(*) FROM vigil.state_changes WHERE NOT origin_id IS NULL", database: database)
        #expect(Int(eventsAfter)! < Int(events)!, "the deleted session's events went; the edited one's were not sent again")
        let gone = try await desktop.store.db.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM sessions WHERE origin_id = ?", arguments: [deleted])
        }
        #expect(gone == 0)
        let (laptopHistory, desktopHistory) = (try history(laptop.store), try history(desktop.store))
        #expect(laptopHistory == desktopHistory)
        // An older edit arriving later loses; nothing is left to move.
        let again = try await SyncClient.sync(store: laptop.store, address: address)
        let moved = again.sent.values.reduce(0, +) + again.received.values.reduce(0, +)
        #expect(moved == 0)
        let pending = try desktop.store.pendingSync().edits
        #expect(pending == 0)
    }

    /// A sync stopped after the server committed a batch and before the log marked it sent (a
    /// SIGKILL, a dropped connection): the next sync sends it again, and the server keeps one copy.
    @Test func aSyncStoppedBetweenCommitAndMarkLosesAndDoublesNothing() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        try laptop.simulate(seed: 3, days: 20)
        let before = try laptop.counts()
        var options = SyncOptions()
        options.sessionBatch = 10
        options.afterCommit = { table in if table == "sessions" { throw CancellationError() } }
        let stopped = await syncFailure(laptop.store, address, options: options)
        #expect(stopped != nil)
        let afterFault = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        #expect(afterFault == "10")
        let pending = try laptop.store.pendingSync().sessions
        #expect(pending == before["sessions"])

        _ = try await SyncClient.sync(store: laptop.store, address: address)
        for table in ["sessions", "episodes", "alarms", "state_changes", "gaps"] {
            let onServer = try server.sql("SELECT count(*) FROM vigil.\(table)", database: database)
            #expect(Int(onServer) == before[table], "\(table)")
        }
        let left = try laptop.store.pendingSync().sessions
        #expect(left == 0)
    }

    /// The same task edited on two devices before either synced: the later edit wins everywhere.
    /// A habit day checked by the person on one device and failed by Vigil on the other: the
    /// person's mark wins, whichever came later.
    @Test func conflictingEditsMergeAsDocumented() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        let created = Timestamp(milliseconds: 1_760_000_000_000)
        let taskID = try laptop.store.addTask(TaskItem(id: 0, title: "Chapter 3", created: created))
        let habitID = try laptop.store.addHabit(Habit(id: 0, name: "Thesis", schedule: .daily, createdDay: 20_000))
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let desktopTask = try #require(try desktop.store.tasks().first)
        let desktopHabit = try #require(try desktop.store.habits().first)

        // Both edit; the desktop's edit is the later one.
        var onLaptop = try #require(try laptop.store.task(id: taskID))
        onLaptop.title = "Chapter 3 (laptop)"
        try laptop.store.updateTask(onLaptop)
        try await Task.sleep(for: .milliseconds(5))
        var onDesktop = desktopTask
        onDesktop.title = "Chapter 3 (desktop)"
        try desktop.store.updateTask(onDesktop)
        // The person checks day 20,001 on the laptop; the desktop fails it on its own, later.
        try laptop.store.setHabitDay(id: habitID, day: 20_001, status: .completed, source: "person")
        try await Task.sleep(for: .milliseconds(5))
        try desktop.store.setHabitDay(id: desktopHabit.id, day: 20_001, status: .failed, source: "auto")

        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        let laptopTitle = try laptop.store.tasks().map(\.title)
        let desktopTitle = try desktop.store.tasks().map(\.title)
        #expect(laptopTitle == ["Chapter 3 (desktop)"])
        #expect(desktopTitle == ["Chapter 3 (desktop)"])
        let laptopDay = try laptop.store.habitDays(id: habitID)[20_001]
        let desktopDay = try desktop.store.habitDays(id: desktopHabit.id)[20_001]
        #expect(laptopDay == .completed)
        #expect(desktopDay == .completed)

        // A delete on one device reaches the other.
        try desktop.store.deleteTask(id: desktopTask.id)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        let left = try laptop.store.tasks().count
        #expect(left == 0)
    }

    /// Per table, the rows of `store` that a full exchange must bring to every device.
    func expectSameRows(_ devices: [Device], database: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tables = ["sessions", "episodes", "alarms", "state_changes", "gaps"]
        let counts = try devices.map { try $0.counts() }
        let histories = try devices.map { try history($0.store) }
        for table in tables {
            let onServer = Int(
                try server.sql("SELECT count(*) FROM vigil.\(table)\(table == "sessions" ? " WHERE NOT deleted" : "")", database: database))
            for (device, count) in zip(devices, counts) {
                #expect(count[table] == onServer, "\(table) on \(device.directory)", sourceLocation: sourceLocation)
            }
        }
        for h in histories.dropFirst() { #expect(h == histories[0], sourceLocation: sourceLocation) }
    }

    /// Three devices with a month each sync at the same time, then once more to receive what the
    /// others sent meanwhile: all three hold the same history, the server one copy of each row.
    @Test func threeDevicesSyncingAtOnceEndEqual() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let devices = try ["laptop", "desktop", "office"].map { try Device($0) }
        var own = 0
        for (i, d) in devices.enumerated() {
            try d.simulate(seed: UInt64(10 + i), days: 30)
            own += try d.counts()["sessions"] ?? 0
        }
        var options = SyncOptions()
        options.sessionBatch = 25
        async let a = SyncClient.sync(store: devices[0].store, address: address, options: options)
        async let b = SyncClient.sync(store: devices[1].store, address: address, options: options)
        async let c = SyncClient.sync(store: devices[2].store, address: address, options: options)
        _ = try await (a, b, c)
        for d in devices { _ = try await SyncClient.sync(store: d.store, address: address) }
        let total = try devices[0].counts()["sessions"]
        #expect(total == own)
        try expectSameRows(devices, database: database)
    }

    /// The server stops (a restart: `pg_ctl stop -m fast` ends every connection) in the middle of
    /// a sync: the sync fails as unreachable, and the next one, once the server is back, completes it.
    @Test func theServerStoppingMidSyncLosesAndDoublesNothing() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        try laptop.simulate(seed: 21, days: 40)
        try desktop.simulate(seed: 22, days: 40)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        var options = SyncOptions()
        options.sessionBatch = 20
        let server = self.server
        let stopped = Mutex(false)
        options.afterCommit = { table in
            guard table == "sessions",
                !stopped.withLock({
                    let was = $0
                    $0 = true
                    return was
                })
            else { return }
            server.stop(mode: "fast")
        }
        let failure = await syncFailure(laptop.store, address, options: options)
        try server.start()
        #expect(failure?.kind == .unreachable, "\(String(describing: failure))")
        let onServer = Int(try server.sql("SELECT count(*) FROM vigil.sessions", database: database)) ?? 0
        let desktopOwn = try desktop.store.pendingSync().sessions
        #expect(desktopOwn == 0)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        try expectSameRows([laptop, desktop], database: database)
        #expect(onServer > 0, "the first batch had arrived before the stop")
    }

    /// A device offline for a week keeps working; what it made waits, and arrives whole when the
    /// server is reachable again.
    @Test func aDeviceOfflineForAWeekCatchesUp() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        try laptop.simulate(seed: 31, days: 30, lastDay: 20_400)
        try desktop.simulate(seed: 32, days: 30, lastDay: 20_400)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        // A week away: the server cannot be reached.
        try laptop.simulate(seed: 33, days: 7, lastDay: 20_407)
        let week = try laptop.store.pendingSync().sessions
        #expect(week > 0)
        let nowhere = try ServerAddress(url: "postgres://vigil@127.0.0.1:\(freePort())/x?sslmode=disable", passwordFile: nil, environment: [:])
        let offline = await syncFailure(laptop.store, nowhere)
        #expect(offline?.kind == .unreachable)
        let stillWaiting = try laptop.store.pendingSync().sessions
        #expect(stillWaiting == week)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        try expectSameRows([laptop, desktop], database: database)
    }

    /// What never leaves the computer is not on the server: the words of reasons (which name
    /// applications and places) unless shared, application classes, sensor status, deliveries.
    @Test func theServerHoldsNoReasonsApplicationsOrSensorDetails() async throws {
        let database = try server.createDatabase()
        let laptop = try Device("laptop")
        try laptop.simulate(seed: 41, days: 20)
        let reasons = try laptop.store.read { try String.fetchAll($0, sql: "SELECT DISTINCT reason FROM episodes") }
        #expect(!reasons.isEmpty)
        _ = try await SyncClient.sync(store: laptop.store, address: try syncAddress(server, database))
        let dump =
            try server.sql(
                "SELECT string_agg(t::text, ' ') FROM (SELECT * FROM vigil.episodes) t", database: database)
            + (try server.sql("SELECT string_agg(t::text, ' ') FROM (SELECT * FROM vigil.alarms) t", database: database))
            + (try server.sql("SELECT string_agg(t::text, ' ') FROM (SELECT * FROM vigil.state_changes) t", database: database))
        for reason in reasons where !reason.isEmpty { #expect(!dump.contains(reason), "\(reason) left the computer") }
        let tables = try server.sql(
            "SELECT string_agg(table_name, ' ' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'vigil'", database: database)
        for local in ["activities", "sensor_events", "alarm_deliveries", "snoozes"] { #expect(!tables.contains(local), "\(tables)") }
    }

    /// docs/sync-schema.sql, run by psql, makes the schema sync makes; and every column a row
    /// travels with is on the server, with the type it travels as.
    @Test func theDocumentedSchemaIsWhatSyncCreatesAndHoldsEveryTravellingColumn() async throws {
        let synced = try server.createDatabase()
        _ = try await SyncClient.sync(store: try Device("laptop").store, address: try syncAddress(server, synced))
        let documented = try server.createDatabase()
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        try server.sql(try String(contentsOfFile: repo + "/docs/sync-schema.sql", encoding: .utf8), database: documented)
        let columns = """
            SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, ''),
                E'\n' ORDER BY table_name, column_name)
            FROM information_schema.columns WHERE table_schema = 'vigil'
            """
        let made = try server.sql(columns, database: synced)
        let written = try server.sql(columns, database: documented)
        #expect(made == written)
        let types = ["bigint": "bigint", "double precision": "double precision", "text": "text", "uuid": "uuid"]
        for table in [SyncTable.sessions] + SyncTable.sessionEvents + SyncTable.editedTables {
            for column in table.sentColumns {
                let type = try server.sql(
                    "SELECT data_type FROM information_schema.columns WHERE table_schema = 'vigil' AND table_name = '\(table.name)' AND column_name = '\(column.name)'",
                    database: synced)
                #expect(type == types[column.type.serverType], "\(table.name).\(column.name)")
            }
        }
    }

    /// TLS as libpq's sslmode means it, against a server whose certificate a test CA signed:
    /// verify-full with that CA syncs, without it (the system's CAs) refuses, naming sslrootcert;
    /// require encrypts without checking.
    @Test func sslModesVerifyTheServerAsLibpqDoes() async throws {
        let tls = try tlsPostgres.get()
        let ca = try #require(tls.certificateAuthority)
        let database = try tls.createDatabase()
        func address(_ query: String) throws -> ServerAddress {
            try ServerAddress(
                url: "postgres://vigil@localhost:\(tls.port)/\(database)?\(query)", passwordFile: nil, environment: ["PGPASSWORD": tls.password])
        }
        let laptop = try Device("laptop")
        try laptop.simulate(seed: 51, days: 5)
        let unverified = await syncFailure(laptop.store, try address("sslmode=verify-full"))
        #expect(unverified?.kind == .configuration, "\(String(describing: unverified))")
        #expect(unverified?.message.contains("sslrootcert") == true, "\(String(describing: unverified))")
        let verified = await syncFailure(laptop.store, try address("sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(verified == nil, "\(String(describing: verified))")
        let required = await syncFailure(try Device("desktop").store, try address("sslmode=require"))
        #expect(required == nil, "\(String(describing: required))")
    }

    @Test func aWrongPasswordAnUnreachableServerAndANewerSchemaAreClearErrorsAndTouchNothing() async throws {
        let database = try server.createDatabase()
        let laptop = try Device("laptop")
        try laptop.simulate(seed: 4, days: 3)
        let historyBefore = try history(laptop.store)

        let wrongPassword = await syncFailure(laptop.store, try syncAddress(server, database, password: "wrong"))
        #expect(wrongPassword?.kind == .authentication)
        #expect(wrongPassword?.message.contains("password") == true, "\(String(describing: wrongPassword))")
        let closed = freePort()
        let nowhere = try ServerAddress(url: "postgres://vigil@127.0.0.1:\(closed)/x?sslmode=disable", passwordFile: nil, environment: [:])
        let unreachable = await syncFailure(laptop.store, nowhere)
        #expect(unreachable?.kind == .unreachable)
        // A newer Vigil upgraded the server.
        _ = try await SyncClient.sync(store: try Device("other").store, address: try syncAddress(server, database))
        try server.sql("INSERT INTO vigil.schema_version (version) VALUES (99)", database: database)
        let sessionsBefore = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        let newer = await syncFailure(laptop.store, try syncAddress(server, database))
        #expect(newer?.kind == .newerServer)
        #expect(newer?.message.contains("Update Vigil") == true, "\(String(describing: newer))")
        let sessionsAfter = try server.sql("SELECT count(*) FROM vigil.sessions", database: database)
        #expect(sessionsAfter == sessionsBefore)
        let pending = try laptop.store.pendingSync().sessions
        let sessions = try laptop.counts()["sessions"]
        #expect(pending == sessions)
        let historyAfter = try history(laptop.store)
        #expect(historyAfter == historyBefore)
        let syncedWith = try laptop.store.syncState("server")
        #expect(syncedWith == nil)
    }
}
