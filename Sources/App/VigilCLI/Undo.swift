import ArgumentParser
import VigilCore

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the last change a command made to tasks, habits or sessions.",
        discussion: """
            One level: the last change only (an add, an edit, a done, a mark, a note, a delete of a \
            task, a habit or a session, or a `vigil import`: what it added and the days it marked \
            go, and importing the file again brings them back). A second undo finds nothing; an \
            undo cannot be undone. \
            Days Vigil marks on its own (failed, or completed by sessions) are not undone. A \
            session delete already sent by `vigil sync` comes back on this device only.

            Example:
              vigil task delete 3 --yes
              vigil undo
            """)
    @OptionGroup var common: CommonOptions

    func run() async throws {
        await guarded {
            guard try common.hasLog(), let label = try common.openLog().undoLastChange() else {
                throw Failure("nothing to undo: the last change was undone already, or none was made yet.", code: .failure)
            }
            print("Undid: \(label.terminalSafe).")
        }
    }
}
