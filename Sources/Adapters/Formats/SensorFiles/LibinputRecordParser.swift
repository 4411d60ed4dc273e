import Foundation
import InputCounting
import VigilCore

/// One device of a recording as its header describes it, and how many frames it has so far.
struct RecordedDeviceHeader {
    var node = ""
    var name = ""
    var codes: [UInt16: [UInt16]] = [:]
    var absinfo: [UInt16: [Int]] = [:]
    var frames = 0
    var lastFrameTime = 0.0

    var kind: LibinputRecordedDevice.Kind {
        let keys = codes[EvdevCode.EV_KEY] ?? []
        let rel = codes[EvdevCode.EV_REL] ?? []
        if keys.contains(EvdevCode.BTN_TOOL_FINGER), absinfo[UInt16(EvdevCode.ABS_X)] != nil { return .touchpad }
        if rel.contains(EvdevCode.REL_X) { return .mouse }
        if keys.contains(where: { EvdevCode.isKeyboardKey($0) && $0 < EvdevCode.BTN_MISC }) { return .keyboard }
        return .other
    }

    var summary: LibinputRecordedDevice { LibinputRecordedDevice(node: node, name: name, kind: kind, frames: frames) }

    func makeTranslator() -> EvdevTranslator {
        var resolution: (x: Double, y: Double)?
        if let x = absinfo[EvdevCode.ABS_X], let y = absinfo[EvdevCode.ABS_Y], x.count >= 5, y.count >= 5 {
            // Resolution is units per mm; a device without one is taken as 100 mm wide, 70 mm tall.
            let rx = x[4] > 0 ? Double(x[4]) : max(1, Double(x[1] - x[0]) / 100)
            let ry = y[4] > 0 ? Double(y[4]) : max(1, Double(y[1] - y[0]) / 70)
            resolution = (rx, ry)
        }
        var hasLowRes: Bool?
        if let rel = codes[EvdevCode.EV_REL] {
            hasLowRes = rel.contains(EvdevCode.REL_WHEEL) || rel.contains(EvdevCode.REL_HWHEEL)
        }
        return EvdevTranslator(resolution: resolution, hasLowResWheel: hasLowRes)
    }
}

/// Where a line's parts are: its text after the indentation, and a sequence item's content.
struct LineShape {
    /// The end of the line, before a CR.
    var end: Int
    /// Where its text starts, after spaces and tabs.
    var indent: Int
    /// A tab in the indentation, or between an item's dash and its content: YAML indents with
    /// spaces only, and a tab's width is anybody's guess, so the structure cannot be read.
    var tabbed = false
    /// The line is a sequence item: "- " and the item's content.
    var isItem: Bool
    /// Where the item's content starts (`indent` for a line that is not an item).
    var content: Int

    /// Nil for a blank line.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        end = bytes.count
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        indent = 0
        while indent < end, bytes[indent] == 0x20 || bytes[indent] == 0x09 {
            if bytes[indent] == 0x09 { tabbed = true }
            indent += 1
        }
        if indent == end { return nil }
        isItem = bytes[indent] == UInt8(ascii: "-") && (indent + 1 == end || bytes[indent + 1] == 0x20 || bytes[indent + 1] == 0x09)
        content = indent
        if isItem {
            content = indent + 1
            while content < end, bytes[content] == 0x20 || bytes[content] == 0x09 {
                if bytes[content] == 0x09 { tabbed = true }
                content += 1
            }
        }
    }

    /// A YAML directive (`%`) or document marker (`---`).
    func isMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[indent] == UInt8(ascii: "%")
            || (end - indent >= 3 && bytes[indent] == UInt8(ascii: "-") && bytes[indent + 1] == UInt8(ascii: "-")
                && bytes[indent + 2] == UInt8(ascii: "-"))
    }

    /// An item whose content is a flow list: an evdev event where frames are.
    func isEvent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { isItem && content < end && bytes[content] == UInt8(ascii: "[") }
}

/// What one line of a recording is to its reader.
enum RecordLine {
    case nothing
    /// An evdev event in the frames of the device being read.
    case event(time: Double, type: UInt16, code: UInt16, value: Int32)
    /// An item of the top-level `devices:` list: the device `devices.count - 1` begins.
    case deviceBegins
    /// A `# Current time is HH:MM:SS` comment among the events, after the frame at `after` seconds
    /// (nil before the device's first frame).
    case wallClock(after: Double?, secondsOfDay: Int)
}

/// The reader of `libinput record`'s block YAML, a line at a time, so that a recording is read as
/// a stream (see `LibinputRecording` for the format). A value type: a reader that starts reading a
/// device in the middle of the file starts from a copy of the state another reader had there.
struct RecordParser {
    private(set) var version: Int?
    private(set) var ndevices: Int?
    /// The devices so far; the last is the one being read.
    private(set) var devices: [RecordedDeviceHeader] = []
    /// A key was written as KEY_A "(obfuscated)": libinput record ran without --show-keycodes.
    private(set) var obfuscated = false

