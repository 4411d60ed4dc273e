import Foundation
import SystemCalls
import VigilCore

/// Commands for the running session from other processes (`vigil pause`, `resume`, `break`,
/// `snooze`, and `vigil attach`'s keys): one word a line, appended to `session-inbox` in the data
/// directory, then SIGUSR2 to the session, which takes the whole inbox at once. A signal says only
/// "look"; the file says what, so several commands sent at once are all taken, in order, and no
/// other signal's meaning changes. The session takes the file by renaming it first: a command
/// appended meanwhile goes to a new inbox, read at the next signal.
public struct SessionInbox: Sendable {
    public let path: String

    public init(dataDirectory: String) { path = dataDirectory + "/session-inbox" }

    /// The commands a session takes, by the word written for each.
    public enum Command: String, CaseIterable, Sendable {
        case pause, resume
        case breakTime = "break"
        case snooze

        public var action: ControlAction {
            switch self {
            case .pause: .pause
            case .resume: .resume
            case .breakTime: .breakTime
            case .snooze: .snooze
            }
        }
    }

    /// Appends `command` (one write of one short line, so writers do not interleave) and signals
    /// the session `pid`.
    public func send(_ command: Command, to pid: Int32) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SystemError(call: "open", errno: errno, path: path) }
        defer { close(fd) }
        let line = Array((command.rawValue + "\n").utf8)
        guard line.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == line.count else {
            throw SystemError(call: "write", errno: errno, path: path)
        }
        try syscall("kill") { kill(pid, SIGUSR2) }
    }

    /// Takes the commands waiting, oldest first; a word that is none is left out.
    public func take() -> [Command] {
        let taking = path + ".taking"
        guard rename(path, taking) == 0 else { return [] }
        defer { unlink(taking) }
        guard let data = FileManager.default.contents(atPath: taking) else { return [] }
        return String(decoding: data.prefix(65_536), as: UTF8.self).split(separator: "\n").compactMap { Command(rawValue: String($0)) }
    }
}
