import Foundation
import Testing
import TestSupport
@testable import DesktopNotifier

/// Desktop notifications against a real D-Bus: a private `dbus-daemon --session` started for the
/// test, and a small notification service on it (Data/notification-service.py, python3-dbus) that
/// logs each Notify call it receives.
@Suite(.serialized) struct DesktopNotifierTests {
    static let service = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/notification-service.py").path

    /// A private session bus in a temporary directory.
    final class Bus {
        let directory: String
        let process: ChildProcess
        var address: String { "unix:path=\(directory)/bus" }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-dbus-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            process = try ChildProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(directory)/bus"],
                                       output: directory + "/daemon.log")
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: directory + "/bus") { usleep(20_000) }
        }

        deinit {
            process.kill(SIGKILL)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Starts the notification service on `bus` and waits until it owns its name.
    static func startService(on bus: Bus) throws -> (ChildProcess, String) {
        let log = bus.directory + "/notifications.jsonl"
        let p = try ChildProcess("/usr/bin/python3", [service, bus.address, log], output: bus.directory + "/service.log")
        for _ in 0..<250 {
            if (try? String(contentsOfFile: log, encoding: .utf8))?.hasPrefix("ready") == true { return (p, log) }
            usleep(20_000)
        }
        let said = (try? String(contentsOfFile: bus.directory + "/service.log", encoding: .utf8)) ?? ""
        throw TestFailure("the notification service did not start: \(said)")
    }

    @Test func theNotifyCallCarriesSummaryBodyAndUrgency() throws {
        let bus = try Bus()
        let (service, log) = try Self.startService(on: bus)
        defer { service.kill(SIGKILL) }
        let notifier = DesktopNotifier(busAddress: bus.address)
        let id = try notifier.notify(summary: "Back to work? (alarm 2)", body: "no input for 5 min · thesis", urgency: .normal)
        #expect(id == 1)
        let again = try notifier.notify(summary: "Still away (alarm 4)", body: "no input for 10 min", urgency: .critical, replacing: id)
        #expect(again == id)
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(calls.count == 2)
        #expect(calls[0]["app_name"] as? String == "Vigil")
        #expect(calls[0]["summary"] as? String == "Back to work? (alarm 2)")
        #expect(calls[0]["body"] as? String == "no input for 5 min · thesis")
        #expect((calls[0]["hints"] as? [String: Any])?["urgency"] as? Int == 1)
        #expect((calls[1]["hints"] as? [String: Any])?["urgency"] as? Int == 2)
        #expect(calls[1]["replaces_id"] as? Int == 1)
    }

    @Test func aBusWithoutANotificationDaemonIsSaidSo() throws {
        let bus = try Bus()
        let notifier = DesktopNotifier(busAddress: bus.address)
        do {
            try notifier.notify(summary: "s", body: "b", urgency: .low)
            Issue.record("expected no service")
        } catch {
            #expect(error.kind == .noService, "\(error)")
            #expect(error.detail.contains("no notification daemon"))
        }
        // A daemon that starts later is found without a new notifier.
        let (service, _) = try Self.startService(on: bus)
        defer { service.kill(SIGKILL) }
        #expect(try notifier.notify(summary: "s", body: "b", urgency: .low) == 1)
    }

    @Test func noBusIsSaidSo() throws {
        let notifier = DesktopNotifier(busAddress: "unix:path=/nonexistent/vigil-bus")
        do {
            try notifier.notify(summary: "s", body: "b", urgency: .low)
            Issue.record("expected no bus")
        } catch {
            #expect(error.kind == .noBus, "\(error)")
            #expect(error.detail.contains("cannot reach the session D-Bus"))
        }
    }
}
