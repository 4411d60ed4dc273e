import Foundation

/// Asks before a command erases something, as `vigil forget`, `task delete`, `habit delete` and
/// `session delete` do: true at once with `--yes` (`given`); in a terminal, `question [y/N]`, true
/// when the answer starts with y, else it says "Nothing deleted.". Without a terminal on standard
/// input nobody can answer: refused (exit 1) with `refusal`, which names `--yes`.
func confirmed(_ question: String, refusal: String, given yes: Bool) throws -> Bool {
    if yes { return true }
    guard isatty(0) != 0 else { throw Failure(refusal, code: .failure) }
    print("\(question) [y/N] ", terminator: "")
    fflush(nil)
    guard readLine()?.lowercased().hasPrefix("y") == true else {
        print("Nothing deleted.")
        return false
    }
    return true
}
