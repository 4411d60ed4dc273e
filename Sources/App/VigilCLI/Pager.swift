import Foundation
import SessionRuntime
import SystemCalls

/// Text longer than the screen goes through the person's pager, as `git log` does: `$PAGER`
/// (`less` when unset; empty or `cat` for none), with `LESS=FRX` when LESS is unset, so a report
/// that fits one screen after all is printed and left on it, colours pass and nothing is cleared.
enum Pager {
    /// The terminal standard output is, or nil when it is not a terminal.
    static func terminalSize() -> (columns: Int, rows: Int)? {
        guard isatty(1) != 0 else { return nil }
        var size = winsize()
        // A terminal that does not say its size (some pseudo-terminals): 80 columns, never paged.
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, .max) }
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : .max)
    }

    static func show(_ text: String, rows: Int) {
        let env = ProcessInfo.processInfo.environment
        let pager = (env["PAGER"] ?? "less").trimmingCharacters(in: .whitespaces)
        let lines = text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
        guard lines >= rows, !pager.isEmpty, pager != "cat", let pid = spawn(pager, env: env, writing: text) else {
            writeStandardOutput(text)
            return
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // The shell could not find the pager: it showed nothing, so show it here.
        if status & 0x7f == 0, (status >> 8) & 0xff == 127 { writeStandardOutput(text) }
    }

    /// Starts `sh -c PAGER` reading `text` on its standard input and returns its pid once all of
    /// the text is written (or the pager stopped reading). posix_spawn, not Foundation's Process:
    /// the pager must stay in the terminal's foreground process group, or reading keys from the
    /// terminal stops it (SIGTTIN), which Process's own process group would do.
    private static func spawn(_ pager: String, env: [String: String], writing text: String) -> pid_t? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        defer { close(fds[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var environment = env
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        let arguments: [UnsafeMutablePointer<CChar>?] = [String](["sh", "-c", pager]).map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in arguments { free(p) }
            for p in variables { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, variables)
        close(fds[0])
        guard spawned == 0 else { return nil }
        // A pager quit before the end closes the pipe: the rest is not wanted (no SIGPIPE death).
        signal(SIGPIPE, SIG_IGN)
        try? writeAll(fds[1], text.utf8)
        return pid
    }
}
