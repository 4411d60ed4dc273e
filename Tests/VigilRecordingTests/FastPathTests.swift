import Foundation
import Testing
import VigilCore

@testable import VigilRecording

/// The replay's fast path (issue 18): canonical lines scanned where they lie in the reader's
/// buffer, eight bytes at a time, must read exactly as the line-by-line general path does,
/// wherever the buffer's boundaries fall.
@Suite struct FastPathTests {
    /// Every sample of `text` through the reader with a buffer of `bufferSize` bytes, or its error.
    func read(_ path: String, bufferSize: Int) -> Result<[Sample], RecordingError> {
        Result { () throws(RecordingError) -> [Sample] in
            try RecordingReader(path: path, signals: signals, bufferSize: bufferSize).readAll()
        }
    }

    /// Each line of `lines` decoded on its own (`decodeSampleLine`, whose numbers the general
    /// scanner checks), the samples a reader must return.
    func expected(_ lines: [String]) -> [Sample] {
        lines.compactMap { line in
            var bytes = Array(line.utf8)
            if bytes.last == 0x0D { bytes.removeLast() }
            guard bytes.contains(where: { $0 != 0x20 }) else { return nil }
            return bytes.withUnsafeBufferPointer { b in (try? decodeSampleLine(b, start: start, signals: signals)) ?? nil }
        }
    }

    let heart = SensorKind(rawValue: "heart")
    var signals: SignalCatalog { SignalCatalog.builtIn.adding(SignalDefinition(sensor: heart, causes: []) { _ in [] }) }

    /// Numbers of every precision the fast path reads (1 to 15 digits, split every way between
    /// the integer and the fraction, signed), and some it leaves to the general scanner.
    func numbers() -> [String] {
        var out: [String] = ["0", "-0", "0.5", "-0.25", "1e3", "1.5E-3", "00", "01.5", "1.", "-", "123456789012345.678", "9007199254740993"]
        var rng = SplitMix64(seed: 18)
        for digits in 1...16 {
            for point in 0..<digits {
                var text = ""
                for d in 0..<digits {
                    if d == point, d > 0 { text += "." }
                    let first = d == 0 && point != 1
                    text += String(Int(rng.next() % (first ? 9 : 10)) + (first ? 1 : 0))
                }
                out.append(text)
                out.append("-" + text)
            }
        }
        return out
    }

    /// Whether `text` is a number as JSON writes them (no leading zeros, digits after a point),
    /// within the range of a reading's value (±10^15).
    func isJSONNumber(_ text: String) -> Bool {
        text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil && abs(Double(text) ?? .infinity) <= 1e15
    }

    @Test func numbersOfEveryPrecisionReadAsTheStandardLibraryReadsThem() throws {
        let texts = numbers().filter(isJSONNumber)
        let lines = texts.map { "{\"t\":0,\"kind\":\"heart\",\"value\":\($0)}" }
        let path = tempFile("numbers.jsonl", header + "\n" + lines.joined(separator: "\n") + "\n")
        let reader = try RecordingReader(path: path, signals: signals)
        var values: [Double?] = []
        while let s = try reader.next() {
            guard case .reading(let r) = s.payload else { continue }
            values.append(r.value)
        }
        let wanted = texts.map { Double($0) }
        #expect(values == wanted)
    }

