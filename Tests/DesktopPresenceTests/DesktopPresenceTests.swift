import DBusSupport
import Foundation
import TestSupport
import Testing
import VigilCore

@testable import DesktopPresence

// Every test runs a real dbus-daemon (a private one per test, started by SessionBus) and the
// services as python-dbusmock processes on it. Why mocks and not the real services:
// - logind needs systemd as PID 1, which a test machine (or CI container) does not have;
// - GNOME's idle monitor and screen saver belong to Mutter and GNOME Shell, which need a full
//   session (a compositor, a GPU or llvmpipe, logind);
// - org.freedesktop.ScreenSaver's owners (KDE's screen locker, light-locker) need their desktop
//   and display manager.
// So each interface is mocked as its owner documents it: Mutter's
// data/dbus-interfaces/org.gnome.Mutter.IdleMonitor.xml, GNOME Shell's
// data/dbus-interfaces/org.gnome.ScreenSaver.xml (dbusmock's gnome_screensaver template), KDE
// kscreenlocker's interface.h for org.freedesktop.ScreenSaver, and `man 5 org.freedesktop.login1`
// (systemd 252; dbusmock's logind template, to which the tests add GetSessionByPID). The bus, the
// match rules, the name ownership and every message are dbus-daemon's own.
//
// No test depends on timing it does not control: each waits (up to 30 s) for the samples it
// expects.

let timeout = 30.0

/// The desktop events without the idle readings (lock and sleep).
func transitions(_ c: Collector) -> [DesktopEvent] { c.desktop.filter { if case .idle = $0 { false } else { true } } }
func idles(_ c: Collector) -> [Double] { c.desktop.compactMap { if case .idle(let s) = $0 { s } else { nil } } }

func mutter(on bus: SessionBus, idleMs: Int) throws -> DBusMock {
    let path = GnomeIdleDetector.monitorPath
    let interface = GnomeIdleDetector.monitor
    let mock = try DBusMock(on: bus, name: interface, path: path, interface: interface)
    try mock.addMethod(path, interface, "GetIdletime", in: "", out: "t", "ret = \(idleMs)")
    // Mutter hands out a new id per watch; fixed ids let the test fire them.
    try mock.addMethod(path, interface, "AddIdleWatch", in: "t", out: "u", "ret = 1")
    try mock.addMethod(path, interface, "AddUserActiveWatch", in: "", out: "u", "ret = 2")
    try mock.addMethod(path, interface, "RemoveWatch", in: "u", out: "", "")
    return mock
}

