import JSONScanning
import SystemCalls
import VigilCore

// The general path of a sample line (any JSON layout a person or another tool writes), and the
// sample built from the fields either path found, each value checked against its range.

/// The general scanner: any valid JSON object, with a column and a reason for anything else.
func scanGeneral(_ line: UnsafeBufferPointer<UInt8>, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) throws(JSONLineScanner
    .Failure)
{
    var s = JSONLineScanner(line)
    try s.expect(0x7B, "'{' at the start of the line")
    s.skipSpace()
    if s.peek() == 0x7D {
        throw s.fail("empty object: a sample needs at least \"t\" and \"kind\"")
    }
    // A value of the wrong type is an error only for the kinds we know: a newer writer may use a key
    // we know with another type in a kind we do not, and that line must be skipped, not refused.
    do {
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
                let wantsString = known.isText
                if isString != wantsString {
                    if f.deferred == nil {
                        f.more.deferred = s.fail(
                            wantsString ? "\"\(known.jsonName)\" must be a string" : "expected a number for \"\(known.jsonName)\"")
                    }
                    try s.skipValue()
                    key = .none
                    // Already skipped: go on to the separator.
                    s.skipSpace()
                    guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
                    s.pos += 1
                    if c == 0x7D { break }
                    guard c == 0x2C else {
                        s.pos -= 1
                        throw s.fail("expected ',' or '}'")
                    }
                    continue
                }
            }
            switch key {
            case nil:
                try s.skipValue()
            case .kind?:
                let v = try s.string()
                f.sawKind = true
                // Dispatch on length and first letter, then confirm: this runs for every line.
                let n = v.end - v.start
                let first = v.decoded == nil && n > 0 ? s.base[v.start] : 0
                switch (n, first) {
                case (5, 0x69) where s.equals(v, "input"): f.kind = .input
                case (5, 0x61) where s.equals(v, "audio"): f.kind = .audio
                case (8, 0x6C) where s.equals(v, "location"): f.kind = .location
                case (6, 0x73) where s.equals(v, "status"): f.kind = .status
                case (7, 0x63) where s.equals(v, "control"): f.kind = .control
                case (7, 0x64) where s.equals(v, "desktop"): f.kind = .desktop
                case (3, 0x61) where s.equals(v, "app"): f.kind = .app
                case (5, 0x6D) where s.equals(v, "media"): f.kind = .media
                case (5, 0x61) where s.equals(v, "alive"): f.kind = .alive
                default:
                    f.kind = .unknown
                    f.more.kindName = s.text(v)
                }
            case .sensor?, .state?, .detail?, .action?, .label?, .appClass?, .category?, .rule?, .title?:
                f.more.set(key!, s.text(try s.string()))
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
            guard c == 0x2C else {
                s.pos -= 1
                throw s.fail("expected ',' or '}'")
            }
        }
    }
    s.skipSpace()
    guard s.pos == s.count else { throw s.fail("unexpected text after the closing '}'") }

}

