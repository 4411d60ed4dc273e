import Foundation
import Testing
import VigilCore

/// The one JSON writer every output goes through: its layouts, its numbers and its escapes.
@Suite struct JSONWriterTests {
    struct Point: JSONObject {
        var x: Double
        var label: String?
        var marks: [Int]
        func writeFields(_ w: inout JSONWriter) {
            w.field("x", x)
            w.field("label", label)
            w.field("marks", marks)
        }
    }

    @Test func prettyIndentsFieldsAndKeepsNumberArraysOnALine() {
        var w = JSONWriter()
        [Point(x: 1.5, label: nil, marks: [1, 2]), Point(x: 0, label: "a", marks: [])].write(&w)
        #expect(
            w.text == """
                [
                  {
                    "x": 1.5,
                    "label": null,
                    "marks": [1, 2]
                  },
                  {
                    "x": 0,
                    "label": "a",
                    "marks": []
                  }
                ]
                """)
    }

    @Test func compactHasNoSpaceAtAll() {
        var w = JSONWriter(style: .compact)
        [Point(x: -2.25, label: "b", marks: [3])].write(&w)
        #expect(w.text == #"[{"x":-2.25,"label":"b","marks":[3]}]"#)
        #expect(JSONValue.object([("a", .array([])), ("b", .object([]))]).text == #"{"a":[],"b":{}}"#)
    }

    /// A figure has at most four decimals and never an exponent; beyond 1e14 every digit is
    /// written, as printf's `%.0f` writes them (Foundation's formatting is the independent source).
    @Test func decimalsAreFixedAndHugeNumbersWrittenInFull() {
        func decimal(_ v: Double) -> String {
            var w = JSONWriter(style: .compact)
            w.decimal(v)
            return w.text
        }
        #expect(decimal(12.5) == "12.5")
        #expect(decimal(0.123456) == "0.1235")
        #expect(decimal(-0.00001) == "0")
        #expect(decimal(3) == "3")
        #expect(decimal(.nan) == "null")
        for v in [1e14, 123_456_789_012_345.5, 9.3e18, 1.8e19, 1e20, -4.4e25, 1.7976931348623157e308, 2.5e15 + 0.5] {
            #expect(decimal(v) == String(format: "%.0f", v), "\(v)")
        }
    }

    /// Shortest form that reads back (timelines, recordings, inspections): `jsonNumber`'s rules.
    @Test func exactNumbersReadBackToTheSameValue() {
        for v in [0.1, 1.0 / 3, 100, -7, 1e-5, 2.5e17, 123.456] {
            let text = JSONValue.exact(v).text
            #expect(Double(text) == v, "\(v) → \(text)")
            #expect(text == jsonNumber(v))
        }
        #expect(JSONValue.exact(100).text == "100")
        #expect(JSONValue.number(2.346, decimals: 2).text == "2.35")
        #expect(JSONValue.seconds(59.6).text == "60")
        #expect(JSONValue.number(-0.0001, decimals: 2).text == "0")
    }

    /// Controls a terminal would act on are `\u` escapes in keys and values alike; a reader
    /// (Foundation's JSONSerialization) gets the same strings back.
    @Test func stringsAreInertInATerminalAndReadBackTheSame() throws {
        let nasty = "a\"b\\c\nd\te\r\u{1B}[31m\u{7F}\u{9B}\u{202E}é🙂"
        let text = JSONValue.object([(nasty, .str(nasty))]).text
        #expect(!text.unicodeScalars.contains { $0.isTerminalControl })
        #expect(text.contains(#"\u001b"#) && text.contains(#"\u007f"#) && text.contains(#"\u009b"#) && text.contains(#"\u202e"#))
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(read == [nasty: nasty])
        #expect(jsonString(nasty) == JSONValue.str(nasty).text)
    }
}
