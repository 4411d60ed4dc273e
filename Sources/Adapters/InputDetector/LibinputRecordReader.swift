import Foundation
import VigilCore

/// An error in a `libinput record` file, with where it is.
public struct LibinputRecordError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based line number; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// One device of a recording, as its header describes it.
public struct LibinputRecordedDevice: Hashable, Sendable {
    public enum Kind: String, Sendable { case keyboard, mouse, touchpad, other }
    /// The device node it was recorded from, e.g. `/dev/input/event3`.
    public var node: String
    /// The kernel's device name, e.g. `AT Translated Set 2 keyboard`.
    public var name: String
    public var kind: Kind
    /// Number of evdev frames recorded for it.
    public var frames: Int
}

/// What a recording contains, in counts only (for `vigil inspect`).
public struct LibinputRecordingSummary: Hashable, Sendable {
    public struct IdleGap: Hashable, Sendable {
        /// Seconds from the recording's start to the last event before the gap.
        public var after: Double
        public var seconds: Double
    }

    public var devices: [LibinputRecordedDevice]
    /// Seconds from the recording's start to its last event.
    public var duration: Double
    /// Key presses, autorepeat excluded.
    public var keyPresses: Int
    public var clicks: Int
    public var scrollTicks: Int
    /// In libinput's normalised units (1/1000 inch).
    public var pointerTravel: Double
    public var switches: AppSwitches
    /// The longest pauses between consecutive events, longest first (at most five).
    public var longestIdleGaps: [IdleGap]
    /// The recording was made without `--show-keycodes`: libinput record wrote most keys as KEY_A,
    /// so Alt+Tab is counted from "a held key + Tab" and Super+digit cannot be seen.
    public var keysObfuscated: Bool
}

/// A `libinput record` file (format version 1) read into Vigil input samples.
///
/// The same code that aggregates the live detector's events aggregates the recording's, so a
/// replay of a recording shows what the live detector would have reported. Only counts come out:
/// key identities stay inside this module, as in the live detector.
///
/// The reader follows the man page's FILE FORMAT (libinput-record(1)): the top-level `version`
/// (must be 1), `ndevices` and `devices`; per device `node`, `evdev` (`name`, `codes`, `absinfo`) and
/// `events`, a list of `evdev:` frames of `[sec, usec, type, code, value]`. Every other key —
/// `libinput`, `system`, `udev`, `quirks`, `hid`, and `libinput:` event entries — is skipped, as the
/// format requires of parsers. It is a line-oriented reader of the block YAML that libinput writes
/// (both its own indentation and the man page's), not a general YAML parser: YAML libraries build
/// a node per value, which for hours of events is slow and large. 100 000 frames take about 2.5 s in
/// a debug build (see `largeRecordingsReadQuickly`).
public struct LibinputRecording: Sendable {
    /// Where the recording's time 0 is on the wall clock.
    public enum Start: Sendable, Equatable {
        /// The caller knows.
        case at(Timestamp)
        /// Worked out from the file (see `read(path:window:start:)`).
        case fromFile
    }

    /// One `.input` sample per window, each stamped with its window's end.
    public var samples: [Sample]
    public var summary: LibinputRecordingSummary
    /// The wall-clock instant of the recording's time 0.
    public var start: Timestamp

    /// The longest span of events a recording may have (7 days): every window of it becomes a sample.
    public static let longestRecording: Double = 7 * 86_400
    /// The most windows (samples) a recording may make, whatever the window: about 140 MB.
    public static let mostWindows = 1_000_000

    /// Reads a recording and aggregates it into windows of `window` seconds.
    ///
    /// With `.fromFile` the start is derived from libinput record's `# Current time is HH:MM:SS`
    /// comments (libinput 1.20 and later write one every five seconds while events arrive, in local
    /// time, without a date): the first such comment after an event frame, minus that frame's time
    /// (the comment comes at most five seconds after the frame), on the date of the file's
    /// modification time (the day before, if that would put it after the file was written). If the
    /// only comment precedes every event it stands for time 0, which for a one-device recording is
    /// the first event and may be later. Without any comment the start is the file's modification
    /// time minus the recording's duration, which holds when the file was written as the recording
    /// ended.
    public static func read(path: String, window: Double = 5, start: Start = .fromFile) throws(LibinputRecordError) -> LibinputRecording {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read it" : "no such file"
            throw LibinputRecordError(file: path, line: 0, message: reason)
        }
        var mtime: Date?
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
            // A time out of range is unknown (the start then falls back as without one).
            mtime = (attributes[.modificationDate] as? Date).flatMap { Timestamp(checkedSeconds: $0.timeIntervalSince1970) == nil ? nil : $0 }
        }
        let bytes = [UInt8](data)
        let parsed = try bytes.withUnsafeBufferPointer { (buffer) throws(LibinputRecordError) -> ParsedRecording in
            try ParsedRecording.parse(buffer, file: path)
        }
        return try parsed.aggregate(window: window, start: start, mtime: mtime, file: path)
    }

    /// Parses recording text (for tests and for input that is not a file); `.fromFile` is not
    /// available here and falls back to the Unix epoch.
    public static func parse(_ text: String, name: String = "<text>", window: Double = 5, start: Start) throws(LibinputRecordError)
        -> LibinputRecording
    {
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBufferPointer { (buffer) throws(LibinputRecordError) -> ParsedRecording in
            try ParsedRecording.parse(buffer, file: name)
        }
        return try parsed.aggregate(window: window, start: start, mtime: nil, file: name)
    }
}

