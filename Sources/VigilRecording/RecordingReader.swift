#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VigilCore

/// The keys of a sample line. Values are kept by slot so a line is decoded without allocating.
private enum Key: Int {
    case t, kind, window, keys, travel, clicks, scroll, altTab, superKey, ctrlTab, workspace, swipes, idle
    case rms, peak, lufs, momentary, lat, lon, acc, speed, mode, sensor, state, detail, action

    /// The key as it is written in a recording, for messages.
    var jsonName: String {
        switch self {
        case .altTab: "alt_tab"
        case .superKey: "super"
        case .ctrlTab: "ctrl_tab"
        default: "\(self)"
        }
    }

    /// Matches a key's bytes; `nil` for keys this version does not know (they are skipped).
    @inline(__always) static func match(_ p: UnsafePointer<UInt8>, _ n: Int) -> Key? {
        @inline(__always) func eq(_ s: StaticString) -> Bool { memoryEqual(p, s.utf8Start, n) }
        switch n {
        case 1: return p[0] == 0x74 ? .t : nil
        case 3:
            if eq("lat") { return .lat }
            if eq("lon") { return .lon }
            if eq("acc") { return .acc }
            if eq("rms") { return .rms }
            return nil
        case 4:
            if eq("kind") { return .kind }
            if eq("keys") { return .keys }
            if eq("idle") { return .idle }
            if eq("peak") { return .peak }
            if eq("lufs") { return .lufs }
            if eq("mode") { return .mode }
            return nil
        case 5:
            if eq("speed") { return .speed }
            if eq("state") { return .state }
            if eq("super") { return .superKey }
            return nil
        case 6:
            if eq("travel") { return .travel }
            if eq("clicks") { return .clicks }
            if eq("scroll") { return .scroll }
            if eq("window") { return .window }
            if eq("swipes") { return .swipes }
            if eq("sensor") { return .sensor }
            if eq("detail") { return .detail }
            if eq("action") { return .action }
            return nil
        case 7: return eq("alt_tab") ? .altTab : nil
        case 8: return eq("ctrl_tab") ? .ctrlTab : nil
        case 9:
            if eq("workspace") { return .workspace }
            if eq("momentary") { return .momentary }
            return nil
        default: return nil
        }
    }
}

private enum Kind { case input, audio, location, status, control, unknown }

