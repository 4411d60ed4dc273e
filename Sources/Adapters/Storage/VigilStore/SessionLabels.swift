import VigilCore

/// A session's episode labels as its synced row carries them (`SyncTable.labelsColumn`):
/// "2:break,5:work", by episode number. A session's events are sent once, with it; a label is
/// usually given after (on return, or later with `vigil episode`), so it travels as an edit of
/// the session, and the later edit wins as a whole.
///
/// A label this Vigil does not know (a newer one's) is kept as written: the log keeps it, and
/// everything that reads it takes the episode as judged.
enum SessionLabels {
    /// The SQL of a session's labels in that form (`s`: the session's alias), in episode order.
    static let outgoingSQL = """
        (SELECT group_concat(l, ',') FROM (
            SELECT number || ':' || label AS l FROM episodes INDEXED BY episodes_labelled
            WHERE session_id = s.id AND label IS NOT NULL ORDER BY number))
        """

    /// The labels of a received row, by episode number; or why the text is not labels.
    static func parse(_ text: String) -> Result<[(number: Int64, label: String)], Problem> {
        var out: [(Int64, String)] = []
        var numbers = Set<Int64>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let number = Int64(parts[0]), number >= 0, number < Int64(Int32.max) else {
                return .failure(Problem(description: "the labels '\(text.prefix(40))' are not episode:label pairs"))
            }
            let label = String(parts[1])
            guard !label.isEmpty, label.utf8.count <= 32, label.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (97...122).contains($0) }) else {
                return .failure(Problem(description: "the label '\(label.prefix(40))' of episode \(number) is not a label"))
            }
            guard numbers.insert(number).inserted else {
                return .failure(Problem(description: "episode \(number) is labelled twice"))
            }
            out.append((number, label))
        }
        return .success(out)
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }
}
