import Foundation
import Synchronization
import Testing
import VigilCore

@testable import SensorFiles

/// The gpsd log is streamed (issue 17: a million reports took 430-830 MB when the file was read
/// whole): samples come out as their lines are read, counts and errors are those of the whole-file
/// reader, and an error on a late line is found when the reader reaches it.
@Suite struct GPSDLogReaderTests {
    static let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    /// A drive north from 52.2053, 0.1218, one timed fix a second, as `gpspipe -w -r` writes it:
    /// CRLF line ends, an NMEA sentence before each TPV and a SKY report after it. `untimed` fixes
    /// without a "time" come first, as a receiver may send them before it knows the time.
    struct Drive {
        var lines: [String] = [#"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"#]
        /// Each fix's time and latitude, in order.
        var fixes: [(time: Timestamp, latitude: Double)] = []

        init(timed count: Int, untimed: Int = 0) {
            // Latitudes as a receiver writes them, to 9 decimals.
            func latitude(_ steps: Int) -> String { String(format: "%.9f", 52.2053 + Double(steps) * 1e-5) }
            for i in 0..<untimed {
                let lat = latitude(i - untimed)
                lines.append(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"lat":\#(lat),"lon":0.1218,"eph":5.0}"#)
                fixes.append((GPSDLogReaderTests.t0, Double(lat)!))
            }
            for i in 0..<count {
                let lat = latitude(i)
                let time = GPSDLogReaderTests.t0 + Double(i)
                lines.append("$GPGGA,\(String(format: "%06d", i)).00,5212.318,N,00007.308,E,1,08,0.9,10.0,M,47.0,M,,*47")
                lines.append(
                    #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"\#(time)","lat":\#(lat),"lon":0.1218,"eph":5.0,"speed":1.1}"#)
                lines.append(#"{"class":"SKY","device":"/dev/ttyUSB0","hdop":0.9,"satellites":[{"PRN":5,"el":42,"az":120,"ss":38,"used":true}]}"#)
                fixes.append((time, Double(lat)!))
            }
        }

        var text: String { lines.joined(separator: "\r\n") + "\r\n" }

        func write(to path: String) throws { try text.write(toFile: path, atomically: false, encoding: .utf8) }
    }

    func freshPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-gpsd-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    func fixes(_ samples: [Sample]) -> [(time: Timestamp, latitude: Double)] {
        samples.compactMap { s in if case .location(let f) = s.payload { (s.time, f.latitude) } else { nil } }
    }

    /// 6,000 fixes, 18,000 lines, over 25 buffers' worth: every fix at its own time and in order,
    /// the untimed ones first at the first timed report's time, NMEA counted as skipped, and the
    /// same samples as the log read from memory.
    @Test func aLogLongerThanTheBufferReadsAsAWhole() throws {
        let drive = Drive(timed: 6_000, untimed: 3)
        let path = freshPath("drive.json")
        try drive.write(to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.size] as? Int ?? 0) > 25 * 65_536)

        let reader = try GPSDLogReader(path: path)
        #expect(reader.start == Self.t0)
        var samples: [Sample] = []
        while let s = try reader.next() { samples.append(s) }
        #expect(samples.first?.payload == .status(SensorStatus(sensor: .location, state: .available, detail: "fix from the gpsd log")))
        let got = fixes(samples)
        #expect(got.count == drive.fixes.count)
        #expect(got.map(\.time) == drive.fixes.map(\.time))
        // Foundation's JSON parser may round the last digit differently from Swift's.
        #expect(zip(got, drive.fixes).allSatisfy { abs($0.latitude - $1.latitude) < 1e-12 })
        #expect(reader.reports == 6_003)
        #expect(reader.skippedLines == 6_000, "one NMEA sentence a fix")
        #expect(reader.track.fixes == 6_003)
        #expect(try reader.next() == nil)

        let whole = try GPSDLog.parse(Data(drive.text.utf8), name: "drive.json")
        #expect(whole.samples == samples)
        #expect(whole.reports == reader.reports && whole.skippedLines == reader.skippedLines && whole.track == reader.track)
    }

    /// The log on line 9,002 of 15,000 is damaged: opening it is fine, every sample before the line
    /// comes out, and then the error names the line, as reading the whole log does.
    @Test(arguments: [
        (#"{"class":"TPV","mode":3,"time":"2026-03-02T10:00:00Z","lat":52.3,"lon":0.1218,"eph":1e19}"#, "TPV \"eph\" must be from 0 to 20037509 m"),
        (#"{"class":"TPV","mode":3,"time":"2026-03-02T10:00:00Z","lat":52.3,"lon":0.12"#, "not a gpsd JSON report"),
        ("hello", "not a gpsd JSON report"),
    ])
    func anErrorOnALateLineIsFoundWhenTheReaderReachesIt(damage: String, message: String) throws {
        var drive = Drive(timed: 5_000)
        let damaged = 9_002
        drive.lines.insert(damage, at: damaged - 1)
        let path = freshPath("damaged.json")
        try drive.write(to: path)
        let reader = try GPSDLogReader(path: path)
        var samples: [Sample] = []
        var streamed: GPSDLogError?
        do {
            while let s = try reader.next() { samples.append(s) }
        } catch {
            streamed = error
        }
        let error = try #require(streamed, "the damaged line was read past")
        #expect(error.line == damaged, "\(error)")
        #expect(error.file == path)
        #expect(error.message.contains(message), "\(error)")
        // Line 1 is VERSION, and each fix takes three lines: 3,000 fixes lie before line 9,002.
        #expect(fixes(samples).count == 3_000)
        #expect(throws: error) { try GPSDLog.read(path: path) }
    }

    /// A receiver without a fix sends many TPVs without a time: they are counted and need no
    /// memory. Fixes without a time before the first timed report wait for its time, up to a bound
    /// that a log with no usable time cannot pass to fill memory.
    @Test func untimedReportsBeforeTheFirstTimeAreBounded() throws {
        var waiting = [#"{"class":"VERSION","release":"3.22"}"#]
        waiting += Array(repeating: #"{"class":"TPV","mode":1}"#, count: 30_000)
        waiting += Array(repeating: #"{"class":"TPV","mode":2,"lat":52.2,"lon":0.12}"#, count: 5)
        waiting.append(#"{"class":"TPV","mode":3,"time":"2026-03-02T09:00:00Z","lat":52.2,"lon":0.12}"#)
        let log = try GPSDLog.parse(Data(waiting.joined(separator: "\n").utf8), name: "waiting.json")
        #expect(log.reports == 30_006)
        #expect(log.samples.count == 7, "available, then six fixes")
        #expect(log.samples.allSatisfy { $0.time == Self.t0 })

        let limit = GPSDLogReader.untimedFixesBeforeTheFirstTime
        var timeless = [#"{"class":"VERSION","release":"3.22"}"#]
        timeless += Array(repeating: #"{"class":"TPV","mode":2,"lat":52.2,"lon":0.12}"#, count: limit + 10)
        timeless.append(#"{"class":"TPV","mode":3,"time":"2026-03-02T09:00:00Z","lat":52.2,"lon":0.12}"#)
        do {
            _ = try GPSDLog.parse(Data(timeless.joined(separator: "\n").utf8), name: "timeless.json")
            Issue.record("\(limit + 10) untimed fixes were held")
        } catch {
            // Line 1 is VERSION; `limit` fixes wait, and the next, on line `limit` + 2, is one too many.
            #expect(error.line == limit + 2, "\(error)")
            #expect(error.message.contains("more than \(limit) fixes without a \"time\" before the first TPV report with one"), "\(error)")
        }
    }

    /// The reader hands out samples while the log is still being written: a FIFO whose writer
    /// sends the rest only once the reader has given its first samples. A reader that waited for
    /// the whole file would never give them (the writer gives up after two minutes, and the test fails).
    @Test func samplesComeOutBeforeTheLogIsWhole() throws {
        let drive = Drive(timed: 2_000)
        let path = freshPath("gpspipe.fifo")
        try #require(mkfifo(path, 0o600) == 0)
        let head = Array(drive.lines.prefix(10).joined(separator: "\n").utf8) + [0x0A]
        let tail = Array(drive.lines.dropFirst(10).joined(separator: "\n").utf8) + [0x0A]
        let readerHasSamples = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let waitedForTheReader = Mutex(false)
        let writer = Thread {
            // Should the reader stop early, a write fails with EPIPE instead of SIGPIPE ending the tests.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let fd = open(path, O_WRONLY)
            defer {
                close(fd)
                writerDone.signal()
            }
            guard fd >= 0 else { return }
            _ = head.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let answered = readerHasSamples.wait(timeout: .now() + 120) == .success
            waitedForTheReader.withLock { $0 = answered }
            var offset = 0
            while offset < tail.count {
                let n = tail.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                guard n > 0 else { return }
                offset += n
            }
        }
        writer.start()
        let reader = try GPSDLogReader(path: path)
        var samples: [Sample] = []
        while let s = try reader.next() {
            samples.append(s)
            if samples.count == 2 { readerHasSamples.signal() }
        }
        writerDone.wait()
        #expect(waitedForTheReader.withLock { $0 }, "the reader gave no sample before the whole log was written")
        #expect(fixes(samples).count == 2_000)
    }
}
