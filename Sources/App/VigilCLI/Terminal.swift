import Foundation
import SessionRuntime
import SystemCalls

/// The terminal during the live view: single keys without Enter (no canonical mode, no echo; Ctrl-C
/// still raises SIGINT), the alternate screen so the shell's scrollback is left as it was, and a
/// hidden cursor. `restore` puts everything back; it is also what the end of the session calls.
final class LiveTerminal: @unchecked Sendable {
    private var saved = termios()
    private var active = false
    private let lock = NSLock()

    /// Colours: https://no-color.org, and not on a dumb terminal.
    let color: Bool

    init() {
        let env = ProcessInfo.processInfo.environment
        color = (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }

    func enter() {
        lock.withLock {
            guard !active, tcgetattr(0, &saved) == 0 else { return }
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(0, TCSANOW, &raw)
            active = true
            write("\u{1B}[?1049h\u{1B}[?25l")
        }
    }

    func restore() {
        lock.withLock {
            guard active else { return }
            write("\u{1B}[?25h\u{1B}[?1049l")
            tcsetattr(0, TCSANOW, &saved)
            active = false
        }
    }

    /// Columns of the terminal (80 if unknown).
    var width: Int { Pager.terminalSize()?.columns ?? 80 }

    /// Draws the lines from the top left, clearing what is left of the last frame.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for line in lines { frame += line + "\u{1B}[K\r\n" }
        frame += "\u{1B}[J"
        write(frame)
    }

    func write(_ s: String) { try? writeAll(1, s.utf8) }
}
