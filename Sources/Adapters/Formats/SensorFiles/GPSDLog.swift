import Foundation
import JSONScanning
import SystemCalls
import VigilCore

/// An error in a gpsd JSON log, with where it is.
public struct GPSDLogError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based line; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String
    /// The file could not be opened or read (the disk, not its content).
    public var isReadFailure = false
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A gpsd JSON log, as `gpspipe -w` writes it (and as gpsd's regression `.chk` files hold it), read
/// line by line into location and status samples the way the live `GPSDDetector` makes them from
/// libgps. Memory stays at one line and a few samples however long the log is: a day's log of a
/// receiver at 10 Hz is a million reports.
///
/// - `TPV` reports with mode 2 or 3 and a position become `.location` samples (`eph`, or the larger
///   of `epx`/`epy`, as the accuracy; `speed`), stamped with the report's `time`.
/// - The first fix is announced by an `available` status; a report with mode 0 or 1 after a fix is a
///   `no_fix` status, as the live detector reports a lost fix.
/// - `VERSION`, `DEVICES`, `DEVICE`, `WATCH`, `SKY` and every other class are read past; so are NMEA
///   sentences (`$...`, `!...`, which `gpspipe -r` and the `.chk` files interleave), gpsfake's own
///   `gpsfake:`/`gpsd:` lines and blank lines.
///   Anything else that is not a JSON object is an error naming the line.
///
/// Timeline: each sample carries its TPV's own `time` (UTC, from the receiver). A TPV without a
/// time (a receiver without a fix often sends one) takes the time of the last timed report, or of
/// the first one if none came before. The recording starts at its first timed report: opening the
/// log reads up to it, and the samples of untimed reports before it wait for its time (at most
/// `untimedFixesBeforeTheFirstTime` fixes, so that a log without times cannot fill memory).
///
/// Errors in a line after the first timed report are found when `next()` reaches it: read the log
/// to its end before trusting anything made from it.
public final class GPSDLogReader {
    /// Fixes without a time before the first timed report that may wait for its time: over two
    /// hours of a receiver at 1 Hz, far more than any receiver sends before it knows the time.
    /// (Reports without a fix make no sample and need no room, however many come.)
    public static let untimedFixesBeforeTheFirstTime = 10_000
    /// A gpsd report is at most a few kilobytes (a SKY with every satellite in view).
    static let longestLine = 1 << 20

    /// The file, for messages.
    public let path: String
    /// The time of the first timed TPV report: the log's time 0.
    public private(set) var start = Timestamp(nanoseconds: 0)
    /// TPV reports read so far.
    public private(set) var reports = 0
    /// Fixes, losses and distances so far, without coordinates.
    public private(set) var track = TrackSummary()
    /// Lines that were not gpsd JSON objects gpsd could have sent (NMEA sentences), skipped so far.
    public private(set) var skippedLines = 0
    /// The size of the buffer the log is read through (see `LineReader.bufferCapacity`).
    public var lineBufferCapacity: Int { lines.bufferCapacity }
    /// The most samples made but not yet handed out at once, so far: what the reader holds besides
    /// its line buffer.
    public private(set) var mostSamplesWaiting = 0

    private let lines: LineReader
    /// Samples made from the last report read, handed out from `nextReady`; before the first timed
    /// report, the samples waiting for its time.
    private var ready: [Sample] = []
    private var nextReady = 0
    private var sawTime = false
    /// The time of the last timed report, never going back.
    private var clock = Timestamp(nanoseconds: 0)
    private var hadFix = false

    /// Opens the log at `path` and reads up to its first timed report.
    public convenience init(path: String) throws(GPSDLogError) {
        let lines: LineReader
        do {
            lines = try LineReader(path: path, bufferSize: 1 << 16, longestLine: Self.longestLine)
        } catch {
            throw GPSDLogError(file: path, line: 0, message: "cannot open: \(error.reason)", isReadFailure: true)
        }
        try self.init(lines: lines)
    }

    /// Reads a log already in memory (a fuzzer's input, a test's text) as the file `name`.
    public convenience init(contents: some Collection<UInt8>, name: String) throws(GPSDLogError) {
        try self.init(lines: LineReader(contents: contents, name: name))
    }

    private init(lines: LineReader) throws(GPSDLogError) {
        self.lines = lines
        path = lines.path
        var sawGPSD = false
        while !sawTime {
            guard let report = try nextReport(sawGPSD: &sawGPSD) else {
                guard sawGPSD else {
                    throw GPSDLogError(file: path, line: 0, message: "no gpsd JSON reports in the file (record one with `gpspipe -w > log.json`)")
                }
                throw GPSDLogError(file: path, line: 0, message: "no TPV report has a \"time\": the log cannot be placed on a timeline")
            }
            place(report)
            mostSamplesWaiting = max(mostSamplesWaiting, ready.count)
            // Before the first time, every fix so far is one without a time.
            if !sawTime, track.fixes > Self.untimedFixesBeforeTheFirstTime {
                throw GPSDLogError(
                    file: path, line: lines.lineNumber,
                    message:
                        "more than \(Self.untimedFixesBeforeTheFirstTime) fixes without a \"time\" before the first TPV report with one: the log cannot be placed on a timeline"
                )
            }
        }
    }

    /// The next sample, or nil at the end of the log.
    public func next() throws(GPSDLogError) -> Sample? {
        while nextReady == ready.count {
            ready.removeAll(keepingCapacity: true)
            nextReady = 0
            var sawGPSD = true
            guard let report = try nextReport(sawGPSD: &sawGPSD) else { return nil }
            place(report)
            mostSamplesWaiting = max(mostSamplesWaiting, ready.count)
        }
        defer { nextReady += 1 }
        return ready[nextReady]
    }

    /// A TPV report, as far as a sample needs it.
    private struct Report {
        var time: Timestamp?
        var mode: Int
        var fix: LocationFix?
    }

    /// Turns a report into its samples on the timeline, in `ready`.
    private func place(_ report: Report) {
        reports += 1
        if let t = report.time {
            if !sawTime {
                // The untimed reports before this one happened at its time.
                sawTime = true
                start = t
                clock = t
                for i in ready.indices { ready[i].time = t }
            }
            // Some receivers repeat or reorder times by a few ms; a sample never goes back.
            clock = max(clock, t)
        }
        if let fix = report.fix {
            if !hadFix {
                ready.append(
                    Sample(time: clock, payload: .status(SensorStatus(sensor: .location, state: .available, detail: "fix from the gpsd log"))))
            }
            hadFix = true
            ready.append(Sample(time: clock, payload: .location(fix)))
            track.add(fix)
        } else if report.mode <= 1, hadFix {
            hadFix = false
            track.loseFix()
            ready.append(Sample(time: clock, payload: .status(SensorStatus(sensor: .location, state: .noFix, detail: "the receiver lost its fix"))))
        }
    }

    /// Reads lines up to the next TPV report; nil at the end of the file.
    /// - Parameter sawGPSD: set when a line is a gpsd report of any class.
    private func nextReport(sawGPSD: inout Bool) throws(GPSDLogError) -> Report? {
        while true {
            let raw = try lines.next(notA: "a gpsd JSON report") { line, message, isReadFailure in
                GPSDLogError(file: path, line: line, message: message, isReadFailure: isReadFailure)
            }
            guard let raw, let base = raw.baseAddress else {
                if raw == nil { return nil }
                continue
            }
            var from = 0
            var to = raw.count
            while to > 0, base[to - 1] == 0x0D || base[to - 1] == 0x20 || base[to - 1] == 0x09 { to -= 1 }
            while from < to, base[from] == 0x20 || base[from] == 0x09 { from += 1 }
            guard from < to else { continue }
            let line = UnsafeBufferPointer(start: base + from, count: to - from)
            let first = line[0]
            // NMEA and AIS sentences, comments, and the progress lines gpsfake prints among the reports.
            if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") || first == UInt8(ascii: "#")
                || (first == UInt8(ascii: "g") && (line.starts(with: "gpsfake".utf8) || line.starts(with: "gpsd:".utf8)))
            {
                skippedLines += 1
                continue
            }
            if let report = try read(line, sawGPSD: &sawGPSD) { return report }
        }
    }

    /// The TPV report on one line; nil for a report of another class.
    private func read(_ line: UnsafeBufferPointer<UInt8>, sawGPSD: inout Bool) throws(GPSDLogError) -> Report? {
        guard line.first == UInt8(ascii: "{") else { throw notAReport() }
        if let fields = ReportFields(scanning: line) { return try report(fields, sawGPSD: &sawGPSD) }
        // The scanner refuses what JSONSerialization refuses (see `JSONScanner.Rules.foundation`);
        // should a line ever be read differently, JSONSerialization itself has the last word.
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { throw notAReport() }
        return try report(ReportFields(object), sawGPSD: &sawGPSD)
    }

    private func notAReport() -> GPSDLogError {
        GPSDLogError(
            file: path, line: lines.lineNumber,
            message: "not a gpsd JSON report (expected a JSON object such as {\"class\":\"TPV\",...} on each line, as `gpspipe -w` writes)")
    }

    /// A report's fields checked as a receiver can mean them.
    private func report(_ fields: ReportFields, sawGPSD: inout Bool) throws(GPSDLogError) -> Report? {
        let lineNumber = lines.lineNumber
        guard let isTPV = fields.isTPV else {
            throw GPSDLogError(file: path, line: lineNumber, message: "a gpsd report has a \"class\" (TPV, SKY, VERSION...); this object has none")
        }
        sawGPSD = true
        guard isTPV else { return nil }
        var time: Timestamp?
        switch fields.time {
        case nil: break
        case .bytes(let bytes):
            guard case .success(let t) = readRFC3339(utf8: bytes) else { throw badTime(String(decoding: bytes, as: UTF8.self)) }
            time = t
        case .text(let text):
            guard let t = parseRFC3339(text) else { throw badTime(text) }
            time = t
        }
        /// A number of the report, refused with its line when it is outside what a receiver
        /// can mean (`SampleLimits`): a damaged 1e19 would otherwise reach the scorer.
        func number(_ key: ReportFields.Key, _ range: ClosedRange<Double>, _ unit: String) throws(GPSDLogError) -> Double? {
            guard let v = fields[key] else { return nil }
            guard range.contains(v) else {
                throw GPSDLogError(
                    file: path, line: lineNumber,
                    message: "TPV \"\(key)\" must be from \(jsonNumber(range.lowerBound)) to \(jsonNumber(range.upperBound))\(unit), got \(v)")
            }
            return v
        }
        // Read as a Double: NSNumber's intValue wraps 1e23 to a number that looks like a fix.
        let modeValue = try number(.mode, 0...3, " (gpsd's fix modes)") ?? 0
        guard modeValue == modeValue.rounded() else {
            throw GPSDLogError(file: path, line: lineNumber, message: "TPV \"mode\" must be 0, 1, 2 or 3, got \(modeValue)")
        }
        let mode = Int(modeValue)
        var fix: LocationFix?
        if mode >= 2, let lat = fields[.lat], let lon = fields[.lon] {
            guard SampleLimits.latitude.contains(lat), SampleLimits.longitude.contains(lon) else {
                throw GPSDLogError(file: path, line: lineNumber, message: "TPV position out of range (lat \(lat), lon \(lon))")
            }
            let earth = " m (half the Earth's circumference)"
            var eph = try number(.eph, SampleLimits.distance, earth)
            if eph == nil, let x = try number(.epx, SampleLimits.distance, earth), let y = try number(.epy, SampleLimits.distance, earth) {
                eph = max(x, y)
            }
            fix = LocationFix(
                latitude: lat, longitude: lon, horizontalAccuracy: eph, speed: try number(.speed, SampleLimits.speed, " m/s"),
                mode: mode == 3 ? .threeD : .twoD)
        }
        return Report(time: time, mode: mode, fix: fix)
    }

    private func badTime(_ text: String) -> GPSDLogError {
        GPSDLogError(file: path, line: lines.lineNumber, message: "TPV \"time\" is not an ISO 8601 time \(SupportedDates.range): \(text)")
    }
}

/// What a gpsd report says that a sample needs, as JSONSerialization's dictionary of the line gave
/// it to the reader before: a key's last value counts, a number is a number or a JSON boolean (an
/// NSNumber of 1 or 0), and a value of another type is as good as absent.
private struct ReportFields {
    /// The numeric keys read, as written in a report.
    enum Key: Int, CustomStringConvertible {
        case mode, lat, lon, eph, epx, epy, speed

        var description: String {
            switch self {
            case .mode: "mode"
            case .lat: "lat"
            case .lon: "lon"
            case .eph: "eph"
            case .epx: "epx"
            case .epy: "epy"
            case .speed: "speed"
            }
        }
    }

    /// The time as written: its bytes in the line, or its text when it had escapes.
    enum Time {
        case bytes(UnsafeBufferPointer<UInt8>)
        case text(String)
    }

    /// Whether "class" is "TPV"; nil when there is no "class" string.
    var isTPV: Bool?
    var time: Time?
    private var values: (Double?, Double?, Double?, Double?, Double?, Double?, Double?) = (nil, nil, nil, nil, nil, nil, nil)

    subscript(key: Key) -> Double? {
        get {
            switch key {
            case .mode: values.0
            case .lat: values.1
            case .lon: values.2
            case .eph: values.3
            case .epx: values.4
            case .epy: values.5
            case .speed: values.6
            }
        }
        set {
            switch key {
            case .mode: values.0 = newValue
            case .lat: values.1 = newValue
            case .lon: values.2 = newValue
            case .eph: values.3 = newValue
            case .epx: values.4 = newValue
            case .epy: values.5 = newValue
            case .speed: values.6 = newValue
            }
        }
    }

    /// What a key of a report is to the reader.
    private enum Field {
        case isClass, time
        case number(Key)
    }

    /// The fields of the JSON object on `line`, read in place; nil when the line is not one JSON
    /// object as JSONSerialization reads it.
    init?(scanning line: UnsafeBufferPointer<UInt8>) {
        var s = JSONScanner(line, rules: .foundation)
        do {
            try s.beginObject()
            while let key = try s.nextKey() {
                s.skipSpace()
                switch Self.field(key, in: s) {
                case nil:
                    try s.skipValue()
                case .isClass?:
                    if s.peek() == UInt8(ascii: "\"") {
                        isTPV = s.equals(try s.string(), "TPV")
                    } else {
                        try s.skipValue()
                        isTPV = nil
                    }
                case .time?:
                    if s.peek() == UInt8(ascii: "\"") {
                        let text = try s.string()
                        time = text.decoded.map(Time.text) ?? .bytes(UnsafeBufferPointer(start: s.base + text.start, count: text.end - text.start))
                    } else {
                        try s.skipValue()
                        time = nil
                    }
                case .number(let key)?:
                    self[key] = try Self.number(&s)
                }
            }
            try s.expectEnd()
        } catch {
            return nil
        }
    }

    /// The fields of the object JSONSerialization made of a line.
    init(_ object: [String: Any]) {
        isTPV = (object["class"] as? String).map { $0 == "TPV" }
        time = (object["time"] as? String).map(Time.text)
        for key in [Key.mode, .lat, .lon, .eph, .epx, .epy, .speed] {
            self[key] = (object[key.description] as? NSNumber)?.doubleValue
        }
    }

    /// The key's meaning, from its bytes: keys of at most 8 bytes are read as one little-endian
    /// integer and matched in one switch, as this runs for every key of every report.
    private static func field(_ key: JSONScanner.Text, in s: JSONScanner) -> Field? {
        if let decoded = key.decoded {
            if decoded == "class" { return .isClass }
            if decoded == "time" { return .time }
            return [Key.mode, .lat, .lon, .eph, .epx, .epy, .speed].first { $0.description == decoded }.map(Field.number)
        }
        let n = key.end - key.start
        guard n >= 3, n <= 5 else { return nil }
        var word: UInt64 = 0
        for i in 0..<n { word |= UInt64(s.base[key.start + i]) << (8 * UInt64(i)) }
        switch word {
        case 0x73_7361_6c63: return .isClass  // "class"
        case 0x656d_6974: return .time  // "time"
        case 0x6564_6f6d: return .number(.mode)  // "mode"
        case 0x74616c: return .number(.lat)  // "lat"
        case 0x6e6f6c: return .number(.lon)  // "lon"
        case 0x687065: return .number(.eph)  // "eph"
        case 0x787065: return .number(.epx)  // "epx"
        case 0x797065: return .number(.epy)  // "epy"
        case 0x64_6565_7073: return .number(.speed)  // "speed"
        default: return nil
        }
    }

    /// A value as `(object[key] as? NSNumber)?.doubleValue` read it: numbers, and JSON's true and
    /// false as 1 and 0; nil for a string, null, an array or an object.
    private static func number(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> Double? {
        switch s.peek() ?? 0 {
        case UInt8(ascii: "t"):
            try s.literal("true")
            return 1
        case UInt8(ascii: "f"):
            try s.literal("false")
            return 0
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try s.numberToken()
            // JSONSerialization reads "-0" as the integer 0.
            if let v = token.simple { return token.isInteger && v == 0 ? 0 : v }
            let text = String(decoding: UnsafeBufferPointer(start: s.base + token.start, count: token.end - token.start), as: UTF8.self)
            guard let v = foundationNumber(text) else { throw JSONScanner.Failure(column: token.start + 1, message: "number too large") }
            return v
        default:
            try s.skipValue()
            return nil
        }
    }

    /// The value JSONSerialization gives a number that the scanner's fast path cannot convert:
    /// as swift-corelibs-foundation's `NSNumber.fromJSONNumber` does, an integer of up to 19 or 20
    /// characters as Int64 or UInt64, more than 17 characters as Decimal (not correctly rounded),
    /// anything else as Double; nil when that is infinite (the line is then not JSON to it).
    static func foundationNumber(_ text: String) -> Double? {
        let point = text.firstIndex(of: ".")
        let exponent = text.firstIndex(of: "e")
        let negative = text.utf8.first == UInt8(ascii: "-")
        let digitCount = text[text.startIndex..<(exponent ?? text.endIndex)].count
        if point == nil, exponent == nil {
            if negative {
                if digitCount <= 19, let v = Int64(text) { return Double(v) }
            } else if digitCount <= 20, let v = UInt64(text) {
                return Double(v)
            }
        }
        var power = 0
        if let exponent, let p = Int(text[text.index(after: exponent)...]) { power = p }
        if digitCount > 17, power >= -128, power <= 127, let d = Decimal(string: text), d.isFinite {
            return NSDecimalNumber(decimal: d).doubleValue
        }
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }
}

/// A whole gpsd log in memory: its samples and what its reader counted. For logs small enough to
/// hold (the tests' and the fuzzer's); replay and inspect stream with `GPSDLogReader`.
public struct GPSDLog: Sendable {
    public var samples: [Sample]
    /// TPV reports read.
    public var reports: Int
    /// Fixes, losses and distances, without coordinates.
    public var track: TrackSummary
    /// The first timed report.
    public var start: Timestamp
    /// Lines that were not gpsd JSON objects gpsd could have sent (NMEA sentences); skipped.
    public var skippedLines: Int

    public static func read(path: String) throws(GPSDLogError) -> GPSDLog {
        try whole(GPSDLogReader(path: path))
    }

    public static func parse(_ data: Data, name: String) throws(GPSDLogError) -> GPSDLog {
        try whole(GPSDLogReader(contents: data, name: name))
    }

    private static func whole(_ reader: GPSDLogReader) throws(GPSDLogError) -> GPSDLog {
        var samples: [Sample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return GPSDLog(samples: samples, reports: reader.reports, track: reader.track, start: reader.start, skippedLines: reader.skippedLines)
    }
}
