import Foundation
import SystemCalls
import Testing

/// LineReader (issue 17): a file is read line by line through one buffer, however the lines fall
/// across the reads, and a line longer than the reader holds is refused instead of filling memory.
@Suite struct LineReaderTests {
    func file(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-lines-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func lines(_ reader: LineReader, from first: Int = 0) throws -> [String] {
        var out: [String] = []
        while let line = try reader.next() {
            out.append(String(decoding: line, as: UTF8.self))
            #expect(reader.lineNumber == first + out.count)
        }
        return out
    }

    /// Lines of every length from empty to several times the buffer, CRLF and LF mixed, the last
    /// without a newline: the same lines whatever size the buffer starts at.
    @Test(arguments: [1, 3, 16, 1 << 20])
    func linesAreTheSameWhateverTheBuffer(bufferSize: Int) throws {
        var expected: [String] = []
        for n in 0..<60 {
            expected.append(String(repeating: "x", count: n * 7 % 53) + (n % 3 == 0 ? "\r" : ""))
        }
        expected.append("last line without a newline")
        let text = expected.joined(separator: "\n")
        let reader = try LineReader(path: file(Array(text.utf8)), bufferSize: bufferSize)
        #expect(try lines(reader) == expected)
        #expect(try reader.next() == nil, "the end stays the end")
        #expect(try lines(LineReader(contents: Array(text.utf8), name: "memory")) == expected)
    }

    @Test func anEmptyFileHasNoLines() throws {
        #expect(try lines(LineReader(path: file([]))).isEmpty)
        #expect(try lines(LineReader(contents: [], name: "memory")).isEmpty)
        #expect(try lines(LineReader(path: file(Array("\n".utf8)))) == [""])
    }

    @Test func aLineLongerThanTheLimitIsRefusedWithTheLinesBeforeIt() throws {
        let text = "short\n" + String(repeating: "y", count: 100) + "\nafter\n"
        let reader = try LineReader(path: file(Array(text.utf8)), bufferSize: 8, longestLine: 64)
        #expect(try reader.next().map { String(decoding: $0, as: UTF8.self) } == "short")
        #expect(throws: LineReader.Failure.lineTooLong(limit: 64)) { try reader.next() }
        #expect(reader.lineNumber == 1, "the long line is the second")
        // Exactly as long as the limit, it fits.
        let fits = try LineReader(path: file(Array((String(repeating: "z", count: 63) + "\n").utf8)), bufferSize: 8, longestLine: 64)
        #expect(try lines(fits) == [String(repeating: "z", count: 63)])
    }

    /// A reader may start at a line's offset, numbering on from the lines before it: where another
    /// reader found it (`offset`, the next line's start), whatever the buffers in between.
    @Test(arguments: [1, 7, 1 << 16])
    func aReaderStartsWhereAnotherLeftOff(bufferSize: Int) throws {
        let lines = (0..<50).map { "line \($0) " + String(repeating: "x", count: $0 % 13) }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let path = file(bytes)
        let first = try LineReader(path: path, bufferSize: bufferSize)
        for _ in 0..<20 { _ = try first.next() }
        let offset = first.offset
        let rest = try LineReader(path: path, offset: offset, lineNumber: first.lineNumber, bufferSize: bufferSize)
        let restLines = try self.lines(rest, from: 20)
        #expect(restLines == Array(lines[20...]))
        let fromMemory = try self.lines(LineReader(contents: bytes[offset...], name: "memory", offset: offset, lineNumber: 20), from: 20)
        #expect(fromMemory == Array(lines[20...]))
        // The buffer grows only for a line longer than it: not at all with room for the longest.
        let capacity = rest.bufferCapacity
        #expect(bufferSize < 32 || capacity == bufferSize)
    }

    @Test func blocksAreReadAtAnyOffsetAndSearched() throws {
        let text = String(repeating: "a", count: 5_000) + "# Current time is 09:00:00\n" + String(repeating: "b", count: 100)
        let blocks = try BlockFile(path: file(Array(text.utf8)))
        #expect(blocks.size == text.utf8.count)
        let tail = try blocks.read(at: blocks.size - 10, count: 100)
        #expect(tail == Array(repeating: UInt8(ascii: "b"), count: 10))
        // Found across the blocks' edges, whatever they are.
        for blockSize in [1, 16, 5_010, 1 << 20] {
            let found = try blocks.contains(Array("# Current time is".utf8), blockSize: blockSize)
            let missing = try blocks.contains(Array("# Current time was".utf8), blockSize: blockSize)
            #expect(found && !missing, "block size \(blockSize)")
        }
    }

    @Test func aFileThatCannotBeOpenedOrReadSaysWhy() throws {
        #expect(throws: SystemError(call: "open", errno: ENOENT, path: "/nonexistent/vigil.jsonl")) {
            try LineReader(path: "/nonexistent/vigil.jsonl")
        }
        // A directory opens for reading, and read(2) refuses it.
        let directory = FileManager.default.temporaryDirectory.path
        let reader = try LineReader(path: directory)
        #expect(throws: LineReader.Failure.cannotRead(SystemError(call: "read", errno: EISDIR, path: directory))) { try reader.next() }
    }
}
