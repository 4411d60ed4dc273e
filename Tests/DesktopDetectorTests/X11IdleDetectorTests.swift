import Foundation
import TestSupport
import Testing
import VigilCore

@testable import X11Detector

/// These tests run a real X server (Xvfb, MIT-SCREEN-SAVER on by default) on a private display and
/// make input with xdotool (XTEST), which the server counts as user input as it would a keyboard's.
/// No assertion is about elapsed time: idle readings are compared with each other.
@Suite struct X11IdleDetectorTests {
    static func detector(_ x: XServer) -> X11IdleDetector {
        var desktop = VigilConfiguration.Desktop()
        desktop.poll = 0.2
        return X11IdleDetector(display: x.display, desktop: desktop, retry: .init(first: 0.05, longest: 0.2))
    }

    /// Waits until the idle time is at least `seconds`, then makes `input` and checks that a
    /// reading after it is lower than the last one before it. Readings come every 0.2 s; the idle
    /// time after the input restarts from 0, so it stays below a wait of 3 s unless the machine
    /// stalls longer than that between the input and the next reading.
    func expectDrop(_ c: Collector, after input: () -> Void, grownTo seconds: Double = 3, _ what: String) async {
        let grew = await c.wait(timeout: 30) { ($0.idle.last ?? 0) >= seconds }
        #expect(grew, "idle did not grow to \(seconds) s with no input before \(what): \(c.idle.suffix(5))")
        let before = c.idle.last ?? 0
        let count = c.idle.count
        input()
        let dropped = await c.wait(timeout: 30) { $0.idle.dropFirst(count).contains { $0 < before } }
        #expect(dropped, "no reading below \(before) s after \(what): \(c.idle.dropFirst(count).prefix(10))")
    }

    @Test func idleGrowsWithoutInputAndDropsOnInputBlankingIsNoLockAndAServerLossIsRecovered() async throws {
        let x = try XServer()
        let c = Collector(Self.detector(x).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { $0.idle.count >= 2 })
        #expect(c.statuses.first?.state == .available, "\(c.statuses)")
        #expect(c.statuses.first?.detail.contains(x.display) == true)
        // With no input the readings only grow.
        #expect(await c.wait(timeout: 30) { $0.idle.count >= 6 })
        let early = c.idle
        #expect(zip(early, early.dropFirst()).allSatisfy { $0 <= $1 }, "\(early)")

        await expectDrop(c, after: { x.run("/usr/bin/xdotool", ["mousemove", "100", "200"]) }, "a pointer move")
        await expectDrop(c, after: { x.run("/usr/bin/xdotool", ["key", "shift"]) }, "a key press")

        // The X screen saver forced on by another client: a blanked screen, which is not a lock
        // (issue 32: it was reported as "screen locked"); the idle time goes on, and input after
        // it is seen as input.
        let blank = x.blankScreen()
        #expect(blank.status == 0, "\(blank.output)")
        let readingsWhileBlank = c.idle.count
        #expect(await c.wait(timeout: 30) { $0.idle.count >= readingsWhileBlank + 3 }, "idle readings go on while the screen is blank")
        await expectDrop(c, after: { x.run("/usr/bin/xdotool", ["mousemove", "300", "300"]) }, "input on a blanked screen")
        let locks = c.desktop.filter { $0.stateName != nil }
        #expect(locks.isEmpty, "a blank is no lock: \(locks)")

        // The server dies: lost; a new one on the same display: available again, readings again.
        x.kill()
        #expect(await c.wait(timeout: 30) { $0.states.contains(.lost) }, "\(c.statuses)")
        try x.restart()
        #expect(await c.wait(timeout: 30) { $0.states.filter { $0 == .available }.count == 2 }, "\(c.statuses)")
        let afterRestart = c.all.count
        #expect(
            await c.wait(timeout: 30) { c in c.all.dropFirst(afterRestart).contains { if case .desktop(.idle) = $0.payload { true } else { false } } }
        )
        #expect(c.states == [.available, .lost, .available], "\(c.statuses)")
    }

    @Test func aServerWithoutTheExtensionOrNoServerIsUnavailableWithTheReason() async throws {
        let bare = try XServer(arguments: ["-extension", "MIT-SCREEN-SAVER"])
        let probe = X11Display.probe(display: bare.display)
        #expect(probe.reachable && !probe.screenSaver, "\(probe)")
        let c = Collector(Self.detector(bare).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty })
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("MIT-SCREEN-SAVER"), "\(status.detail)")

        // A display nobody serves: the server of this test, stopped.
        let gone = try XServer()
        gone.kill()
        let none = X11Display.probe(display: gone.display)
        #expect(!none.reachable && none.problem?.contains(gone.display) == true, "\(none)")
        let d = Collector(Self.detector(gone).readings())
        defer { d.stop() }
        #expect(await d.wait(timeout: 30) { !$0.statuses.isEmpty })
        #expect(d.statuses.first?.state == .unavailable)
        #expect(d.statuses.first?.detail.contains("cannot connect to the X display \(gone.display)") == true, "\(d.statuses)")
        // Retrying says nothing new.
        try await Task.sleep(for: .milliseconds(500))
        #expect(d.statuses.count == 1)
    }
}