    /// The blocks the line being read is inside of.
    private var stack: [(indent: Int, name: String, isItem: Bool)] = []
    /// Where frames go: set while inside a device's `events:` → `- evdev:` list.
    private var frameIndent: Int?
    /// The last `- evdev:` item of the events list, as its indentation: the next item like it
    /// leaves the blocks as they are, and is read without going through them (one line a frame).
    private(set) var evdevItem: (indent: Int, keyIndent: Int)?
    private var frameTime = 0.0
    private var sawFrameEvent = false

    /// Reads one line (without its newline; a CR before it is dropped). Errors name `lineNumber`.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, lineNumber: Int, file: String) throws(LibinputRecordError) -> RecordLine {
        func error(_ message: String) -> LibinputRecordError { LibinputRecordError(file: file, line: lineNumber, message: message) }
        guard let shape = LineShape(bytes) else { return .nothing }
        let (lineEnd, p, isItem, content) = (shape.end, shape.indent, shape.isItem, shape.content)
        let indent = p
        if bytes[p] == UInt8(ascii: "#") {
            if frameIndent != nil || stack.last?.name == "events" || stack.contains(where: { $0.name == "events" }) {
                if let seconds = Self.currentTime(bytes, p, lineEnd) {
                    let last: Double? = sawFrameEvent ? frameTime : devices.last.flatMap { $0.frames > 0 ? $0.lastFrameTime : nil }
                    return .wallClock(after: last, secondsOfDay: seconds)
                }
            }
            return .nothing
        }
        if shape.isMarker(bytes) { return .nothing }
        // Read as spaces, tabs made a file of events look like one without any (issue 32).
        if shape.tabbed {
            throw error(
                "indented with a tab: YAML, and `libinput record`, indent with spaces only, so the structure cannot be read. "
                    + "Replace the tabs with spaces (for example `expand -t 4 FILE > FILE.yml`, with the width the file was written with)")
        }

        // The hot path: an evdev event line inside a frame list.
        if let fi = frameIndent, indent >= fi, shape.isEvent(bytes) {
            let event = try Self.event(bytes, from: content, to: lineEnd, error: error)
            if event.type == EvdevCode.EV_KEY, !obfuscated, event.code == EvdevCode.KEY_A,
                Self.contains(bytes, event.end, lineEnd, "obfuscated")
            {
                obfuscated = true
            }
            frameTime = event.time
            sawFrameEvent = true
            return .event(time: event.time, type: event.type, code: event.code, value: event.value)
        }

        // The next frame of the same list: what the blocks below would make of it, without them.
        if let item = evdevItem, isItem, indent == item.indent, content == item.keyIndent, Self.isEvdevKey(bytes, content, lineEnd) {
            endFrame()
            frameIndent = item.keyIndent
            return .nothing
        }
        evdevItem = nil

        // Structure: pop the blocks this line is not inside of.
        while let top = stack.last, top.indent > indent || (top.indent == indent && (!isItem || top.isItem)) {
            stack.removeLast()
        }
        endFrame()
        frameIndent = nil