// MARK: - Parsing

/// The recording as the parser leaves it: devices with their translated events.
struct ParsedRecording {
    struct Device {
        var node = ""
        var name = ""
        var codes: [UInt16: [UInt16]] = [:]
        var absinfo: [UInt16: [Int]] = [:]
        var frames = 0
        var events: [TimedInputEvent] = []
        var lastFrameTime = 0.0

        var kind: LibinputRecordedDevice.Kind {
            let keys = codes[EvdevCode.EV_KEY] ?? []
            let rel = codes[EvdevCode.EV_REL] ?? []
            if keys.contains(EvdevCode.BTN_TOOL_FINGER), absinfo[UInt16(EvdevCode.ABS_X)] != nil { return .touchpad }
            if rel.contains(EvdevCode.REL_X) { return .mouse }
            if keys.contains(where: { EvdevCode.isKeyboardKey($0) && $0 < EvdevCode.BTN_MISC }) { return .keyboard }
            return .other
        }

        mutating func makeTranslator() -> EvdevTranslator {
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

    var version: Int?
    var ndevices: Int?
    var devices: [Device] = []
    var obfuscated = false
    /// (time of the last frame before it, seconds since local midnight) for each `# Current time is`.
    var wallClock: [(after: Double?, secondsOfDay: Int)] = []

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(LibinputRecordError) -> ParsedRecording {
        var r = ParsedRecording()
        var stack: [(indent: Int, name: String, isItem: Bool)] = []
        var lineNumber = 0
        var i = 0
        let n = bytes.count
        // Where frames go: set while inside a device's `events:` → `- evdev:` list.
        var frameIndent: Int?
        var frameTime = 0.0
        var sawFrameEvent = false
        // The device whose events are being read, kept out of `r.devices` while it is filled.
        var translator: EvdevTranslator?
        var events: [TimedInputEvent] = []
        func flushDevice() {
            guard let d = r.devices.indices.last else { return }
            if sawFrameEvent {
                r.devices[d].frames += 1
                r.devices[d].lastFrameTime = frameTime
                sawFrameEvent = false
            }
            r.devices[d].events.append(contentsOf: events)
            events.removeAll()
            translator = nil
        }

        func error(_ message: String) -> LibinputRecordError {
            LibinputRecordError(file: file, line: lineNumber, message: message)
        }

        while i < n {
            lineNumber += 1
            var end = i
            while end < n, bytes[end] != 0x0A { end += 1 }
            let lineStart = i
            i = end + 1
            var lineEnd = end
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }

            var p = lineStart
            while p < lineEnd, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
            if p == lineEnd { continue }
            let indent = p - lineStart
            if bytes[p] == UInt8(ascii: "#") {
                if frameIndent != nil || stack.last?.name == "events" || stack.contains(where: { $0.name == "events" }) {
                    if let seconds = Self.currentTime(bytes, p, lineEnd) {
                        let last: Double? = sawFrameEvent ? frameTime : r.devices.last.flatMap { $0.frames > 0 ? $0.lastFrameTime : nil }
                        r.wallClock.append((last, seconds))
                    }
                }
                continue
            }
            if bytes[p] == UInt8(ascii: "%")
                || (lineEnd - p >= 3 && bytes[p] == UInt8(ascii: "-") && bytes[p + 1] == UInt8(ascii: "-") && bytes[p + 2] == UInt8(ascii: "-"))
            {
                continue  // YAML directives and document markers
            }

            // Sequence items: "- " followed by the item's content.
            var isItem = false
            var content = p
            if bytes[p] == UInt8(ascii: "-"), p + 1 == lineEnd || bytes[p + 1] == 0x20 {
                isItem = true
                content = p + 1
                while content < lineEnd, bytes[content] == 0x20 { content += 1 }
            }

            // The hot path: an evdev event line inside a frame list.
            if let fi = frameIndent, isItem, indent >= fi, content < lineEnd, bytes[content] == UInt8(ascii: "[") {
                var values = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
                var count = 0
                var q = content + 1
                while q < lineEnd, bytes[q] != UInt8(ascii: "]") {
                    while q < lineEnd, bytes[q] == 0x20 || bytes[q] == UInt8(ascii: ",") { q += 1 }
                    if q < lineEnd, bytes[q] == UInt8(ascii: "]") { break }
                    guard let (v, next) = Self.integer(bytes, q, lineEnd) else {
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
                            ? "unterminated evdev event (missing ']')"
                            : "an evdev event has 5 numbers [sec, usec, type, code, value], this one has \(count)")
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
                let t = Double(values.0) + Double(values.1) / 1e6
                let type = UInt16(values.2)
                let code = UInt16(values.3)
                if type == EvdevCode.EV_KEY, !r.obfuscated, code == EvdevCode.KEY_A, Self.contains(bytes, q, lineEnd, "obfuscated") {
                    r.obfuscated = true
                }
                if translator == nil { translator = r.devices[r.devices.count - 1].makeTranslator() }
                translator!.feed(time: t, type: type, code: code, value: Int32(values.4), into: &events)
                frameTime = t
                sawFrameEvent = true
                continue
            }

            // Structure: pop the blocks this line is not inside of.
            while let top = stack.last, top.indent > indent || (top.indent == indent && (!isItem || top.isItem)) {
                stack.removeLast()
            }
            if sawFrameEvent, let d = r.devices.indices.last {
                r.devices[d].frames += 1
                r.devices[d].lastFrameTime = frameTime
                sawFrameEvent = false
            }
            frameIndent = nil

            let path = stack.lazy.filter { !$0.isItem }.map(\.name)
            if isItem {
                stack.append((indent, "-", true))
                // A new device starts at an item directly under the top-level `devices:`.
                if stack.count == 2, stack[0].name == "devices" {
                    flushDevice()
                    r.devices.append(Device())
                }
            }
            guard content < lineEnd else { continue }
            // "key: value" or "key:" (value below).
            guard let colon = Self.keyColon(bytes, content, lineEnd) else { continue }  // a scalar list item, a flow value: not ours
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[content..<colon]), as: UTF8.self)
            let valueStart = Self.skipSpaces(bytes, colon + 1, lineEnd)
            let valueEnd = Self.valueEnd(bytes, valueStart, lineEnd)
            let keyIndent = isItem ? content - lineStart : indent
            stack.append((keyIndent, key, false))
            let keyPath = Array(path)
            let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])

