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

    // Touched for every line, and only by this object's methods, one at a time: the runtime's
    // dynamic exclusivity checks (a tenth of a replay's time in the JSON Lines reader) are skipped.
    private let fd: Int32
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var begin = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var linesReturned = 0

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - bufferSize: the buffer's first size; it doubles while a line does not fit, up to `longestLine`.
    public init(path: String, bufferSize: Int = 1 << 20, longestLine: Int = 1 << 26) throws(SystemError) {
        self.path = path
        self.longestLine = max(longestLine, 1)
        fd = try syscall("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        capacity = max(1, min(bufferSize, self.longestLine))
        buffer = .allocate(capacity: capacity)
    }

    /// Reads `contents`, already in memory (a fuzzer's input, a test's text), as if it were a file
    /// named `name`.
    public init(contents: some Collection<UInt8>, name: String) {
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

    /// Moves the partial line to the front, grows the buffer if that line fills it, and reads more.
    private func fill() throws(Failure) {
        if begin > 0 {
            memmove(buffer, buffer + begin, end - begin)
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