func buildSample(_ f: LineFields, slots: UnsafeMutablePointer<Double>, start: Timestamp, signals: SignalCatalog) throws(JSONLineScanner
    .Failure) -> Sample?
{
    @inline(__always) func value(_ k: Key) -> Double? {
        let v = slots[k.rawValue]
        return v.isNaN ? nil : v
    }
    func required(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Double {
        guard let v = value(k) else { throw JSONLineScanner.Failure(column: 1, message: "missing \"\(name)\"") }
        return v
    }
    func count(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Int {
        guard let v = value(k) else { return 0 }
        guard v >= 0, v < Double(SampleLimits.count.upperBound), v == v.rounded() else {
            throw JSONLineScanner.Failure(
                column: 1, message: "\"\(name)\" must be a whole number from 0 to \(SampleLimits.count.upperBound - 1), got \(v)")
        }
        return Int(v)
    }
    /// Every number the scorers and the live screen compute with lies in a range (`SampleLimits`):
    /// a huge finite value such as 1e19 is refused here, with its line, instead of trapping later.
    func within(_ v: Double, _ k: Key, _ range: ClosedRange<Double>, _ unit: String) throws(JSONLineScanner.Failure) -> Double {
        guard range.contains(v) else {
            throw JSONLineScanner.Failure(
                column: 1,
                message: "\"\(k.jsonName)\" must be from \(whole(range.lowerBound)) to \(whole(range.upperBound))\(unit), got \(v)")
        }
        return v
    }
    func optional(_ k: Key, _ range: ClosedRange<Double>, _ unit: String) throws(JSONLineScanner.Failure) -> Double? {
        guard let v = value(k) else { return nil }
        return try within(v, k, range, unit)
    }

    guard f.sawKind else { throw f.deferred ?? JSONLineScanner.Failure(column: 1, message: "missing \"kind\"") }
    // A kind neither built in nor registered is skipped: a newer writer's, or a signal not loaded.
    var reading: SensorKind?
    if case .unknown = f.kind {
        guard let name = f.kindName, case let sensor = SensorKind(rawValue: name), signals.knows(sensor), !SensorKind.builtIn.contains(sensor) else {
            return nil
        }
        reading = sensor
    }
    if let deferred = f.deferred { throw deferred }
    let t = try required(.t, "t")
    guard t >= 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"t\" is negative (\(t)); times count from the header's start") }
    // 100 years: beyond that the instant would not fit in 64-bit nanoseconds.
    guard t < SampleLimits.span.upperBound else {
        throw JSONLineScanner.Failure(column: 1, message: "\"t\" is \(t) s, more than 100 years after the header's start")
    }
    // t is known to be in [0, 100 years): adding 0.5 and truncating rounds to the nearest nanosecond.
    let time = Timestamp(nanoseconds: start.nanoseconds &+ Int64(t * 1e9 + 0.5))
    switch f.kind {
    case .unknown:
        guard let sensor = reading else { return nil }
        let reading = SignalReading(sensor: sensor, value: try optional(.value, SampleLimits.readingValue, ""), label: f.label)
        return Sample(time: time, payload: .reading(reading))
    case .input:
        let window = try required(.window, "window")
        guard window > 0, window <= SampleLimits.longestWindow else {
            throw JSONLineScanner.Failure(
                column: 1, message: "\"window\" must be greater than 0 and at most a day (86400 s), got \(window)")
        }
        let travel = try optional(.travel, SampleLimits.travel, " units") ?? 0
        let idle = try required(.idle, "idle")
        guard SampleLimits.span.contains(idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"idle\" must be from 0 to 100 years in seconds, got \(idle)")
        }
        let switches = AppSwitches(
            altTab: try count(.altTab, "alt_tab"), superKey: try count(.superKey, "super"), ctrlTab: try count(.ctrlTab, "ctrl_tab"),
            workspace: try count(.workspace, "workspace"), swipes: try count(.swipes, "swipes"))
        return Sample(
            time: time,
            payload: .input(
                InputActivity(
                    window: window, keyPresses: try count(.keys, "keys"), pointerTravel: travel, clicks: try count(.clicks, "clicks"),
                    scrollTicks: try count(.scroll, "scroll"), switches: switches, idle: idle)))
    case .audio:
        let level = SampleLimits.level
        let rms = try within(try required(.rms, "rms"), .rms, level, " dBFS")
        return Sample(
            time: time,
            payload: .audio(
                AudioLevel(
                    rms: rms, peak: try optional(.peak, level, " dBFS") ?? rms, shortTermLUFS: try optional(.lufs, level, " LUFS"),
                    momentaryLUFS: try optional(.momentary, level, " LUFS"))))
    case .location:
        let lat = try required(.lat, "lat")
        let lon = try required(.lon, "lon")
        guard (-90...90).contains(lat) else { throw JSONLineScanner.Failure(column: 1, message: "\"lat\" must be between -90 and 90, got \(lat)") }
        guard (-180...180).contains(lon) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"lon\" must be between -180 and 180, got \(lon)")
        }
        let modeValue = value(.mode) ?? 3
        guard (0...3).contains(modeValue), let mode = FixMode(rawValue: Int(modeValue)), Double(mode.rawValue) == modeValue else {
            throw JSONLineScanner.Failure(column: 1, message: "\"mode\" must be 0, 1, 2 or 3 as in gpsd's TPV, got \(modeValue)")
        }
        let earth = " m (half the Earth's circumference)"
        let accuracy = try optional(.acc, SampleLimits.distance, earth)
        let speed = try optional(.speed, SampleLimits.speed, " m/s")
        let distance = try optional(.dist, SampleLimits.distance, earth)
        let cell = value(.cell)
        if let c = cell, !(c > 0 && c <= 180) {
            throw JSONLineScanner.Failure(column: 1, message: "\"cell\" must be greater than 0 and at most 180 degrees, got \(c)")
        }
        return Sample(
            time: time,
            payload: .location(
                LocationFix(
                    latitude: lat, longitude: lon, horizontalAccuracy: accuracy, speed: speed, mode: mode,
                    distanceFromWorkplace: distance, cellSize: cell)))
    case .desktop:
        if let name = f.state {
            guard let event = DesktopEvent(stateName: name) else {
                throw JSONLineScanner.Failure(
                    column: 1, message: "unknown desktop state \"\(name)\" (expected \(orList(DesktopEvent.stateNames)))")
            }
            return Sample(time: time, payload: .desktop(event))
        }
        guard let idle = value(.idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "a desktop line needs \"idle\" (seconds) or \"state\"")
        }
        guard SampleLimits.span.contains(idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"idle\" must be from 0 to 100 years in seconds, got \(idle)")
        }
        return Sample(time: time, payload: .desktop(.idle(idle)))
    case .app:
        guard let appClass = f.appClass else { throw JSONLineScanner.Failure(column: 1, message: "missing \"class\"") }
        guard let name = f.category else { throw JSONLineScanner.Failure(column: 1, message: "missing \"category\"") }
        guard let category = AppCategory(rawValue: name) else {
            throw JSONLineScanner.Failure(
                column: 1, message: "unknown category \"\(name)\" (expected \(orList(AppCategory.allCases.map(\.rawValue))))")
        }
        return Sample(time: time, payload: .app(AppFocus(appClass: appClass, category: category, rule: f.rule, title: f.title)))
    case .media:
        return Sample(time: time, payload: .media(MediaActivity(calls: try count(.calls, "calls"), playing: try count(.playing, "playing"))))
    case .status:
        guard let sensorName = f.sensor else { throw JSONLineScanner.Failure(column: 1, message: "missing \"sensor\"") }
        let sensorKind = SensorKind(rawValue: sensorName)
        // The status of a sensor not registered here is skipped with its readings: a plug-in's
        // not loaded, or a newer writer's.
        guard signals.knows(sensorKind) else { return nil }
        guard let stateName = f.state else { throw JSONLineScanner.Failure(column: 1, message: "missing \"state\"") }
        guard let st = SensorState(rawValue: stateName) else {
            let known = SensorState.allCases.map(\.rawValue).joined(separator: ", ")
            throw JSONLineScanner.Failure(column: 1, message: "unknown sensor state \"\(stateName)\" (expected one of \(known))")
        }
        return Sample(time: time, payload: .status(SensorStatus(sensor: sensorKind, state: st, detail: f.detail ?? "")))
    case .alive:
        return Sample(time: time, payload: .control(.alive))
    case .control:
        guard let name = f.action else { throw JSONLineScanner.Failure(column: 1, message: "missing \"action\"") }
        // A sign of life is a line of its own kind (`alive`), not a control action.
        guard let a = ControlAction(rawValue: name), a != .alive else {
            let known = ControlAction.allCases.filter { $0 != .alive }.map(\.rawValue).joined(separator: ", ")
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
    var start: String?
    var source: String?
    var note: String?
    var task: String?
    var planned: Double?
    // Some editors on other systems start a UTF-8 file with a byte-order mark; JSON Lines has none.
    if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
        throw JSONLineScanner.Failure(
            column: 1,
            message: "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), which JSON Lines does not allow; "
                + "save it as UTF-8 without one (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE removes it)")
    }
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
        case "planned":
            let p = try s.number()
            guard p > 0, p <= RecordingHeader.longestPlan else {
                throw s.fail("\"planned\" must be a number of seconds greater than 0 and at most a year (31536000), got \(p)")
            }
            planned = p
        default: try s.skipValue()
        }
        s.skipSpace()
        guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
        s.pos += 1
        if c == 0x7D { break }
        guard c == 0x2C else {
            s.pos -= 1
            throw s.fail("expected ',' or '}'")
        }
    }
    guard isRecording else { return nil }
    guard let v = version else { throw JSONLineScanner.Failure(column: 1, message: "header has no \"version\"") }
    guard v.isFinite, v == v.rounded(), v >= 1, v < 1e6 else {
        throw JSONLineScanner.Failure(column: 1, message: "header \"version\" must be a whole number from 1, got \(v)")
    }
    guard Int(v) <= RecordingFormat.version else {
        throw JSONLineScanner.Failure(
            column: 1, message: "recording format version \(Int(v)) is newer than this Vigil reads (\(RecordingFormat.version)); update Vigil")
    }
    guard let startText = start else {
        throw JSONLineScanner.Failure(column: 1, message: "header has no \"start\" (an RFC 3339 time such as 2026-03-02T09:00:00Z)")
    }
    let startTime: Timestamp
    switch readRFC3339(startText) {
    case .success(let t): startTime = t
    case .failure(let problem): throw JSONLineScanner.Failure(column: 1, message: "header \"start\": " + problem.describe(startText))
    }
    return RecordingHeader(version: Int(v), start: startTime, source: source, note: note, task: task, plannedSeconds: planned)
}

/// A range's bound as people write it: `20037509`, `-1000000000000000` (not `1e+15`).
func whole(_ v: Double) -> String { v == v.rounded() && abs(v) <= 1e15 ? String(Int64(v)) : "\(v)" }

/// `a`, `a or b`, `a, b or c`.
func orList(_ words: [String]) -> String {
    guard let last = words.last else { return "" }
    return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
}
