import Foundation
import GRDB
import TestSupport
import Testing
import VigilCore
import VigilPlanner
import VigilSync

@testable import VigilStore

/// `vigil undo` after a sync never writes over a change another device made since: the undo is
/// refused and says which row; a change no other device touched is still undone after a sync.
@Suite(.serialized) struct UndoAcrossDevicesTests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    @Test func anUndoDoesNotRevertAnotherDevicesLaterEdit() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        let t0 = Timestamp(milliseconds: 1_760_000_000_000)
        let slides = try laptop.store.addTask(TaskItem(id: 0, title: "Slides", created: t0))
        let talk = try laptop.store.addTask(TaskItem(id: 0, title: "Talk", created: t0))
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)

        // The laptop renames the task and sends it; the desktop renames it again later.
        var t = try #require(try laptop.store.task(id: slides))
        t.title = "Slides v2"
        try laptop.store.updateTask(t)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let copy = try #require(
            try await desktop.store.db.read { try Int64.fetchOne($0, sql: "SELECT id FROM tasks WHERE origin_id = ?", arguments: [slides]) })
        var d = try #require(try desktop.store.task(id: copy))
        #expect(d.title == "Slides v2")
        d.title = "Slides v3"
        try desktop.store.updateTask(d)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        #expect(try laptop.store.task(id: slides)?.title == "Slides v3")

        // Undoing the laptop's rename would put "Slides" over the desktop's "Slides v3".
        let refused: StoreError = try #require(throws: StoreError.self) { try laptop.store.undoLastChange() }
        #expect(refused.message.contains("task #\(slides) was changed on another device"), "\(refused.message)")
        #expect(refused.message.contains("Nothing was changed"), "\(refused.message)")
        #expect(try laptop.store.task(id: slides)?.title == "Slides v3")
        #expect(try laptop.store.lastChange() == "task change #\(slides) \"Slides v2\"", "the journal is kept")
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        #expect(try desktop.store.task(id: copy)?.title == "Slides v3", "no revert travelled")

        // A change nobody else touched is undone after syncs that only sent it, or moved other rows.
        var other = try #require(try laptop.store.task(id: talk))
        other.title = "Talk v2"
        try laptop.store.updateTask(other)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        d = try #require(try desktop.store.task(id: copy))
        d.note = "from the desktop"
        try desktop.store.updateTask(d)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        #expect(try laptop.store.undoLastChange() == "task change #\(talk) \"Talk v2\"")
        #expect(try laptop.store.task(id: talk)?.title == "Talk")
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let talkCopy = try #require(
            try await desktop.store.db.read { try Int64.fetchOne($0, sql: "SELECT id FROM tasks WHERE origin_id = ?", arguments: [talk]) })
        #expect(try desktop.store.task(id: talkCopy)?.title == "Talk", "the undo travels as an edit")
    }

    /// A session the person edited here and another device edited after: the same refusal.
    @Test func aSessionEditedElsewhereLaterIsNotReverted() async throws {
        let database = try server.createDatabase()
        let address = try syncAddress(server, database)
        let laptop = try Device("laptop")
        let desktop = try Device("desktop")
        let t0 = Timestamp(milliseconds: 1_760_000_000_000)
        let id = try laptop.store.addSession(task: "thesis", taskId: nil, tags: [], note: nil, from: t0, to: t0 + 3_600)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        try laptop.store.editSession(id: id, SessionEdit(task: .set("novel"), tags: []))
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        let copy = try #require(
            try await desktop.store.db.read { try Int64.fetchOne($0, sql: "SELECT id FROM sessions WHERE origin_id = ?", arguments: [id]) })
        try desktop.store.editSession(id: copy, SessionEdit(task: .set("essay"), tags: ["deep"]))
        _ = try await SyncClient.sync(store: desktop.store, address: address)
        _ = try await SyncClient.sync(store: laptop.store, address: address)
        #expect(try laptop.store.sessionRecord(id: id)?.task == "essay")
        let refused: StoreError = try #require(throws: StoreError.self) { try laptop.store.undoLastChange() }
        #expect(refused.message.contains("session #\(id) was changed on another device"), "\(refused.message)")
        #expect(try laptop.store.sessionRecord(id: id)?.task == "essay")
    }
}
