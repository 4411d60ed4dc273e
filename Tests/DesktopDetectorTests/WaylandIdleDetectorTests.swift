import Foundation
import TestSupport
import Testing
import VigilCore

@testable import WaylandDetector

/// These tests run real Wayland compositors, each started by the test:
/// - sway 1.7 (wlroots 0.15), headless as uid 65534 (sway refuses root): it offers KDE's
///   `org_kde_kwin_idle` and not `ext-idle-notify-v1`. Input is a real key press from `wtype`,
///   a client of the virtual-keyboard protocol, which sway handles as a keyboard's and counts as
///   activity, and a pointer move from `swaymsg seat - cursor move`.
/// - KWin 5.27 (Plasma's compositor), headless: the compositor in Debian 12 that offers
///   `ext-idle-notify-v1` (sway offers it from 1.8, labwc and Hyprland are not in Debian 12, and
///   Weston, cage and Wayfire do not offer it). KWin's virtual backend has no input devices and
///   takes no virtual keyboard from a client, so the activity there is KDE's
///   `simulate_user_activity` request from a second client, which KWin handles as input on the
///   seat: it resets every idle timer, including ext-idle-notify's.
/// - Weston 10 on Xvfb: a compositor with a seat and neither idle protocol.
/// No assertion is about elapsed time: idle readings are compared with each other and with 0.
@Suite struct WaylandIdleDetectorTests {
    static func detector(_ display: String, environment: [String: String]? = nil) -> WaylandIdleDetector {
        var desktop = VigilConfiguration.Desktop()
        desktop.poll = 0.2
        return WaylandIdleDetector(
            display: display, desktop: desktop, retry: .init(first: 0.05, longest: 0.2), environment: environment)
    }

    /// Waits until the idle time is at least `seconds`, then makes `input` and checks that a 0
    /// reading follows (the compositor's "resumed"), and that idle grows again after it.
    func expectDrop(_ c: Collector, after input: () -> Void, grownTo seconds: Double = 2, _ what: String) async {
        let grew = await c.wait(timeout: 30) { ($0.idle.last ?? 0) >= seconds }
        #expect(grew, "idle did not grow to \(seconds) s with no input before \(what): \(c.idle.suffix(5))")
        let count = c.idle.count
        input()
        let dropped = await c.wait(timeout: 30) { $0.idle.dropFirst(count).contains(0) }
        #expect(dropped, "no 0 reading after \(what): \(c.idle.dropFirst(count).prefix(10))")
        let afterDrop = c.idle.count
        let again = await c.wait(timeout: 30) { $0.idle.dropFirst(afterDrop).contains { $0 > 0 } }
        #expect(again, "idle did not grow again after \(what)")
    }

