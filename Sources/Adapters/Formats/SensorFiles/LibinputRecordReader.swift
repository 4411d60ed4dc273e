import Foundation
import InputCounting
import SystemCalls
import VigilCore

/// An error in a `libinput record` file, with where it is.
public struct LibinputRecordError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based line number; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String
    /// The file could not be opened or read (the disk, not its content).
    public var isReadFailure = false

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

/// A `libinput record` file (format version 1) read into Vigil input samples, whole: for
/// recordings small enough to hold (the tests', the fuzzer's). `vigil replay` and `inspect` read
/// them as a stream with `LibinputRecordReader`, which this is made with.
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
/// a node per value, which for hours of events is slow and large.
public struct LibinputRecording: Sendable {
    /// Where the recording's time 0 is on the wall clock.
    public enum Start: Sendable, Equatable {
        /// The caller knows.
        case at(Timestamp)
        /// Worked out from the file (see `LibinputRecordReader`).
        case fromFile
    }

    /// One `.input` sample per window, each stamped with its window's end.
    public var samples: [Sample]
    public var summary: LibinputRecordingSummary
    /// The wall-clock instant of the recording's time 0.
    public var start: Timestamp

    /// The longest span of events a recording may have (7 days): every window of it becomes a sample.
    public static let longestRecording: Double = 7 * 86_400
    /// The most windows (samples) a recording may make, whatever the window: about 140 MB held whole.
    public static let mostWindows = 1_000_000

    /// Reads a recording and aggregates it into windows of `window` seconds (see
    /// `LibinputRecordReader` for how `.fromFile` places it on the wall clock).
    public static func read(path: String, window: Double = 5, start: Start = .fromFile) throws(LibinputRecordError) -> LibinputRecording {
        try whole(LibinputRecordReader(path: path, window: window, start: start))
    }

    /// Parses recording text (for tests and for input that is not a file); `.fromFile` is not
    /// available here and falls back to the Unix epoch.
    public static func parse(_ text: String, name: String = "<text>", window: Double = 5, start: Start) throws(LibinputRecordError)
        -> LibinputRecording
    {
        try whole(LibinputRecordReader(contents: Array(text.utf8), name: name, window: window, start: start))
    }

    private static func whole(_ reader: LibinputRecordReader) throws(LibinputRecordError) -> LibinputRecording {
        var samples: [Sample] = []
        while let s = try reader.next() { samples.append(s) }
        return LibinputRecording(samples: samples, summary: reader.summary, start: reader.start)
    }
}

/// A `libinput record` file read as a stream: samples come out as the lines are read, and memory
/// stays at a line buffer (a day's recording is about 170 MB of text) however long the file is.
///
/// Where time 0 is on the wall clock, with `.fromFile`: libinput record's `# Current time is
/// HH:MM:SS` comments (libinput 1.20 and later write one every five seconds while events arrive,
/// in local time, without a date) say it: the first such comment after an event frame, minus that
/// frame's time (the comment comes at most five seconds after the frame), on the date of the file's
/// modification time (the day before, if that would put it after the file was written). If the
/// only comment precedes every event it stands for time 0, which for a one-device recording is the
/// first event and may be later. Without any comment the start is the file's modification time
/// minus the recording's duration, which holds when the file was written as the recording ended.
///
/// Because the start must be known before the first sample, opening a recording reads ahead of the
/// samples, a second time, as little as it can: up to its first `# Current time is` comment after
/// a frame (a few kilobytes into a recording of libinput 1.20 or later), or, in a recording without
/// one, the last frames from the end of the file (its duration). A recording of several devices
/// (`--multiple`: each device's events follow its description, the devices one after another) is
/// read through once to find where each device's events are, then each device as a stream of its
/// own, merged in time order. So is a recording whose end cannot be read that way, or whose
/// duration is more than the windows allow: what it finds is then exactly what reading the whole
/// file would find, errors on their lines first.
///
/// Errors on a line after the first samples are found when `next()` reaches it, as are those of
/// the file as a whole (no `version:`): read the recording to its end before trusting what was made
/// of it. A recording that says `ndevices: 1` is read as one device; were another described after
/// it, its events would follow the first's instead of being merged with them.
public final class LibinputRecordReader {
    /// The file, for messages.
    public let path: String
    /// The wall-clock instant of the recording's time 0.
    public private(set) var start = Timestamp(nanoseconds: 0)
    /// The largest size the line buffers the reader has held at once have had, in bytes: flat in
    /// the length of the file (tests check it).
    public private(set) var mostBufferBytes = 0
    /// The most events read but not yet aggregated at once (a frame's).
    public var mostEventsWaiting: Int { cursors.reduce(0) { max($0, $1.mostWaiting) } }

