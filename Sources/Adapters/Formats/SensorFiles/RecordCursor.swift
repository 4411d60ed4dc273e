import Foundation
import InputCounting
import SystemCalls
import VigilCore

// Reading a libinput recording ahead: its bytes (a file or text), the wall-clock marks and device
// starts found on the way, and the cursor that reads the frames in order.

/// A recording's bytes: a file, or text in memory.
enum RecordBytes {
    case file(BlockFile)
    case memory([UInt8])

    var size: Int {
        switch self {
        case .file(let f): f.size
        case .memory(let b): b.count
        }
    }

    /// The file's lines from `offset`, the start of line `lineNumber` + 1.
    func lines(file: String, offset: Int = 0, lineNumber: Int = 0) throws(LibinputRecordError) -> LineReader {
        switch self {
        case .file:
            do {
                return try LineReader(path: file, offset: offset, lineNumber: lineNumber, bufferSize: 1 << 16, longestLine: RecordCursor.longestLine)
            } catch {
                throw LibinputRecordError(file: file, line: 0, message: "cannot read it: \(error.reason)", isReadFailure: true)
            }
        case .memory(let b):
            return LineReader(contents: b[min(offset, b.count)...], name: file, offset: offset, lineNumber: lineNumber)
        }
    }

    func block(at offset: Int, count: Int, file: String) throws(LibinputRecordError) -> [UInt8] {
        switch self {
        case .file(let f):
            do {
                return try f.read(at: offset, count: count)
            } catch {
                throw LibinputRecordError(file: file, line: 0, message: "cannot read it: \(error.reason)", isReadFailure: true)
            }
        case .memory(let b):
            return Array(b[min(offset, b.count)..<min(offset + count, b.count)])
        }
    }

    func contains(_ text: [UInt8], file: String) throws(LibinputRecordError) -> Bool {
        switch self {
        case .file(let f):
            do {
                return try f.contains(text)
            } catch {
                throw LibinputRecordError(file: file, line: 0, message: "cannot read it: \(error.reason)", isReadFailure: true)
            }
        case .memory(let b):
            return b.withUnsafeBytes { h in text.withUnsafeBytes { t in bytes(h, contain: t) } }
        }
    }
}

/// A line read, with the error a failure to read it is.
func nextLine(_ lines: LineReader, file: String) throws(LibinputRecordError) -> UnsafeBufferPointer<UInt8>? {
    try lines.next(notA: "a libinput recording") { line, message, isReadFailure in
        LibinputRecordError(file: file, line: line, message: message, isReadFailure: isReadFailure)
    }
}

/// `# Current time is` comments seen.
struct WallClockMarks {
    var first: (after: Double?, secondsOfDay: Int)?
    var firstAfterAFrame: (after: Double?, secondsOfDay: Int)?
}

/// Where a device's description begins, and the reading state there.
struct DeviceStart {
    /// The line after the device's `devices:` item.
    var offset: Int
    var lineNumber: Int
    var parser: RecordParser
}

/// What reading a whole recording found.
struct RecordFacts {
    var problem: LibinputRecordError?
    var devices: [RecordedDeviceHeader]
    var deviceStarts: [DeviceStart]
    var duration: Double
    var obfuscated: Bool
    /// A device's events go back in time somewhere (libinput never writes that).
    var eventsGoBack: Bool
}

/// Reads a recording ahead of its samples, for what their start needs, translating each device's
/// frames into events only to know when the last one is.
struct RecordScout {
    static let wallClockComment = Array("# Current time is".utf8)

    enum Goal { case firstEvent, wallClockAfterAFrame, end }

    let lines: LineReader
    let file: String
    private(set) var parser = RecordParser()
    private(set) var marks = WallClockMarks()
    private(set) var atEnd = false
    private var translator: EvdevTranslator?
    private var out: [TimedInputEvent] = []
    private var lastEvent: Double?
    private var latestEvent: Double?
    /// The time of the last event of the device being read.
    private var deviceLastEvent: Double?
    private var eventsGoBack = false
    private var deviceStarts: [DeviceStart] = []

    init(bytes: RecordBytes, file: String) throws(LibinputRecordError) {
        lines = try bytes.lines(file: file)
        self.file = file
    }

    var devices: [RecordedDeviceHeader] { parser.devices }

