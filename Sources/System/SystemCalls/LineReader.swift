#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read line by line through one buffer, so that memory stays at the longest line however
/// long the file is: Vigil's JSON Lines recordings and gpsd logs of days are streamed with it, not
/// held whole.
///
/// Lines end at LF; a CR before it stays in the line, for the caller to trim. The last line may
/// lack its newline. A line returned is valid until the next call.
public final class LineReader {
    /// Why the next line could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// The line does not end within `limit` bytes: it is not a line of the format being read.
        case lineTooLong(limit: Int)
        /// read(2) failed.
        case cannotRead(SystemError)
    }

    /// The file, for messages.
    public let path: String
    /// The number of the line last returned, from 1; 0 before the first.
    public var lineNumber: Int { linesReturned }
    /// The longest line the buffer grows to hold, in bytes.
    public let longestLine: Int
    /// The buffer's size now: its first size, or the longest line so far if that did not fit. This
    /// is what reading holds, however long the file.
    public var bufferCapacity: Int { capacity }

    // Touched for every line, and only by this object's methods, one at a time: the runtime's
    // dynamic exclusivity checks (a tenth of a replay's time in the JSON Lines reader) are skipped.
    private let fd: Int32
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var begin = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var linesReturned = 0
    /// Where in the file `buffer[0]` is.
    @exclusivity(unchecked) private var bufferOffset = 0
    /// Where in the file the next line starts.
    public var offset: Int { bufferOffset + begin }

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - offset: where to start reading: the start of a line, whose number is `lineNumber` + 1.
    ///   - bufferSize: the buffer's first size; it doubles while a line does not fit, up to `longestLine`.
    public init(path: String, offset: Int = 0, lineNumber: Int = 0, bufferSize: Int = 1 << 20, longestLine: Int = 1 << 26) throws(SystemError) {
        self.path = path
        self.longestLine = max(longestLine, 1)
        let fd = try syscall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        if offset > 0 {
            do throws(SystemError) {
                try syscall("lseek", path: path) { lseek(fd, off_t(offset), SEEK_SET) }
            } catch {
                close(fd)
                throw error
            }
        }
        self.fd = fd
        bufferOffset = offset
        linesReturned = lineNumber
        capacity = max(1, min(bufferSize, self.longestLine))
        buffer = .allocate(capacity: capacity)
    }

    /// Reads `contents`, already in memory (a fuzzer's input, a test's text), as if it were a file
    /// named `name` read from `offset`, the start of line `lineNumber` + 1.
    public init(contents: some Collection<UInt8>, name: String, offset: Int = 0, lineNumber: Int = 0) {
        path = name
        let bytes = Array(contents)
        longestLine = max(bytes.count, 1)
        fd = -1
        capacity = longestLine
        buffer = .allocate(capacity: capacity)
        bytes.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { buffer.update(from: base, count: b.count) }
        }
        end = bytes.count
        atEnd = true
        bufferOffset = offset
        linesReturned = lineNumber
    }

    deinit {
        if fd >= 0 { close(fd) }
        buffer.deallocate()
    }

    /// The next line without its newline, or nil at the end of the file.
    public func next() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if begin < end, let newline = memchr(buffer + begin, 0x0A, end - begin) {
                let at = newline.assumingMemoryBound(to: UInt8.self) - buffer
                let line = UnsafeBufferPointer(start: buffer + begin, count: at - begin)
                begin = at + 1
                linesReturned += 1
                return line
            }
            if atEnd {
                guard begin < end else { return nil }
                let line = UnsafeBufferPointer(start: buffer + begin, count: end - begin)
                begin = end
                linesReturned += 1
                return line
            }
            try fill()
        }
    }

    /// The bytes read and not yet returned as lines, for a caller that finds its lines' ends
    /// itself (the replay's JSON Lines fast path, in one pass over the buffer): they may end in the
    /// middle of a line, and more are read only by `next()`. Valid until the next call.
    @inline(__always) public var unread: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer + begin, count: end - begin) }

    /// Takes the first `count` unread bytes, a whole line and its newline, as the next line: as if
    /// `next()` had returned it.
    @inline(__always) public func consumeLine(_ count: Int) {
        precondition(count > 0 && count <= end - begin, "a line within the unread bytes")
        begin += count
        linesReturned += 1
    }

    /// Reads more of the file after the unread bytes, which stay (moved to the front of the
    /// buffer, which grows up to `longestLine` to hold them): for a caller that finds its own
    /// boundaries in `unread`, such as a JSON document read value by value. False at the end of
    /// the file.
    public func readMore() throws(Failure) -> Bool {
        guard !atEnd else { return false }
        let had = end - begin
        try fill()
        return end - begin > had
    }

    /// Takes the first `count` unread bytes as read, without counting lines (see `readMore`).
    @inline(__always) public func consume(_ count: Int) {
        precondition(count >= 0 && count <= end - begin, "within the unread bytes")
        begin += count
    }

    /// `next()`, with a failure made the reader's own error by `make`: the line it is on, what
    /// went wrong (a line too long is "not <format>"), and whether the disk, not the content, failed.
    public func next<E: Error>(notA format: String, _ make: (_ line: Int, _ message: String, _ isReadFailure: Bool) -> E) throws(E)
        -> UnsafeBufferPointer<UInt8>?
    {
        do {
            return try next()
        } catch {
            switch error {
            case .lineTooLong(let limit): throw make(linesReturned + 1, "line longer than \(limit >> 20) MiB: not \(format)", false)
            case .cannotRead(let failure): throw make(linesReturned + 1, "read error: \(failure.reason)", true)
            }
        }
    }

    /// Moves the partial line to the front, grows the buffer if that line fills it, and reads more.
    private func fill() throws(Failure) {
        if begin > 0 {
            memmove(buffer, buffer + begin, end - begin)
            bufferOffset += begin
            end -= begin
            begin = 0
        }
        if end == capacity {
            guard capacity < longestLine else { throw .lineTooLong(limit: longestLine) }
            let larger = min(capacity * 2, longestLine)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity = larger
        }
        let count: Int
        do {
            count = try syscall("read", path: path) { read(fd, buffer + end, capacity - end) }
        } catch {
            throw .cannotRead(error)
        }
        if count == 0 { atEnd = true }
        end += count
    }
}

