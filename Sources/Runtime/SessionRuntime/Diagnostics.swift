import Foundation
import VigilCore

/// The one way Vigil prints diagnostics: `vigil: …` lines on standard error, never trapping on a
/// failed write (see `writeStandardError`).
///
/// Under systemd (the reminder daemon's user unit), standard error goes to the journal; each line
/// then starts with its syslog priority (`<6>` info, `<4>` warning, `<3>` error), which journald
/// reads as the message's level and strips (sd-daemon(3)), so `journalctl -p warning` finds
/// Vigil's warnings. swift-log would add a dependency for what these three levels do.
public enum Diagnostics {
    public enum Level: Int, Sendable {
        case error = 3
        case warning = 4
        case info = 6
    }

    /// Whether standard error is the journal: `JOURNAL_STREAM` names its device and inode, and
    /// they are standard error's (a child that inherited the variable but not the stream is not).
    public static let toJournal: Bool = {
        guard let value = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return value == "\(st.st_dev):\(st.st_ino)"
    }()

    /// The line as printed: `vigil: text` (`vigil: error: text` for errors; the text alone when
    /// not `prefixed`, as the daemon's log lines), with the priority prefix for the journal.
    ///
    /// The text's controls are escapes (`terminalSafeLines`), whatever error it came from: a
    /// diagnostic never carries escape sequences of Vigil's own, and a message may quote a path or
    /// a library's words. Its newlines stay (a config check lists one problem a line); the values
    /// in a message are put on one line where it is made, so none can start a line of its own.
    public static func line(_ text: String, level: Level, journal: Bool, prefixed: Bool = true) -> String {
        let text = text.terminalSafeLines
        let body = !prefixed ? text : level == .error ? "vigil: error: \(text)" : "vigil: \(text)"
        return (journal ? "<\(level.rawValue)>" : "") + body + "\n"
    }

    public static func emit(_ text: String, level: Level = .info, prefixed: Bool = true) {
        writeStandardError(line(text, level: level, journal: toJournal, prefixed: prefixed))
    }
}
