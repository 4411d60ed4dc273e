import Foundation

/// Where Vigil's documentation is (the JSON fields, the date grammar, sync): installed beside the
/// binary, PREFIX/share/doc/vigil (scripts/install.sh, the Debian package), else the docs/ folder
/// of the repository it was built in. Help texts name a document and say `vigil config paths`
/// shows where this is: a help text must not carry one machine's path into the manual pages made
/// from it.
func documentationDirectory() -> String? {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let installed = binary.deletingLastPathComponent().appendingPathComponent("share/doc/vigil").path
    if FileManager.default.fileExists(atPath: installed + "/README.md") { return installed }
    // A build in a checkout: .build/<triple>/<configuration>/vigil.
    var dir = binary
    for _ in 0..<4 {
        dir = dir.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: dir.path + "/docs/dates.md") { return dir.path + "/docs" }
    }
    return nil
}

/// "timeline-json.md in Vigil's documentation", for a help text.
func documented(_ name: String) -> String { "\(name) in Vigil's documentation; `vigil config paths` says where" }
