import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to `fd`, however many write(2) calls that takes; an interrupted call is
/// made again. Throws the errno of the write that failed.
public func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(SystemError) {
    let buffer = Array(bytes)
    var offset = 0
    while offset < buffer.count {
        let n = try buffer.withUnsafeBufferPointer { (b) throws(SystemError) in
            try syscall("write") { write(fd, b.baseAddress! + offset, b.count - offset) }
        }
        // write(2) returns 0 only for a count of 0; were it ever to, a retry would spin.
        guard n > 0 else { throw SystemError(call: "write", errno: EIO) }
        offset += n
    }
}

/// A file Vigil writes for the person (a report, an export, a recording, the session status),
/// written so that nobody else can choose where it goes, and nothing half-written stays behind.
///
/// Where the output goes depends on what is at the path when it is opened (`destination(of:)`):
/// - nothing, or a regular file: a new temporary file in the same directory, created exclusively
///   (O_CREAT|O_EXCL|O_NOFOLLOW, so nothing planted at its name is ever opened) under a random
///   name, 0600, and renamed over the path by `commit`. The rename replaces the directory entry,
///   never a file it links to; a reader sees the old file or the whole new one.
/// - a FIFO, a device or a socket that is the caller's or root's (/dev/null, a named pipe, a
///   terminal): written where it is, opened without O_CREAT or O_TRUNC, never replaced by a
///   regular file (as root, replacing /dev/null would break the system).
/// - a symbolic link that is the caller's or root's: followed, and the rules apply to what it
///   names. /dev/stdout reaches the pipe or terminal behind it; a link to a regular file keeps
///   its place and the file it names is replaced.
/// - a link, FIFO or device another user owns: never followed or written into, since whoever made
///   it would choose which file is overwritten, or read what is written. It is replaced like a
///   regular file, which a sticky directory such as /tmp refuses (EPERM). This is the kernel's own
///   rule for links in sticky directories (`fs.protected_symlinks`), applied everywhere.
/// - a directory: refused (EISDIR).
/// Whatever the path named, a regular file is never written in place: the descriptor is checked
/// after it is opened.
///
/// A temporary is removed on every way out: `discard`, a failed write, `deinit`, exit(3), and
/// SIGINT, SIGTERM and SIGHUP (a handler unlinks it, then lets the signal end the process; a
/// command that watches these signals to end cleanly, as a session does, discards or commits it
/// itself). SIGKILL cannot be caught: with a `journal` directory, the temporary's path is written
/// there while it exists, so that `removeLeftovers` (`vigil forget`) can find what a killed
/// process left.
public final class OutputFile {
    /// The path as given.
    public let path: String
    /// Where the bytes go.
    public let destination: Destination
    private var fd: Int32
    private var temporary: Temporary?

    /// Where an output goes: a new file renamed over `target`, or into what is at `target`.
    public enum Destination: Equatable, Sendable {
        /// A new file renamed over this path: the path itself, or the file a link of the caller's
        /// or root's names.
        case replacing(String)
        /// Into the FIFO, device or socket at this path, as it is.
        case inPlace(String)
    }

    /// A temporary being written, with its journal entry; registered for the signal handler.
    private struct Temporary {
        var path: String
        var entry: String?
        var slots: [Int]
    }

