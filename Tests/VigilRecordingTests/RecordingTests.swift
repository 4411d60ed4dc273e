import Foundation
import Testing
import VigilCore

@testable import VigilRecording

/// A file in a fresh temporary directory.
func tempFile(_ name: String, _ contents: String? = nil) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    if let contents { try! contents.write(toFile: path, atomically: true, encoding: .utf8) }
    return path
}

let header = #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"#
let start = parseRFC3339("2026-03-02T09:00:00Z")!

func readError(_ text: String) -> RecordingError? {
    let path = tempFile("r.jsonl", text)
    do {
        let r = try RecordingReader(path: path)
        _ = try r.readAll()
        return nil
    } catch {
        return error
    }
}

@Suite struct RecordingRoundTripTests {
    @Test func everyKindSurvivesAWriteAndARead() throws {
        let samples: [Sample] = [
            Sample(
                time: start + 5,
                payload: .input(
                    InputActivity(
                        window: 5, keyPresses: 12, pointerTravel: 340.5, clicks: 1, scrollTicks: 3,
                        switches: AppSwitches(altTab: 1, superKey: 2, ctrlTab: 3, workspace: 4, swipes: 5), idle: 0.8))),
            Sample(time: start + 5.25, payload: .audio(AudioLevel(rms: -52.1, peak: -40.25, shortTermLUFS: -48, momentaryLUFS: -47.3))),
            Sample(time: start + 6, payload: .audio(AudioLevel(rms: -30, peak: -12))),
            Sample(
                time: start + 6.001,
                payload: .location(LocationFix(latitude: 48.8583701, longitude: 2.2944813, horizontalAccuracy: 8, speed: 0.1, mode: .threeD))),
            Sample(time: start + 7, payload: .location(LocationFix(latitude: -33.5, longitude: -70.25, mode: .twoD))),
            Sample(
                time: start + 7.5,
                payload: .location(
                    LocationFix(
                        latitude: 48.855, longitude: 2.295, horizontalAccuracy: 8, mode: .threeD,
                        distanceFromWorkplace: 212.375, cellSize: 0.01))),
            Sample(time: start + 8, payload: .status(SensorStatus(sensor: .location, state: .noFix, detail: "no satellites \"in view\"\n"))),
            Sample(time: start + 8.5, payload: .desktop(.idle(12.25))),
            Sample(time: start + 9, payload: .desktop(.locked)),
            Sample(time: start + 9.5, payload: .desktop(.unlocked)),
            Sample(time: start + 10, payload: .desktop(.sleeping)),
            Sample(time: start + 600, payload: .desktop(.woke)),
            Sample(time: start + 601, payload: .app(AppFocus(appClass: "firefox", category: .distracting, rule: "youtube"))),
            Sample(time: start + 602, payload: .app(AppFocus(appClass: "Code", category: .work, rule: "editors", title: "main.swift — «Vigil»"))),
            Sample(time: start + 603, payload: .app(AppFocus(appClass: "", category: .neutral))),
            Sample(time: start + 604, payload: .media(MediaActivity(calls: 1, playing: 2))),
            Sample(time: start + 605, payload: .media(MediaActivity())),
            Sample(time: start + 900, payload: .control(.breakTime)),
            Sample(time: start + 1200, payload: .input(InputActivity(window: 5, idle: 300))),
        ]
        let path = tempFile("round.jsonl")
        let writer = try RecordingWriter(path: path, header: RecordingHeader(start: start, source: "test", note: "ü \\ note", task: "thesis"))
        for s in samples { try writer.append(s) }
        try writer.close()

        let reader = try RecordingReader(path: path)
        #expect(reader.header == RecordingHeader(start: start, source: "test", note: "ü \\ note", task: "thesis"))
        #expect(try reader.readAll() == samples)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "recordings are readable by their owner only")
    }

