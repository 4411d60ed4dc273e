import Foundation
import Synchronization
import TestSupport
import Testing
import VigilCore

@testable import InputDetector

/// The live detector against the real libinput and udev. This build machine (like CI's containers)
/// has no /dev/input and no uinput, so no test here can produce a key press: what is tested for real
/// is context creation, seat assignment, the no-device path and the no-permission path. Counting is
/// tested by replaying recordings through the same aggregator (LibinputRecordingTests).
@Suite struct LibinputDetectorTests {
    /// The first sample the detector sends, then stops it.
    static func firstStatus(_ detector: LibinputDetector) async -> SensorStatus? {
        for await reading in detector.readings() {
            if case .status(let s) = reading { return s }
            return nil
        }
        return nil
    }

    @Test func udevSeatWithoutDevicesIsUnavailableWithAClearDetail() async throws {
        let hasDevices = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input"))?.contains { $0.hasPrefix("event") } ?? false
        try #require(!hasDevices, "this machine has input devices; the no-device test needs a machine without")
        let status = try #require(await Self.firstStatus(LibinputDetector(seat: "seat0")))
        #expect(status.sensor == .input)
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("no input devices"))
        #expect(status.detail.contains("found no keyboard, mouse or touchpad on seat \"seat0\""))
        #expect(status.detail.contains("other sensors keep running"))
    }

    @Test func aConfiguredDeviceThatDoesNotExistIsUnavailableAndNamed() async throws {
        let status = try #require(await Self.firstStatus(LibinputDetector(seat: nil, devicePaths: ["/nonexistent/event42"])))
        #expect(status.state == .unavailable)
        #expect(status.detail.contains("/nonexistent/event42: No such file or directory"))
    }

    @Test func noSeatAndNoPathsIsUnavailable() async throws {
        let status = try #require(await Self.firstStatus(LibinputDetector(seat: nil)))
        #expect(status.state == .unavailable)
    }

    @Test func theStreamEndsWhenTheConsumerStops() async {
        let detector = LibinputDetector(seat: nil, devicePaths: ["/nonexistent/event42"], window: 0.05)
        let seen = Atomic<Int>(0)
        let task = Task {
            var n = 0
            for await _ in detector.readings() {
                n += 1
                seen.store(n, ordering: .relaxed)
            }
            return n
        }
        // Wait for the status (a loaded machine may take a while to start the thread), then long
        // enough for several 50 ms windows, were there a device.
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        try? await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // With no device there are no windows: only the one status sample; and the loop ends.
        #expect(await task.value == 1)
    }

    /// A real EACCES: an evdev character node (13:64, what /dev/input/event0 is) made with mode 0600
    /// and opened by this test binary re-run as `nobody` (setpriv drops root's privileges for good,
    /// which cannot be done inside this multi-threaded process). The child runs `childProbe` below.
    @Test func noPermissionNamesTheInputGroup() async throws {
        guard getuid() == 0 else {
            // As a normal user there is no way to make a device node; /dev/input itself is what
            // gives EACCES then, which needs input devices. Say so instead of passing quietly.
            Issue.record("needs root to make a device node (mknod) and drop to nobody; skipped as a failure so it is seen")
            return
        }
        let dir = "/tmp/vigil-input-perm-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let node = dir + "/event0"
        // glibc's makedev(13, 64), a macro Swift cannot call: minor | major << 8 for small numbers.
        let device = dev_t(13 << 8 | 64)
        try #require(mknod(node, S_IFCHR | 0o600, device) == 0, "mknod: \(String(cString: strerror(errno)))")
        let out = dir + "/status.txt"
        try #require(FileManager.default.createFile(atPath: out, contents: nil, attributes: [.posixPermissions: 0o666]))

        let probe = await runProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", "childProbe",
            ],
            environment: ProcessInfo.processInfo.environment.merging(["VIGIL_INPUT_PROBE_DEVICE": node, "VIGIL_INPUT_PROBE_OUT": out]) { $1 })
        #expect(probe.status == 0, "\(probe.output.suffix(2000))")
        let lines = (try String(contentsOfFile: out, encoding: .utf8)).split(separator: "\n", maxSplits: 1).map(String.init)
        try #require(lines.count == 2, "the child wrote: \(lines)")
        #expect(lines[0] == "permission_denied")
        #expect(lines[1].contains("\(node): permission denied"))
        #expect(lines[1].contains("`input` group"))
        #expect(lines[1].contains("sudo usermod -aG input $USER"))
        #expect(lines[1].contains("log out and back in"))
        #expect(lines[1].contains("idle time and the screen lock come from the desktop"), "joining the group is not the first advice")

        // The control: root may open the same node, so for root it is not a permission problem.
        let asRoot = try #require(await Self.firstStatus(LibinputDetector(seat: nil, devicePaths: [node])))
        #expect(asRoot.state == .unavailable)
        #expect(!asRoot.detail.contains("input` group"))
    }

    /// Runs only in the child started by `noPermissionNamesTheInputGroup`; passes trivially otherwise.
    @Test func childProbe() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let device = env["VIGIL_INPUT_PROBE_DEVICE"], let out = env["VIGIL_INPUT_PROBE_OUT"] else { return }
        let status = await Self.firstStatus(LibinputDetector(seat: nil, devicePaths: [device]))
        try "\(status?.state.rawValue ?? "none")\n\(status?.detail ?? "")".write(toFile: out, atomically: false, encoding: .utf8)
    }
}
