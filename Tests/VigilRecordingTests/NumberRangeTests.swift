import Foundation
import Testing
import VigilCore

@testable import VigilRecording

/// Huge finite numbers (issue 17): `"rms":1e19` was read, and the scorer and the live screen
/// trapped on it ("Double value cannot be converted to Int"). Every number of a line now lies in
/// its documented range (docs/recording-format.md, "Ranges") or the line is refused.
@Suite struct NumberRangeTests {
    static let heart = SensorKind(rawValue: "heart")
    static let signals = SignalCatalog.builtIn.adding(SignalDefinition(sensor: heart, causes: []) { _ in [] })

    /// One numeric key of one kind: the line that carries it, where it lands in the sample, and the
    /// values the format allows (written out here as the documentation says them).
    struct Field: CustomStringConvertible, Sendable {
        var key: String
        var line: @Sendable (String) -> String
        var value: @Sendable (Sample) -> Double?
        var allowed: @Sendable (Double) -> Bool
        var description: String { line("X") }
    }

    static func input(_ key: String, _ value: @escaping @Sendable (InputActivity) -> Double, allowed: @escaping @Sendable (Double) -> Bool) -> Field {
        Field(
            key: key,
            line: { x in
                let base = ["window": "5", "idle": "1"].merging([key: x]) { $1 }
                return #"{"t":5,"kind":"input","# + base.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            },
            value: { s in if case .input(let a) = s.payload { value(a) } else { nil } }, allowed: allowed)
    }
    static func count(_ key: String, _ value: @escaping @Sendable (InputActivity) -> Int) -> Field {
        input(key, { Double(value($0)) }, allowed: isCount)
    }
    static func location(_ key: String, _ value: @escaping @Sendable (LocationFix) -> Double?, allowed: @escaping @Sendable (Double) -> Bool) -> Field
    {
        Field(
            key: key,
            line: { x in
                let base = ["lat": "1", "lon": "2"].merging([key: x]) { $1 }
                return #"{"t":5,"kind":"location","# + base.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
                    + "}"
            },
            value: { s in if case .location(let f) = s.payload { value(f) } else { nil } }, allowed: allowed)
    }
    static func audio(_ key: String, _ value: @escaping @Sendable (AudioLevel) -> Double?) -> Field {
        Field(
            key: key, line: { x in key == "rms" ? #"{"t":5,"kind":"audio","rms":\#(x)}"# : #"{"t":5,"kind":"audio","rms":-50,"\#(key)":\#(x)}"# },
            value: { s in if case .audio(let l) = s.payload { value(l) } else { nil } }, allowed: { (-200...20).contains($0) })
    }

    @Sendable static func isCount(_ v: Double) -> Bool { v >= 0 && v <= 999_999_999 && v == v.rounded() }
    @Sendable static func isSpan(_ v: Double) -> Bool { v >= 0 && v < 3.15e9 }
    @Sendable static func isDistance(_ v: Double) -> Bool { v >= 0 && v <= 20_037_509 }

    static let fields: [Field] = [
        Field(
            key: "t", line: { #"{"t":\#($0),"kind":"audio","rms":-50}"# }, value: { s in s.time - start }, allowed: isSpan),
        input("window", { $0.window }, allowed: { $0 > 0 && $0 <= 86_400 }),
        input("idle", { $0.idle }, allowed: isSpan),
        input("travel", { $0.pointerTravel }, allowed: { $0 >= 0 && $0 <= 1e12 }),
        count("keys", { $0.keyPresses }), count("clicks", { $0.clicks }), count("scroll", { $0.scrollTicks }),
        count("alt_tab", { $0.switches.altTab }), count("super", { $0.switches.superKey }), count("ctrl_tab", { $0.switches.ctrlTab }),
        count("workspace", { $0.switches.workspace }), count("swipes", { $0.switches.swipes }),
        audio("rms", { $0.rms }), audio("peak", { $0.peak }), audio("lufs", { $0.shortTermLUFS }), audio("momentary", { $0.momentaryLUFS }),
        location("lat", { $0.latitude }, allowed: { (-90...90).contains($0) }),
        location("lon", { $0.longitude }, allowed: { (-180...180).contains($0) }),
        location("acc", { $0.horizontalAccuracy }, allowed: isDistance),
        location("speed", { $0.speed }, allowed: { $0 >= 0 && $0 <= 20_000 }),
        location("dist", { $0.distanceFromWorkplace }, allowed: isDistance),
        location("cell", { $0.cellSize }, allowed: { $0 > 0 && $0 <= 180 }),
        location("mode", { Double($0.mode.rawValue) }, allowed: { [0, 1, 2, 3].contains($0) }),
        Field(
            key: "idle", line: { #"{"t":5,"kind":"desktop","idle":\#($0)}"# },
            value: { s in if case .desktop(.idle(let i)) = s.payload { i } else { nil } }, allowed: isSpan),
        Field(
            key: "calls", line: { #"{"t":5,"kind":"media","calls":\#($0)}"# },
            value: { s in if case .media(let m) = s.payload { Double(m.calls) } else { nil } }, allowed: isCount),
        Field(
            key: "playing", line: { #"{"t":5,"kind":"media","playing":\#($0)}"# },
            value: { s in if case .media(let m) = s.payload { Double(m.playing) } else { nil } }, allowed: isCount),
        Field(
            key: "value", line: { #"{"t":5,"kind":"heart","value":\#($0)}"# },
            value: { s in if case .reading(let r) = s.payload { r.value } else { nil } }, allowed: { (-1e15...1e15).contains($0) }),
    ]

    /// A line decoded in memory, as `RecordingReader` decodes each line of a file.
    static func decode(_ line: String) -> Result<Sample?, JSONLineScanner.Failure> {
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            Result { () throws(JSONLineScanner.Failure) -> Sample? in try decodeSampleLine(bytes, start: start, signals: signals) }
        }
    }

    /// Numbers as a fuzzer would choose them: the edges of every range and just past them, any bit
    /// pattern (NaN, infinities, subnormals, the largest and smallest exponents), decimals with
    /// exponents far beyond a Double's, long digit strings, and what is not a JSON number at all.
    static func numberTexts(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let edges: [Double] = [
            0, -0.0, 1, -1, 0.5, 3, 4, 20, -200, 90, 180, -180, 86_400, 999_999_999, 1e9, 1e12, 20_000, 20_037_509, 3.15e9, 1e15, -1e15,
            9_007_199_254_740_993, 9.223372036854775807e18, 1e19, -1e19, 1.8446744073709552e19, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        ]
        var out = edges.flatMap { ["\($0)", "\($0.nextUp)", "\($0.nextDown)"] }
        out += [
            "NaN", "-NaN", "Infinity", "-Infinity", "nan", "inf", "1e400", "-1e400", "1e-400", "1E+19", "-0", "2e308",
            "1" + String(repeating: "0", count: 400),
        ]
        while out.count < count {
            switch random.int(in: 0...4) {
            case 0:
                // Any bit pattern: a quarter of them beyond 1e19 or below 1e-19 in magnitude.
                out.append("\(Double(bitPattern: random.next()))")
            case 1:
                // A subnormal.
                out.append("\(Double(bitPattern: random.next() & 0x800F_FFFF_FFFF_FFFF))")
            case 2:
                let mantissa = random.int(in: 1...999_999_999)
                out.append("\(random.chance(0.5) ? "-" : "")\(mantissa)e\(random.int(in: -340...340))")
            case 3:
                // Digits only: the scanner's slow path past 15 significant digits.
                out.append(String((0..<random.int(in: 1...40)).map { i in Character("\(i == 0 ? random.int(in: 1...9) : random.int(in: 0...9))") }))
            default:
                out.append("\(random.uniform(-1e6, 1e6))")
            }
        }
        return out
    }

    /// Every numeric key, any number: the line is either read with the value in its range, or
    /// refused with a reason (which, for a number, names the key). Never a trap.
    @Test(arguments: fields)
    func everyNumberIsInRangeOrRefused(field: Field) throws {
        var accepted = 0
        for text in Self.numberTexts(count: 1_500, seed: field.line("X").utf8.reduce(17) { $0 &* 31 &+ UInt64($1) }) {
            let line = field.line(text)
            // What a JSON parser makes of the text: nil when it is not a JSON number at all.
            let isJSONNumber = text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
            let number = isJSONNumber ? Double(text) : nil
            switch Self.decode(line) {
            case .success(let sample):
                let sample = try #require(sample, "\(line) was skipped")
                let value = try #require(field.value(sample), "\(line): no \(field.key) in \(sample)")
                #expect(number.map { $0.isFinite && field.allowed($0) } == true, "\(line) was accepted as \(value)")
                // `t` becomes whole nanoseconds: compared with its range only.
                if field.key == "t" {
                    #expect(value >= 0 && value <= 3.15e9, "\(line) read as \(value)")
                } else {
                    #expect(field.allowed(value), "\(line) read as \(value), out of range")
                    #expect(value == number, "\(line) read as \(value)")
                }
                accepted += 1
            case .failure(let failure):
                #expect(number.map { !$0.isFinite || !field.allowed($0) } ?? true, "\(line) was refused: \(failure.message)")
                if number != nil { #expect(failure.message.contains("\"\(field.key)\""), "\(line): \(failure.message)") }
            }
        }
        #expect(accepted >= 5, "few values in range were tried")
    }

    /// A live reading brought into the ranges (`SampleLimits.clamped`) always writes a line that
    /// reads back as the same reading: a session's recording replays, whatever its sensors said.
    @Test func clampedReadingsAlwaysReadBack() throws {
        var random = SplitMix64(seed: 2026)
        func anyDouble() -> Double {
            switch random.int(in: 0...3) {
            case 0: Double(bitPattern: random.next())
            case 1: [.nan, .infinity, -.infinity, 1e19, -1e19, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0][random.int(in: 0...7)]
            case 2: random.uniform(-300, 300)
            default: random.uniform(0, 1e7)
            }
        }
        func anyInt() -> Int { random.chance(0.5) ? Int(truncatingIfNeeded: random.next()) : random.int(in: -3...2_000_000_000) }
        let encoder = RecordingEncoder(header: RecordingHeader(start: start))
        for _ in 0..<3_000 {
            let payload: SamplePayload =
                switch random.int(in: 0...5) {
                case 0:
                    .input(
                        InputActivity(
                            window: anyDouble(), keyPresses: anyInt(), pointerTravel: anyDouble(), clicks: anyInt(), scrollTicks: anyInt(),
                            switches: AppSwitches(altTab: anyInt(), superKey: anyInt(), ctrlTab: anyInt(), workspace: anyInt(), swipes: anyInt()),
                            idle: anyDouble()))
                case 1:
                    .audio(
                        AudioLevel(
                            rms: anyDouble(), peak: anyDouble(), shortTermLUFS: random.chance(0.5) ? anyDouble() : nil,
                            momentaryLUFS: random.chance(0.5) ? anyDouble() : nil))
                case 2:
                    .location(
                        LocationFix(
                            latitude: anyDouble(), longitude: anyDouble(), horizontalAccuracy: random.chance(0.5) ? anyDouble() : nil,
                            speed: random.chance(0.5) ? anyDouble() : nil, mode: [.unknown, .noFix, .twoD, .threeD][random.int(in: 0...3)],
                            distanceFromWorkplace: random.chance(0.5) ? anyDouble() : nil, cellSize: random.chance(0.5) ? 0.01 : nil))
                case 3: .desktop(.idle(anyDouble()))
                case 4: .media(MediaActivity(calls: anyInt(), playing: anyInt()))
                default: .reading(SignalReading(sensor: Self.heart, value: anyDouble(), label: "x"))
                }
            let clamped = SampleLimits.clamped(payload)
            let line = encoder.line(for: Sample(time: start + 5, payload: clamped))
            switch Self.decode(line) {
            case .success(let sample): #expect(sample?.payload == clamped, "\(line)")
            case .failure(let failure): Issue.record("\(line) (from \(payload)) was refused: \(failure.message)")
            }
        }
    }

    /// The line of a file is named, with the key and its range.
    @Test(arguments: [
        (#"{"t":1,"kind":"audio","rms":1e19}"#, "\"rms\" must be from -200 to 20 dBFS, got 1e+19"),
        (#"{"t":1,"kind":"audio","rms":-20,"peak":21}"#, "\"peak\" must be from -200 to 20 dBFS, got 21.0"),
        (#"{"t":1,"kind":"audio","rms":-20,"lufs":-1e300}"#, "\"lufs\" must be from -200 to 20 LUFS, got -1e+300"),
        (#"{"t":1,"kind":"audio","rms":-20,"momentary":1e19}"#, "\"momentary\" must be from -200 to 20 LUFS"),
        (#"{"t":1,"kind":"input","window":5,"idle":1e19}"#, "\"idle\" must be from 0 to 100 years in seconds, got 1e+19"),
        (#"{"t":1,"kind":"input","window":5,"idle":-1}"#, "\"idle\" must be from 0 to 100 years in seconds, got -1.0"),
        (#"{"t":1,"kind":"input","window":1e19,"idle":1}"#, "\"window\" must be greater than 0 and at most a day (86400 s), got 1e+19"),
        (#"{"t":1,"kind":"input","window":5,"idle":1,"travel":1e19}"#, "\"travel\" must be from 0 to 1000000000000 units, got 1e+19"),
        (#"{"t":1,"kind":"input","window":5,"idle":1,"keys":1e19}"#, "\"keys\" must be a whole number from 0 to 999999999, got 1e+19"),
        (
            #"{"t":1,"kind":"location","lat":1,"lon":0,"dist":1e19}"#,
            "\"dist\" must be from 0 to 20037509 m (half the Earth's circumference), got 1e+19"
        ),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"dist":-3}"#, "\"dist\" must be from 0 to 20037509 m"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"acc":1e19}"#, "\"acc\" must be from 0 to 20037509 m"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"speed":1e19}"#, "\"speed\" must be from 0 to 20000 m/s, got 1e+19"),
        (#"{"t":1,"kind":"location","lat":1e19,"lon":0}"#, "\"lat\" must be between -90 and 90, got 1e+19"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"mode":1e19}"#, "\"mode\" must be 0, 1, 2 or 3"),
        (#"{"t":1,"kind":"desktop","idle":1e19}"#, "\"idle\" must be from 0 to 100 years in seconds, got 1e+19"),
        (#"{"t":1,"kind":"media","calls":1e19}"#, "\"calls\" must be a whole number from 0 to 999999999, got 1e+19"),
        (#"{"t":1e19,"kind":"audio","rms":-20}"#, "\"t\" is 1e+19 s, more than 100 years after the header's start"),
    ])
    func aHugeNumberNamesTheFileLineKeyAndRange(line: String, message: String) {
        let e = readError(header + "\n" + #"{"t":0,"kind":"audio","rms":-20}"# + "\n" + line + "\n")
        #expect(e?.line == 3)
        #expect(e?.message.contains(message) == true, "\(String(describing: e)) should say \(message)")
        #expect(e?.description.contains(".jsonl:3: column 1: \"") == true, "\(String(describing: e))")
    }

    @Test func aPlugInReadingsValueHasARange() throws {
        let path = tempFile("r.jsonl", header + "\n" + #"{"t":1,"kind":"heart","value":1e19}"# + "\n")
        do {
            _ = try RecordingReader(path: path, signals: Self.signals).readAll()
            Issue.record("the reading was accepted")
        } catch {
            #expect(error.line == 2 && error.message.contains("\"value\" must be from -1000000000000000 to 1000000000000000, got 1e+19"), "\(error)")
        }
    }

    /// The header's planned length is at most a year: the session's end is an instant.
    @Test(arguments: ["1e300", "0", "-5", "31536000.5"])
    func aHugePlannedLengthIsRefused(planned: String) {
        let e = readError(#"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z","planned":\#(planned)}"# + "\n")
        #expect(e?.line == 1)
        #expect(
            e?.message.contains("\"planned\" must be a number of seconds greater than 0 and at most a year (31536000)") == true,
            "\(String(describing: e))")
    }

    @Test func aYearsPlanIsRead() throws {
        let path = tempFile("r.jsonl", #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z","planned":31536000}"# + "\n")
        #expect(try RecordingReader(path: path).header.plannedSeconds == 31_536_000)
    }
}