    @Test func digitsAreReadEightAtATime() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 9)
            var bytes = (0..<count).map { _ in UInt8(0x30 + rng.next() % 10) }
            // Then anything that is not a digit, and whatever follows.
            let stops: [UInt8] = [0x2E, 0x2C, 0x7D, 0x65, 0x2F, 0x3A, 0x00, 0xFF, 0xB0, 0x0A]
            while bytes.count < 8 { bytes.append(bytes.count == count ? stops[Int(rng.next() % 10)] : UInt8(truncatingIfNeeded: rng.next())) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let run = digitRun(UInt64(littleEndian: word))
            #expect(run == count)
            if count > 0 {
                let value = digitsValue(UInt64(littleEndian: word), count)
                let text = String(decoding: bytes[0..<count], as: UTF8.self)
                #expect(value == UInt64(text)!)
            }
            let quote = bytes.firstIndex(of: 0x22) ?? 8
            let found = firstByte(0x22, in: UInt64(littleEndian: word))
            #expect(found == quote)
        }
    }

    /// Lines of every kind, canonical and not, with CR LF endings, blank lines and a plug-in's
    /// reading, read through buffers from smaller than a line (it grows) to larger than the file.
    @Test func linesReadTheSameWhereverTheBufferEnds() throws {
        var lines = [
            #"{"t":1,"kind":"audio","rms":-47.7,"peak":-35.2,"lufs":-46.2}"#,
            #"{"t":2,"kind":"location","lat":52.205255,"lon":0.1217446,"acc":24.2,"speed":0.1,"mode":3}"#,
            #"{"t":2,"kind":"input","window":5,"keys":1,"travel":429.6,"clicks":2,"idle":0.86}"#,
            #"{"t":3,"kind":"audio","rms":-47.4,"peak":-34.9,"lufs":-45.9}"# + "\r",
            "",
            "   ",
            #"{"t":3.5, "kind" : "audio" , "rms" : -40.5 , "peak": -20, "lufs": null}"#,
            #"{"t":4,"kind":"input","window":5,"keys":3,"alt_tab":1,"super":2,"ctrl_tab":3,"workspace":4,"swipes":5,"scroll":7,"idle":1}"#,
            #"{"t":5,"kind":"app","class":"firefox","category":"distracting","rule":"youtube","title":"a, b: \"c\""}"#,
            #"{"t":5,"kind":"media","calls":1,"playing":0}"#,
            #"{"t":6,"kind":"status","sensor":"audio","state":"lost","detail":"unplugged"}"#,
            #"{"t":6,"kind":"desktop","idle":12.5}"#,
            #"{"t":6,"kind":"desktop","state":"locked"}"#,
            #"{"t":7,"kind":"control","action":"pause"}"#,
            #"{"t":7,"kind":"heart","value":72.25,"label":"calm"}"#,
            #"{"t":7,"kind":"future_kind","x":1}"#,
            #"{"t":8,"kind":"audio","rms":-30,"peak":-12,"momentary":-29.5,"lufs":-31,"unknown":[1,{"a":"b"}]}"#,
            #"{"t":9,"kind":"location","lat":-33.8688197,"lon":151.2092955,"mode":2,"dist":1234.5,"cell":0.01}"#,
        ]
        for (i, text) in numbers().filter(isJSONNumber).enumerated() {
            lines.append("{\"t\":\(10 + i),\"kind\":\"heart\",\"value\":\(text)}" + (i % 3 == 0 ? "\r" : ""))
        }
        let path = tempFile("mixed.jsonl", header + "\n" + lines.joined(separator: "\n") + "\n")
        let wanted = expected(lines)
        #expect(wanted.count > 100)
        for size in [1, 7, 16, 17, 31, 64, 77, 100, 128, 1000, 1 << 20] {
            let got = try read(path, bufferSize: size).get()
            #expect(got == wanted, "buffer of \(size) bytes")
        }
        // The last line without its newline.
        let unterminated = tempFile("last.jsonl", header + "\n" + lines[0] + "\n" + lines[1])
        for size in [16, 90, 1 << 20] {
            let got = try read(unterminated, bufferSize: size).get()
            #expect(got == expected(Array(lines[0...1])), "buffer of \(size) bytes")
        }
    }

    /// A canonical line with a value out of range, and a line the fast path leaves to the general
    /// scanner, are refused with their own line number and column wherever the buffer ends.
    @Test func errorsNameTheirLineWhereverTheBufferEnds() throws {
        let good = #"{"t":1,"kind":"audio","rms":-47.7,"peak":-35.2,"lufs":-46.2}"#
        let bad = [
            #"{"t":2,"kind":"location","lat":91.5,"lon":0.1217446,"acc":24.2,"speed":0.1,"mode":3}"#,
            #"{"t":2,"kind":"audio","rms":-47.7,"peak":-35.2,"lufs":-46.2,}"#,
            #"{"t":2,"kind":"audio","rms":-47.7,"peak":1e19}"#,
            #"{"t":2,"kind":"input","window":5,"keys":1.5,"idle":0}"#,
        ]
        for line in bad {
            let alone = Array(line.utf8).withUnsafeBufferPointer { b in
                Result { () throws(JSONLineScanner.Failure) -> Sample? in try decodeSampleLine(b, start: start, signals: signals) }
            }
            guard case .failure(let failure) = alone else {
                Issue.record("\(line) is not refused on its own")
                continue
            }
            let message = "column \(failure.column): \(failure.message)"
            let path = tempFile(
                "bad.jsonl", header + "\n" + Array(repeating: good, count: 40).joined(separator: "\n") + "\n" + line + "\n" + good + "\n")
            for size in [16, 64, 100, 1 << 20] {
                let result = read(path, bufferSize: size)
                let wanted = Result<[Sample], RecordingError>.failure(RecordingError(file: path, line: 42, message: message))
                #expect(result == wanted, "buffer of \(size) bytes")
            }
        }
        // Back in time: the reader's own check, after a fast-path line.
        let back = tempFile(
            "back.jsonl",
            header + "\n" + Array(repeating: #"{"t":5,"kind":"audio","rms":-47.7}"#, count: 40).joined(separator: "\n") + "\n" + good + "\n")
        for size in [16, 64, 1 << 20] {
            let result = read(back, bufferSize: size)
            guard case .failure(let error) = result else {
                Issue.record("no error with a buffer of \(size) bytes")
                continue
            }
            let line = error.line
            #expect(line == 42)
        }
    }
}
