import Foundation
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
            let raw: UnsafeBufferPointer<UInt8>?
            do {
                raw = try lines.next()
            } catch {
                switch error {
                case .lineTooLong(let limit):
                    throw GPSDLogError(
                        file: path, line: lines.lineNumber + 1, message: "line longer than \(limit >> 20) MiB: not a gpsd JSON report")
                case .cannotRead(let failure):
                    throw GPSDLogError(file: path, line: lines.lineNumber + 1, message: "read error: \(failure.reason)", isReadFailure: true)
                }
            }
            guard let raw else { return nil }
            var line = raw[...]
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            guard let first = line.first else { continue }
            // NMEA and AIS sentences, comments, and the progress lines gpsfake prints among the reports.
            if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") || first == UInt8(ascii: "#")
                || line.starts(with: "gpsfake".utf8) || line.starts(with: "gpsd:".utf8)
            {
                skippedLines += 1
                continue
            }
            if let report = try read(line, sawGPSD: &sawGPSD) { return report }
        }
    }

    /// The TPV report on one line; nil for a report of another class.
    private func read(_ line: Slice<UnsafeBufferPointer<UInt8>>, sawGPSD: inout Bool) throws(GPSDLogError) -> Report? {
        let lineNumber = lines.lineNumber
        guard line.first == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
        else {
            throw GPSDLogError(
                file: path, line: lineNumber,
                message: "not a gpsd JSON report (expected a JSON object such as {\"class\":\"TPV\",...} on each line, as `gpspipe -w` writes)")
        }
        guard let cls = object["class"] as? String else {
            throw GPSDLogError(file: path, line: lineNumber, message: "a gpsd report has a \"class\" (TPV, SKY, VERSION...); this object has none")
        }
        sawGPSD = true
        guard cls == "TPV" else { return nil }
        var time: Timestamp?
        if let text = object["time"] as? String {
            guard let t = parseRFC3339(text) else {
                throw GPSDLogError(file: path, line: lineNumber, message: "TPV \"time\" is not an ISO 8601 time \(SupportedDates.range): \(text)")
            }
            time = t
        }
        /// A number of the report, refused with its line when it is outside what a receiver
        /// can mean (`SampleLimits`): a damaged 1e19 would otherwise reach the scorer.
        func number(_ key: String, _ range: ClosedRange<Double>, _ unit: String) throws(GPSDLogError) -> Double? {
            guard let v = (object[key] as? NSNumber)?.doubleValue else { return nil }
            guard range.contains(v) else {
                throw GPSDLogError(
                    file: path, line: lineNumber,
                    message: "TPV \"\(key)\" must be from \(jsonNumber(range.lowerBound)) to \(jsonNumber(range.upperBound))\(unit), got \(v)")
            }
            return v
        }
        // Read as a Double: NSNumber's intValue wraps 1e23 to a number that looks like a fix.
        let modeValue = try number("mode", 0...3, " (gpsd's fix modes)") ?? 0
        guard modeValue == modeValue.rounded() else {
            throw GPSDLogError(file: path, line: lineNumber, message: "TPV \"mode\" must be 0, 1, 2 or 3, got \(modeValue)")
        }
        let mode = Int(modeValue)
        var fix: LocationFix?
        if mode >= 2, let lat = (object["lat"] as? NSNumber)?.doubleValue, let lon = (object["lon"] as? NSNumber)?.doubleValue {
            guard SampleLimits.latitude.contains(lat), SampleLimits.longitude.contains(lon) else {
                throw GPSDLogError(file: path, line: lineNumber, message: "TPV position out of range (lat \(lat), lon \(lon))")
            }
            let earth = " m (half the Earth's circumference)"
            var eph = try number("eph", SampleLimits.distance, earth)
            if eph == nil, let x = try number("epx", SampleLimits.distance, earth), let y = try number("epy", SampleLimits.distance, earth) {
                eph = max(x, y)
            }
            fix = LocationFix(
                latitude: lat, longitude: lon, horizontalAccuracy: eph, speed: try number("speed", SampleLimits.speed, " m/s"),
                mode: mode == 3 ? .threeD : .twoD)
        }
        return Report(time: time, mode: mode, fix: fix)
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