/// A file read in blocks at any offset (pread(2)): what a reader looks at before it reads a file
/// line by line, such as its last lines, or whether some text occurs in it at all.
public final class BlockFile {
    public let path: String
    /// The file's size when it was opened.
    public let size: Int
    private let fd: Int32

    public init(path: String) throws(SystemError) {
        self.path = path
        let fd = try syscall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        var info = stat()
        do throws(SystemError) {
            try syscall("fstat", path: path) { fstat(fd, &info) }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        size = Int(info.st_size)
    }

    deinit { close(fd) }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    public func read(at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let n = try syscall("pread", path: path) {
                bytes.withUnsafeMutableBytes { b in pread(fd, b.baseAddress! + filled, b.count - filled, off_t(offset + filled)) }
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Whether `text` occurs in the file, read a block at a time (memory stays at a block however
    /// large the file).
    public func contains(_ text: [UInt8], blockSize: Int = 1 << 20) throws(SystemError) -> Bool {
        guard !text.isEmpty else { return true }
        var offset = 0
        while offset < size {
            let block = try read(at: offset, count: blockSize + text.count - 1)
            if block.count < text.count { return false }
            if block.withUnsafeBytes({ b in text.withUnsafeBytes { t in bytes(b, contain: t) } }) { return true }
            offset += blockSize
        }
        return false
    }
}

/// Whether `needle` occurs in `haystack`: memchr(3) to each place its first byte is, then a
/// comparison (glibc's memmem is a GNU extension the Swift module does not declare).
public func bytes(_ haystack: UnsafeRawBufferPointer, contain needle: UnsafeRawBufferPointer) -> Bool {
    guard let n = needle.baseAddress, needle.count > 0 else { return true }
    guard let h = haystack.baseAddress, haystack.count >= needle.count else { return false }
    var from = h
    let last = h + (haystack.count - needle.count)
    while from <= last {
        guard let hit = memchr(from, Int32(n.load(as: UInt8.self)), last - from + 1) else { return false }
        if memcmp(hit, n, needle.count) == 0 { return true }
        from = UnsafeRawPointer(hit) + 1
    }
    return false
}
