import Foundation
import Testing
import VigilCore
import VigilRecording

@testable import InputCounting
@testable import SensorFiles

/// Key identities never leave the detector: not in samples, not in recordings, not in the summary.
@Suite struct PrivacyTests {
    static let data = LibinputRecordingTests.data
    let t0 = Timestamp(seconds: 1_700_000_000)

    /// The same recording with other letters typed (h, i, j → q, w, e) gives exactly the same
    /// samples and summary: nothing that comes out depends on which keys were pressed.
    @Test func whatComesOutDoesNotDependOnWhichKeysWereTyped() throws {
        let original = try String(contentsOfFile: Self.data + "/keyboard-alt-tab.yml", encoding: .utf8)
        // linux/input-event-codes.h: KEY_H 35, KEY_I 23, KEY_J 36 → KEY_Q 16, KEY_W 17, KEY_E 18.
        var swapped = original
        for (from, to) in [(35, 16), (23, 17), (36, 18)] {
            swapped = swapped.replacingOccurrences(of: ",   1, \(String(from).leftPad(3)),", with: ",   1, \(String(to).leftPad(3)),")
        }
        #expect(swapped != original)
        let a = try LibinputRecording.parse(original, window: 5, start: .at(t0))
        let b = try LibinputRecording.parse(swapped, window: 5, start: .at(t0))
        #expect(a.samples == b.samples)
        #expect(a.summary == b.summary)
    }

    /// A Vigil recording of the replayed samples holds only the count fields.
    @Test func recordedLinesHoldOnlyCounts() throws {
        let r = try LibinputRecording.read(path: Self.data + "/keyboard-alt-tab.yml", window: 5, start: .at(t0))
        let encoder = RecordingEncoder(header: RecordingHeader(start: t0))
        let allowed: Set<String> = [
            "t", "kind", "window", "keys", "travel", "clicks", "scroll", "alt_tab", "super", "ctrl_tab", "workspace", "swipes", "idle",
        ]
        for sample in r.samples {
            let line = encoder.line(for: sample)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: allowed), "\(line)")
            #expect(object.values.allSatisfy { $0 is NSNumber || ($0 as? String) == "input" }, "\(line)")
        }
    }

    /// Walks every value reachable from the public results: no key code type is among them.
    @Test func thePublicResultsHaveNoPlaceForAKeyCode() throws {
        let r = try LibinputRecording.read(path: Self.data + "/keyboard-alt-tab.yml", window: 5, start: .at(t0))
        var types = Set<String>()
        func walk(_ value: Any) {
            types.insert(String(describing: type(of: value)))
            for child in Mirror(reflecting: value).children { walk(child.value) }
        }
        walk(r)
        #expect(!types.contains("InputEvent"))
        #expect(!types.contains("KeyState"))
        #expect(!types.contains("UInt16"))
        #expect(types.contains("InputActivity"))
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