    @Test func onSwayIdleGrowsWithoutInputDropsOnAKeyPressAndALostCompositorIsRecovered() async throws {
        let sway = try SwayCompositor()
        let probe = WaylandCompositor.probe(display: sway.waylandDisplay)
        #expect(probe == WaylandProbe(display: sway.waylandDisplay, reachable: true, idleProtocol: .kdeIdle, listsWindows: true), "\(probe)")

        let c = Collector(Self.detector(sway.waylandDisplay).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { $0.idle.count >= 2 })
        let status = try #require(c.statuses.first)
        #expect(status.state == .available, "\(c.statuses)")
        #expect(status.detail.contains("org_kde_kwin_idle") && status.detail.contains(sway.waylandDisplay), "\(status.detail)")
        // With no input the readings only grow, past the threshold (0.2 s) to whole seconds.
        #expect(await c.wait(timeout: 30) { ($0.idle.last ?? 0) >= 1 }, "\(c.idle.suffix(5))")
        let early = c.idle.drop { $0 == 0 }
        #expect(zip(early, early.dropFirst()).allSatisfy { $0 <= $1 }, "\(early)")

        // A key press through the virtual keyboard protocol, as an on-screen keyboard makes one.
        await expectDrop(
            c,
            after: {
                let typed = runTool("/usr/bin/wtype", ["-k", "space"], environment: ["WAYLAND_DISPLAY": sway.waylandDisplay])
                #expect(typed.status == 0, "wtype: \(typed.output)")
            }, "a key press from wtype")
        // A pointer move by sway's own seat command (`seat - cursor press` is not counted as
        // activity by sway 1.7; a move is).
        await expectDrop(c, after: { #expect(sway.msg("seat - cursor move 10 10").status == 0) }, "a pointer move from swaymsg")

        // sway quits: lost; sway again on the same socket: available again, readings again.
        sway.stop()
        #expect(await c.wait(timeout: 30) { $0.states.contains(.lost) }, "\(c.statuses)")
        let lost = try #require(c.statuses.last)
        #expect(lost.detail.contains("lost the Wayland compositor at \(sway.waylandDisplay)"), "\(lost.detail)")
        try sway.restart()
        #expect(await c.wait(timeout: 30) { $0.states.filter { $0 == .available }.count == 2 }, "\(c.statuses)")
        let afterRestart = c.all.count
        #expect(
            await c.wait(timeout: 30) { c in c.all.dropFirst(afterRestart).contains { if case .desktop(.idle) = $0.payload { true } else { false } } }
        )
        #expect(c.states == [.available, .lost, .available], "\(c.statuses)")
    }

    @Test func onKWinExtIdleNotifyIsPreferredAndActivityEndsTheIdleTime() async throws {
        let kwin = try KWinCompositor()
        let globals = kwin.globals
        #expect(globals.contains("ext_idle_notifier_v1") && globals.contains("org_kde_kwin_idle"), "\(globals)")
        let probe = WaylandCompositor.probe(display: kwin.waylandDisplay)
        #expect(probe.idleProtocol == .extIdleNotify, "\(probe)")

        let c = Collector(Self.detector(kwin.waylandDisplay).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty })
        let status = try #require(c.statuses.first)
        #expect(status.state == .available && status.detail.contains("ext-idle-notify-v1"), "\(status)")
        #expect(await c.wait(timeout: 30) { ($0.idle.last ?? 0) >= 1 }, "\(c.idle.suffix(5))")

        // Another client tells KWin the person is active; ext-idle-notify's "resumed" follows.
        let other = try WaylandConnection(display: kwin.waylandDisplay, timeout: 30)
        let activity = try #require(try IdleNotification(on: other, threshold: 60, timeout: 30, only: .kdeIdle))
        await expectDrop(c, after: { #expect(activity.simulateUserActivity()) }, grownTo: 1, "activity on KWin's seat")
        #expect(c.states == [.available], "\(c.statuses)")
    }

    @Test func aCompositorWithoutAnIdleProtocolOrNoneAtAllIsUnavailableWithTheReason() async throws {
        let x = try XServer()
        let weston = try WestonCompositor(on: x)
        let probe = WaylandCompositor.probe(display: weston.waylandDisplay)
        #expect(probe.reachable && probe.idleProtocol == nil, "\(probe)")
        let c = Collector(Self.detector(weston.waylandDisplay).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty })
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("offers no idle protocol (neither ext-idle-notify-v1 nor org_kde_kwin_idle)"), "\(status.detail)")
        #expect(status.detail.contains("sway 1.8 and later, KWin 5.27 and later"), "\(status.detail)")

        // No compositor on the socket: sway's, after sway has quit.
        let sway = try SwayCompositor()
        sway.stop()
        let none = WaylandCompositor.probe(display: sway.waylandDisplay)
        #expect(!none.reachable && none.problem?.contains("No such file or directory") == true, "\(none)")
        let d = Collector(Self.detector(sway.waylandDisplay).readings())
        defer { d.stop() }
        #expect(await d.wait(timeout: 30) { !$0.statuses.isEmpty })
        #expect(d.statuses.first?.state == .unavailable)
        #expect(d.statuses.first?.detail.contains("cannot connect to the Wayland compositor at \(sway.waylandDisplay)") == true, "\(d.statuses)")

        // No $WAYLAND_DISPLAY at all (an environment of the test's making: X11, or a service).
        let noDisplay = WaylandCompositor.probe(display: nil, timeout: 2, environment: [:])
        #expect(!noDisplay.reachable && noDisplay.display.isEmpty && noDisplay.problem?.contains("$WAYLAND_DISPLAY is not set") == true)
        let e = Collector(
            WaylandIdleDetector(display: nil, desktop: .init(), retry: .init(first: 0.05, longest: 0.2), environment: [:]).readings())
        defer { e.stop() }
        #expect(await e.wait(timeout: 30) { !$0.statuses.isEmpty })
        #expect(e.statuses.first?.state == .unavailable)
        #expect(e.statuses.first?.detail.hasPrefix("no Wayland display: $WAYLAND_DISPLAY is not set") == true, "\(e.statuses)")
        // A relative name needs $XDG_RUNTIME_DIR.
        let relative = WaylandCompositor.probe(display: "wayland-1", timeout: 2, environment: [:])
        #expect(relative.problem?.contains("$XDG_RUNTIME_DIR is not set") == true, "\(relative)")
        // Retrying says nothing new.
        try await Task.sleep(for: .milliseconds(500))
        #expect(d.statuses.count == 1 && e.statuses.count == 1)
    }
}
