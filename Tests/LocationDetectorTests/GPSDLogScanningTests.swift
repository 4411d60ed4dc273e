import Foundation
import Testing
import VigilCore

@testable import SensorFiles

/// The gpsd reader scans each report in place (issue 18: JSONSerialization made a dictionary of
/// every report, 16 s for a million). Logs were read with JSONSerialization before, so each line is
/// taken or refused as it took or refused it, and its numbers have the values it gave them.
@Suite struct GPSDLogScanningTests {
    static let version = #"{"class":"VERSION","release":"3.22"}"#

    /// The samples of a log of gpsd's VERSION and `line`, or the error.
    static func read(_ line: String) -> Result<[Sample], GPSDLogError> {
        read(bytes: Array(line.utf8))
    }

    static func read(bytes: [UInt8]) -> Result<[Sample], GPSDLogError> {
        Result { () throws(GPSDLogError) -> [Sample] in
            try GPSDLog.parse(Data(Array((version + "\n").utf8) + bytes + [0x0A]), name: "log.json").samples
        }
    }

    static func fixes(_ line: String) -> [LocationFix]? {
        (try? read(line).get())?.compactMap { s in if case .location(let f) = s.payload { f } else { nil } }
    }

    /// A TPV with `fields` after its class and time.
    static func tpv(_ fields: String) -> String { #"{"class":"TPV","time":"2026-03-02T09:00:01Z",\#(fields)}"# }

    /// A latitude spelled in every way JSON allows gets the value JSONSerialization gives it: long
    /// numbers through Decimal (not correctly rounded), JSON's true as 1, "-0" as 0.
    @Test(arguments: [
        "52.2053", "52.205300001", "-52.2053", "5.22053e1", "5.22053E1", "522053e-4", "52.20530000000000000001", "52.205300000000000000000000000001",
        "1234567890123456789e-17", "0.52205300000000000012e2", "-0", "-0.0", "0", "true", "false", "45.999999999999999999", "-12.345678901234567",
        "-12.3456789012345678901234", "1e-400", "0.000000000000000000000000000000000000000000001",
    ])
    func numbersReadAsJSONSerializationReadThem(latitude: String) throws {
        let line = Self.tpv(#""mode":3,"lat":\#(latitude),"lon":0.1218"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let expected = try #require(object["lat"] as? NSNumber).doubleValue
        let got = try #require(Self.fixes(line)?.first).latitude
        #expect(got.bitPattern == expected.bitPattern, "\(got) for \(latitude), JSONSerialization: \(expected)")
    }

    /// What JSONSerialization's dictionary made of a line: a key's last value counts, a value of
    /// another type is no value, a trailing comma is taken, keys and strings may be escaped.
    @Test func keysAndValuesAreReadAsTheDictionaryHadThem() throws {
        let plain = try #require(Self.fixes(Self.tpv(#""mode":3,"lat":52.2,"lon":0.12,"eph":5"#)))
        #expect(plain.count == 1)
        let same = [
            Self.tpv(#""mode":3,"lat":10,"lon":0.12,"eph":5,"lat":52.2"#),
            Self.tpv(#""mode":3,"lat":52.2,"lon":0.12,"eph":5,"#),
            Self.tpv(#""mode":3,"lat":52.2,"lon":0.12,"eph":5,"eph":"5","epx":5,"epy":1"#),
            Self.tpv(#""mode":"2","mode":3,"lat":52.2,"lon":0.12,"eph":5,"speed":null"#),
            #"{"cl\u0061ss":"T\u0050V","t\u0069me":"2026-03-02T09:00:01Z","mode":3,"lat":52.2,"l\u006fn":0.12,"eph":5}"#,
            #" {"class" : "TPV" , "time" : "2026-03-02T09:00:01Z" , "mode" : 3 , "lat" : 52.2 , "lon" : 0.12 , "eph" : 5 } "# + "\r",
            Self.tpv(#""mode":3,"lat":52.2,"lon":0.12,"eph":5,"satellites":[{"PRN":5,"el":42,"used":true,"x":[[],{}]},],"ok":[null,"\ud83d\ude00"]"#),
            Self.tpv(#""mode":true,"mode":3,"lat":52.2,"lon":0.12,"eph":5,"speed":"fast""#),
        ]
        for line in same {
            let fixes = Self.fixes(line)
            #expect(fixes == plain, "\(line)")
        }
        // JSON's true is an NSNumber of 1: a mode of true is mode 1, no fix.
        let modeTrue = Self.fixes(Self.tpv(#""mode":true,"lat":52.2,"lon":0.12"#))
        #expect(modeTrue == [])
        // "-0" is the integer 0, not -0.0.
        let zero = try #require(Self.fixes(Self.tpv(#""mode":3,"lat":52.2,"lon":0.12,"speed":-0"#))?.first)
        #expect(zero.speed?.sign == .plus)
        // A class that is not a string is no class, even after one that is.
        let noClass = Self.read(#"{"class":"TPV","class":5,"mode":1}"#)
        #expect(noClass.failure?.message.contains("has a \"class\"") == true)
        let time = Self.read(#"{"class":"TPV","time":"2026-03-02T09:00:01Z","time":"late\u0021","mode":1}"#)
        #expect(time.failure?.message.hasSuffix(": late!") == true)
    }

    /// Lines JSONSerialization refused are refused, wherever in the line the fault is: also inside
    /// values no sample needs.
    @Test(arguments: [
        #""mode":3,"x":"\ud800""#, #""mode":3,"x":"\udc00\udc00""#, #""mode":3,"x":[1e400]"#, #""mode":3,"x":-1e309"#, #""mode":3,"x":[1,,2]"#,
        #""mode":3,"x":{"a":1,,}"#, #""mode":3,"x":01"#, #""mode":3,"x":"a\#u{01}b""#, #""mode":3,"x":tru"#, #""mode":3,,"#,
    ])
    func linesJSONSerializationRefusedAreRefused(fields: String) {
        let line = Self.tpv(fields)
        let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
        #expect(parsed == nil, "JSONSerialization takes \(line)")
        let result = Self.read(line)
        #expect(result.failure?.message.contains("not a gpsd JSON report") == true, "\(line)")
        #expect(result.failure?.line == 2)
    }

    @Test func invalidUTF8AndDeepNestingAreRefusedAsBefore() {
        let head = Array(Self.tpv(#""mode":1,"x":""#).utf8.dropLast())
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let result = Self.read(bytes: head + bad + Array(#""}"#.utf8))
            #expect(result.failure?.message.contains("not a gpsd JSON report") == true, "\(bad)")
        }
        let fine = Self.read(bytes: head + [0xC3, 0xA9] + Array(#""}"#.utf8))
        #expect(fine.failure == nil)
        // 512 levels, the report's own object counting as one, as JSONSerialization allows.
        func nested(_ arrays: Int) -> String {
            Self.tpv(#""mode":1,"x":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays))
        }
        let deepest = Self.read(nested(511))
        #expect(deepest.failure == nil)
        let tooDeep = Self.read(nested(512))
        #expect(tooDeep.failure?.message.contains("not a gpsd JSON report") == true)
    }

    /// JSONSerialization took a line whose second byte is 0 for UTF-16: so does the reader.
    @Test func aUTF16LineIsReadAsJSONSerializationReadIt() {
        let line = Array(#"{"class":"SKY"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let tpv = Array(Self.tpv(#""mode":3,"lat":52.2,"lon":0.12"#).utf8)
        let result = Self.read(bytes: line + [0x0A] + tpv)
        #expect(result.failure == nil)
    }

    /// A log ten times longer is read through the same buffer, with as few samples waiting.
    @Test func aLongerLogTakesNoMoreMemory() throws {
        func read(_ count: Int) throws -> (buffer: Int, waiting: Int, fixes: Int) {
            let drive = GPSDLogReaderTests.Drive(timed: count)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-gpsd-\(UUID().uuidString).json").path
            try drive.write(to: path)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try GPSDLogReader(path: path)
            var fixes = 0
            while let s = try reader.next() { if case .location = s.payload { fixes += 1 } }
            return (reader.lineBufferCapacity, reader.mostSamplesWaiting, fixes)
        }
        let short = try read(2_000)
        let long = try read(20_000)
        #expect(short.fixes == 2_000 && long.fixes == 20_000)
        #expect(long.buffer == short.buffer)
        #expect(long.waiting == short.waiting)
        #expect(long.waiting <= 2, "a fix, and the status before the first")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
