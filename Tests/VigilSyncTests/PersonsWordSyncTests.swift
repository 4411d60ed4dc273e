import Foundation
import GRDB
import TestSupport
import Testing
import VigilCore
import VigilSync

@testable import VigilStore

/// The person's word (an intention's answer, an episode's label) is an edit of the session: given
/// before the session is sent it goes with it; given after, on any device, it reaches the others,
/// and taking a label back travels too.
@Suite(.serialized) struct PersonsWordSyncTests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    /// The labels of a session's episodes on a device, by number ("1:break").
    func labels(_ device: Device, session: Int64) throws -> [String] {
        try device.store.episodes(session: session).compactMap { e in e.label.map { "\(e.number):\($0.rawValue)" } }
    }

    @Test func answersAndLabelsTravelAsEditsOfTheSession() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        try laptop.simulate(seed: 7, days: 20)
        // A session with at least two episodes, given an intention as `start --intent` would.
        let found = try await laptop.store.db.write { db in
            let id = try Int64.fetchOne(
                db, sql: "SELECT session_id FROM episodes GROUP BY session_id HAVING count(*) >= 2 ORDER BY session_id LIMIT 1")
            if let id { try db.execute(sql: "UPDATE sessions SET intent = 'draft the intro' WHERE id = ?", arguments: [id]) }
            return id
        }
        let session = try #require(found)
        // Before the first sync: the label goes with the session.
        #expect(try laptop.store.labelEpisode(session: session, number: 1, .meeting))
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let copied = try await desktop.store.db.read {
            try Int64.fetchOne($0, sql: "SELECT id FROM sessions WHERE origin_id = ?", arguments: [session])
        }
        let copy = try #require(copied)
        #expect(try labels(desktop, session: copy) == ["1:meeting"])
        #expect(try desktop.store.sessionRecord(id: copy)?.intent == "draft the intro")

        // After: the desktop answers and labels another episode; the laptop takes its label back.
        #expect(try desktop.store.answerIntent(session: copy, .partly))
        #expect(try desktop.store.labelEpisode(session: copy, number: 2, .offlineWork))
        let sent = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(sent.sent["sessions"] == 1)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        #expect(try labels(laptop, session: session) == ["1:meeting", "2:offline_work"])
        #expect(try laptop.store.sessionRecord(id: session)?.intentKept == .partly)

        #expect(try laptop.store.labelEpisode(session: session, number: 1, nil))
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(try labels(desktop, session: copy) == ["2:offline_work"])
        let onServer = try server.sql("SELECT labels || ' ' || intent_kept FROM vigil.sessions WHERE origin_id = \(session)", database: database)
        #expect(onServer == "2:offline_work partly")
        // Nothing left to move either way.
        let again = try await SyncClient.sync(store: laptop.store, address: address)
        let moved = again.sent.values.reduce(0, +) + again.received.values.reduce(0, +)
        #expect(moved == 0)
        // An episode number that is not there is refused before anything is written.
        #expect(try laptop.store.labelEpisode(session: session, number: 999, .work) == false)
        #expect(try laptop.store.pendingSync().edits == 0)
    }
}
