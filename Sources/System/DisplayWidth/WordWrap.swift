/// Words in lines of at most `width` terminal columns (a word longer than a line gets a line of its
/// own, whole): words are never split.
public func wordWrap(_ text: String, width: Int, indent: Int) -> [String] {
    guard text.displayWidth > width else { return [text] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
        if line.isEmpty {
            line = String(word)
        } else if line.displayWidth + 1 + word.displayWidth <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = String(repeating: " ", count: indent) + word
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}
