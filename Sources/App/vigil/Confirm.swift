import Foundation
import VigilPlanner

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

/// Tags as given to `--tag` (separated by commas, or the option repeated): trimmed, lower case,
/// each once, in the order given; as tasks keep theirs.
func normalizedTags(_ texts: [String]) -> [String] {
    var out: [String] = []
    for tag in texts.flatMap({ $0.split(separator: ",") }).compactMap({ TaskItem.normalizedTag(String($0)) }) where !out.contains(tag) {
        out.append(tag)
    }
    return out
}