    /// Opens the output at `path` (see the type's rules).
    /// - Parameters:
    ///   - journal: a directory (created 0700 if its parent exists) where a temporary's path is
    ///     kept while it exists; nil for none.
    ///   - token: the random part of the temporary's name; tests give their own to collide.
    public init(path: String, journal: String? = nil, token: () -> String = OutputFile.randomToken) throws(SystemError) {
        self.path = path
        // A FIFO or a device found in place, then swapped for a regular file before it is opened,
        // is looked at again: a regular file is never written in place.
        for _ in 0..<3 {
            let destination = try Self.destination(of: path)
            switch destination {
            case .inPlace(let target):
                let fd = try syscall("open", path: path) { open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
                var opened = stat()
                if fstat(fd, &opened) == 0, !Self.isRegularOrDirectory(opened), Self.isTrusted(opened) {
                    self.fd = fd
                    self.destination = destination
                    temporary = nil
                    return
                }
                close(fd)
            case .replacing(let target):
                let created = try Self.createTemporary(for: target, journal: journal, token: token)
                fd = created.fd
                temporary = created.temporary
                self.destination = destination
                return
            }
        }
        throw SystemError(call: "open", errno: EAGAIN, path: path)
    }

    /// Appends `bytes`. A failure discards the output (a temporary is removed) and is thrown.
    public func write(_ bytes: some Collection<UInt8>) throws(SystemError) {
        guard fd >= 0 else { throw SystemError(call: "write", errno: EBADF, path: path) }
        do {
            try writeAll(fd, bytes)
        } catch {
            discard()
            throw SystemError(call: error.call, errno: error.errno, path: path)
        }
    }

    /// Puts the output in place: a temporary is synced (with `sync`), closed and renamed over
    /// its target; a FIFO or device is closed. A failure discards the output and is thrown.
    public func commit(sync: Bool = true) throws(SystemError) {
        guard fd >= 0 else { throw SystemError(call: "close", errno: EBADF, path: path) }
        guard let temporary, case .replacing(let target) = destination else {
            let closing = fd
            fd = -1
            try syscall("close", path: path, restartable: false) { close(closing) }
            return
        }
        do {
            if sync { try syscall("fsync", path: temporary.path) { fsync(fd) } }
            let closing = fd
            // Gone whatever close says (Linux frees the descriptor even on EINTR): never closed twice.
            fd = -1
            try syscall("close", path: temporary.path, restartable: false) { close(closing) }
            try syscall("rename", path: temporary.path) { rename(temporary.path, target) }
        } catch {
            discard()
            throw error
        }
        forget(temporary)
    }

    /// Gives the output up: closed, and a temporary unlinked. Nothing happens a second time.
    public func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        if let temporary {
            unlink(temporary.path)
            forget(temporary)
        }
    }

    deinit { discard() }

    /// The temporary is gone (renamed or unlinked): its journal entry and registration go too.
    private func forget(_ temporary: Temporary) {
        if let entry = temporary.entry { unlink(entry) }
        for slot in temporary.slots { CleanupRegistry.remove(slot) }
        self.temporary = nil
    }
}

// MARK: - Where an output goes

extension OutputFile {
    /// Where an output to `path` would go now, by the rules on `OutputFile`; throws EISDIR for a
    /// directory and the error of a path that cannot be looked at (ENOTDIR, EACCES, ELOOP).
    public static func destination(of path: String) throws(SystemError) -> Destination {
        guard !path.isEmpty else { throw SystemError(call: "open", errno: ENOENT, path: path) }
        var current = path
        // Link by link, each judged on its own: a trusted link to another user's link is not
        // followed any further.
        for _ in 0..<40 {
            var entry = stat()
            do {
                try syscall("lstat", path: current) { lstat(current, &entry) }
            } catch  where error.errno == ENOENT {
                return .replacing(current)
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR:
                throw SystemError(call: "open", errno: EISDIR, path: current)
            case S_IFREG:
                return .replacing(current)
            case S_IFLNK:
                guard isTrusted(entry) else { return .replacing(current) }
                let next = try linkTarget(current)
                var hop = stat()
                if lstat(next, &hop) != 0 {
                    // A descriptor's link in /proc (/dev/stdout → /proc/self/fd/1 → "pipe:[…]")
                    // names what has no path; only stat(2) reaches it. A plain link to nothing
                    // yet goes on to its target, which is created.
                    var named = stat()
                    if stat(current, &named) == 0 {
                        if named.st_mode & S_IFMT == S_IFDIR { throw SystemError(call: "open", errno: EISDIR, path: path) }
                        // A deleted file behind a descriptor: no name to replace it under.
                        if named.st_mode & S_IFMT == S_IFREG { throw SystemError(call: "open", errno: ENOENT, path: path) }
                        return isTrusted(named) ? .inPlace(current) : .replacing(current)
                    }
                }
                current = next
            default:
                return isTrusted(entry) ? .inPlace(current) : .replacing(current)
            }
        }
        throw SystemError(call: "open", errno: ELOOP, path: path)
    }