/// Decodes one sample line. Returns `nil` for a line of a kind this version does not know.
func decodeSampleLine(_ line: UnsafeBufferPointer<UInt8>, start: Timestamp) throws(JSONLineScanner.Failure) -> Sample? {
    var s = JSONLineScanner(line)
    // Numeric slots, NaN meaning "absent"; string values of the few string keys.
    var numbers = (Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan,
                   Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan,
                   Double.nan, Double.nan, Double.nan, Double.nan, Double.nan, Double.nan)
    var kind = Kind.unknown
    var sawKind = false
    var sensor: String?, state: String?, detail: String?, action: String?
    try s.expect(0x7B, "'{' at the start of the line")
    s.skipSpace()
    if s.peek() == 0x7D {
        throw s.fail("empty object: a sample needs at least \"t\" and \"kind\"")
    }
    // A value of the wrong type is an error only for the kinds we know: a newer writer may use a key
    // we know with another type in a kind we do not, and that line must be skipped, not refused.
    var deferred: JSONLineScanner.Failure?
    try withUnsafeMutableBytes(of: &numbers) { (raw) throws(JSONLineScanner.Failure) in
        let slots = raw.baseAddress!.assumingMemoryBound(to: Double.self)
        while true {
            let k = try s.string()
            try s.expect(0x3A, "':' after a key")
            var key: Key?
            if let decoded = k.decoded {
                var copy = decoded
                let n = copy.utf8.count
                key = copy.withUTF8 { p in p.baseAddress.flatMap { Key.match($0, n) } }
            } else {
                key = Key.match(s.base + k.start, k.end - k.start)
            }
            s.skipSpace()
            if let known = key {
                let isString = s.peek() == 0x22
                let wantsString = known == .kind || known == .sensor || known == .state || known == .detail || known == .action
                if isString != wantsString {
                    if deferred == nil {
                        deferred = s.fail(wantsString ? "\"\(known.jsonName)\" must be a string" : "expected a number for \"\(known.jsonName)\"")
                    }
                    try s.skipValue()
                    key = .none
                    // Already skipped: go on to the separator.
                    s.skipSpace()
                    guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
                    s.pos += 1
                    if c == 0x7D { break }
                    guard c == 0x2C else { s.pos -= 1; throw s.fail("expected ',' or '}'") }
                    continue
                }
            }
            switch key {
            case nil:
                try s.skipValue()
            case .kind?:
                let v = try s.string()
                sawKind = true
                // Dispatch on length and first letter, then confirm: this runs for every line.
                let n = v.end - v.start
                let first = v.decoded == nil && n > 0 ? s.base[v.start] : 0
                switch (n, first) {
                case (5, 0x69) where s.equals(v, "input"): kind = .input
                case (5, 0x61) where s.equals(v, "audio"): kind = .audio
                case (8, 0x6C) where s.equals(v, "location"): kind = .location
                case (6, 0x73) where s.equals(v, "status"): kind = .status
                case (7, 0x63) where s.equals(v, "control"): kind = .control
                default: kind = .unknown
                }
            case .sensor?: sensor = s.text(try s.string())
            case .state?: state = s.text(try s.string())
            case .detail?: detail = s.text(try s.string())
            case .action?: action = s.text(try s.string())
            case let key?:
                if !s.takeNull() {
                    let column = s.pos + 1
                    let v = try s.number()
                    guard v.isFinite else { throw JSONLineScanner.Failure(column: column, message: "\"\(key.jsonName)\" is out of range") }
                    slots[key.rawValue] = v
                }
            }
            s.skipSpace()
            guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
            s.pos += 1
            if c == 0x7D { break }
            guard c == 0x2C else { s.pos -= 1; throw s.fail("expected ',' or '}'") }
        }
    }
    s.skipSpace()
    guard s.pos == s.count else { throw s.fail("unexpected text after the closing '}'") }

    func value(_ k: Key) -> Double? {
        let v = withUnsafeBytes(of: numbers) { $0.load(fromByteOffset: k.rawValue * 8, as: Double.self) }
        return v.isNaN ? nil : v
    }
    func required(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Double {
        guard let v = value(k) else { throw JSONLineScanner.Failure(column: 1, message: "missing \"\(name)\"") }
        return v
    }
    func count(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Int {
        guard let v = value(k) else { return 0 }
        guard v >= 0, v < 1e9, v == v.rounded() else {
            throw JSONLineScanner.Failure(column: 1, message: "\"\(name)\" must be a whole number from 0 to 999999999, got \(v)")
        }
        return Int(v)
    }

    guard sawKind else { throw deferred ?? JSONLineScanner.Failure(column: 1, message: "missing \"kind\"") }
    if case .unknown = kind { return nil }
    if let deferred { throw deferred }
    let t = try required(.t, "t")
    guard t >= 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"t\" is negative (\(t)); times count from the header's start") }
    // 100 years: beyond that the instant would not fit in 64-bit nanoseconds.
    guard t < 3.15e9 else { throw JSONLineScanner.Failure(column: 1, message: "\"t\" is \(t) s, more than 100 years after the header's start") }
    let time = Timestamp(nanoseconds: start.nanoseconds &+ Int64((t * 1e9).rounded()))
    switch kind {
    case .unknown:
        return nil
    case .input:
        let window = try required(.window, "window")
        guard window > 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"window\" must be greater than 0, got \(window)") }
        let travel = value(.travel) ?? 0
        guard travel >= 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"travel\" must not be negative, got \(travel)") }
        let idle = try required(.idle, "idle")
        guard idle >= 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"idle\" must not be negative, got \(idle)") }
        let switches = AppSwitches(
            altTab: try count(.altTab, "alt_tab"), superKey: try count(.superKey, "super"), ctrlTab: try count(.ctrlTab, "ctrl_tab"),
            workspace: try count(.workspace, "workspace"), swipes: try count(.swipes, "swipes"))
        return Sample(time: time, payload: .input(InputActivity(
            window: window, keyPresses: try count(.keys, "keys"), pointerTravel: travel, clicks: try count(.clicks, "clicks"),
            scrollTicks: try count(.scroll, "scroll"), switches: switches, idle: idle)))
    case .audio:
        let rms = try required(.rms, "rms")
        return Sample(time: time, payload: .audio(AudioLevel(
            rms: rms, peak: value(.peak) ?? rms, shortTermLUFS: value(.lufs), momentaryLUFS: value(.momentary))))
    case .location:
        let lat = try required(.lat, "lat"), lon = try required(.lon, "lon")
        guard (-90...90).contains(lat) else { throw JSONLineScanner.Failure(column: 1, message: "\"lat\" must be between -90 and 90, got \(lat)") }
        guard (-180...180).contains(lon) else { throw JSONLineScanner.Failure(column: 1, message: "\"lon\" must be between -180 and 180, got \(lon)") }
        let modeValue = value(.mode) ?? 3
        guard (0...3).contains(modeValue), let mode = FixMode(rawValue: Int(modeValue)), Double(mode.rawValue) == modeValue else {
            throw JSONLineScanner.Failure(column: 1, message: "\"mode\" must be 0, 1, 2 or 3 as in gpsd's TPV, got \(modeValue)")
        }
        return Sample(time: time, payload: .location(LocationFix(
            latitude: lat, longitude: lon, horizontalAccuracy: value(.acc), speed: value(.speed), mode: mode)))
    case .status:
        guard let sensorName = sensor else { throw JSONLineScanner.Failure(column: 1, message: "missing \"sensor\"") }
        guard let sensorKind = SensorKind(rawValue: sensorName) else {
            throw JSONLineScanner.Failure(column: 1, message: "unknown sensor \"\(sensorName)\" (expected input, audio or location)")
        }
        guard let stateName = state else { throw JSONLineScanner.Failure(column: 1, message: "missing \"state\"") }
        guard let st = SensorState(rawValue: stateName) else {
            let known = SensorState.allCases.map(\.rawValue).joined(separator: ", ")
            throw JSONLineScanner.Failure(column: 1, message: "unknown sensor state \"\(stateName)\" (expected one of \(known))")
        }
        return Sample(time: time, payload: .status(SensorStatus(sensor: sensorKind, state: st, detail: detail ?? "")))
    case .control:
        guard let name = action else { throw JSONLineScanner.Failure(column: 1, message: "missing \"action\"") }
        guard let a = ControlAction(rawValue: name) else {
            let known = ControlAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw JSONLineScanner.Failure(column: 1, message: "unknown control action \"\(name)\" (expected one of \(known))")
        }
        return Sample(time: time, payload: .control(a))
    }
}

