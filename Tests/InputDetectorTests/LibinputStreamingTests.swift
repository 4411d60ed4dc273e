import Foundation
import Testing
import VigilCore

@testable import SensorFiles

/// `libinput record` files are read as a stream (issue 18: a day's 167 MB recording took 404 MB,
/// read whole and copied): samples come out as the lines are read, through one line buffer, and
/// what the start needs is read ahead from the file's first comments or from its end.
@Suite struct LibinputStreamingTests {
    static let t0 = Timestamp(seconds: 1_700_000_000)

    /// A keyboard, a frame every 0.25 s for `frames` frames, as libinput record writes it: KEY_A
    /// pressed and released, and every tenth second Tab pressed instead of a release; with a
    /// `# Current time is` comment every five seconds unless `wallClock` is false. With
    /// `obfuscatedFrom`, the space bar until that frame and KEY_A "(obfuscated)" from it, as
    /// libinput record without --show-keycodes writes them. `second` is another device's text.
    static func keyboard(frames: Int, wallClock: Bool = true, obfuscatedFrom: Int? = nil, second: String? = nil) -> String {
        var text = "# libinput record\nversion: 1\nndevices: \(second == nil ? 1 : 2)\nlibinput:\n  version: \"1.22.1\"\ndevices:\n"
        text += "- node: /dev/input/event3\n  evdev:\n    name: \"kbd\"\n    codes:\n      1: [15, 30, 56]\n  events:\n"
        text.reserveCapacity(frames * 260)
        var lastComment = -5
        for i in 0..<frames {
            let micros = i * 250_000
            let (sec, usec) = (micros / 1_000_000, micros % 1_000_000)
            if wallClock, sec - lastComment >= 5 {
                text += "  # Current time is 09:\(String(format: "%02d:%02d", sec / 60 % 60, sec % 60))\n"
                lastComment = sec
            }
            let tab = i % 40 == 21
            let key = tab ? 15 : i < (obfuscatedFrom ?? 0) ? 57 : 30
            let note = obfuscatedFrom != nil && key == 30 ? " (obfuscated)" : ""
            text += "  - evdev:\n    - [\(sec), \(usec), 4, 4, 458756] # EV_MSC / MSC_SCAN\n"
            text += "    - [\(sec), \(usec), 1, \(key), \(tab || i % 2 == 0 ? 1 : 0)] # EV_KEY / KEY_A\(note)\n"
            text += "    - [\(sec), \(usec), 0, 0, 0] # SYN_REPORT +0ms\n"
        }
        if let second { text += second }
        return text
    }