    private let window: Double
    private let bytes: RecordBytes
    /// What reading the whole file found, when it was read through on opening.
    private var whole: RecordFacts?
    /// One cursor for a recording of one device; one per device of a `--multiple` recording.
    private var cursors: [RecordCursor] = []
    /// The next event of each cursor, for the merge.
    private var heads: [TimedInputEvent?] = []
    /// All the events in time order, for a recording of several devices whose events go back.
    private var sorted: [TimedInputEvent]?
    private var nextSorted = 0
    /// Nil when `window` is not a positive number: then the file is only checked (see `init`).
    private var aggregator: InputAggregator?
    /// The event to aggregate once the windows before it are handed out.
    private var pending: TimedInputEvent?
    private var previous: Double?
    private var gaps: [LibinputRecordingSummary.IdleGap] = []
    private var atEnd = false

    /// Opens the recording at `path` and reads ahead of the samples what their start needs.
    /// - Parameters:
    ///   - window: seconds of a sample; the windows are `[k·window, (k+1)·window)` from time 0.
    ///   - start: with `.fromFile`, the file's modification time and content place it.
    public convenience init(path: String, window: Double = 5, start: LibinputRecording.Start = .fromFile) throws(LibinputRecordError) {
        let file: BlockFile
        do throws(SystemError) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw SystemError(call: "read", errno: EISDIR, path: path)
            }
            file = try BlockFile(path: path)
        } catch {
            throw LibinputRecordError(file: path, line: 0, message: error.errno == ENOENT ? "no such file" : "cannot read it", isReadFailure: true)
        }
        var mtime: Date?
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
            // A time out of range is unknown (the start then falls back as without one).
            mtime = (attributes[.modificationDate] as? Date).flatMap { Timestamp(checkedSeconds: $0.timeIntervalSince1970) == nil ? nil : $0 }
        }
        try self.init(bytes: .file(file), name: path, window: window, start: start, mtime: mtime)
    }

    /// Reads a recording already in memory (a fuzzer's input, a test's text) as the file `name`;
    /// `.fromFile` has no file date here and stands for the Unix epoch.
    public convenience init(contents: [UInt8], name: String, window: Double = 5, start: LibinputRecording.Start) throws(LibinputRecordError) {
        try self.init(bytes: .memory(contents), name: name, window: window, start: start, mtime: nil)
    }

    private init(bytes: RecordBytes, name: String, window: Double, start: LibinputRecording.Start, mtime: Date?) throws(LibinputRecordError) {
        path = name
        self.bytes = bytes
        self.window = window
        let validWindow = window > 0 && window.isFinite
        // The description before the first device says whether the recording is of one device.
        let main = try RecordCursor(bytes: bytes, file: name)
        let oneDevice = try main.readToTheFirstDevice() && main.parser.ndevices == 1
        var ahead: RecordScout?
        var duration: Double?
        if oneDevice, validWindow {
            let wantsMarks = start == .fromFile && mtime != nil
            var scout = try RecordScout(bytes: bytes, file: name)
            if wantsMarks, try bytes.contains(RecordScout.wallClockComment, file: name) {
                try scout.read(until: .wallClockAfterAFrame)
            } else {
                try scout.read(until: .firstEvent)
            }
            ahead = scout
            if scout.atEnd {
                whole = scout.facts
            } else if scout.devices.count == 1, let d = try lastEventTime(scout.devices[0]), d / window <= Double(LibinputRecording.mostWindows) {
                // The start is the file's time minus this duration when there is no wall-clock
                // comment: only if the frames run to the end of the file is its end the last.
                var trusted = true
                if wantsMarks, scout.marks.firstAfterAFrame == nil { trusted = try scout.framesRunToTheEnd() }
                if trusted { duration = d }
            }
        }
        if whole == nil, duration == nil {
            // Several devices, no readable end, or more windows than allowed: read it all first.
            var scout = try RecordScout(bytes: bytes, file: name)
            try scout.read(until: .end)
            ahead = scout
            whole = scout.facts
        }
        mostBufferBytes = main.lines.bufferCapacity + (ahead?.lines.bufferCapacity ?? 0)
        if let whole {
            // As reading the whole file first did: the file's own faults, then the windows'.
            if let problem = whole.problem { throw problem }
            try Self.check(window: window, duration: whole.duration, file: name)
            if whole.devices.count > 1, whole.eventsGoBack {
                // Merging the devices' streams would not put a device's own events in time order:
                // they are sorted in memory, as they all were before recordings were streamed.
                var all: [TimedInputEvent] = []
                while let e = try main.next() { all.append(e) }
                sorted = all.enumerated().sorted { a, b in
                    a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
                }.map(\.element)
                cursors = [main]
            } else if whole.devices.count > 1 {
                cursors = try whole.deviceStarts.map { (s) throws(LibinputRecordError) in
                    try RecordCursor(bytes: bytes, file: name, at: s, onlyThisDevice: true)
                }
            } else {
                cursors = [main]
            }
            mostBufferBytes = max(mostBufferBytes, cursors.reduce(0) { $0 + $1.lines.bufferCapacity })
        } else {
            cursors = [main]
        }
        let marks = ahead?.marks ?? WallClockMarks()
        self.start = Self.startTimestamp(start, mtime: mtime, duration: whole?.duration ?? duration ?? 0, marks: marks)
        if validWindow {
            aggregator = InputAggregator(window: window, origin: 0, obfuscatedKeys: whole?.obfuscated ?? false)
        }
    }

    /// The recording's counts and devices: complete once `next()` has returned nil.
    public var summary: LibinputRecordingSummary {
        let t = aggregator?.totals ?? InputAggregator.Counts()
        let devices = whole?.devices ?? cursors.first?.parser.devices ?? []
        return LibinputRecordingSummary(
            devices: devices.map(\.summary), duration: whole?.duration ?? previous ?? 0, keyPresses: t.keyPresses, clicks: t.clicks,
            scrollTicks: t.scrollTicks, pointerTravel: t.travel, switches: t.switches, longestIdleGaps: gaps,
            keysObfuscated: whole?.obfuscated ?? cursors.first?.parser.obfuscated ?? false)
    }

    /// The next window's sample, or nil at the end of the recording.
    public func next() throws(LibinputRecordError) -> Sample? {
        while true {
            if let e = pending, let a = aggregator {
                if a.currentWindowEnd <= e.time { return closeWindow() }
                add(e)
                pending = nil
            }
            if atEnd { return nil }
            if let e = try nextEvent() {
                pending = e
                continue
            }
            atEnd = true
            if whole == nil {
                // Read as a stream: the file's faults as a whole come at its end.
                if let problem = cursors[0].parser.problemAtTheEnd(file: path) { throw problem }
                try Self.check(window: window, duration: previous ?? 0, file: path)
            }
            mostBufferBytes = max(mostBufferBytes, cursors.reduce(0) { $0 + $1.lines.bufferCapacity })
            // The last, possibly partial, window ends at the next window boundary after the last event.
            return previous == nil ? nil : closeWindow()
        }
    }

    /// The next event in time order: a device's own order, and between devices the earlier first
    /// (the first device's on a tie).
    private func nextEvent() throws(LibinputRecordError) -> TimedInputEvent? {
        if let sorted {
            guard nextSorted < sorted.count else { return nil }
            defer { nextSorted += 1 }
            return sorted[nextSorted]
        }
        if cursors.count == 1 {
            let cursor = cursors[0]
            let e = try cursor.next()
            // Known only once a line says so (the whole file was not read first): before the line,
            // no obfuscated key was pressed.
            if cursor.parser.obfuscated, aggregator?.classifier.obfuscated == false { aggregator?.keysAreObfuscated() }
            return e
        }
        if heads.isEmpty {
            for c in cursors { heads.append(try c.next()) }
        }
        // The earliest head, a device at its end last; `min` keeps the first of equals.
        let earliest = heads.indices.min { a, b in
            guard let x = heads[a] else { return false }
            guard let y = heads[b] else { return true }
            return x.time < y.time
        }
        guard let earliest, let e = heads[earliest] else { return nil }
        heads[earliest] = try cursors[earliest].next()
        return e
    }

    private func add(_ e: TimedInputEvent) {
        if let p = previous, e.time - p > 0 {
            let gap = LibinputRecordingSummary.IdleGap(after: p, seconds: e.time - p)
            if gaps.count < 5 || gap.seconds > gaps[gaps.count - 1].seconds {
                gaps.append(gap)
                gaps.sort { $0.seconds > $1.seconds }
                if gaps.count > 5 { gaps.removeLast() }
            }
        }
        previous = e.time
        aggregator?.add(e) { _, _ in }
    }

    /// The window being filled, closed and made a sample.
    private func closeWindow() -> Sample? {
        guard var a = aggregator else { return nil }
        var sample: Sample?
        a.close(upTo: a.currentWindowEnd) { end, activity in
            // Within the ranges of a recording, as a live window is (`DetectorContext.emit`): a
            // crafted file's 2^31 wheel detents in one window must not make a sample that a
            // recording of its replay (`start --replay FILE --record`) cannot hold.
            sample = Sample(time: start + end, payload: SampleLimits.clamped(.input(activity)))
        }
        aggregator = a
        return sample
    }

    /// Refuses a window that is not a positive number, or more windows than a recording may make.
    private static func check(window: Double, duration: Double, file: String) throws(LibinputRecordError) {
        guard window > 0, window.isFinite else {
            throw LibinputRecordError(file: file, line: 0, message: "the window must be a positive number of seconds")
        }
        // Every window becomes a sample: 7 days of 5 s windows is 121,000, but with the smallest
        // window the config allows (0.1 s) the same span would be 6 million.
        guard duration / window <= Double(LibinputRecording.mostWindows) else {
            throw LibinputRecordError(
                file: file, line: 0,
                message: "\(humanDuration(duration)) of events in windows of \(window) s make more than "
                    + "\(LibinputRecording.mostWindows) samples; use a longer input.window or split the recording")
        }
    }

    /// The time of the last event of a one-device recording, from its last frames: nil when they do
    /// not say (the file is short enough to read whole, its end is damaged, or no frame near it
    /// makes an event), and the whole file is read instead.
    ///
    /// A frame makes an event whatever came before it (`EvdevTranslator`: a key, a click, motion,
    /// a wheel turn the device counts, or anything on a touchpad), so a fresh translator, given the
    /// device's header, tells from the frames that end after the first SYN_REPORT of the block.
    private func lastEventTime(_ device: RecordedDeviceHeader) throws(LibinputRecordError) -> Double? {
        var span = 1 << 16
        while true {
            let from = max(0, bytes.size - span)
            if from == 0 { return nil }
            let block = try bytes.block(at: from, count: bytes.size - from, file: path)
            if let time = block.withUnsafeBufferPointer({ Self.lastEventTime(in: $0, device: device) }) { return time }
            span *= 4
        }
    }

    private static func lastEventTime(in block: UnsafeBufferPointer<UInt8>, device: RecordedDeviceHeader) -> Double? {
        guard let base = block.baseAddress, let firstNewline = block.firstIndex(of: 0x0A) else { return nil }
        var translator = device.makeTranslator()
        var out: [TimedInputEvent] = []
        var frameIndent: Int?
        var sawFirstFrameEnd = false
        var last: Double?
        var i = firstNewline + 1
        while i < block.count {
            var end = i
            while end < block.count, block[end] != 0x0A { end += 1 }
            let line = UnsafeBufferPointer(start: base + i, count: end - i)
            i = end + 1
            guard let shape = LineShape(line), line[shape.indent] != UInt8(ascii: "#"), !shape.isMarker(line) else { continue }
            if let fi = frameIndent, shape.indent >= fi, shape.isEvent(line) {
                // A damaged event: the whole file is read, and its line named.
                guard
                    let event = try? RecordParser.event(
                        line, from: shape.content, to: shape.end, error: { LibinputRecordError(file: "", line: 0, message: $0) })
                else { return nil }
                translator.feed(time: event.time, type: event.type, code: event.code, value: event.value, into: &out)
                if event.type == EvdevCode.EV_SYN, event.code == EvdevCode.SYN_REPORT {
                    // The block's first frame may have begun before it.
                    if sawFirstFrameEnd, !out.isEmpty { last = event.time }
                    sawFirstFrameEnd = true
                    out.removeAll(keepingCapacity: true)
                }
                continue
            }
            frameIndent = shape.isItem && RecordParser.isEvdevKey(line, shape.content, shape.end) ? shape.content : nil
        }
        return last
    }

    /// Where time 0 is on the wall clock (see the type's description).
    private static func startTimestamp(_ start: LibinputRecording.Start, mtime: Date?, duration: Double, marks: WallClockMarks) -> Timestamp {
        switch start {
        case .at(let t):
            return t
        case .fromFile:
            guard let mtime else { return Timestamp(nanoseconds: 0) }
            let modified = Timestamp(seconds: mtime.timeIntervalSince1970)
            // The first wall-clock comment that follows an event frame pins the frame's time.
            guard let mark = marks.firstAfterAFrame ?? marks.first else { return modified - duration }
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