/// Decodes the header line.
func decodeHeaderLine(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineScanner.Failure) -> RecordingHeader? {
    var s = JSONLineScanner(line)
    var isRecording = false
    var version: Double?
    var start: String?, source: String?, note: String?, task: String?
    try s.expect(0x7B, "'{' at the start of the line")
    s.skipSpace()
    if s.peek() == 0x7D { return nil }
    while true {
        let k = try s.string()
        try s.expect(0x3A, "':' after a key")
        let key = s.text(k)
        switch key {
        case "vigil":
            s.skipSpace()
            if s.peek() == 0x22 { isRecording = s.equals(try s.string(), "recording") } else { try s.skipValue() }
        case "version":
            version = try s.number()
        case "start": start = s.text(try s.string())
        case "source": source = s.text(try s.string())
        case "note": note = s.text(try s.string())
        case "task": task = s.text(try s.string())
        default: try s.skipValue()
        }
        s.skipSpace()
        guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
        s.pos += 1
        if c == 0x7D { break }
        guard c == 0x2C else { s.pos -= 1; throw s.fail("expected ',' or '}'") }
    }
    guard isRecording else { return nil }
    guard let v = version else { throw JSONLineScanner.Failure(column: 1, message: "header has no \"version\"") }
    guard v.isFinite, v == v.rounded(), v >= 1, v < 1e6 else {
        throw JSONLineScanner.Failure(column: 1, message: "header \"version\" must be a whole number from 1, got \(v)")
    }
    guard Int(v) <= RecordingFormat.version else {
        throw JSONLineScanner.Failure(column: 1, message: "recording format version \(Int(v)) is newer than this Vigil reads (\(RecordingFormat.version)); update Vigil")
    }
    guard let startText = start else { throw JSONLineScanner.Failure(column: 1, message: "header has no \"start\" (an RFC 3339 time such as 2026-03-02T09:00:00Z)") }
    guard let startTime = parseRFC3339(startText) else {
        throw JSONLineScanner.Failure(column: 1, message: "header \"start\" is not an RFC 3339 time such as 2026-03-02T09:00:00Z: \(startText)")
    }
    return RecordingHeader(version: Int(v), start: startTime, source: source, note: note, task: task)
}

