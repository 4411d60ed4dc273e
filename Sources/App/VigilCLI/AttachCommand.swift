import ArgumentParser
import Foundation
import SessionRuntime
import Synchronization
import SystemCalls

/// `vigil attach`: the running session's live screen in this terminal (`ScreenMirror`), its keys
/// sent to it (`SessionInbox`); q detaches, and the session goes on.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Show the running session's live screen here; q detaches and the session goes on.",
        discussion: """
            For a session started with `vigil start --background`, or running in another terminal. \
            Keys: p pause, b break, r resume, s snooze; q (or Ctrl-C) detaches. `vigil stop` ends \
            the session.

            Example:
              vigil attach
            """)
    @OptionGroup var common: CommonOptions

    func run() async throws {
        await guarded(outputMatters: false) { try await attach() }
    }

    private func attach() async throws {
        guard isatty(0) != 0, isatty(1) != 0 else {
            throw Failure("vigil attach shows a screen: run it in a terminal (`vigil status` says how the session stands in one line).", code: .usage)
        }
        let data = common.paths.dataDirectory
        let statusFile = SessionStatusFile(dataDirectory: data)
        guard let s = statusFile.running() else {
            print("No focus session is running. Start one with `vigil start --background`.")
            throw ExitCode(1)
        }
        guard s.takesCommands == true else { throw RemoteControl.olderSession(s) }
        let mirror = ScreenMirror(dataDirectory: data)
        let terminal = LiveTerminal()
        do { try mirror.attach(columns: terminal.width, color: terminal.color) } catch {
            throw Failure("cannot ask the session for its screen: \(error)", code: .cannotCreate)
        }
        let detached = Flag()
        let signals = SignalWatch<Bool>([(SIGINT, true), (SIGTERM, true), (SIGHUP, true)])
        let watcher = Task {
            for await _ in signals.stream { detached.set() }
        }
        terminal.enter()
        Self.readKeys(inbox: SessionInbox(dataDirectory: data), pid: s.pid, detached: detached)
        var ended = false
        while !detached.isSet {
            guard statusFile.running() != nil else {
                ended = true
                break
            }
            terminal.draw(mirror.read() ?? ["Waiting for the session's screen…"])
            try? await Task.sleep(for: .milliseconds(250))
        }
        mirror.detach()
        terminal.restore()
        signals.finish()
        watcher.cancel()
        print(
            ended ? "The session ended: `vigil session show` has it." : "Detached: the session goes on. `vigil attach` again, `vigil stop` ends it.")
    }

    /// Keys typed here, sent to the session; q detaches.
    private static func readKeys(inbox: SessionInbox, pid: Int32, detached flag: Flag) {
        let commands: [UInt8: SessionInbox.Command] = [
            UInt8(ascii: "p"): .pause, UInt8(ascii: "b"): .breakTime, UInt8(ascii: "r"): .resume, UInt8(ascii: "s"): .snooze,
        ]
        let thread = Thread {
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1 {
                let key = byte | 0x20  // either case
                if key == UInt8(ascii: "q") {
                    flag.set()
                    return
                }
                if let c = commands[key] { try? inbox.send(c, to: pid) }
            }
        }
        thread.name = "vigil-attach-keys"
        thread.start()
    }

    /// Set once, by a key or a signal, read by the drawing loop.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }
}
