import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// `vigil start --background` (issue 37): the session runs without a terminal, so that closing the
/// one it was started from (or logging out of it) does not interrupt it, and `vigil status`,
/// `pause`, `resume`, `break`, `snooze`, `stop` and `attach` reach it from any other.
///
/// Where the person's systemd user manager runs, as a transient user unit (`systemd-run --user`),
/// which the manager supervises and whose output goes to the journal (`journalctl --user -u UNIT`);
/// elsewhere as a daemon of its own: a new session (setsid, so no controlling terminal and no
/// SIGHUP when one closes), standard input from /dev/null, its output in `session.log` in the data
/// directory: the latest background session's lines only (each start begins it again), so that it
/// neither grows without end nor keeps what `vigil forget` took out of the log.
public enum BackgroundSession {
    /// The variables a session needs from the environment it was started in, to reach the desktop,
    /// the sound server and the person's files: a user manager's own environment lacks them.
    public static let carried = [
        "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP",
        "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "XDG_RUNTIME_DIR", "PULSE_SERVER", "HOME", "PATH",
        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "TZ", "LANG", "LC_ALL",
    ]

    /// Whether the person's user manager answers: `systemctl --user` reaches it.
    public static func userManagerRuns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let systemctl = executable("systemctl", environment), executable("systemd-run", environment) != nil else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: systemctl)
        p.arguments = ["--user", "--quiet", "show-environment"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// The program `name` in `$PATH`, or nil.
    public static func executable(_ name: String, _ environment: [String: String]) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// `systemd-run`'s arguments for the session: a transient user unit named `unit`, removed once
    /// it is over, in `directory`, with the variables of `environment` that `carried` names.
    public static func systemdRunArguments(
        unit: String, executable: String, arguments: [String], directory: String, environment: [String: String]
    ) -> [String] {
        var out = ["--user", "--unit", unit, "--collect", "--quiet", "--description", "Vigil focus session", "--working-directory", directory]
        for name in carried { if let value = environment[name] { out += ["--setenv", "\(name)=\(value)"] } }
        return out + ["--", executable] + arguments
    }

    /// Starts `executable` with `arguments` as a daemon: in a session of its own, standard input
    /// from /dev/null, standard output and error to `log` (created 0600, emptied first). Returns its pid.
    public static func spawnDaemon(executable: String, arguments: [String], log: String) throws(SystemError) -> pid_t {
        let out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard out >= 0 else { throw SystemError(call: "open", errno: errno, path: log) }
        defer { close(out) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, out, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc's 0x80, not imported into Swift): setsid() in the child, so
        // it has no controlling terminal, and the terminal's hangup never reaches it.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw SystemError(call: "posix_spawn", errno: spawned, path: executable) }
        return pid
    }
}
