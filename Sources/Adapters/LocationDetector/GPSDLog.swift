import Foundation
import VigilCore

/// An error in a gpsd JSON log, with where it is.
public struct GPSDLogError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based line; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A gpsd JSON log, as `gpspipe -w` writes it (and as gpsd's regression `.chk` files hold it), read
/// into location and status samples the way the live `GPSDDetector` makes them from libgps.
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
/// the first one if none came before. The recording starts at its first timed report.
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
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read it" : "no such file"
            throw GPSDLogError(file: path, line: 0, message: reason)
        }
        return try parse(data, name: path)
    }

    public static func parse(_ data: Data, name: String) throws(GPSDLogError) -> GPSDLog {
        struct Report {
            var line: Int
            var time: Timestamp?
            var mode: Int
            var fix: LocationFix?
        }
        var reports: [Report] = []
        var skipped = 0
        var sawGPSD = false
        var lineNumber = 0
        for raw in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = raw
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line = line.dropLast() }
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            guard let first = line.first else { continue }
            // NMEA and AIS sentences, comments, and the progress lines gpsfake prints among the reports.
            if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") || first == UInt8(ascii: "#")
                || line.starts(with: "gpsfake".utf8) || line.starts(with: "gpsd:".utf8)
            {
                skipped += 1
                continue
            }
            guard first == UInt8(ascii: "{"),
                let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            else {
                throw GPSDLogError(
                    file: name, line: lineNumber,
                    message: "not a gpsd JSON report (expected a JSON object such as {\"class\":\"TPV\",...} on each line, as `gpspipe -w` writes)")
            }
            guard let cls = object["class"] as? String else {
                throw GPSDLogError(
                    file: name, line: lineNumber, message: "a gpsd report has a \"class\" (TPV, SKY, VERSION...); this object has none")
            }
            sawGPSD = true
            guard cls == "TPV" else { continue }
            var time: Timestamp?
            if let text = object["time"] as? String {
                guard let t = parseRFC3339(text) else {
                    throw GPSDLogError(file: name, line: lineNumber, message: "TPV \"time\" is not an ISO 8601 time \(SupportedDates.range): \(text)")
                }
                time = t
            }
            /// A number of the report, refused with its line when it is outside what a receiver
            /// can mean (`SampleLimits`): a damaged 1e19 would otherwise reach the scorer.
            func number(_ key: String, _ range: ClosedRange<Double>, _ unit: String) throws(GPSDLogError) -> Double? {
                guard let v = (object[key] as? NSNumber)?.doubleValue else { return nil }
                guard range.contains(v) else {
                    throw GPSDLogError(
                        file: name, line: lineNumber,
                        message: "TPV \"\(key)\" must be from \(jsonNumber(range.lowerBound)) to \(jsonNumber(range.upperBound))\(unit), got \(v)")
                }
                return v
            }
            // Read as a Double: NSNumber's intValue wraps 1e23 to a number that looks like a fix.
            let modeValue = try number("mode", 0...3, " (gpsd's fix modes)") ?? 0
            guard modeValue == modeValue.rounded() else {
                throw GPSDLogError(file: name, line: lineNumber, message: "TPV \"mode\" must be 0, 1, 2 or 3, got \(modeValue)")
            }
            let mode = Int(modeValue)
            var fix: LocationFix?
            if mode >= 2, let lat = (object["lat"] as? NSNumber)?.doubleValue, let lon = (object["lon"] as? NSNumber)?.doubleValue {
                guard SampleLimits.latitude.contains(lat), SampleLimits.longitude.contains(lon) else {
                    throw GPSDLogError(file: name, line: lineNumber, message: "TPV position out of range (lat \(lat), lon \(lon))")
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
            reports.append(Report(line: lineNumber, time: time, mode: mode, fix: fix))
        }
        guard sawGPSD else {
            throw GPSDLogError(file: name, line: 0, message: "no gpsd JSON reports in the file (record one with `gpspipe -w > log.json`)")
        }
        guard let start = reports.lazy.compactMap(\.time).first else {
            throw GPSDLogError(file: name, line: 0, message: "no TPV report has a \"time\": the log cannot be placed on a timeline")
        }

        var samples: [Sample] = []
        var track = TrackSummary()
        var clock = start
        var hadFix = false
        for r in reports {
            // Some receivers repeat or reorder times by a few ms; a sample never goes back.
            if let t = r.time { clock = max(clock, t) }
            if let fix = r.fix {
                if !hadFix {
                    samples.append(
                        Sample(time: clock, payload: .status(SensorStatus(sensor: .location, state: .available, detail: "fix from the gpsd log"))))
                }
                hadFix = true
                samples.append(Sample(time: clock, payload: .location(fix)))
                track.add(fix)
            } else if r.mode <= 1, hadFix {
                hadFix = false
                track.loseFix()
                samples.append(
                    Sample(time: clock, payload: .status(SensorStatus(sensor: .location, state: .noFix, detail: "the receiver lost its fix"))))
            }
        }
        return GPSDLog(samples: samples, reports: reports.count, track: track, start: start, skippedLines: skipped)
    }
}
