import Foundation
import SessionRuntime
import SystemCalls
import VigilCore

/// Starts `vigil start` in the background (`BackgroundSession`) and waits until the session runs
/// (its status file names it), or says why it did not: the end of its log.
struct BackgroundStart {
    let common: CommonOptions

    /// Returns what to tell the person.
    func launch(arguments: [String]) async throws -> String {
        let data = common.paths.dataDirectory
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let environment = ProcessInfo.processInfo.environment
        if BackgroundSession.userManagerRuns(environment: environment), let run = BackgroundSession.executable("systemd-run", environment) {
            let unit = "vigil-session-\(getpid())"
            let p = Process()
            p.executableURL = URL(fileURLWithPath: run)
            p.arguments = BackgroundSession.systemdRunArguments(
                unit: unit, executable: executable, arguments: arguments, directory: FileManager.default.currentDirectoryPath,
                environment: environment)
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw Failure("systemd-run could not start the session (exit \(p.terminationStatus)).", code: .failure)
            }
            let s = try await waitForSession(alive: { true }, log: nil, unit: unit)
            return started(s, output: "`journalctl --user -u \(unit)`")
        }
        let log = data + "/session.log"
        let pid: pid_t
        do { pid = try BackgroundSession.spawnDaemon(executable: executable, arguments: arguments, log: log) } catch {
            throw Failure("cannot start the session in the background: \(error.reason).", code: .failure)
        }
        let s = try await waitForSession(
            alive: {
                var status: Int32 = 0
                return waitpid(pid, &status, WNOHANG) == 0
            }, log: log, unit: nil)
        return started(s, output: log.terminalSafe)
    }

    private func started(_ s: SessionStatus, output: String) -> String {
        "Started a focus session in the background" + (s.task.map { " on \"\($0.terminalSafe)\"" } ?? "") + " (pid \(s.pid); its lines: \(output)).\n"
            + "`vigil status` shows it, `vigil attach` its screen, `vigil pause`, `resume`, `break`, `snooze` and `vigil stop` reach it from any terminal."
    }

    /// The session's status once it is written; fails with the log's end when the process ended
    /// first (`alive` false).
    private func waitForSession(alive: () -> Bool, log: String?, unit: String?) async throws -> SessionStatus {
        let statusFile = SessionStatusFile(dataDirectory: common.paths.dataDirectory)
        for _ in 0..<600 {
            if let s = statusFile.running() { return s }
            guard alive() else {
                let tail = log.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0.suffix(2000), as: UTF8.self) } ?? ""
                throw Failure(
                    "the session did not start" + (tail.isEmpty ? "." : ":\n" + tail.trimmingCharacters(in: .whitespacesAndNewlines)), code: .failure)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(
            "the session has not started after a minute; "
                + (log.map { "its lines are in \($0.terminalSafe)" } ?? "`journalctl --user -u \(unit ?? "")` says why"),
            code: .failure)
    }
}
