import DBusSupport
import Foundation
import TestSupport
import Testing

/// The message encoder and decoder against a real dbus-daemon: a python-dbusmock object echoes each
/// value back in a variant, so every type crosses the bus twice (Vigil → python-dbus → Vigil).
@Suite(.serialized) struct BusConnectionTests {
    static let values: [DBusValue] = [
        .byte(200), .bool(true), .bool(false), .int16(-3), .uint16(65000), .int32(-70000), .uint32(4_000_000_000),
        .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("Grüße, \"quoted\""), .objectPath("/org/example/Obj_1"),
        .signature("a{sv}"), .array(element: "s", []), .array(element: "s", [.string("a"), .string("b")]),
        .array(element: "{sv}", [.dictEntry(.string("urgency"), .variant(.byte(2))), .dictEntry(.string("n"), .variant(.uint64(7)))]),
        .structure([.string("c1"), .uint32(1000), .objectPath("/org/freedesktop/login1/session/c1")]),
        .variant(.array(element: "i", [.int32(1), .int32(2)])),
    ]

    @Test func everyValueTypeCrossesTheBusUnchanged() throws {
        let bus = try SessionBus()
        let p = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--session", "org.vigil.Echo", "/org/vigil/Echo", "org.vigil.Echo"],
            environment: ProcessInfo.processInfo.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })
        defer { p.kill(SIGKILL) }
        let connection = try BusConnection(address: bus.address)
        var owned = false
        for _ in 0..<600 where !owned {
            owned = try connection.nameHasOwner("org.vigil.Echo")
            if !owned { usleep(50_000) }
        }
        try #require(owned, "dbusmock did not start")
        try connection.call(
            "org.vigil.Echo", "/org/vigil/Echo", "org.freedesktop.DBus.Mock", "AddMethod",
            [.string("org.vigil.Echo"), .string("Echo"), .string("v"), .string("v"), .string("ret = args[0]")])
        for value in Self.values {
            let reply = try connection.call("org.vigil.Echo", "/org/vigil/Echo", "org.vigil.Echo", "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "\(value.signature)")
        }
        let dictionary = try #require(Self.values[15].dictionary)
        #expect(dictionary["urgency"]?.unsigned == 2 && dictionary["n"]?.unsigned == 7)
    }

    /// A call made to the connection's unique name (what a KWin script's `callDBus` does) is
    /// handed over with its arguments and answered at once with an empty reply, so the caller is
    /// not left waiting; without `answeringCalls` it is not handed over.
    @Test func callsToTheUniqueNameAreAnsweredAndHandedOver() throws {
        let bus = try SessionBus()
        let connection = try BusConnection(address: bus.address)
        let name = connection.uniqueName
        #expect(name.hasPrefix(":1."), "\(name)")
        func call() -> ChildProcess? {
            // dbus-send, not gdbus, which would introspect the object first.
            try? ChildProcess(
                "/usr/bin/dbus-send",
                ["--bus=\(bus.address)", "--print-reply", "--dest=\(name)", "/org/vigil/Test", "org.vigil.Test.Changed", "string:a", "string:b"])
        }
        let caller = try #require(call())
        var got: DBusSignal?
        // (The bus's own NameAcquired signal comes first.)
        for _ in 0..<100 where got?.member != "Changed" { got = try connection.nextSignal(timeout: 0.1, answeringCalls: true) }
        #expect(
            got?.interface == "org.vigil.Test" && got?.member == "Changed" && got?.arguments == [.string("a"), .string("b")],
            "\(String(describing: got))")
        #expect(got?.sender.hasPrefix(":1.") == true)
        #expect(caller.wait() == 0, "gdbus got its reply")
        let ignored = try #require(call())
        var seen: [DBusSignal] = []
        while let next = try connection.nextSignal(timeout: 1) { seen.append(next) }
        #expect(!seen.contains { $0.member == "Changed" }, "\(seen)")
        ignored.kill()
    }

    @Test func failuresAreSortedByKind() throws {
        let bus = try SessionBus()
        let connection = try BusConnection(address: bus.address)
        #expect(throws: DBusFailure.self) { try connection.call("org.vigil.Nobody", "/", "org.vigil.Nobody", "Hello") }
        do {
            try connection.call("org.vigil.Nobody", "/", "org.vigil.Nobody", "Hello")
        } catch {
            #expect(error.kind == .noService, "\(error)")
        }
        do {
            try connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NoSuchMethod")
        } catch {
            #expect(error.kind == .remote && error.isUnknownMember, "\(error)")
        }
        // An invalid path never reaches libdbus (which would abort the process).
        do {
            try connection.call("org.freedesktop.DBus", "not a path", "org.freedesktop.DBus", "Hello")
        } catch {
            #expect(error.kind == .badReply, "\(error)")
        }
        #expect(throws: DBusFailure.self) { try BusConnection(address: "unix:path=/nonexistent/vigil-bus") }
        bus.kill()
        // What was queued first (the bus's NameAcquired) is read, then the loss.
        var lost: DBusFailure?
        for _ in 0..<100 where lost == nil {
            do { _ = try connection.nextSignal(timeout: 1) } catch { lost = error }
        }
        #expect(lost?.kind == .disconnected, "\(String(describing: lost))")
        #expect(!connection.isConnected)
    }
}
