import Foundation
import Testing

@testable import SystemCalls

/// OutputFile (issue 17): an output goes where its path says and nowhere else a planted name
/// could send it, a FIFO or device stays what it is, and no temporary outlives the output.
@Suite struct OutputFileTests {
    func freshDirectory() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-output-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func contents(_ path: String) -> String? { (try? String(contentsOfFile: path, encoding: .utf8)) }

    func entries(_ dir: String) -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []) }

    func kind(_ path: String) -> mode_t? {
        var s = stat()
        return lstat(path, &s) == 0 ? s.st_mode & S_IFMT : nil
    }

    func output(_ path: String, _ text: String, journal: String? = nil, token: () -> String = OutputFile.randomToken) throws {
        let file = try OutputFile(path: path, journal: journal, token: token)
        try file.write(Array(text.utf8))
        try file.commit()
    }

    /// Every name the temporary is given in turn is taken: a link to someone's file, a file. They
    /// are passed over (O_EXCL), never opened, and the output still lands whole at its path.
    @Test func aTemporaryNameAlreadyTakenIsNeverOpened() throws {
        let dir = freshDirectory()
        let victim = dir + "/victim"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        let stem = dir + "/.report.txt.vigil-\(getpid())-"
        #expect(symlink(victim, stem + "aaaaaaaaaa.tmp") == 0)
        try "someone's".write(toFile: stem + "bbbbbbbbbb.tmp", atomically: false, encoding: .utf8)
        var tokens = ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"].makeIterator()
        try output(dir + "/report.txt", "the report", token: { tokens.next()! })
        #expect(contents(victim) == "precious")
        #expect(kind(stem + "aaaaaaaaaa.tmp") == S_IFLNK)
        #expect(contents(stem + "bbbbbbbbbb.tmp") == "someone's")
        #expect(contents(dir + "/report.txt") == "the report")
        #expect(kind(dir + "/report.txt") == S_IFREG)
        #expect(!FileManager.default.fileExists(atPath: stem + "cccccccccc.tmp"), "renamed into place")
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/report.txt")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Names are random: two outputs to one path never share a temporary.
    @Test func temporaryNamesAreRandomAndRecognised() {
        let tokens = (0..<100).map { _ in OutputFile.randomToken() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 10 })
        #expect(OutputFile.temporaryProcess(".report.txt.vigil-123-\(tokens[0]).tmp", legacyNames: false) == 123)
        #expect(OutputFile.temporaryProcess(".a.b.vigil-7-abcdefghij.tmp", legacyNames: false) == 7)
        #expect(OutputFile.temporaryProcess(".running-session.json.4242.tmp", legacyNames: true) == 4242)
        for other in [
            ".running-session.json.4242.tmp", "report.txt.vigil-1-abcdefghij.tmp", ".x.vigil-1-abc.tmp", ".x.vigil-1-ABCDEFGHIJ.tmp",
            ".vigil-1-abcdefghij.tmp", ".x.vigil-1-abcdefghij", ".keep.tmp",
        ] {
            #expect(OutputFile.temporaryProcess(other, legacyNames: false) == nil, "\(other)")
        }
        #expect(OutputFile.temporaryProcess(".keep.tmp", legacyNames: true) == nil)
    }

    /// A FIFO is written where it is (its reader gets the output) and stays a FIFO; /dev/null and a
    /// terminal would be written the same way, never replaced by a regular file.
    @Test func aFIFOIsWrittenWhereItIs() async throws {
        let dir = freshDirectory()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Both ends held by the test (the output fits the pipe's buffer): the output opens at
        // once, and reading after the test closes its write end never waits for ever.
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let heldOpen = open(fifo, O_WRONLY | O_CLOEXEC)
        try #require(readEnd >= 0 && heldOpen >= 0 && fcntl(readEnd, F_SETFL, 0) == 0)
        #expect(try OutputFile.destination(of: fifo) == .inPlace(fifo))
        try output(fifo, "through the pipe")
        close(heldOpen)
        #expect(
            String(decoding: FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self) == "through the pipe")
        #expect(kind(fifo) == S_IFIFO)
        #expect(entries(dir) == ["pipe"], "no temporary")
        #expect(try OutputFile.destination(of: "/dev/null") == .inPlace("/dev/null"))
    }

    /// A link of the caller's is followed: the file it names is replaced and the link stays; a
    /// link to nothing yet creates the file it names.
    @Test func theCallersOwnLinksAreFollowed() throws {
        let dir = freshDirectory()
        try "old".write(toFile: dir + "/target", atomically: false, encoding: .utf8)
        #expect(symlink("target", dir + "/link") == 0)
        #expect(try OutputFile.destination(of: dir + "/link") == .replacing(dir + "/target"))
        try output(dir + "/link", "new")
        #expect(kind(dir + "/link") == S_IFLNK && contents(dir + "/target") == "new")
        #expect(symlink(dir + "/later", dir + "/dangling") == 0)
        try output(dir + "/dangling", "made")
        #expect(kind(dir + "/dangling") == S_IFLNK && contents(dir + "/later") == "made")
    }

    /// A link or FIFO another user made is never followed or written into: the link is replaced
    /// by the output, the file it pointed at is untouched. (Making them another user's takes root.)
    @Test(.enabled(if: geteuid() == 0, "owning a link as another user (nobody) takes root"))
    func anotherUsersLinkOrFIFOIsReplacedNotFollowed() throws {
        let dir = freshDirectory()
        try "precious".write(toFile: dir + "/victim", atomically: false, encoding: .utf8)
        #expect(symlink(dir + "/victim", dir + "/planted") == 0)
        #expect(lchown(dir + "/planted", 65534, 65534) == 0)
        #expect(try OutputFile.destination(of: dir + "/planted") == .replacing(dir + "/planted"))
        try output(dir + "/planted", "the export")
        #expect(contents(dir + "/victim") == "precious")
        #expect(kind(dir + "/planted") == S_IFREG && contents(dir + "/planted") == "the export")
        // Reading it would hand the output to its owner.
        #expect(mkfifo(dir + "/listening", 0o666) == 0)
        #expect(chown(dir + "/listening", 65534, 65534) == 0)
        #expect(try OutputFile.destination(of: dir + "/listening") == .replacing(dir + "/listening"))
    }

    @Test func aDirectoryIsRefused() throws {
        let dir = freshDirectory()
        #expect(symlink(dir, dir + "/link") == 0)
        for path in [dir, dir + "/", dir + "/link", dir + "/new/"] {
            let error = #expect(throws: SystemError.self) { _ = try OutputFile(path: path) }
            #expect(error?.errno == EISDIR, "\(path): \(String(describing: error))")
        }
        #expect(entries(dir) == ["link"], "nothing made")
    }

    /// While a temporary exists its path is in the journal; given up (discard, or the object
    /// going away) or committed, both are gone.
    @Test func aTemporaryAndItsJournalEntryLastOnlyAsLongAsTheOutput() throws {
        let dir = freshDirectory()
        let journal = dir + "/journal"
        var file: OutputFile? = try OutputFile(path: dir + "/export.json", journal: journal)
        try file!.write(Array("{".utf8))
        let names = entries(journal)
        #expect(names.count == 1)
        let recorded = contents(journal + "/" + names.first!)?.trimmingCharacters(in: .newlines) ?? ""
        #expect(recorded.hasPrefix(dir + "/.export.json.vigil-\(getpid())-") && kind(recorded) == S_IFREG, "\(recorded)")
        file = nil
        #expect(entries(journal).isEmpty && entries(dir) == ["journal"], "deinit removed both")

        let discarded = try OutputFile(path: dir + "/export.json", journal: journal)
        discarded.discard()
        #expect(entries(journal).isEmpty && entries(dir) == ["journal"])
        try output(dir + "/export.json", "{}", journal: journal)
        #expect(entries(journal).isEmpty && entries(dir) == ["journal", "export.json"])
        // No journal without the directory that holds it (no data directory yet): nothing is made.
        try output(dir + "/other.json", "{}", journal: dir + "/missing/journal")
        #expect(!FileManager.default.fileExists(atPath: dir + "/missing"))
    }

    /// What a killed process left is removed: a temporary the journal names or one in the data
    /// directory, of a process that is gone, a regular file, the caller's. Nothing else is.
    @Test func leftoversAreRemovedOnlyWhenTheyAreTheCallersAndAbandoned() throws {
        let dir = freshDirectory()
        let journal = dir + "/data/unfinished-outputs"
        let data = dir + "/data"
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        let dead = Int32.max - 1  // above any pid_max
        func make(_ path: String) { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        func journalEntry(_ name: String, naming path: String) {
            #expect(FileManager.default.createFile(atPath: journal + "/" + name, contents: Data((path + "\n").utf8)))
        }

        let left = dir + "/.export.json.vigil-\(dead)-abcdefghij.tmp"
        make(left)
        journalEntry("\(dead)-abcdefghij", naming: left)
        let running = dir + "/.report.txt.vigil-\(getpid())-abcdefghij.tmp"
        make(running)
        journalEntry("\(getpid())-abcdefghij", naming: running)
        let victim = dir + "/victim"
        make(victim)
        journalEntry("\(dead)-bbbbbbbbbb", naming: victim)
        let link = dir + "/.link.vigil-\(dead)-cccccccccc.tmp"
        #expect(symlink(victim, link) == 0)
        journalEntry("\(dead)-cccccccccc", naming: link)
        let status = data + "/.running-session.json.vigil-\(dead)-dddddddddd.tmp"
        let legacy = data + "/.running-session.json.\(dead).tmp"
        let unrelated = data + "/.keep.tmp"
        for path in [status, legacy, unrelated] { make(path) }

        let removed = OutputFile.removeLeftovers(journal: journal, directory: data)
        #expect(Set(removed) == [left, status, legacy])
        for gone in [left, status, legacy] { #expect(kind(gone) == nil, "\(gone)") }
        for kept in [running, victim, unrelated] { #expect(kind(kept) == S_IFREG, "\(kept)") }
        #expect(kind(link) == S_IFLNK)
        #expect(entries(journal) == ["\(getpid())-abcdefghij"], "a running process's entry stays, the others are done with")
        if geteuid() == 0 {
            let theirs = data + "/.theirs.vigil-\(dead)-eeeeeeeeee.tmp"
            make(theirs)
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(OutputFile.removeLeftovers(journal: journal, directory: data).isEmpty)
            #expect(kind(theirs) == S_IFREG, "another user's file is not ours to remove")
        }
    }
}
