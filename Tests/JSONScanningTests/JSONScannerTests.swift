import JSONScanning
import Testing

/// The scanner that Vigil's recordings and gpsd logs are read with (issue 18): members read one by
/// one, nested values skipped, strings decoded, and each set of rules refusing what it refuses.
@Suite struct JSONScannerTests {
    /// What one line's object holds at the top: each key with its value as a string, a number, or
    /// "skipped" for anything else; or the failure.
    static func members(_ line: String, rules: JSONScanner.Rules = .permissive) -> Result<[String], JSONScanner.Failure> {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(JSONScanner.Failure) -> [String] in
                var s = JSONScanner(UnsafeBufferPointer(buffer), rules: rules)
                var out: [String] = []
                try s.beginObject()
                while let key = try s.nextKey() {
                    s.skipSpace()
                    switch s.peek() ?? 0 {
                    case UInt8(ascii: "\""): out.append("\(s.text(key))=\(s.text(try s.string()))")
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): out.append("\(s.text(key))=\(try s.number())")
                    default:
                        try s.skipValue()
                        out.append("\(s.text(key)) skipped")
                    }
                }
                try s.expectEnd()
                return out
            }
        }
    }

    /// Whether the scanner refuses the line's bytes, skipping every value.
    static func refuses(_ line: [UInt8], rules: JSONScanner.Rules) -> Bool {
        var bytes = line
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var s = JSONScanner(UnsafeBufferPointer(buffer), rules: rules)
            do {
                try s.beginObject()
                while try s.nextKey() != nil { try s.skipValue() }
                try s.expectEnd()
                return false
            } catch {
                return true
            }
        }
    }

    static func accepted(_ line: String, rules: JSONScanner.Rules = .permissive) -> [String]? { try? members(line, rules: rules).get() }

    @Test func nestedValuesAreSkippedWhateverTheyHold() {
        let line = #"{"a":[1,[2,[3,{"b":"]}"}]],{"c":{"d":[]}},"}{"],"e":{"f":{"g":null,"h":[true,false,-1.5e-3]}},"i":7}"#
        let got = Self.accepted(line)
        #expect(got == ["a skipped", "e skipped", "i=7.0"])
        let spaced = " {\t\"a\" : [ 1 , { \"b\" : [ ] } ] ,\r\"i\" : 7 } "
        let gotSpaced = Self.accepted(spaced)
        #expect(gotSpaced == ["a skipped", "i=7.0"])
        let empty = Self.accepted("{}")
        #expect(empty == [])
    }

    @Test(arguments: [
        #"{"a":[1,2}"#, #"{"a":{"b"}}"#, #"{"a":{1:2}}"#, #"{"a":[1 2]}"#, #"{"a":[,]}"#, #"{"a":tru}"#, #"{"a":[1,2]"#, #"{"a":"x}"#,
        #"{"a":1}x"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":1e}"#, #"{,"a":1}"#, #"{"a":1,,"b":2}"#, #"{"a" 1}"#,
    ])
    func brokenNestingAndValuesAreRefused(line: String) {
        let permissive = Self.accepted(line)
        let foundation = Self.accepted(line, rules: .foundation)
        #expect(permissive == nil)
        #expect(foundation == nil)
    }

    @Test func escapesAreDecodedAndPlainStringsReadInPlace() {
        let got = Self.accepted(#"{"k\u0065y":"a\"b\\c\/d\n\t\u00e9\ud83d\ude00","plain":"caf\#u{E9}"}"#)
        #expect(got == ["key=a\"b\\c/d\n\t\u{E9}\u{1F600}", "plain=caf\u{E9}"])
        let refused = [#"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\uzzzz"}"#, "{\"a\":\"tab\there\"}", #"{"a":"\ud800\u0041"}"#]
        for line in refused {
            let permissive = Self.accepted(line)
            #expect(permissive == nil, "\(line)")
        }
    }

    /// The rules of Foundation's JSONSerialization, which gpsd logs were read with: the lines it
    /// refuses are refused, and what it accepts beyond strict JSON is accepted.
    @Test func foundationRulesAreJSONSerializations() {
        // Half a surrogate pair: U+FFFD for recordings, refused for gpsd.
        let lone = [#"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\n"}"#]
        for line in lone {
            let permissive = Self.accepted(line)
            let foundation = Self.accepted(line, rules: .foundation)
            #expect(permissive == ["a=\u{FFFD}"] || permissive == ["a=\u{FFFD}\n"], "\(line)")
            #expect(foundation == nil, "\(line)")
        }
        // Bytes that are not UTF-8 inside a string.
        for bad: [UInt8] in [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let refused = Self.refuses(Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8), rules: .foundation)
            #expect(refused, "\(bad)")
            let taken = !Self.refuses(Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8), rules: .permissive)
            #expect(taken, "recordings take the bytes as they are: \(bad)")
        }
        let unicode = Self.accepted("{\"a\":\"\u{E9}\u{20AC}\u{1F600}\u{FFFF}\"}", rules: .foundation)
        #expect(unicode == ["a=\u{E9}\u{20AC}\u{1F600}\u{FFFF}"])
        // A trailing comma before } or ]: JSONSerialization takes it.
        let trailing = Self.accepted(#"{"a":[1,],"b":{"c":1,},"d":2,}"#, rules: .foundation)
        #expect(trailing == ["a skipped", "b skipped", "d=2.0"])
        let strict = Self.accepted(#"{"a":[1,]}"#)
        #expect(strict == nil)
        // A number beyond a Double, even where it is skipped.
        let huge = Self.accepted(#"{"a":[1e400]}"#, rules: .foundation)
        #expect(huge == nil)
        let tiny = Self.accepted(#"{"a":[1e-400]}"#, rules: .foundation)
        #expect(tiny == ["a skipped"])
    }

    /// JSONSerialization takes 512 levels of nesting, counting the object; recordings at most 64.
    @Test(arguments: [(JSONScanner.Rules.permissive, 64), (JSONScanner.Rules.foundation, 511)])
    func nestingHasALimit(rules: JSONScanner.Rules, deepestArray: Int) {
        func nested(_ levels: Int, _ inner: String = "") -> String {
            "{\"a\":" + String(repeating: "[", count: levels) + inner + String(repeating: "]", count: levels) + "}"
        }
        let atLimit = Self.accepted(nested(deepestArray), rules: rules)
        #expect(atLimit == ["a skipped"])
        let beyond = Self.accepted(nested(deepestArray + 1), rules: rules)
        #expect(beyond == nil)
        // A value inside the deepest array that may be there.
        let valueInside = Self.accepted(nested(deepestArray, "1"), rules: rules)
        #expect((valueInside != nil) == (rules.deepestValue >= deepestArray))
    }

    @Test func numbersConvertExactlyAndSayWhenTheyCannot() throws {
        var bytes = Array(#"{"a":-52.125,"b":300,"c":-0,"d":0.1,"e":1234567890123456789,"f":1.5e3}"#.utf8)
        try bytes.withUnsafeMutableBufferPointer { buffer in
            var s = JSONScanner(UnsafeBufferPointer(buffer), rules: .foundation)
            try s.beginObject()
            var tokens: [JSONScanner.NumberToken] = []
            while try s.nextKey() != nil { tokens.append(try s.numberToken()) }
            let simple = tokens.map(\.simple)
            #expect(simple == [-52.125, 300, -0.0, 0.1, nil, nil])
            let integers = tokens.map(\.isInteger)
            #expect(integers == [false, true, true, false, true, false])
        }
    }
}