@Suite(.serialized) struct GnomeIdleDetectorTests {
    /// GNOME: Mutter's IdleMonitor and GNOME Shell's ScreenSaver, mocked as their XML documents
    /// them (see the file's notes: GNOME Shell needs a full session).
    @Test func idleFollowsTheMonitorItsWatchesAndTheLock() async throws {
        let bus = try SessionBus()
        let monitor = try mutter(on: bus, idleMs: 2500)
        let path = GnomeIdleDetector.monitorPath
        let interface = GnomeIdleDetector.monitor
        let screenSaver = try DBusMock(on: bus, name: "org.gnome.ScreenSaver", template: "gnome_screensaver")
        #expect(GnomeIdleDetector.probe(busAddress: bus.address))

        var config = VigilConfiguration.Desktop()
        config.poll = 0.5  // the watch interval is at least a second
        let detector = GnomeIdleDetector(config: config, busAddress: bus.address, retry: .init(first: 0.1, longest: 0.3))
        #expect(detector.interval == 1)
        let c = Collector(detector.readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] && !$0.desktop.isEmpty }, "\(c.statuses)")
        #expect(c.statuses.first?.detail.contains("org.gnome.ScreenSaver") == true, "\(c.statuses)")
        #expect(idles(c) == [2.5], "GetIdletime at the start")
        #expect(monitor.calls.contains("AddIdleWatch 1000"), "an idle watch at the interval: \(monitor.calls)")
        #expect(monitor.count("AddUserActiveWatch") == 1)

        // Idle reached: the watch fires, and the idle time is read again.
        try monitor.addMethod(path, interface, "GetIdletime", in: "", out: "t", "ret = 61000")
        try monitor.emit(path, interface, "WatchFired", "u", "[<uint32 1>]")
        #expect(await c.wait(timeout: timeout) { idles($0) == [2.5, 61] }, "\(c.desktop)")

        // Active again: the user-active watch fires → idle 0, and it is armed again a second later.
        try monitor.emit(path, interface, "WatchFired", "u", "[<uint32 2>]")
        #expect(await c.wait(timeout: timeout) { idles($0) == [2.5, 61, 0] }, "\(c.desktop)")
        #expect(await c.wait(timeout: timeout) { _ in monitor.count("AddUserActiveWatch") == 2 }, "re-armed: \(monitor.calls)")
        // Steady input: the re-armed watch fires again.
        try monitor.emit(path, interface, "WatchFired", "u", "[<uint32 2>]")
        #expect(await c.wait(timeout: timeout) { idles($0) == [2.5, 61, 0, 0] }, "\(c.desktop)")
        // A watch that is not Vigil's is ignored.
        try monitor.emit(path, interface, "WatchFired", "u", "[<uint32 77>]")

        // Lock and unlock from GNOME's screen saver (SetActive emits ActiveChanged).
        try screenSaver.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver.SetActive", ["true"])
        #expect(await c.wait(timeout: timeout) { transitions($0) == [.locked] }, "\(c.desktop)")
        try screenSaver.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver.SetActive", ["false"])
        #expect(await c.wait(timeout: timeout) { transitions($0) == [.locked, .unlocked] }, "\(c.desktop)")
        #expect(idles(c) == [2.5, 61, 0, 0], "the foreign watch said nothing")
        #expect(c.states == [.available])
    }

    @Test func noIdleMonitorIsUnavailableOnceWithTheReason() async throws {
        let bus = try SessionBus()
        #expect(!GnomeIdleDetector.probe(busAddress: bus.address))
        let c = Collector(GnomeIdleDetector(busAddress: bus.address, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { !$0.states.isEmpty })
        // Several retries happen meanwhile; the state is said once.
        try await Task.sleep(for: .milliseconds(500))
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("nothing owns org.gnome.Mutter.IdleMonitor"), "\(status.detail)")
        #expect(status.detail.contains("desktop.backend"), "\(status.detail)")
        #expect(c.statuses.count == 1, "\(c.statuses)")
        #expect(c.desktop.isEmpty)
    }

    @Test func aBusThatDiesIsLost() async throws {
        let bus = try SessionBus()
        let monitor = try mutter(on: bus, idleMs: 0)
        let c = Collector(GnomeIdleDetector(busAddress: bus.address, retry: .init(first: 0.1, longest: 0.3)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] }, "\(c.statuses)")
        bus.kill()
        #expect(await c.wait(timeout: timeout) { $0.states == [.available, .lost] }, "\(c.statuses)")
        let lost = try #require(c.statuses.last)
        #expect(lost.detail.contains("lost GNOME's idle monitor"), "\(lost.detail)")
        #expect(lost.detail.contains("reconnecting"), "\(lost.detail)")
        _ = monitor
    }

    @Test func theMonitorLeavingIsLostAndItsReturnPickedUp() async throws {
        let bus = try SessionBus()
        var monitor: DBusMock? = try mutter(on: bus, idleMs: 1000)
        let c = Collector(GnomeIdleDetector(busAddress: bus.address, retry: .init(first: 0.1, longest: 0.3)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] }, "\(c.statuses)")
        monitor = nil  // killed: its name is released
        #expect(await c.wait(timeout: timeout) { $0.states == [.available, .lost] }, "\(c.statuses)")
        #expect(c.statuses.last?.detail.contains("left the session bus") == true, "\(c.statuses)")
        monitor = try mutter(on: bus, idleMs: 9000)
        #expect(await c.wait(timeout: timeout) { $0.states == [.available, .lost, .available] && idles($0).last == 9 }, "\(c.desktop)")
        _ = monitor
    }
}

@Suite(.serialized) struct ScreenSaverIdleDetectorTests {
    /// org.freedesktop.ScreenSaver, mocked as KDE's kscreenlocker (interface.h) declares it: its
    /// owners need their whole desktop (see the file's notes). Some implementations serve it at
    /// /ScreenSaver rather than /org/freedesktop/ScreenSaver: both are tried.
    @Test(arguments: ["/org/freedesktop/ScreenSaver", "/ScreenSaver"])
    func idleIsPolledAndTheLockFollowsActiveChanged(path: String) async throws {
        let bus = try SessionBus()
        let name = "org.freedesktop.ScreenSaver"
        let mock = try DBusMock(on: bus, name: name, path: path, interface: name)
        try mock.addMethod(path, name, "GetSessionIdleTime", in: "", out: "u", "ret = 7")
        try mock.addMethod(path, name, "GetActive", in: "", out: "b", "ret = True")
        #expect(ScreenSaverIdleDetector.probe(busAddress: bus.address))

        var config = VigilConfiguration.Desktop()
        config.poll = 0.2
        let c = Collector(
            ScreenSaverIdleDetector(config: config, busAddress: bus.address, retry: .init(first: 0.1, longest: 0.3)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] && idles($0).count >= 2 }, "\(c.statuses) \(c.desktop)")
        #expect(c.statuses.first?.detail.contains("at \(path)") == true, "\(c.statuses)")
        // Locked at the start (GetActive).
        #expect(transitions(c) == [.locked])
        #expect(Set(idles(c)) == [7])

