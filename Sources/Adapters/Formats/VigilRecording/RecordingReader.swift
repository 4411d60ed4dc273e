import JSONScanning
import SystemCalls
import VigilCore

/// Reads a recording line by line, in constant memory, so a day-long file replays as fast as the
/// disk delivers it.
public final class RecordingReader {
    public let path: String
    public private(set) var header: RecordingHeader
    /// Lines of kinds this version does not know, skipped so far.
    @exclusivity(unchecked) public private(set) var skippedLines = 0
    /// The line number of the last sample returned.
    public var lineNumber: Int { lines.lineNumber }

    private let lines: LineReader
    @exclusivity(unchecked) private var lastTime: Timestamp?
    /// The header's start, read for every line.
    @exclusivity(unchecked) private var timeZero: Timestamp
    /// The fast path's numeric slots (see `decodeSampleLine`), NaN between lines.
    private let slots: UnsafeMutablePointer<Double>

    /// The signals whose readings and status lines it accepts, besides the built-in ones.
    public let signals: SignalCatalog

    /// Opens `path` and reads its header.
    public convenience init(path: String, signals: SignalCatalog = .builtIn) throws(RecordingError) {
        try self.init(path: path, signals: signals, bufferSize: 1 << 20)
    }

    /// Opens `path` and reads its header, through a buffer of `bufferSize` bytes at first (tests
    /// make lines fall across its boundaries).
    init(path: String, signals: SignalCatalog, bufferSize: Int) throws(RecordingError) {
        self.path = path
        self.signals = signals
        do {
            lines = try LineReader(path: path, bufferSize: bufferSize)
        } catch {
            throw RecordingError(file: path, line: 0, message: "cannot open: \(error.reason)", kind: .io)
        }
        header = RecordingHeader(start: Timestamp(nanoseconds: 0))
        timeZero = header.start
        slots = .allocate(capacity: Key.count)
        slots.initialize(repeating: .nan, count: Key.count)
        var found: RecordingHeader?
        while let line = try rawLine() {
            if isBlank(line) { continue }
            do {
                found = try decodeHeaderLine(line)
            } catch {
                throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
            }
            break
        }
        guard let h = found else {
            throw RecordingError(
                file: path, line: max(lineNumber, 1),
                message:
                    "not a Vigil recording: the first line must be a header such as {\"vigil\":\"recording\",\"version\":1,\"start\":\"2026-03-02T09:00:00Z\"}"
            )
        }
        header = h
        timeZero = h.start
    }

    deinit { slots.deallocate() }

    /// The next sample, or `nil` at the end of the file.
    public func next() throws(RecordingError) -> Sample? {
        while true {
            let sample: Sample?
            // The usual line, in the writer's form and whole in the buffer, is scanned where it
            // lies, its end found by the scan; any other goes through `LineReader.next()` and the
            // general scanner, which also explains what is wrong with it.
            var fields = LineFields()
            let unread = lines.unread
            let length = unread.baseAddress.map { scanCanonicalLine($0, unread.count, slots: slots, into: &fields) } ?? 0
            if length > 0 {
                lines.consumeLine(length)
                do {
                    sample = try buildSample(fields, slots: slots, start: timeZero, signals: signals)
                } catch {
                    slots.update(repeating: .nan, count: Key.count)
                    throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
                }
                slots.update(repeating: .nan, count: Key.count)
            } else {
                slots.update(repeating: .nan, count: Key.count)
                guard let line = try rawLine() else { return nil }
                if isBlank(line) { continue }
                do {
                    sample = try decodeSampleLine(line, start: timeZero, signals: signals)
                } catch {
                    throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
                }
            }
            guard let sample else {
                skippedLines += 1
                continue
            }
            if let last = lastTime, sample.time < last {
                throw RecordingError(
                    file: path, line: lineNumber,
                    message: "\"t\" goes back in time (\(sample.time - header.start) s after \(last - header.start) s); samples must be in time order"
                )
            }
            lastTime = sample.time
            return sample
        }
    }

    /// Every remaining sample.
    public func readAll() throws(RecordingError) -> [Sample] {
        var out: [Sample] = []
        while let s = try next() { out.append(s) }
        return out
    }

    @inline(__always) private func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in line where c != 0x20 && c != 0x09 && c != 0x0D { return false }
        return true
    }

    /// The next line without its newline; the last line may lack one.
    @inline(__always) private func rawLine() throws(RecordingError) -> UnsafeBufferPointer<UInt8>? {
        try lines.next(notA: "a recording line") { line, message, isReadFailure in
            RecordingError(file: path, line: line, message: message, kind: isReadFailure ? .io : .data)
        }
    }
}