    /// The caller's or root's: what Vigil may follow or write into.
    static func isTrusted(_ s: stat) -> Bool { s.st_uid == geteuid() || s.st_uid == 0 }

    static func isRegularOrDirectory(_ s: stat) -> Bool { s.st_mode & S_IFMT == S_IFREG || s.st_mode & S_IFMT == S_IFDIR }

    /// What the link at `path` points to, as a path (a relative target is relative to the link's directory).
    private static func linkTarget(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try syscall("readlink", path: path) { readlink(path, &buffer, buffer.count - 1) }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : splitPath(path).directory + "/" + target
    }

    /// The directory and the last component of `path`, split at the last slash ("." when there is none).
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}

// MARK: - Temporaries

extension OutputFile {
    /// Ten letters and digits from the system's random source: 36^10 names, none guessable.
    public static func randomToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }

    /// `.NAME.vigil-PID-TOKEN.tmp` next to `target`, created exclusively: a name already taken
    /// (by anything: a file, a link planted there) is never opened, another token is drawn.
    private static func createTemporary(
        for target: String, journal: String?, token: () -> String
    ) throws(SystemError) -> (fd: Int32, temporary: Temporary) {
        let (directory, name) = splitPath(target)
        guard !name.isEmpty else { throw SystemError(call: "open", errno: EISDIR, path: target) }
        let stem = "\(directory)/.\(shortened(name)).vigil-\(getpid())-"
        let journal = journal.flatMap(journalDirectory)
        for _ in 0..<100 {
            let drawn = token()
            let path = stem + drawn + ".tmp"
            // Registered before it exists: a signal in between unlinks nothing of anyone's, as the
            // name is checked free by O_EXCL before anything is written.
            var temporary = Temporary(path: path, entry: nil, slots: CleanupRegistry.add(absolute(path)).map { [$0] } ?? [])
            if let journal {
                temporary.entry = writeJournalEntry(in: journal, name: "\(getpid())-\(drawn)", recording: absolute(path))
                if let entry = temporary.entry, let slot = CleanupRegistry.add(entry) { temporary.slots.append(slot) }
            }
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            let code = fd < 0 ? currentErrno() : 0
            if fd >= 0 {
                // Private whatever the umask: what Vigil writes describes a person.
                fchmod(fd, 0o600)
                return (fd, temporary)
            }
            if let entry = temporary.entry { unlink(entry) }
            for slot in temporary.slots { CleanupRegistry.remove(slot) }
            if code == EINTR || code == EEXIST { continue }
            throw SystemError(call: "open", errno: code, path: path)
        }
        throw SystemError(call: "open", errno: EEXIST, path: stem + "….tmp")
    }

    /// At most 100 bytes of `name`, whole characters, so that the temporary's name stays within
    /// NAME_MAX (255) whatever the output's.
    private static func shortened(_ name: String) -> String {
        var result = ""
        for character in name {
            guard result.utf8.count + String(character).utf8.count <= 100 else { break }
            result.append(character)
        }
        return result
    }

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// The journal directory, made 0700 when its parent exists; nil when there is none to use
    /// (no data directory yet: nothing to forget there either) or it is not a directory of the caller's.
    private static func journalDirectory(_ path: String) -> String? {
        _ = try? makeDirectory(path, mode: 0o700)
        var s = stat()
        guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFDIR, s.st_uid == geteuid() else { return nil }
        return path
    }

    /// A journal entry naming a temporary: best effort, as the output matters more than its trace.
    private static func writeJournalEntry(in journal: String, name: String, recording temporary: String) -> String? {
        let entry = journal + "/" + name
        let fd = open(entry, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        do {
            try writeAll(fd, (temporary + "\n").utf8)
        } catch {
            unlink(entry)
            return nil
        }
        return entry
    }
}

// MARK: - Leftovers