        // The idle readings follow the service's value.
        try mock.addMethod(path, name, "GetSessionIdleTime", in: "", out: "u", "ret = 42")
        #expect(await c.wait(timeout: timeout) { idles($0).filter { $0 == 42 }.count >= 2 }, "\(c.desktop)")
        let readings = idles(c)
        let firstNew = try #require(readings.firstIndex(of: 42))
        #expect(readings[..<firstNew].allSatisfy { $0 == 7 } && readings[firstNew...].allSatisfy { $0 == 42 }, "\(readings)")
        #expect(mock.count("GetSessionIdleTime") >= readings.count)

        try mock.emit(path, name, "ActiveChanged", "b", "[<false>]")
        #expect(await c.wait(timeout: timeout) { transitions($0) == [.locked, .unlocked] }, "\(c.desktop)")
        try mock.emit(path, name, "ActiveChanged", "b", "[<true>]")
        #expect(await c.wait(timeout: timeout) { transitions($0) == [.locked, .unlocked, .locked] }, "\(c.desktop)")
    }

    /// GNOME's gnome-settings-daemon owns org.freedesktop.ScreenSaver but implements only
    /// Inhibit/UnInhibit there: not an idle source, and said so.
    @Test func aScreenSaverThatOnlyInhibitsIsNoIdleSource() async throws {
        let bus = try SessionBus()
        let name = "org.freedesktop.ScreenSaver"
        let path = "/org/freedesktop/ScreenSaver"
        let mock = try DBusMock(on: bus, name: name, path: path, interface: name)
        try mock.addMethod(path, name, "Inhibit", in: "ss", out: "u", "ret = 1")
        #expect(!ScreenSaverIdleDetector.probe(busAddress: bus.address))
        #expect(DesktopBusBackends.pick(.init(), busAddress: bus.address) == nil)
        let c = Collector(ScreenSaverIdleDetector(busAddress: bus.address, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { !$0.states.isEmpty })
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("does not answer GetSessionIdleTime"), "\(status.detail)")
        #expect(c.desktop.isEmpty)
    }

    /// `desktop.backend: auto` takes GNOME's monitor first, even when both names are there.
    @Test func autoPrefersGnomeThenFreedesktop() throws {
        let bus = try SessionBus()
        let name = "org.freedesktop.ScreenSaver"
        let path = "/org/freedesktop/ScreenSaver"
        let saver = try DBusMock(on: bus, name: name, path: path, interface: name)
        try saver.addMethod(path, name, "GetSessionIdleTime", in: "", out: "u", "ret = 3")
        #expect(DesktopBusBackends.pick(.init(), busAddress: bus.address) == .freedesktop)
        let monitor = try mutter(on: bus, idleMs: 0)
        #expect(DesktopBusBackends.pick(.init(), busAddress: bus.address) == .gnome)
        var chosen = VigilConfiguration.Desktop()
        chosen.backend = .x11
        #expect(DesktopBusBackends.pick(chosen, busAddress: bus.address) == nil)
        chosen.backend = .freedesktop
        #expect(DesktopBusBackends.pick(chosen, busAddress: bus.address) == .freedesktop)
        _ = monitor
    }
}

/// logind on a second private dbus-daemon standing in for the system bus. logind itself needs
/// systemd as PID 1, so it is dbusmock's logind template, mocked as `man 5 org.freedesktop.login1`
/// documents the interface; GetSessionByPID, which the template lacks, is added at run time.
@Suite(.serialized) struct LogindDetectorTests {
    let session = "/org/freedesktop/login1/session/c1"

    func logind(on system: SessionBus, byPID: Bool = true) throws -> DBusMock {
        let mock = try DBusMock(on: system, name: "org.freedesktop.login1", template: "logind", system: true)
        try mock.call("/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddSession", ["c1", "seat0", "0", "root", "true"])
        if byPID {
            try mock.addMethod(
                "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetSessionByPID", in: "u", out: "o", "ret = '\(session)'")
        }
        return mock
    }

    @Test func lockedHintLockUnlockAndSleep() async throws {
        let system = try SessionBus()
        let mock = try logind(on: system)
        #expect(LogindDetector.probe(busAddress: system.address))
        let c = Collector(
            LogindDetector(busAddress: system.address, sessionID: nil, retry: .init(first: 0.1, longest: 0.3)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] }, "\(c.statuses)")
        #expect(c.statuses.first?.detail.contains("logind session \(session)") == true, "\(c.statuses)")
        #expect(mock.calls.contains("GetSessionByPID \(getpid())"), "\(mock.calls)")

