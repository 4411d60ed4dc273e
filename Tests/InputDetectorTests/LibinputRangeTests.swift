import Testing
import VigilCore

@testable import SensorFiles

/// Huge numbers in a `libinput record` file (issue 17): each event fits the kernel's types, but
/// many of them in one window can add up past what a recording holds. The window's sample is kept
/// within the ranges (`SampleLimits`), as a live window is, so a replay of the file recorded with
/// `--record` reads back.
@Suite struct LibinputRangeTests {
    @Test func aWindowOfHugeMotionAndWheelStaysInRange() throws {
        var text = "version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n    name: \"mouse\"\n"
        text += "    codes:\n      2: [0, 1, 8]\n  events:\n"
        // 600 frames in the first second, each the largest motion and wheel turn a 32-bit value holds.
        for i in 0..<600 {
            let usec = i * 1_000
            text += "  - evdev:\n"
            text += "    - [  0, \(usec),   2,   0, 2147483647]\n"
            text += "    - [  0, \(usec),   2,   8, 2147483647]\n"
            text += "    - [  0, \(usec),   0,   0,       0]\n"
        }
        let r = try LibinputRecording.parse(text, window: 5, start: .at(Timestamp(seconds: 1_700_000_000)))
        let windows = r.samples.compactMap { s -> InputActivity? in if case .input(let a) = s.payload { a } else { nil } }
        let first = try #require(windows.first)
        #expect(first.scrollTicks == 999_999_999)
        #expect(first.pointerTravel == 1e12)
        // The file's totals: the motion as it is, each turn's ticks stopped at what a sample holds.
        #expect(r.summary.pointerTravel > 1e12)
        #expect(r.summary.scrollTicks == 600 * 999_999_999)
    }
}
