/// Text that came from outside Vigil (task titles, habit names, notes, a recording's application
/// names and reasons, file names, config keys and values) made safe to print to a terminal.
///
/// A terminal obeys the control characters in what it is given: ESC and the C1 controls start
/// sequences that set the window title, clear the screen or move the cursor; a newline or a
/// carriage return puts a forged `vigil: error:` line under a real one; a bidi control makes what
/// follows it read backwards. Each of them becomes the escape Swift writes it with in a literal
/// (`\n`, `\r`, `\t`, `\0`, `\u{1B}`) rather than U+FFFD: it says what was there, so a bad title
/// can be found and fixed; it is plain ASCII, one column a character on every terminal, so tables
/// stay aligned; and it is inert in every format Vigil writes. A backslash is left as it is (paths
/// and titles have them), so the escape is for safety, not a lossless round trip.
///
/// Vigil's own escape sequences (colours, the live screen) are added after this, to the text
/// around the values, so they keep working.
extension StringProtocol {
    /// The text on one line: a newline in it is shown as `\n`, like every other control. For
    /// titles, names, reasons, paths: anything printed inside a line of Vigil's own.
    public var terminalSafe: String { terminalSafeText(self, keepingNewlines: false) }

    /// The text with its newlines kept: for text that is several lines by design (a note, a
    /// multi-line message), whose lines are printed as they are.
    public var terminalSafeLines: String { terminalSafeText(self, keepingNewlines: true) }
}

extension String {
    // The same for a `String`, which is what is printed almost always: a replay prints a line for
    // every change of state, and scanning its bytes directly takes a fraction of the generic walk.
    public var terminalSafe: String { isPrintableASCII ? self : terminalSafeText(self, keepingNewlines: false) }
    public var terminalSafeLines: String { isPrintableASCII ? self : terminalSafeText(self, keepingNewlines: true) }

    /// Only printable ASCII (U+0020 to U+007E): nothing to escape.
    private var isPrintableASCII: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where b < 0x20 || b >= 0x7F { return false }
            return true
        } ?? utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}

extension Unicode.Scalar {
    /// Whether a terminal (or a text renderer) acts on this character rather than showing it: the C0
    /// controls, DEL and the C1 controls; the bidi controls (embeddings, overrides, isolates, the
    /// implicit marks LRM, RLM and ALM); and Unicode's line and paragraph separators, which some
    /// programs treat as newlines.
    public var isTerminalControl: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029: true
        default: false
        }
    }
}

private func terminalSafeText(_ text: some StringProtocol, keepingNewlines: Bool) -> String {
    // The common case, printable ASCII, is one pass over the bytes and the text as it is; so is
    // other text without a control (accents, CJK, emoji with their joiners and combining marks).
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text) }
    func replaced(_ u: Unicode.Scalar) -> Bool { u.isTerminalControl && !(keepingNewlines && u == "\n") }
    guard text.unicodeScalars.contains(where: replaced) else { return String(text) }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for u in text.unicodeScalars {
        guard replaced(u) else {
            out.unicodeScalars.append(u)
            continue
        }
        switch u {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\0": out += "\\0"
        default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        }
    }
    return out
}
