import Foundation
import Testing
import VigilCore
import VigilRecording

@testable import SensorFiles

/// Replays hand-written `libinput record` files (see Data/README.md) through the reader and the same
/// aggregator the live detector uses. There are no input devices and no uinput on the build
/// machine, so this is how aggregation and app-switch classification are tested end to end.
@Suite struct LibinputRecordingTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data").path
    let t0 = Timestamp(seconds: 1_700_000_000)

    func activities(_ r: LibinputRecording) -> [(Double, InputActivity)] {
        r.samples.compactMap { s in
            if case .input(let a) = s.payload { return (s.time - r.start, a) }
            return nil
        }
    }

    @Test func keyboardCountsPressesAndClassifiesSwitches() throws {
        let r = try LibinputRecording.read(path: Self.data + "/keyboard-alt-tab.yml", window: 5, start: .at(t0))
        let w = activities(r)
        #expect(r.start == t0)
        #expect(w.map(\.0) == [5, 10, 15])
        // [0, 5): h, i, Alt, Tab, Tab, Shift, Tab, Super, j = 9 presses; the 2 + 3 autorepeats are not.
        #expect(w[0].1.keyPresses == 9)
        #expect(w[0].1.switches == AppSwitches(altTab: 3, superKey: 1))
        #expect(abs(w[0].1.idle - 0.4) < 1e-6)  // last event: j released at 4.600
        #expect(w[1].1.keyPresses == 0)
        #expect(abs(w[1].1.idle - 5.4) < 1e-6)
        // [10, 15): Super, 2, Ctrl, Tab.
        #expect(w[2].1.keyPresses == 4)
        #expect(w[2].1.switches == AppSwitches(ctrlTab: 1, workspace: 1))
        #expect(abs(w[2].1.idle - 2.3) < 1e-6)

        let s = r.summary
        #expect(s.keyPresses == 13)
        #expect(s.switches == AppSwitches(altTab: 3, superKey: 1, ctrlTab: 1, workspace: 1))
        #expect(s.devices == [LibinputRecordedDevice(node: "/dev/input/event3", name: "AT Translated Set 2 keyboard", kind: .keyboard, frames: 31)])
        #expect(abs(s.duration - 12.7) < 1e-9)
        #expect(s.keysObfuscated == false)
        // The longest pause: j released at 4.600 to Super at 12.000.
        #expect(abs(s.longestIdleGaps[0].seconds - 7.4) < 1e-6)
        #expect(abs(s.longestIdleGaps[0].after - 4.6) < 1e-6)
    }

    @Test func mouseMotionClicksAndWheelWithoutDoubleCountingHiRes() throws {
        let r = try LibinputRecording.read(path: Self.data + "/mouse.yml", window: 5, start: .at(t0))
        let w = activities(r)
        #expect(w.count == 1)
        #expect(abs(w[0].1.pointerTravel - 20) < 1e-9)
        #expect(w[0].1.clicks == 2)
        #expect(w[0].1.scrollTicks == 3)
        #expect(w[0].1.keyPresses == 0)
        #expect(abs(w[0].1.idle - 3.8) < 1e-6)
        #expect(r.summary.devices.map(\.kind) == [.mouse])
        #expect(r.summary.devices.map(\.name) == ["Logitech USB Optical Mouse"])
    }

    @Test func touchpadMotionScrollClickAndSwipes() throws {
        let r = try LibinputRecording.read(path: Self.data + "/touchpad-gestures.yml", window: 5, start: .at(t0))
        let w = activities(r)
        #expect(w.count == 1)
        let a = w[0].1
        #expect(abs(a.pointerTravel - 17.5 * 1000 / 25.4) < 1e-6)  // 10 mm + 7.5 mm at 1000 units per inch
        #expect(a.clicks == 1)
        #expect(a.scrollTicks == 3)  // 4 mm of two-finger travel = 157.5 units; 50 per tick
        #expect(a.switches == AppSwitches(swipes: 2))  // 3 fingers 25 mm and 4 fingers 20 mm; 1 mm of resting is not one
        #expect(abs(a.idle - 0.9) < 1e-6)
        #expect(r.summary.devices.map(\.kind) == [.touchpad])
    }

    @Test func startComesFromTheWallClockCommentAndTheFileDate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("k.yml").path
        try FileManager.default.copyItem(atPath: Self.data + "/keyboard-alt-tab.yml", toPath: copy)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let written = calendar.date(from: DateComponents(year: 2024, month: 3, day: 5, hour: 14, minute: 30, second: 21))!
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: copy)

        let r = try LibinputRecording.read(path: copy, window: 5, start: .fromFile)
        // "# Current time is 14:30:10" follows the frame at 4.600 s: time 0 is 14:30:05.4 that day.
        let expected = calendar.date(from: DateComponents(year: 2024, month: 3, day: 5, hour: 14, minute: 30, second: 5))!
        #expect(abs(r.start.secondsSinceEpoch - (expected.timeIntervalSince1970 + 0.4)) < 1e-3)
    }

    @Test func withoutAWallClockTheStartIsTheFileTimeMinusTheDuration() throws {
        let text = try String(contentsOfFile: Self.data + "/mouse.yml", encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("m.yml").path
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_100)], ofItemAtPath: copy)
        let r = try LibinputRecording.read(path: copy, window: 5, start: .fromFile)
        #expect(abs(r.start.secondsSinceEpoch - (1_700_000_100 - 1.2)) < 1e-3)
    }

    /// libinput record without --show-keycodes writes Alt (and Shift, digits, letters) as KEY_A and
    /// marks the line "(obfuscated)".
    @Test func obfuscatedRecordingsCountAHeldKeyPlusTabAsAltTab() throws {
        let text = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "AT Translated Set 2 keyboard"
              events:
              - evdev:
                - [  0,      0,   1,  30,       1] # EV_KEY / KEY_A                     1 (obfuscated)
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0, 100000,   1,  15,       1] # EV_KEY / KEY_TAB                   1
                - [  0, 100000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0, 150000,   1,  15,       0] # EV_KEY / KEY_TAB                   0
                - [  0, 150000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - evdev:
                - [  0, 300000,   1,  30,       0] # EV_KEY / KEY_A                     0 (obfuscated)
                - [  0, 300000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms

            """
        let r = try LibinputRecording.parse(text, window: 1, start: .at(t0))
        #expect(r.summary.keysObfuscated)
        #expect(r.summary.switches == AppSwitches(altTab: 1))
        #expect(r.summary.keyPresses == 2)
    }

    /// `--multiple` recordings: devices share one clock and their events are merged in time order, so
    /// Alt held on one keyboard and Tab pressed on another is still Alt+Tab, as the desktop sees it.
    @Test func devicesOfOneRecordingShareAClock() throws {
        let text = """
            version: 1
            ndevices: 2
            devices:
            - node: /dev/input/event3
              evdev:
                name: "keyboard one"
                codes:
                  1: [15, 30, 56]
              events:
              - evdev:
                - [  1,      0,   1,  56,       1]
                - [  1,      0,   0,   0,       0]
              - evdev:
                - [  2,      0,   1,  56,       0]
                - [  2,      0,   0,   0,       0]
            - node: /dev/input/event9
              evdev:
                name: "keyboard two"
              events:
              - evdev:
                - [  1, 500000,   1,  15,       1]
                - [  1, 500000,   0,   0,       0]
              - evdev:
                - [  1, 600000,   1,  15,       0]
                - [  1, 600000,   0,   0,       0]

            """
        let r = try LibinputRecording.parse(text, window: 5, start: .at(t0))
        #expect(r.summary.devices.map(\.name) == ["keyboard one", "keyboard two"])
        #expect(r.summary.devices.map(\.frames) == [2, 2])
        #expect(r.summary.switches == AppSwitches(altTab: 1))
        #expect(r.summary.keyPresses == 2)
        #expect(abs(r.summary.duration - 2) < 1e-9)
    }

    @Test(arguments: [
        ("version: 2\nndevices: 1\ndevices:\n", 1, "version 2"),
        ("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event0\n  events:\n  - evdev:\n    - [0, 0, 1, 30]\n", 7, "5 numbers"),
        ("version: 1\ndevices:\n- node: x\n  events:\n  - evdev:\n    - [0, 0, 1, 30, banana]\n", 6, "integers"),
        ("ndevices: 1\n", 0, "no `version:`"),
        ("version: 1\nndevices: 0\n", 0, "no devices"),
        ("\u{0}\u{1}binary garbage\n[[[\n", 0, "no `version:`"),
        // Issue 32: tab-indented events were read as a recording without any (0 s, 0 samples).
        ("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event0\n  events:\n\t- evdev:\n\t\t- [0, 0, 1, 30, 1]\n", 6, "indented with a tab"),
        ("version: 1\nndevices: 1\ndevices:\n- node: x\n  events:\n  -\tevdev:\n", 6, "indented with a tab"),
    ])
    func errorsNameTheLineAndWhatIsWrong(text: String, line: Int, message: String) {
        do {
            _ = try LibinputRecording.parse(text, name: "bad.yml", start: .at(t0))
            Issue.record("expected an error")
        } catch {
            #expect(error.line == line)
            #expect(error.file == "bad.yml")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func aMissingFileIsAnErrorNotACrash() {
        #expect(throws: LibinputRecordError.self) { try LibinputRecording.read(path: "/nonexistent/recording.yml") }
    }

    /// A long recording (100 000 frames, a couple of hours of typing) is read whole. (Its speed is
    /// not asserted here: a timed test fails on a loaded machine; speed belongs in benchmarks.)
    @Test func largeRecordingsAreReadWhole() throws {
        var text = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event3\n  evdev:\n    name: \"kbd\"\n  events:\n"
        text.reserveCapacity(100_000 * 200)
        for i in 0..<100_000 {
            let sec = i / 20
            let usec = (i % 20) * 50_000
            text +=
                "  - evdev:\n    - [\(sec), \(usec), 4, 4, 458756] # EV_MSC / MSC_SCAN\n    - [\(sec), \(usec), 1, 30, \(i % 2 == 0 ? 1 : 0)] # EV_KEY / KEY_A\n    - [\(sec), \(usec), 0, 0, 0] # SYN_REPORT\n"
        }
        let r = try LibinputRecording.parse(text, window: 5, start: .at(t0))
        #expect(r.summary.keyPresses == 50_000)
        #expect(r.samples.count == 1000)
    }
}

/// Inputs the fuzzer (Fuzz/, FUZZING.md) found, kept as regression tests.
@Suite struct LibinputFuzzRegressionTests {
    static let crashes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Crashes/libinput").path
    let t0 = Timestamp(seconds: 1_700_000_000)

    /// A 12 KB file with one event 123,333,333 s (3.9 years) in: every 5 s window of idle time
    /// became a sample, 24.7 million of them, 3.5 GB. Such a timestamp is now refused on its line.
    @Test func anEventYearsLaterIsRefusedOnItsLine() throws {
        let file = Self.crashes + "/event-years-later.yml"
        #expect(FileManager.default.fileExists(atPath: file))
        do {
            _ = try LibinputRecording.read(path: file, window: 5, start: .at(t0))
            Issue.record("the event years later should have been refused")
        } catch {
            #expect(error.line == 62, "\(error)")
            #expect(error.description.contains("123333333 s after the recording started") && error.description.contains("up to 7 days"), "\(error)")
        }
    }

    /// The limit's edge: an event at 7 days is read (120,961 windows), one a second later is not.
    @Test func sevenDaysAreReadAndNoMore() throws {
        let text = try String(contentsOfFile: LibinputRecordingTests.data + "/keyboard-alt-tab.yml", encoding: .utf8)
        // The last frame (Ctrl released at 12.7 s) moved to the edge.
        let lastFrame = "- [ 12, 700000,"
        #expect(text.components(separatedBy: lastFrame).count == 4, "three events in the last frame")
        let atLimit = text.replacingOccurrences(of: lastFrame, with: "- [ 604800, 0,")
        let r = try LibinputRecording.parse(atLimit, window: 5, start: .at(t0))
        #expect(r.samples.count == 604_800 / 5 + 1)
        let beyond = text.replacingOccurrences(of: lastFrame, with: "- [ 604801, 0,")
        #expect(throws: LibinputRecordError.self) { try LibinputRecording.parse(beyond, window: 5, start: .at(t0)) }
        // The smallest window the config allows would make 6 million samples of the same span.
        do {
            _ = try LibinputRecording.parse(atLimit, window: 0.1, start: .at(t0))
            Issue.record("6 million windows should have been refused")
        } catch {
            #expect(error.description.contains("more than 1000000 samples") && error.description.contains("input.window"), "\(error)")
        }
    }

    /// Issue 32: a real recording whose indentation was turned into tabs (as one is printed in the
    /// Linux kernel's documentation source) is refused at its first tabbed line, never read as an
    /// empty recording.
    @Test func aTabIndentedRecordingIsRefusedAtItsFirstTabbedLine() throws {
        let text = try String(contentsOfFile: LibinputRecordingTests.data + "/keyboard-alt-tab.yml", encoding: .utf8)
        let lines = text.components(separatedBy: "\n").map { (line: String) -> String in
            let spaces = line.prefix { $0 == " " }.count
            return String(repeating: "\t", count: spaces / 2) + String(repeating: " ", count: spaces % 2) + line.dropFirst(spaces)
        }
        let firstTabbed = try #require(lines.firstIndex { $0.hasPrefix("\t") && !$0.drop { $0 == "\t" }.hasPrefix("#") }) + 1
        do {
            _ = try LibinputRecording.parse(lines.joined(separator: "\n"), name: "tabbed.yml", start: .at(t0))
            Issue.record("a tab-indented recording was read")
        } catch let error as LibinputRecordError {
            #expect(error.line == firstTabbed, "\(error)")
            #expect(error.message.contains("indented with a tab") && error.message.contains("expand"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
