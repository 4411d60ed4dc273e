import DisplayWidth
import Testing

/// Widths as a terminal draws them (xterm, VTE, kitty agree on these: they follow Unicode's East
/// Asian Width, which glibc's wcwidth reads).
@Suite struct DisplayWidthTests {
    @Test func widthsAsATerminalDrawsThem() {
        #expect("thesis".displayWidth == 6)
        #expect("論文を書く".displayWidth == 10)  // CJK: two columns each
        #expect("한글".displayWidth == 4)  // Hangul syllables
        #expect("ＡＢ".displayWidth == 4)  // fullwidth Latin
        #expect("🎉".displayWidth == 2)  // emoji presentation
        #expect("❤️".displayWidth == 2)  // text-default heart asked for as emoji (U+FE0F)
        #expect("🇫🇷".displayWidth == 2)  // a flag: one character of two regional indicators
        #expect("é".displayWidth == 1)  // e + combining acute: one character, one column
        #expect("e\u{301}".displayWidth == 1)
        #expect("█░…·".displayWidth == 4)  // the live screen's own symbols
        #expect("\u{7}".displayWidth == 0)
    }

    @Test func truncationCutsColumnsNotCharacters() {
        // Nine columns allowed: four wide characters and the ellipsis; the fifth would straddle.
        #expect("論文を書く".truncated(toWidth: 9) == "論文を書…")
        #expect("論文を書く".truncated(toWidth: 10) == "論文を書く")
        #expect("論文を書く".truncated(toWidth: 8) == "論文を…")
        #expect("abc".truncated(toWidth: 3) == "abc")
        #expect("abcd".truncated(toWidth: 3) == "ab…")
        for width in 1...12 { #expect("論文を書く · notes 🎉".truncated(toWidth: width).displayWidth <= width) }
    }

    @Test func paddingFillsColumns() {
        #expect("論文".padded(toWidth: 6) == "論文  ")
        #expect("論文".leftPadded(toWidth: 6) == "  論文")
        #expect("abcdef".padded(toWidth: 3) == "abcdef")
    }

    @Test func wordWrapMeasuresColumns() {
        let lines = wordWrap("論文 論文 論文 ab", width: 9, indent: 2)
        #expect(lines == ["論文 論文", "  論文 ab"])
        for line in lines { #expect(line.displayWidth <= 9) }
    }
}
