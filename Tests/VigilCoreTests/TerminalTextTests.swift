import Testing

@testable import VigilCore

/// Text from outside Vigil on its way to a terminal: every control a terminal acts on becomes a
/// visible escape, everything else is left as it is.
@Suite struct TerminalTextTests {
    @Test func printableTextIsLeftAsItIs() {
        #expect("".terminalSafe == "")
        #expect("Write chapter 3 (draft) ~ 50% done, C:\\Users\\ana".terminalSafe == "Write chapter 3 (draft) ~ 50% done, C:\\Users\\ana")
        // Accents, other scripts, right-to-left letters, combining marks and emoji with their
        // joiners and variation selectors are text, not controls.
        for text in ["café · Straße", "論文の第3章", "שלום עולם", "e\u{301}", "👩🏽‍💻 focus", "❤️", "Zeile\u{00A0}eins"] {
            #expect(text.terminalSafe == text)
            #expect(text.terminalSafeLines == text)
        }
        let substring = "  padded  ".dropFirst(2)
        #expect(substring.terminalSafe == "padded  ")
    }

    @Test func escapeSequencesAreShownNotObeyed() {
        #expect("evil\u{1B}]0;pwned\u{7}\u{1B}[2Jtitle".terminalSafe == "evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2Jtitle")
        #expect("a\u{0}b\u{7F}c".terminalSafe == "a\\0b\\u{7F}c")
        // The C1 controls: CSI, OSC, NEL (a newline to some terminals).
        #expect("\u{9B}2J\u{9D}0;x\u{9C}\u{85}".terminalSafe == "\\u{9B}2J\\u{9D}0;x\\u{9C}\\u{85}")
    }

    @Test func oneLineTextHasNoLineBreak() {
        let forged = "notes.yaml\nvigil: error: your disk is failing\r\n"
        #expect(forged.terminalSafe == "notes.yaml\\nvigil: error: your disk is failing\\r\\n")
        #expect("a\tb".terminalSafe == "a\\tb")
        #expect("a\u{2028}b\u{2029}c".terminalSafe == "a\\u{2028}b\\u{2029}c")
        #expect(!forged.terminalSafe.contains { $0.isNewline })
    }

    @Test func textOfSeveralLinesKeepsItsNewlinesOnly() {
        #expect("first\nsecond".terminalSafeLines == "first\nsecond")
        #expect("first\r\nsecond\u{1B}[2J\tend".terminalSafeLines == "first\\r\nsecond\\u{1B}[2J\\tend")
    }

    @Test func bidiControlsCannotReverseWhatFollows() {
        // "invoice_\u{202E}fdp.exe" reads as "invoice_exe.pdf" on a screen that obeys it.
        #expect("invoice_\u{202E}fdp.exe".terminalSafe == "invoice_\\u{202E}fdp.exe")
        for scalar: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let u = Unicode.Scalar(scalar)!
            #expect(u.isTerminalControl, "U+\(String(scalar, radix: 16))")
            #expect(String(u).terminalSafe == "\\u{\(String(scalar, radix: 16, uppercase: true))}")
        }
    }

    @Test func everyControlClassAndNothingElse() {
        let controls: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x7F...0x9F, 0x061C...0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028...0x2029,
        ]
        for value in UInt32(0)...0x2100 {
            guard let u = Unicode.Scalar(value) else { continue }
            let expected = controls.contains { $0.contains(value) }
            #expect(u.isTerminalControl == expected, "U+\(String(value, radix: 16))")
            let shown = String(u).terminalSafe
            #expect(shown.unicodeScalars.contains { $0.isTerminalControl } == false)
            #expect((shown == String(u)) == !expected)
        }
    }

    @Test func jsonEscapesWhatATerminalWouldObey() {
        #expect(jsonString("a\u{1B}[2J\u{7F}\u{9B}\u{202E}b\n") == "\"a\\u001b[2J\\u007f\\u009b\\u202eb\\n\"")
        #expect(jsonString("café 👩🏽‍💻") == "\"café 👩🏽‍💻\"")
    }
}
