import CDisplayWidth

/// Text measured and cut in terminal columns, not characters: a CJK character or an emoji takes
/// two columns, a combining accent none. Counting characters, a task named "論文を書く" overflowed
/// the live screen's line by five columns and pushed its right edge onto the next line.
///
/// The width of a scalar is the C library's wcwidth(3) (Unicode's East Asian Width and emoji
/// presentation, as the terminal itself reads them); a character (a grapheme cluster) takes the
/// width of its first scalar, or two when it asks for emoji presentation (U+FE0F), as terminals
/// draw "❤️" or a flag.
public enum DisplayWidth {
    /// Columns of one character.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        // A flag: two regional indicators, one each of which wcwidth counts as one column.
        if (0x1F1E6...0x1F1FF).contains(first.value), scalars.count == 2 { return 2 }
        let width = vigil_scalar_width(first.value)
        if width >= 0 { return Int(width) }
        // No UTF-8 locale (-2), or a scalar this glibc predates (-1): Unicode's own emoji
        // presentation says two columns, anything else is taken as one.
        return first.properties.isEmojiPresentation ? 2 : (first.properties.generalCategory == .control ? 0 : 1)
    }
}

extension StringProtocol {
    /// Columns this text takes in a terminal.
    public var displayWidth: Int {
        var total = 0
        for c in self { total += DisplayWidth.of(c) }
        return total
    }

    /// The text cut to at most `width` columns, ending in "…" when it was cut (a wide character
    /// that would straddle the edge is left out whole).
    public func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return String(self) }
        guard width > 0 else { return "" }
        var out = ""
        var used = 0
        for c in self {
            let w = DisplayWidth.of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// The text followed by spaces up to `width` columns (as it is when it is wider).
    public func padded(toWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? String(self) : String(self) + String(repeating: " ", count: width - w)
    }

    /// Spaces up to `width` columns, then the text (as it is when it is wider).
    public func leftPadded(toWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? String(self) : String(repeating: " ", count: width - w) + String(self)
    }
}