extension OutputFile {
    /// Removes the temporaries killed processes left: those named in `journal` (anywhere), and
    /// those in `directory` itself (the data directory, where Vigil writes the status file). Only
    /// a file whose name is a temporary's, of a process no longer running, a regular file (not a
    /// link) and the caller's own is removed. `directory` also holds the names versions before
    /// the journal used (`.NAME.PID.tmp`). Returns the paths removed.
    public static func removeLeftovers(journal: String, directory: String) -> [String] {
        var removed: [String] = []
        for name in directoryEntries(journal) {
            let entry = journal + "/" + name
            guard let pid = Int32(name.prefix { $0 != "-" }), !processExists(pid) else { continue }
            if let recorded = firstLine(of: entry), removeLeftover(recorded, legacyNames: false) { removed.append(recorded) }
            unlink(entry)
        }
        for name in directoryEntries(directory) {
            let path = directory + "/" + name
            if let pid = temporaryProcess(name, legacyNames: true), !processExists(pid), removeLeftover(path, legacyNames: true) {
                removed.append(path)
            }
        }
        return removed
    }

    /// The process a temporary's name says made it: `.NAME.vigil-PID-TOKEN.tmp`, or with
    /// `legacyNames` also the old `.NAME.PID.tmp`; nil for any other name.
    static func temporaryProcess(_ name: String, legacyNames: Bool) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let stem = name.dropLast(4)
        // The last dot-separated part: "vigil-PID-TOKEN" (or "PID"), after a name of at least one character.
        guard let dot = stem.lastIndex(of: "."), stem.distance(from: stem.startIndex, to: dot) >= 2 else { return nil }
        let last = stem[stem.index(after: dot)...]
        guard last.hasPrefix("vigil-") else { return legacyNames ? Int32(last) : nil }
        let parts = last.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 10, parts[1].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
            return nil
        }
        return Int32(parts[0])
    }

    private static func removeLeftover(_ path: String, legacyNames: Bool) -> Bool {
        guard temporaryProcess(splitPath(path).name, legacyNames: legacyNames) != nil else { return false }
        var s = stat()
        guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFREG, s.st_uid == geteuid() else { return false }
        return unlink(path) == 0
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func firstLine(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}

/// The process exists (EPERM: it does, but is not the caller's to signal).
public func processExists(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    do {
        try syscall("kill") { kill(pid, 0) }
        return true
    } catch {
        return error.errno == EPERM
    }
}

// MARK: - Cleanup on signals and exit

/// The paths a signal handler unlinks: every live temporary and its journal entry, as C strings
/// made when they were registered (a handler may not allocate). A fixed table of atomic slots,
/// because the handler can run on any thread at any instant, also while another thread adds or
/// removes a path; a removed path's string is freed only once no handler is reading the table.
///
/// Unlinked at exit(3), and by the process's signal handler (`ProcessSignals`) when no command
/// is watching the signals: it unlinks, restores the default action and raises the signal again,
/// so the process ends as the signal meant (a shell sees 130 for Ctrl-C).
enum CleanupRegistry {
    static let slots: InlineArray<64, Atomic<Int>> = InlineArray { _ in Atomic(0) }
    static let readers = Atomic<Int>(0)
    static let installed: Bool = install()

    /// The slot holding `path`, or nil when the table is full (then only the journal and the
    /// error paths remove it).
    static func add(_ path: String) -> Int? {
        _ = installed
        guard let copy = strdup(path) else { return nil }
        for i in slots.indices
        where slots[i].compareExchange(expected: 0, desired: Int(bitPattern: copy), ordering: .sequentiallyConsistent).exchanged {
            return i
        }
        free(copy)
        return nil
    }

    static func remove(_ slot: Int) {
        let address = slots[slot].exchange(0, ordering: .sequentiallyConsistent)
        // A handler on another thread may have read the address before the exchange.
        while readers.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
        free(UnsafeMutableRawPointer(bitPattern: address))
    }

    /// Async-signal-safe: atomic loads and unlink(2).
    static func unlinkAll() {
        readers.add(1, ordering: .sequentiallyConsistent)
        for i in slots.indices {
            if let path = UnsafePointer<CChar>(bitPattern: slots[i].load(ordering: .sequentiallyConsistent)) { unlink(path) }
        }
        readers.subtract(1, ordering: .sequentiallyConsistent)
    }

    private static func install() -> Bool {
        // Made before the handler can run: a handler must not be the one to initialise them.
        _ = slots.count
        _ = readers.load(ordering: .sequentiallyConsistent)
        ProcessSignals.installForCleanup()
        atexit { CleanupRegistry.unlinkAll() }
        return true
    }
}
