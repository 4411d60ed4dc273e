import ArgumentParser
import Foundation
import SessionRuntime
import SystemCalls
import VigilCore

/// `vigil pause`, `resume`, `break` and `snooze`: the keys of the live screen, from any terminal,
/// for the running session (in the background, or in another terminal). Each goes through the
/// session's inbox (`SessionInbox`); the session answers as it answers its keys, and a strict
/// session refuses what it refuses there.
enum RemoteControl {
    static func send(_ command: SessionInbox.Command, _ common: CommonOptions) async throws {
        let statusFile = SessionStatusFile(dataDirectory: common.paths.dataDirectory)
        guard let s = statusFile.running() else {
            print("No focus session is running. Start one with `vigil start` (or `vigil start --background`).")
            throw ExitCode(1)
        }
        guard s.takesCommands == true else { throw RemoteControl.olderSession(s) }
        if s.strict != nil, command != .resume {
            throw Failure(
                "the running session is strict: it cannot be \(command == .snooze ? "snoozed" : command == .pause ? "paused" : "put on a break") before its planned end.",
                code: .failure)
        }
        do {
            try SessionInbox(dataDirectory: common.paths.dataDirectory).send(command, to: s.pid)
        } catch {
            throw Failure("cannot reach the session (pid \(s.pid)): \(error.reason).", code: .failure)
        }
        // The session answers within its next moment; say what it says (a pause shows at once).
        let wanted: ((String) -> Bool)? =
            switch command {
            case .pause: { $0 == "paused" }
            case .breakTime: { $0 == "on break" }
            case .resume: { $0 != "paused" && $0 != "on break" }
            case .snooze: nil
            }
        if let wanted {
            for _ in 0..<50 {
                if let now = statusFile.read(), wanted(now.state) {
                    print("The session is \(now.state).")
                    return
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        print("Asked the session to \(command == .breakTime ? "take a break" : command.rawValue). `vigil status` shows it.")
    }

    /// A session of a Vigil from before commands from other terminals: SIGUSR2 would end it.
    static func olderSession(_ s: SessionStatus) -> Failure {
        Failure(
            "the running session (pid \(s.pid)) was started by an older Vigil, which takes no commands from other terminals: use its own terminal, or `vigil stop`.",
            code: .failure)
    }
}

/// One of the session's keys as a command of its own: sends `key` to the running session.
protocol SessionKeyCommand: AsyncParsableCommand {
    static var key: SessionInbox.Command { get }
    var common: CommonOptions { get }
}

extension SessionKeyCommand {
    func run() async throws { await guarded { try await RemoteControl.send(Self.key, common) } }
}

struct PauseCommand: SessionKeyCommand {
    static let key = SessionInbox.Command.pause
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause the running session (p on its screen), from any terminal.",
        discussion: "`vigil resume` goes on. Pauses count neither as focus nor as distraction.\n\nExample:\n  vigil pause")
    @OptionGroup var common: CommonOptions
}

struct ResumeCommand: SessionKeyCommand {
    static let key = SessionInbox.Command.resume
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "Resume the running session after a pause or a break (r), from any terminal.",
        discussion: "Example:\n  vigil resume")
    @OptionGroup var common: CommonOptions
}

struct BreakCommand: SessionKeyCommand {
    static let key = SessionInbox.Command.breakTime
    static let configuration = CommandConfiguration(
        commandName: "break", abstract: "Put the running session on a break (b), from any terminal.",
        discussion: "`vigil resume` ends the break.\n\nExample:\n  vigil break")
    @OptionGroup var common: CommonOptions
}

struct SnoozeCommand: SessionKeyCommand {
    static let key = SessionInbox.Command.snooze
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Snooze the running session's alarm (s), from any terminal.",
        discussion: "A few snoozes a session; the session says when none is left.\n\nExample:\n  vigil snooze")
    @OptionGroup var common: CommonOptions
}
