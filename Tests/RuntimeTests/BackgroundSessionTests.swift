import Foundation
import Testing

@testable import SessionRuntime

/// What `vigil start --background` asks of systemd where a user manager runs. The manager's own
/// environment has no display, bus or sound server of the terminal the person started from: the
/// unit carries them. (No user manager runs on the machines the tests run on, containers without
/// systemd: the daemon path is what BackgroundSessionCLITests runs for real; this is what stands
/// in for systemd-run itself.)
@Suite struct BackgroundSessionTests {
    @Test func theTransientUnitCarriesTheDesktopsVariables() {
        let environment = [
            "WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "XDG_RUNTIME_DIR": "/run/user/1000",
            "HOME": "/home/ada", "PATH": "/usr/bin:/bin", "SECRET_TOKEN": "never", "PGPASSWORD": "never",
        ]
        let args = BackgroundSession.systemdRunArguments(
            unit: "vigil-session-42", executable: "/usr/bin/vigil", arguments: ["start", "--task", "thesis", "--plain", "--detached"],
            directory: "/home/ada/thesis", environment: environment)
        #expect(Array(args.prefix(6)) == ["--user", "--unit", "vigil-session-42", "--collect", "--quiet", "--description"])
        #expect(args.firstIndex(of: "--working-directory").map { args[$0 + 1] } == "/home/ada/thesis")
        #expect(args.contains("WAYLAND_DISPLAY=wayland-0") && args.contains("DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"))
        #expect(!args.contains { $0.contains("never") }, "only what a session needs, never a secret of the shell's")
        #expect(Array(args.suffix(7)) == ["--", "/usr/bin/vigil", "start", "--task", "thesis", "--plain", "--detached"])
    }

    /// The daemon path: a new session (no controlling terminal), standard input from /dev/null,
    /// output in the log, which holds this session's lines only.
    @Test func theDaemonRunsInASessionOfItsOwnWithItsOutputInTheLog() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let log = directory + "/session.log"
        try "before\n".write(toFile: log, atomically: true, encoding: .utf8)
        let pid = try BackgroundSession.spawnDaemon(
            executable: "/bin/sh", arguments: ["-c", "cut -d ' ' -f 6,7 /proc/$$/stat; read x; echo read=$?"], log: log)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!text.contains("before"), "the last session's lines only: \(text)")
        let ids = lines.first?.split(separator: " ").map(String.init) ?? []
        #expect(ids == [String(pid), "0"], "its own session, no terminal: \(text)")
        #expect(lines.last == "read=1", "standard input is /dev/null: \(text)")
    }
}