    @Test func unknownKeysAreIgnoredAndUnknownKindsSkipped() throws {
        let text =
            header + "\n" + #"""
                {"t":1,"kind":"input","window":5,"keys":3,"idle":1,"future":{"nested":[1,2,{"x":"y"}]},"flag":true,"n":null}

                {"t":2,"kind":"heart_rate","bpm":71}
                {"t":2.5,"kind":"status","sensor":"heart_rate","state":"available"}
                {"t":3, "kind" : "audio" , "rms" : -40.5 , "peak": -20, "lufs": null}
                """#
        let path = tempFile("r.jsonl", text)
        let r = try RecordingReader(path: path)
        let all = try r.readAll()
        #expect(all.count == 2)
        // The unknown sensor's reading and its status.
        #expect(r.skippedLines == 2)
        #expect(all[1].payload == .audio(AudioLevel(rms: -40.5, peak: -20, shortTermLUFS: nil)))
    }

    /// A live session's sign of life is a line of its own kind, written and read back by both
    /// readers (the fast path and the general scanner, which takes the spaced line); as a control
    /// action it is no action a person takes, and refused.
    @Test func aSignOfLifeRoundTripsAndIsNoControlAction() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-alive-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = parseRFC3339("2026-03-02T09:00:00Z")!
        let writer = try RecordingWriter(path: dir + "/a.jsonl", header: RecordingHeader(start: start, source: "test"))
        try writer.append(Sample(time: start + 45, payload: .control(.alive)))
        try writer.close()
        let written = try String(contentsOfFile: dir + "/a.jsonl", encoding: .utf8)
        #expect(written.hasSuffix(#"{"t":45,"kind":"alive"}"# + "\n"), "\(written)")
        let spaced = tempFile("b.jsonl", header + "\n" + #"{ "t" : 45 , "kind" : "alive" }"#)
        for path in [dir + "/a.jsonl", spaced] {
            let all = try RecordingReader(path: path).readAll()
            #expect(all.map(\.payload) == [.control(.alive)], "\(path)")
        }
        let asAction = tempFile("c.jsonl", header + "\n" + #"{"t":1,"kind":"control","action":"alive"}"#)
        #expect {
            _ = try RecordingReader(path: asAction).readAll()
        } throws: { "\($0)".contains("unknown control action \"alive\" (expected one of pause, break, resume, end, snooze, stall_ended)") }
    }

    @Test func numbersParseExactlyAsTheStandardLibraryDoes() {
        var rng = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "1e3", "1.5E-3", "123456789012345.678", "0.1", "-52.125", "3.141592653589793", "1e-320", "2.2250738585072014e-308",
            "0.9007199254740993",
        ]
        for _ in 0..<2000 {
            let v = Double.random(in: -1e6...1e6, using: &rng)
            texts.append(v.description)
            texts.append(String(Int.random(in: -99999...99999, using: &rng)) + "." + String(Int.random(in: 0...999999, using: &rng)))
        }
        // A plug-in reading's value: the one number wide enough (±10^15) for any of these.
        let heart = SensorKind(rawValue: "heart")
        let signals = SignalCatalog.builtIn.adding(SignalDefinition(sensor: heart, causes: []) { _ in [] })
        for text in texts {
            let line = "{\"t\":0,\"kind\":\"heart\",\"value\":\(text)}"
            let parsed = line.utf8CString.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: UInt8.self) {
                    try? decodeSampleLine(UnsafeBufferPointer(rebasing: $0.dropLast()), start: start, signals: signals)
                }
            }
            guard let sample = parsed ?? nil, case .reading(let reading) = sample.payload else {
                Issue.record("did not parse \(text)")
                continue
            }
            #expect(reading.value == Double(text)!, "\(text)")
        }
    }

    @Test func mergingOrdersByAbsoluteTimeAndKeepsFileOrderOnTies() throws {
        let a = tempFile(
            "a.jsonl",
            #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"# + "\n" + #"{"t":0,"kind":"control","action":"pause"}"# + "\n"
                + #"{"t":10,"kind":"control","action":"resume"}"# + "\n")
        // Starts 5 s later: its t=5 is 10 s after a's start.
        let b = tempFile(
            "b.jsonl",
            #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:05Z"}"# + "\n" + #"{"t":1,"kind":"audio","rms":-40}"# + "\n"
                + #"{"t":5,"kind":"audio","rms":-41}"# + "\n")
        let merged = try MergedRecordings([RecordingReader(path: a), RecordingReader(path: b)])
        var order: [Double] = []
        while let s = try merged.next() { order.append(s.time - start) }
        #expect(order == [0, 6, 10, 10])
        #expect(merged.start == start)
    }
}

@Suite struct RecordingErrorTests {
    @Test func aTruncatedLastLineIsNamedWithFileAndLine() {
        let e = readError(header + "\n" + #"{"t":1,"kind":"input","window":5,"idle":1}"# + "\n" + #"{"t":2,"kind":"inp"#)
        #expect(e?.line == 3)
        #expect(e?.message.contains("truncated") == true, "\(String(describing: e))")
        #expect(e?.description.hasSuffix(".jsonl:3: \(e!.message)") == true)
    }

    @Test func theHeaderIsRequired() {
        let e = readError(#"{"t":1,"kind":"input","window":5,"idle":1}"#)
        #expect(e?.line == 1)
        #expect(e?.message.contains("not a Vigil recording") == true)
        #expect(readError("")?.message.contains("not a Vigil recording") == true)
        #expect(readError("garbage\n")?.line == 1)
    }

    @Test func aNewerVersionSaysToUpdate() {
        let e = readError(#"{"vigil":"recording","version":2,"start":"2026-03-02T09:00:00Z"}"#)
        #expect(e?.message.contains("update Vigil") == true)
    }

    /// A byte-order mark (some editors write one) is named, with how to remove it, rather than
    /// "expected '{'" at a column that looks right.
    @Test func aByteOrderMarkIsNamed() {
        let e = readError("\u{FEFF}" + #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"#)
        #expect(e?.line == 1 && e?.message.contains("UTF-8 byte-order mark") == true, "\(String(describing: e))")
    }

    /// A far date is not called "not RFC 3339", and an impossible one is not moved to a real one.
    @Test func aStartTimeOutOfRangeOrImpossibleSaysWhich() {
        let far = readError(#"{"vigil":"recording","version":1,"start":"2300-01-01T00:00:00Z"}"#)
        #expect(far?.message.contains("outside the dates Vigil supports, from 1970-01-01 to 2199-12-31") == true, "\(String(describing: far))")
        let impossible = readError(#"{"vigil":"recording","version":1,"start":"2026-02-30T00:00:00Z"}"#)
        #expect(impossible?.message.contains("is no real time") == true, "\(String(describing: impossible))")
    }

    @Test func aBadStartTimeIsExplained() {
        let e = readError(#"{"vigil":"recording","version":1,"start":"yesterday"}"#)
        #expect(e?.message.contains("RFC 3339") == true)
    }

    @Test(arguments: [
        (#"{"t":1,"kind":"input","idle":1}"#, "missing \"window\""),
        (#"{"kind":"input","window":5,"idle":1}"#, "missing \"t\""),
        (#"{"t":1,"window":5,"idle":1}"#, "missing \"kind\""),
        (#"{"t":1,"kind":"input","window":5,"idle":1,"keys":2.5}"#, "\"keys\" must be a whole number"),
        (#"{"t":1,"kind":"input","window":5,"idle":-1}"#, "\"idle\" must be from 0 to 100 years"),
        (#"{"t":1,"kind":"input","window":"5","idle":1}"#, "expected a number"),
        (#"{"t":-1,"kind":"audio","rms":-20}"#, "\"t\" is negative"),
        (#"{"t":1,"kind":"location","lat":91,"lon":0}"#, "\"lat\" must be between -90 and 90"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"mode":7}"#, "\"mode\" must be 0, 1, 2 or 3"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"dist":-3}"#, "\"dist\" must be from 0 to 20037509 m"),
        (#"{"t":1,"kind":"location","lat":1,"lon":0,"cell":0}"#, "\"cell\" must be greater than 0"),
        (#"{"t":1,"kind":"status","sensor":"audio","state":"sleepy"}"#, "unknown sensor state \"sleepy\""),
        (#"{"t":1,"kind":"control","action":"dance"}"#, "unknown control action \"dance\""),
        (#"{"t":1,"kind":"audio","rms":-20} trailing"#, "unexpected text after"),
        (#"{"t":1,"kind":"audio","rms":1e999}"#, "out of range"),
        (#"{"t":01,"kind":"audio","rms":-20}"#, "may not start with 0"),
        (#"[1,2]"#, "expected '{'"),
        (#"{"t":1,"kind":"desktop"}"#, "a desktop line needs \"idle\" (seconds) or \"state\""),
        (#"{"t":1,"kind":"desktop","state":"dozing"}"#, "unknown desktop state \"dozing\""),
        (#"{"t":1,"kind":"desktop","idle":-2}"#, "\"idle\" must be from 0 to 100 years"),
        (#"{"t":1,"kind":"app","category":"work"}"#, "missing \"class\""),
        (#"{"t":1,"kind":"app","class":"x"}"#, "missing \"category\""),
        (#"{"t":1,"kind":"app","class":"x","category":"fun"}"#, "unknown category \"fun\""),
        (#"{"t":1,"kind":"app","class":5,"category":"work"}"#, "\"class\" must be a string"),
        (#"{"t":1,"kind":"media","calls":-1}"#, "\"calls\" must be a whole number"),
    ])
    func badLinesAreExplained(line: String, message: String) {
        let e = readError(header + "\n" + line + "\n")
        #expect(e?.line == 2)
        #expect(e?.message.contains(message) == true, "\(String(describing: e)) should say \(message)")
    }

    @Test func timeMustNotGoBackwards() {
        let e = readError(header + "\n" + #"{"t":10,"kind":"audio","rms":-20}"# + "\n" + #"{"t":9,"kind":"audio","rms":-20}"#)
        #expect(e?.line == 3)
        #expect(e?.message.contains("goes back in time") == true)
    }

    @Test func aMissingFileIsNamed() {
        do {
            _ = try RecordingReader(path: "/nonexistent/r.jsonl")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/r.jsonl: cannot open: No such file or directory")
        }
    }

    @Test func escapedStringsAreDecoded() throws {
        let text = header + "\n" + #"{"t":1,"kind":"status","sensor":"audio","state":"lost","detail":"server \"pulse\" gone\u00e9\ud83d\ude00\n"}"#
        let r = try RecordingReader(path: tempFile("r.jsonl", text))
        let s = try r.next()
        #expect(s?.payload == .status(SensorStatus(sensor: .audio, state: .lost, detail: "server \"pulse\" goneé😀\n")))
    }
}

/// Inputs the fuzzer (Fuzz/, FUZZING.md) found crashing the readers, kept as regression tests.
@Suite struct FuzzRegressionTests {
    static let crashes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Crashes/jsonl").path

    /// A header whose start is in the year 1013 overflowed 64-bit nanoseconds.
    @Test func aStartOutsideWhatAnInstantCanHoldIsAnError() throws {
        let file = Self.crashes + "/year-1013.jsonl"
        #expect(FileManager.default.fileExists(atPath: file))
        do {
            let reader = try RecordingReader(path: file)
            while try reader.next() != nil {}
            Issue.record("the header's start should have been refused")
        } catch {
            #expect(error.line == 1, "\(error)")
            #expect(error.description.contains("start"), "\(error)")
        }
    }
}