    static func write(_ text: String, modified: Date = Date(timeIntervalSince1970: 1_700_003_600)) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-libinput-\(UUID().uuidString).yml").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        return path
    }

    /// Everything a reader makes of a file: its samples, summary and start.
    static func readAll(_ reader: LibinputRecordReader) throws -> LibinputRecording {
        var samples: [Sample] = []
        while let s = try reader.next() { samples.append(s) }
        return LibinputRecording(samples: samples, summary: reader.summary, start: reader.start)
    }

    /// A recording ten times longer is read through the same line buffers, with as few events
    /// waiting: with the wall-clock comments read ahead, from the end without them, and for a
    /// recording of two devices read as two streams.
    @Test(arguments: [(true, false), (false, false), (true, true)])
    func aLongerRecordingTakesNoMoreMemory(wallClock: Bool, twoDevices: Bool) throws {
        func read(_ frames: Int) throws -> (buffers: Int, waiting: Int, keys: Int) {
            let mouse = twoDevices ? Self.mouse(frames: frames / 10) : nil
            let path = try Self.write(Self.keyboard(frames: frames, wallClock: wallClock, second: mouse))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try LibinputRecordReader(path: path, window: 5, start: .fromFile)
            let r = try Self.readAll(reader)
            return (reader.mostBufferBytes, reader.mostEventsWaiting, r.summary.keyPresses)
        }
        let short = try read(4_000)
        let long = try read(40_000)
        #expect(short.keys == 2_100 && long.keys == 21_000)
        #expect(long.buffers == short.buffers)
        #expect(long.buffers <= (twoDevices ? 3 : 2) << 16, "a 64 KiB buffer a stream")
        #expect(long.waiting == short.waiting)
    }

    /// A second device, a mouse moving a unit to the right every half second.
    static func mouse(frames: Int) -> String {
        var text = "- node: /dev/input/event9\n  evdev:\n    name: \"mouse\"\n    codes:\n      2: [0, 1, 8]\n  events:\n"
        for i in 0..<frames {
            let micros = 100_000 + i * 500_000
            text += "  - evdev:\n    - [\(micros / 1_000_000), \(micros % 1_000_000), 2, 0, 1]\n"
            text += "    - [\(micros / 1_000_000), \(micros % 1_000_000), 0, 0, 0]\n"
        }
        return text
    }

    /// Without a wall-clock comment the start is the file's time minus the duration: read from the
    /// end of the file, it is the duration reading it all gives.
    @Test func theDurationFromTheEndIsTheWholeFilesOne() throws {
        let text = Self.keyboard(frames: 20_000, wallClock: false)
        let modified = Date(timeIntervalSince1970: 1_700_010_000)
        let path = try Self.write(text, modified: modified)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let streamed = try Self.readAll(try LibinputRecordReader(path: path, window: 5, start: .fromFile))
        // 20,000 frames, a quarter of a second apart: the last at 4999.75 s.
        #expect(streamed.summary.duration == 4999.75)
        #expect(streamed.start == Timestamp(seconds: 1_700_010_000) - 4999.75)
        // From memory the file is read whole; the counts are the same.
        let whole = try LibinputRecording.parse(text, window: 5, start: .at(streamed.start))
        #expect(whole.samples == streamed.samples)
        #expect(whole.summary == streamed.summary)
    }

    /// Devices of one recording are read as streams of their own and merged in time order: Alt
    /// held on one keyboard and Tab pressed on another, far apart in the file, are Alt+Tab.
    @Test func devicesFarApartInTheFileAreMergedInTimeOrder() throws {
        var second = "- node: /dev/input/event9\n  evdev:\n    name: \"keyboard two\"\n    codes:\n      1: [15, 30, 56]\n  events:\n"
        // Alt held from 4999.9 s into the first keyboard's last seconds... and Tab on this one.
        second += "  - evdev:\n    - [4999, 900000, 1, 56, 1]\n    - [4999, 900000, 0, 0, 0]\n"
        second += "  - evdev:\n    - [4999, 950000, 1, 15, 1]\n    - [4999, 950000, 0, 0, 0]\n"
        second += "  - evdev:\n    - [5000, 0, 1, 56, 0]\n    - [5000, 0, 0, 0, 0]\n"
        let text = Self.keyboard(frames: 20_000, wallClock: false, second: second)
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try Self.readAll(try LibinputRecordReader(path: path, window: 5, start: .at(Self.t0)))
        let names = r.summary.devices.map(\.name)
        #expect(names == ["kbd", "keyboard two"])
        let frames = r.summary.devices.map(\.frames)
        #expect(frames == [20_000, 3])
        #expect(r.summary.duration == 5000)
        // The first keyboard's Tab presses alone, every tenth second, are no switches; with Alt
        // held on the second keyboard, its own Tab is one.
        #expect(r.summary.switches.altTab == 1)
        let times = r.samples.map { $0.time - Self.t0 }
        #expect(times == (1...1001).map { Double($0) * 5 })
    }

    /// A recording of several devices whose own events go back in time (libinput never writes
    /// one) has them sorted, as it had before recordings were streamed.
    @Test func devicesWhoseEventsGoBackAreSortedAsBefore() throws {
        /// A keyboard's description and a frame a key press or release, at the times given.
        func keyboard(_ name: String, _ keys: [(time: Double, code: Int, value: Int)]) -> String {
            var text = "- node: /dev/input/\(name)\n  evdev:\n    name: \"\(name)\"\n  events:\n"
            for k in keys {
                let (sec, usec) = (Int(k.time), Int((k.time - k.time.rounded(.down)) * 1e6))
                text += "  - evdev:\n    - [\(sec), \(usec), 1, \(k.code), \(k.value)]\n    - [\(sec), \(usec), 0, 0, 0]\n"
            }
            return text
        }
        let text =
            "version: 1\nndevices: 2\ndevices:\n" + keyboard("one", [(1, 30, 1), (9, 30, 0), (2.5, 31, 1)]) + keyboard("two", [(5, 32, 1)])
        let r = try LibinputRecording.parse(text, window: 5, start: .at(Self.t0))
        // In time order, 1, 2.5, 5, 9: the pauses are 4 s after 5, 2.5 s after 2.5, 1.5 s after 1.
        let gaps = r.summary.longestIdleGaps.map { [$0.after, $0.seconds] }
        #expect(gaps == [[5, 4], [2.5, 2.5], [1, 1.5]])
        #expect(r.summary.duration == 9)
    }

    /// An error on a line far into the file: the samples before it come out, then the error names
    /// its line, as reading the whole file does.
    @Test func anErrorOnALateLineIsFoundWhenTheReaderReachesIt() throws {
        var lines = Self.keyboard(frames: 8_000).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Half way: damage among the last frames is found on opening, as the duration is read there.
        let damaged = lines.count / 2
        lines[damaged - 1] = "    - [1990, 0, 1, 30]"
        let text = lines.joined(separator: "\n")
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try LibinputRecordReader(path: path, window: 5, start: .fromFile)
        var samples = 0
        var failure: LibinputRecordError?
        do {
            while try reader.next() != nil { samples += 1 }
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.line == damaged, "\(error)")
        #expect(error.message.contains("5 numbers"))
        #expect(samples > 150, "the windows before the damage")
        #expect(throws: error) { try LibinputRecording.parse(text, name: path, window: 5, start: .fromFile) }
    }

    /// Too many windows for the duration is refused on opening, before any sample, when the end of
    /// the file says so; the file's own faults on their lines come first, as reading it whole.
    @Test func tooManyWindowsAreRefusedBeforeAnySample() throws {
        var text = Self.keyboard(frames: 4_000)
        text += "  - evdev:\n    - [604800, 0, 1, 30, 1]\n    - [604800, 0, 0, 0, 0]\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: LibinputRecordError.self) { try LibinputRecordReader(path: path, window: 0.1, start: .fromFile) }
        let damaged = text.replacingOccurrences(of: "- [500, 0, 1, 30, 1]", with: "- [500, 0, 1, 30, 1, 7]")
        let path2 = try Self.write(damaged)
        defer { try? FileManager.default.removeItem(atPath: path2) }
        do {
            _ = try LibinputRecordReader(path: path2, window: 0.1, start: .fromFile)
            Issue.record("opened")
        } catch {
            #expect(error.message.contains("this one has 6"), "\(error)")
        }
    }

    /// A recording without --show-keycodes says so at its first KEY_A: read as a stream, that key
    /// and those after it count as they would had the whole file been read first.
    @Test func obfuscatedKeysFoundLateCountAsFoundFirst() throws {
        let text = Self.keyboard(frames: 8_000, obfuscatedFrom: 4_000)
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let streamed = try Self.readAll(try LibinputRecordReader(path: path, window: 5, start: .at(Self.t0)))
        #expect(streamed.summary.keysObfuscated)
        // Tab every tenth second: with the space bar until 1000 s, nothing; then with an obscured
        // key held (perhaps Alt, the recording cannot tell), Alt+Tab.
        #expect(streamed.summary.switches.altTab == 100)
    }
}
