import Foundation
import TestSupport
import Testing

@testable import DesktopNotifier

/// Desktop notifications against a real D-Bus: a private `dbus-daemon --session` started for the
/// test, and a small notification service on it (Data/notification-service.py, python3-dbus) that
/// logs each Notify call it receives.
@Suite(.serialized) struct DesktopNotifierTests {
    @Test func theNotifyCallCarriesSummaryBodyAndUrgency() throws {
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
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

    /// A daemon that reads bodies as markup ("body-markup") gets outside text escaped, so a task
    /// called "<b>R&D</b>" reads as typed; one that reads plain text gets it unchanged.
    @Test func textInABodyIsEscapedOnlyForADaemonThatReadsMarkup() throws {
        for (capabilities, expected) in [
            (["body", "body-markup"], "&lt;b&gt;R&amp;D&lt;/b&gt; · thesis"), (["body"], "<b>R&D</b> · thesis"),
        ] {
            let bus = try SessionBus()
            let (service, log) = try bus.startNotificationService(capabilities: capabilities)
            defer { service.kill(SIGKILL) }
            try DesktopNotifier(busAddress: bus.address).notify(summary: "<i>s</i>", body: "<b>R&D</b> · thesis", urgency: .normal)
            let calls = SessionBus.notifications(log)
            #expect(calls.first?["body"] as? String == expected, "\(capabilities): \(calls)")
            #expect(calls.first?["summary"] as? String == "<i>s</i>", "a summary is plain text in the specification")
        }
    }

    @Test func aBusWithoutANotificationDaemonIsSaidSo() throws {
        let bus = try SessionBus()
        let notifier = DesktopNotifier(busAddress: bus.address)
        do {
            try notifier.notify(summary: "s", body: "b", urgency: .low)
            Issue.record("expected no service")
        } catch {
            #expect(error.kind == .noService, "\(error)")
            #expect(error.detail.contains("no notification daemon"))
        }
        // A daemon that starts later is found without a new notifier.
        let (service, _) = try bus.startNotificationService()
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

    /// A question with buttons: the service clicks "meeting" as a person would; the answer is the
    /// button's key. A daemon without buttons is refused at once, and a question nobody answers
    /// ends unanswered when its time is up, and is taken down.
    @Test func aQuestionWithButtonsIsAnsweredByTheButtonClicked() throws {
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService(capabilities: ["body", "actions"], clicks: ["meeting"])
        defer { service.kill(SIGKILL) }
        let choices = [(key: "break", label: "A break"), (key: "meeting", label: "A meeting or call")]
        let answer = try DesktopNotifier(busAddress: bus.address).ask(summary: "Welcome back", body: "What was it?", actions: choices, timeout: 60)
        #expect(answer == "meeting")
        let calls = SessionBus.notifications(log)
        #expect(calls.first?["actions"] as? [String] == ["break", "A break", "meeting", "A meeting or call"], "\(calls)")
        #expect(calls.first?["expire_timeout"] as? Int == 0, "stays until answered")

        let nobody = try SessionBus()
        let (quiet, _) = try nobody.startNotificationService(capabilities: ["body", "actions"])
        defer { quiet.kill(SIGKILL) }
        #expect(try DesktopNotifier(busAddress: nobody.address).ask(summary: "s", body: "b", actions: choices, timeout: 0.5) == nil)

        let plain = try SessionBus()
        let (noButtons, _) = try plain.startNotificationService(capabilities: ["body"])
        defer { noButtons.kill(SIGKILL) }
        #expect(throws: NotificationError.self) {
            try DesktopNotifier(busAddress: plain.address).ask(summary: "s", body: "b", actions: choices, timeout: 60)
        }
    }
}