        // LockedHint, as a screen locker sets it (PropertiesChanged on the session).
        try mock.call(session, "org.freedesktop.login1.Session.SetLockedHint", ["true"])
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked] }, "\(c.desktop)")
        try mock.call(session, "org.freedesktop.login1.Session.SetLockedHint", ["false"])
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked, .unlocked] }, "\(c.desktop)")
        // The Lock and Unlock signals (`loginctl lock-session`).
        try mock.call(session, "org.freedesktop.login1.Session.Lock")
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked, .unlocked, .locked] }, "\(c.desktop)")
        try mock.call(session, "org.freedesktop.login1.Session.Unlock")
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked, .unlocked, .locked, .unlocked] }, "\(c.desktop)")
        // PrepareForSleep(true) before the machine sleeps, (false) after it woke.
        try mock.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "[<true>]")
        #expect(await c.wait(timeout: timeout) { $0.desktop.last == .sleeping }, "\(c.desktop)")
        try mock.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "[<false>]")
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked, .unlocked, .locked, .unlocked, .sleeping, .woke] }, "\(c.desktop)")
        #expect(c.states == [.available])
    }

    /// Without GetSessionByPID's answer (the template lacks it: UnknownMethod) the session comes
    /// from $XDG_SESSION_ID, else from session/auto's Id; either way the watch is on the real path,
    /// where logind emits the signals.
    @Test(arguments: [true, false]) func theSessionIsFoundWithoutGetSessionByPID(fromEnvironment: Bool) async throws {
        let system = try SessionBus()
        let mock = try logind(on: system, byPID: false)
        if !fromEnvironment {
            try mock.call(
                "/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddObject",
                ["/org/freedesktop/login1/session/auto", "org.freedesktop.login1.Session", "{'Id': <'c1'>}", "@a(ssss) []"])
        }
        let detector = LogindDetector(
            busAddress: system.address, sessionID: fromEnvironment ? "c1" : nil, retry: .init(first: 0.1, longest: 0.3))
        let c = Collector(detector.readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] }, "\(c.statuses)")
        #expect(c.statuses.first?.detail.contains(session) == true, "\(c.statuses)")
        try mock.call(session, "org.freedesktop.login1.Session.SetLockedHint", ["true"])
        #expect(await c.wait(timeout: timeout) { $0.desktop == [.locked] }, "\(c.desktop)")
    }

    @Test func noSessionIsUnavailableWithTheReason() async throws {
        let system = try SessionBus()
        let mock = try logind(on: system, byPID: false)
        let c = Collector(
            LogindDetector(busAddress: system.address, sessionID: nil, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { !$0.states.isEmpty })
        let status = try #require(c.statuses.first)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("logind knows no session"), "\(status.detail)")
        #expect(status.detail.contains("XDG_SESSION_ID is not set"), "\(status.detail)")
        _ = mock
    }

    @Test func noSystemBusOrNoLogindIsSaidPlainly() async throws {
        let missing = "unix:path=" + FileManager.default.temporaryDirectory.appendingPathComponent("no-bus-\(UUID().uuidString)").path
        #expect(!LogindDetector.probe(busAddress: missing))
        let none = Collector(LogindDetector(busAddress: missing, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { none.stop() }
        #expect(await none.wait(timeout: timeout) { !$0.states.isEmpty })
        let noBus = try #require(none.statuses.first)
        #expect(noBus.state == .unavailable)
        #expect(noBus.detail.hasPrefix("logind: cannot reach the system D-Bus"), "\(noBus.detail)")

        let system = try SessionBus()
        #expect(!LogindDetector.probe(busAddress: system.address))
        let empty = Collector(LogindDetector(busAddress: system.address, retry: .init(first: 0.05, longest: 0.1)).readings())
        defer { empty.stop() }
        #expect(await empty.wait(timeout: timeout) { !$0.states.isEmpty })
        let noLogind = try #require(empty.statuses.first)
        #expect(noLogind.state == .unavailable)
        #expect(noLogind.detail.contains("no logind (org.freedesktop.login1) on the system bus"), "\(noLogind.detail)")
        #expect(noLogind.detail.contains("systemd-logind"), "\(noLogind.detail)")
    }

    @Test func theSystemBusDyingIsLost() async throws {
        let system = try SessionBus()
        let mock = try logind(on: system)
        let c = Collector(LogindDetector(busAddress: system.address, retry: .init(first: 0.1, longest: 0.3)).readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: timeout) { $0.states == [.available] }, "\(c.statuses)")
        system.kill()
        #expect(await c.wait(timeout: timeout) { $0.states == [.available, .lost] }, "\(c.statuses)")
        #expect(c.statuses.last?.detail.hasPrefix("lost logind") == true, "\(c.statuses)")
        _ = mock
    }
}