            switch (keyPath.count, keyPath.first, key) {
            case (0, _, "version"):
                guard let v = Self.wholeInteger(value) else { throw error("`version` must be a number") }
                guard v == 1 else { throw error("libinput record format version \(v); Vigil reads version 1") }
                r.version = Int(v)
            case (0, _, "ndevices"):
                guard let v = Self.wholeInteger(value), v >= 0 else { throw error("`ndevices` must be a number") }
                r.ndevices = Int(v)
            case (1, "devices", "node") where isItem || stack.count == 3:
                guard !r.devices.isEmpty else { continue }
                r.devices[r.devices.count - 1].node = Self.unquote(value)
            case (2, "devices", "name") where keyPath[1] == "evdev":
                guard !r.devices.isEmpty else { continue }
                r.devices[r.devices.count - 1].name = Self.unquote(value)
            case (3, "devices", _) where keyPath[1] == "evdev" && (keyPath[2] == "codes" || keyPath[2] == "absinfo"):
                guard !r.devices.isEmpty, let code = Self.wholeInteger(UnsafeBufferPointer(rebasing: bytes[content..<colon])),
                    (0...0xffff).contains(code)
                else { throw error("expected `number: [numbers]` in \(keyPath[2])") }
                guard let list = Self.integerList(value) else { throw error("expected a list of numbers after `\(code):`") }
                if keyPath[2] == "codes" {
                    r.devices[r.devices.count - 1].codes[UInt16(code)] = list.compactMap { (0...0xffff).contains($0) ? UInt16($0) : nil }
                } else {
                    r.devices[r.devices.count - 1].absinfo[UInt16(code)] = list.map { Int($0) }
                }
            case (2, "devices", "evdev") where keyPath[1] == "events" && isItem:
                guard !r.devices.isEmpty else { continue }
                // The frame's events follow, as a list at this key's indentation or deeper.
                frameIndent = keyIndent
            default:
                break  // unknown keys are ignored, as the format requires
            }
        }
        flushDevice()
        lineNumber = 0
        guard let version = r.version else {
            throw error("not a libinput recording: there is no `version:` at the top")
        }
        _ = version
        guard !r.devices.isEmpty else { throw error("the recording has no devices") }
        return r
    }

    // MARK: Byte helpers

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

    // MARK: Aggregation

    func aggregate(window: Double, start: LibinputRecording.Start, mtime: Date?, file: String) throws(LibinputRecordError) -> LibinputRecording {
        guard window > 0, window.isFinite else {
            throw LibinputRecordError(file: file, line: 0, message: "the window must be a positive number of seconds")
        }
        // Devices share one clock in a recording; merge their events in time order (stable, so a
        // device's own order within a frame time is kept).
        var all: [TimedInputEvent] = []
        all.reserveCapacity(devices.reduce(0) { $0 + $1.events.count })
        for d in devices { all.append(contentsOf: d.events) }
        if devices.count > 1 {
            all = all.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
        }
        let duration = all.last?.time ?? 0
        // Every window becomes a sample: 7 days of 5 s windows is 121,000, but with the smallest
        // window the config allows (0.1 s) the same span would be 6 million.
        guard duration / window <= Double(LibinputRecording.mostWindows) else {
            throw LibinputRecordError(
                file: file, line: 0,
                message: "\(humanDuration(duration)) of events in windows of \(window) s make more than "
                    + "\(LibinputRecording.mostWindows) samples; use a longer input.window or split the recording")
        }

        let origin = startTimestamp(start, mtime: mtime, duration: duration)
        var aggregator = InputAggregator(window: window, origin: 0, obfuscatedKeys: obfuscated)
        var samples: [Sample] = []
        samples.reserveCapacity(Int(duration / window) + 2)
        var gaps: [LibinputRecordingSummary.IdleGap] = []
        var previous: Double?
        func emit(_ end: Double, _ activity: InputActivity) {
            // Within the ranges of a recording, as a live window is (`DetectorContext.emit`): a
            // crafted file's 2^31 wheel detents in one window must not make a sample that a
            // recording of its replay (`start --replay FILE --record`) cannot hold.
            samples.append(Sample(time: origin + end, payload: SampleLimits.clamped(.input(activity))))
        }
        for e in all {
            if let p = previous, e.time - p > 0 {
                let gap = LibinputRecordingSummary.IdleGap(after: p, seconds: e.time - p)
                if gaps.count < 5 || gap.seconds > gaps[gaps.count - 1].seconds {
                    gaps.append(gap)
                    gaps.sort { $0.seconds > $1.seconds }
                    if gaps.count > 5 { gaps.removeLast() }
                }
            }
            previous = e.time
            aggregator.add(e, emit: emit)
        }
        // The last, possibly partial, window ends at the next window boundary after the last event.
        if !all.isEmpty { aggregator.close(upTo: aggregator.currentWindowEnd, emit: emit) }

        let t = aggregator.totals
        let summary = LibinputRecordingSummary(
            devices: devices.map { LibinputRecordedDevice(node: $0.node, name: $0.name, kind: $0.kind, frames: $0.frames) },
            duration: duration, keyPresses: t.keyPresses, clicks: t.clicks, scrollTicks: t.scrollTicks,
            pointerTravel: t.travel, switches: t.switches, longestIdleGaps: gaps, keysObfuscated: obfuscated)
        return LibinputRecording(samples: samples, summary: summary, start: origin)
    }

    private func startTimestamp(_ start: LibinputRecording.Start, mtime: Date?, duration: Double) -> Timestamp {
        switch start {
        case .at(let t):
            return t
        case .fromFile:
            guard let mtime else { return Timestamp(nanoseconds: 0) }
            let modified = Timestamp(seconds: mtime.timeIntervalSince1970)
            // The first wall-clock comment that follows an event frame pins the frame's time.
            guard let mark = wallClock.first(where: { $0.after != nil }) ?? wallClock.first else {
                return modified - duration
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let midnight = calendar.startOfDay(for: mtime)
            var wall = Timestamp(seconds: midnight.timeIntervalSince1970 + Double(mark.secondsOfDay))
            // The comment's time of day is on the file's date, or the day before when the recording
            // ran past midnight.
            if wall > modified + 1 { wall = wall - 86_400 }
            return wall - (mark.after ?? 0)
        }
    }
}
