import ArgumentParser
import Foundation
import SessionRuntime

/// `vigil restore`: puts back the windows a session hid (`hide`) and could not put back itself.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put back the windows a focus session hid or dimmed and could not put back (it was killed or crashed).",
        discussion: """
            A session puts back what it hid when you are back, at a break and at its end; a session \
            that was killed leaves them listed in the data directory, and the next `vigil start` \
            puts them back too. A window closed meanwhile, or one you brought back yourself, is \
            left as it is. Windows a running session hid are its own to put back.

            Examples:
              vigil restore
            """)
    @OptionGroup var common: CommonOptions

    func run() async throws {
        await guarded {
            // As every command: a config with a problem is said, not run past.
            let config = try common.loadConfiguration()
            let journal = HiddenWindows(dataDirectory: common.paths.dataDirectory)
            if let problem = journal.problem() { throw Failure(problem, code: .dataError) }
            let left = journal.leftBehind()
            guard !left.isEmpty else {
                print("No window is hidden by a session that has ended.")
                return
            }
            let (restored, problems) = journal.restoreLeftBehind(control: WindowControls.forDesktop(backend: config.apps.backend))
            if !restored.isEmpty { print("Put back: " + restored.joined(separator: ", ")) }
            for p in problems { note("could not put back \(p)") }
            let waiting = journal.leftBehind()
            if !waiting.isEmpty {
                note(
                    "still hidden, on another desktop: " + Set(waiting.map(\.desktop)).sorted().joined(separator: ", ")
                        + " (run `vigil restore` there)")
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