    var facts: RecordFacts {
        // Devices share one clock in a recording and their events are read in time order: the last
        // is the latest. One device's are read in the file's order.
        RecordFacts(
            problem: parser.problemAtTheEnd(file: file), devices: parser.devices, deviceStarts: deviceStarts,
            duration: (parser.devices.count > 1 ? latestEvent : lastEvent) ?? 0, obfuscated: parser.obfuscated, eventsGoBack: eventsGoBack)
    }

    /// Whether the lines after the first event to the end of the file are all of its frame list
    /// (`RecordParser.keepsTheFrameList`); read after `read(until: .firstEvent)`.
    func framesRunToTheEnd() throws(LibinputRecordError) -> Bool {
        guard let item = parser.evdevItem else { return false }
        while let line = try nextLine(lines, file: file) {
            if !RecordParser.keepsTheFrameList(line, item: item) { return false }
        }
        return true
    }

    mutating func read(until goal: Goal) throws(LibinputRecordError) {
        while let line = try nextLine(lines, file: file) {
            switch try parser.read(line, lineNumber: lines.lineNumber, file: file) {
            case .nothing:
                break
            case .deviceBegins:
                translator = nil
                deviceLastEvent = nil
                deviceStarts.append(DeviceStart(offset: lines.offset, lineNumber: lines.lineNumber, parser: parser))
            case .event(let time, let type, let code, let value):
                if goal == .firstEvent { return }
                if translator == nil { translator = parser.devices.last?.makeTranslator() }
                translator?.feed(time: time, type: type, code: code, value: value, into: &out)
                if let e = out.last {
                    if let last = deviceLastEvent, e.time < last { eventsGoBack = true }
                    deviceLastEvent = e.time
                    lastEvent = e.time
                    latestEvent = max(latestEvent ?? e.time, e.time)
                    out.removeAll(keepingCapacity: true)
                }
            case .wallClock(let after, let seconds):
                if marks.first == nil { marks.first = (after, seconds) }
                if after != nil, marks.firstAfterAFrame == nil {
                    marks.firstAfterAFrame = (after, seconds)
                    if goal == .wallClockAfterAFrame { return }
                }
            }
        }
        parser.finish()
        atEnd = true
    }
}

/// Reads a recording's events, frame by frame: all its devices' one after another, or, from a
/// device's description, that device's only.
final class RecordCursor {
    /// A line of a recording is at most a device's list of codes: a few kilobytes.
    static let longestLine = 1 << 20

    let lines: LineReader
    let file: String
    private(set) var parser: RecordParser
    /// The most events of a frame waiting at once.
    private(set) var mostWaiting = 0
    private let onlyThisDevice: Bool
    private var translator: EvdevTranslator?
    private var out: [TimedInputEvent] = []
    private var nextOut = 0
    private var ended = false

    /// From the start of the file.
    init(bytes: RecordBytes, file: String) throws(LibinputRecordError) {
        lines = try bytes.lines(file: file)
        self.file = file
        parser = RecordParser()
        onlyThisDevice = false
    }

    /// From a device's description, its own events only.
    init(bytes: RecordBytes, file: String, at start: DeviceStart, onlyThisDevice: Bool) throws(LibinputRecordError) {
        lines = try bytes.lines(file: file, offset: start.offset, lineNumber: start.lineNumber)
        self.file = file
        parser = start.parser
        self.onlyThisDevice = onlyThisDevice
    }

    /// Reads the recording's description up to its first device; false if it has none.
    func readToTheFirstDevice() throws(LibinputRecordError) -> Bool {
        while let line = try nextLine(lines, file: file) {
            if case .deviceBegins = try parser.read(line, lineNumber: lines.lineNumber, file: file) { return true }
        }
        return false
    }

    /// The next event, or nil at the end of the file (or of the device).
    func next() throws(LibinputRecordError) -> TimedInputEvent? {
        while nextOut == out.count {
            out.removeAll(keepingCapacity: true)
            nextOut = 0
            guard !ended else { return nil }
            guard let line = try nextLine(lines, file: file) else {
                parser.finish()
                ended = true
                return nil
            }
            switch try parser.read(line, lineNumber: lines.lineNumber, file: file) {
            case .event(let time, let type, let code, let value):
                if translator == nil { translator = parser.devices.last?.makeTranslator() }
                translator?.feed(time: time, type: type, code: code, value: value, into: &out)
                mostWaiting = max(mostWaiting, out.count)
            case .deviceBegins:
                // A frame without its SYN_REPORT at the end of a device is dropped.
                translator = nil
                if onlyThisDevice { ended = true }
            case .nothing, .wallClock:
                break
            }
        }
        defer { nextOut += 1 }
        return out[nextOut]
    }
}