        let path = stack.lazy.filter { !$0.isItem }.map(\.name)
        var begins = false
        if isItem {
            stack.append((indent, "-", true))
            // A new device starts at an item directly under the top-level `devices:`.
            if stack.count == 2, stack[0].name == "devices" {
                devices.append(RecordedDeviceHeader())
                begins = true
            }
        }
        guard content < lineEnd else { return begins ? .deviceBegins : .nothing }
        // "key: value" or "key:" (value below); not a scalar list item or a flow value, not ours.
        guard let colon = Self.keyColon(bytes, content, lineEnd) else { return begins ? .deviceBegins : .nothing }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[content..<colon]), as: UTF8.self)
        let valueStart = Self.skipSpaces(bytes, colon + 1, lineEnd)
        let valueEnd = Self.valueEnd(bytes, valueStart, lineEnd)
        let keyIndent = isItem ? content : indent
        stack.append((keyIndent, key, false))
        let keyPath = Array(path)
        let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])

        switch (keyPath.count, keyPath.first, key) {
        case (0, _, "version"):
            guard let v = Self.wholeInteger(value) else { throw error("`version` must be a number") }
            guard v == 1 else { throw error("libinput record format version \(v); Vigil reads version 1") }
            version = Int(v)
        case (0, _, "ndevices"):
            guard let v = Self.wholeInteger(value), v >= 0 else { throw error("`ndevices` must be a number") }
            ndevices = Int(v)
        case (1, "devices", "node") where isItem || stack.count == 3:
            guard !devices.isEmpty else { break }
            devices[devices.count - 1].node = Self.unquote(value)
        case (2, "devices", "name") where keyPath[1] == "evdev":
            guard !devices.isEmpty else { break }
            devices[devices.count - 1].name = Self.unquote(value)
        case (3, "devices", _) where keyPath[1] == "evdev" && (keyPath[2] == "codes" || keyPath[2] == "absinfo"):
            guard !devices.isEmpty, let code = Self.wholeInteger(UnsafeBufferPointer(rebasing: bytes[content..<colon])), (0...0xffff).contains(code)
            else { throw error("expected `number: [numbers]` in \(keyPath[2])") }
            guard let list = Self.integerList(value) else { throw error("expected a list of numbers after `\(code):`") }
            if keyPath[2] == "codes" {
                devices[devices.count - 1].codes[UInt16(code)] = list.compactMap { (0...0xffff).contains($0) ? UInt16($0) : nil }
            } else {
                devices[devices.count - 1].absinfo[UInt16(code)] = list.map { Int($0) }
            }
        case (2, "devices", "evdev") where keyPath[1] == "events" && isItem:
            guard !devices.isEmpty else { break }
            // The frame's events follow, as a list at this key's indentation or deeper.
            frameIndent = keyIndent
            evdevItem = (indent, keyIndent)
        default:
            break  // unknown keys are ignored, as the format requires
        }
        return begins ? .deviceBegins : .nothing
    }

    /// The file is read: the last device's last frame is counted.
    mutating func finish() { endFrame() }

    /// Counts the frame whose events were read, at the first line after them that is not one.
    private mutating func endFrame() {
        if sawFrameEvent, !devices.isEmpty {
            devices[devices.count - 1].frames += 1
            devices[devices.count - 1].lastFrameTime = frameTime
            sawFrameEvent = false
        }
    }

    /// What is wrong with a recording read to its end, as a whole.
    func problemAtTheEnd(file: String) -> LibinputRecordError? {
        guard version != nil else {
            return LibinputRecordError(file: file, line: 0, message: "not a libinput recording: there is no `version:` at the top")
        }
        guard !devices.isEmpty else { return LibinputRecordError(file: file, line: 0, message: "the recording has no devices") }
        return nil
    }

    // MARK: Event lines

    /// An evdev event line's `[sec, usec, type, code, value]`, checked, and where its `]` is.
    static func event(
        _ bytes: UnsafeBufferPointer<UInt8>, from content: Int, to lineEnd: Int, error: (String) -> LibinputRecordError
    ) throws(LibinputRecordError) -> (time: Double, type: UInt16, code: UInt16, value: Int32, end: Int) {
        var values = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        var count = 0
        var q = content + 1
        while q < lineEnd, bytes[q] != UInt8(ascii: "]") {
            while q < lineEnd, bytes[q] == 0x20 || bytes[q] == UInt8(ascii: ",") { q += 1 }
            if q < lineEnd, bytes[q] == UInt8(ascii: "]") { break }
            guard let (v, next) = integer(bytes, q, lineEnd) else {
                throw error("an evdev event must be [sec, usec, type, code, value] of integers")
            }
            switch count {
            case 0: values.0 = v
            case 1: values.1 = v
            case 2: values.2 = v
            case 3: values.3 = v
            case 4: values.4 = v
            default: break
            }
            count += 1
            q = next
        }
        guard q < lineEnd, count == 5 else {
            throw error(
                count == 5
                    ? "unterminated evdev event (missing ']')" : "an evdev event has 5 numbers [sec, usec, type, code, value], this one has \(count)")
        }
        guard values.0 >= 0, (0..<1_000_000).contains(values.1), (0...0xffff).contains(values.2), (0...0xffff).contains(values.3),
            (Int64(Int32.min)...Int64(Int32.max)).contains(values.4)
        else { throw error("evdev event values out of range") }
        // Idle time becomes one sample per window, so a damaged timestamp years on would
        // make millions of them (a fuzzer found 3.5 GB from a 12 KB file).
        guard values.0 <= Int64(LibinputRecording.longestRecording) else {
            throw error(
                "an event \(values.0) s after the recording started: Vigil reads libinput recordings of up to "
                    + "\(Int(LibinputRecording.longestRecording / 86_400)) days; is this timestamp damaged? Split longer recordings")
        }
        return (Double(values.0) + Double(values.1) / 1e6, UInt16(values.2), UInt16(values.3), Int32(values.4), q)
    }

    /// Whether a line leaves the frame list that `item`, its last `- evdev:` item, is in as it is:
    /// blank, a comment or a YAML marker, an event of the frame, or the next `- evdev:` item written
    /// as `item`. A recording of one device whose lines after its first event are all such is read
    /// frame after frame to its end, nothing else: what its last frames say (from the end of the
    /// file) is what reading it all says.
    static func keepsTheFrameList(_ bytes: UnsafeBufferPointer<UInt8>, item: (indent: Int, keyIndent: Int)) -> Bool {
        guard let line = LineShape(bytes), bytes[line.indent] != UInt8(ascii: "#"), !line.isMarker(bytes) else { return true }
        guard line.isItem else { return false }
        if line.isEvent(bytes) { return line.indent >= item.keyIndent }
        return line.indent == item.indent && line.content == item.keyIndent && isEvdevKey(bytes, line.content, line.end)
    }

    // MARK: Byte helpers

    /// `evdev:` as the whole key of an item's content.
    static func isEvdevKey(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        guard end - from >= 6, b[from] == UInt8(ascii: "e"), b[from + 1] == UInt8(ascii: "v"), b[from + 2] == UInt8(ascii: "d"),
            b[from + 3] == UInt8(ascii: "e"), b[from + 4] == UInt8(ascii: "v"), b[from + 5] == UInt8(ascii: ":")
        else { return false }
        return from + 6 == end || b[from + 6] == 0x20 || b[from + 6] == 0x09
    }

    static func skipSpaces(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        var p = from
        while p < end, b[p] == 0x20 || b[p] == 0x09 { p += 1 }
        return p
    }

    /// The colon that ends a plain mapping key on this line, if it is a key line.
    static func keyColon(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
        guard from < end else { return nil }
        let c = b[from]
        if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return nil }
        var p = from
        while p < end {
            if b[p] == UInt8(ascii: ":"), p + 1 == end || b[p + 1] == 0x20 || b[p + 1] == 0x09 { return p }
            if b[p] == UInt8(ascii: "#"), p > from, b[p - 1] == 0x20 { return nil }
            p += 1
        }
        return nil
    }

    /// Where a value ends: before a ` #` comment outside quotes, without trailing spaces.
    static func valueEnd(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        var p = from
        var quote: UInt8?
        while p < end {
            let c = b[p]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "#"), p == from || b[p - 1] == 0x20 || b[p - 1] == 0x09 {
                break
            }
            p += 1
        }
        while p > from, b[p - 1] == 0x20 || b[p - 1] == 0x09 { p -= 1 }
        return p
    }

    static func integer(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> (Int64, Int)? {
        var p = from
        var negative = false
        if p < end, b[p] == UInt8(ascii: "-") {
            negative = true
            p += 1
        }
        let digits = p
        var v: Int64 = 0
        while p < end, b[p] >= 0x30, b[p] <= 0x39 {
            guard p - digits < 18 else { return nil }
            v = v * 10 + Int64(b[p] - 0x30)
            p += 1
        }
        guard p > digits else { return nil }
        return (negative ? -v : v, p)
    }

    static func wholeInteger(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var s = 0
        var e = b.count
        while s < e, b[s] == 0x20 { s += 1 }
        while e > s, b[e - 1] == 0x20 { e -= 1 }
        guard let (v, next) = integer(b, s, e), next == e else { return nil }
        return v
    }

    static func integerList(_ b: UnsafeBufferPointer<UInt8>) -> [Int64]? {
        var p = skipSpaces(b, 0, b.count)
        guard p < b.count, b[p] == UInt8(ascii: "[") else { return nil }
        p += 1
        var out: [Int64] = []
        while true {
            while p < b.count, b[p] == 0x20 || b[p] == UInt8(ascii: ",") { p += 1 }
            guard p < b.count else { return nil }
            if b[p] == UInt8(ascii: "]") { return out }
            guard let (v, next) = integer(b, p, b.count) else { return nil }
            out.append(v)
            p = next
        }
    }

    static func unquote(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var s = String(decoding: b, as: UTF8.self)
        if s.count >= 2, let f = s.first, f == "\"" || f == "'", s.last == f {
            s = String(s.dropFirst().dropLast())
        }
        return s
    }

    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard end - from >= count else { return false }
        return needle.withUTF8Buffer { n in
            var p = from
            while p + count <= end {
                if b[p] == n[0], memcmp(b.baseAddress! + p, n.baseAddress!, count) == 0 { return true }
                p += 1
            }
            return false
        }
    }

    /// Seconds since midnight from a `# Current time is HH:MM:SS` comment.
    static func currentTime(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[from..<end]), as: UTF8.self)
        let prefix = "# Current time is "
        guard text.hasPrefix(prefix) else { return nil }
        let parts = text.dropFirst(prefix.count).prefix(8).split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]),
            (0..<24).contains(h), (0..<60).contains(m), (0...60).contains(s)
        else { return nil }
        return h * 3600 + m * 60 + s
    }
}