/// Reads a recording line by line, in constant memory, so a day-long file replays as fast as the
/// disk delivers it.
public final class RecordingReader {
    public let path: String
    public private(set) var header: RecordingHeader
    /// Lines of kinds this version does not know, skipped so far.
    public private(set) var skippedLines = 0
    /// The line number of the last sample returned.
    public private(set) var lineNumber = 0

    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var begin = 0
    private var end = 0
    private var eof = false
    private var lastTime: Timestamp?

    /// Opens `path` and reads its header.
    public init(path: String) throws(RecordingError) {
        self.path = path
        guard let f = fopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw RecordingError(file: path, line: 0, message: "cannot open: \(reason)", kind: .io)
        }
        file = f
        capacity = 1 << 20
        buffer = .allocate(capacity: capacity)
        header = RecordingHeader(start: Timestamp(nanoseconds: 0))
        // From here on `deinit` closes the file and frees the buffer, also when init throws.
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
                message: "not a Vigil recording: the first line must be a header such as {\"vigil\":\"recording\",\"version\":1,\"start\":\"2026-03-02T09:00:00Z\"}")
        }
        header = h
    }

    deinit {
        fclose(file)
        buffer.deallocate()
    }

    /// The next sample, or `nil` at the end of the file.
    public func next() throws(RecordingError) -> Sample? {
        while let line = try rawLine() {
            if isBlank(line) { continue }
            let sample: Sample?
            do {
                sample = try decodeSampleLine(line, start: header.start)
            } catch {
                throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
            }
            guard let sample else {
                skippedLines += 1
                continue
            }
            if let last = lastTime, sample.time < last {
                throw RecordingError(
                    file: path, line: lineNumber,
                    message: "\"t\" goes back in time (\(sample.time - header.start) s after \(last - header.start) s); samples must be in time order")
            }
            lastTime = sample.time
            return sample
        }
        return nil
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
    private func rawLine() throws(RecordingError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if begin < end, let nl = memchr(buffer + begin, 0x0A, end - begin) {
                let at = nl.assumingMemoryBound(to: UInt8.self) - buffer
                let line = UnsafeBufferPointer(start: buffer + begin, count: at - begin)
                begin = at + 1
                lineNumber += 1
                return line
            }
            if eof {
                guard begin < end else { return nil }
                let line = UnsafeBufferPointer(start: buffer + begin, count: end - begin)
                begin = end
                lineNumber += 1
                return line
            }
            // Move the partial line to the front, grow if one line fills the buffer, read more.
            if begin > 0 {
                memmove(buffer, buffer + begin, end - begin)
                end -= begin
                begin = 0
            }
            if end == capacity {
                guard capacity < 1 << 26 else {
                    throw RecordingError(file: path, line: lineNumber + 1, message: "line longer than 64 MiB: not a recording line")
                }
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let n = fread(buffer + end, 1, capacity - end, file)
            end += n
            if n == 0 {
                if ferror(file) != 0 {
                    throw RecordingError(file: path, line: lineNumber + 1, message: "read error: \(String(cString: strerror(errno)))", kind: .io)
                }
                eof = true
            }
        }
    }
}
