import DisplayWidth
import Foundation
import Testing

/// Columns as a person sees them in a terminal (issue 20: the habit list's header stood one
/// column left of its figures, and habit show's week grid one column left of its weekdays).
@Suite struct LayoutCLITests {
    /// The column (in terminal columns) where `word` starts in `line`.
    func column(of word: String, in line: String) -> Int? {
        guard let r = line.range(of: word) else { return nil }
        return line[..<r.lowerBound].displayWidth
    }

    @Test func theHabitListHeaderStandsOverItsColumns() async throws {
        let home = freshHome()
        _ = try await vigil(["habit", "add", "Walk", "--now", "2026-11-20T08:00:00Z"], home: home)
        _ = try await vigil(["habit", "add", "論文を書く", "--reminder", "09:00", "--now", "2026-11-20T08:00:00Z"], home: home)
        _ = try await vigil(["habit", "check", "1", "--now", "2026-11-20T08:00:00Z"], home: home)
        let list = try await vigil(["habit", "list", "--now", "2026-11-20T08:00:00Z"], home: home)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(list.stdout)")
        let header = lines[0]
        for row in lines.dropFirst() {
            // Left-aligned columns start where their header does; right-aligned ones end there.
            #expect(column(of: "every day", in: row) == column(of: "schedule", in: header), "\(header)\n\(row)")
            let strength = try #require(row.range(of: " %"))
            #expect(row[..<strength.upperBound].displayWidth == (column(of: "strength", in: header) ?? 0) + "strength".count, "\(header)\n\(row)")
            let days = try #require(row.range(of: " d "))
            #expect(row[..<days.lowerBound].displayWidth + 2 == (column(of: "streak", in: header) ?? 0) + "streak".count, "\(header)\n\(row)")
        }
        #expect(column(of: "論文を書く", in: lines[2]) == column(of: "name", in: header))
    }

    @Test func theWeekGridStandsUnderItsWeekdays() async throws {
        let home = freshHome()
        // Friday 2026-11-20 checked; Monday 2026-11-16 failed.
        _ = try await vigil(["habit", "add", "Walk", "--now", "2026-11-10T08:00:00Z"], home: home)
        _ = try await vigil(["habit", "check", "1", "--now", "2026-11-20T08:00:00Z"], home: home)
        _ = try await vigil(["habit", "set", "1", "2026-11-16", "failed", "--now", "2026-11-20T08:00:00Z"], home: home)
        let show = try await vigil(["habit", "show", "1", "--now", "2026-11-20T08:00:00Z"], home: home)
        let lines = show.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("last weeks") })
        let week = try #require(lines.first { $0.contains("2026-W47") })
        let letters = Array(header)
        let marks = Array(week)
        // Under M (the first letter after the label) the failed Monday, under the F the Friday.
        let monday = try #require(letters.firstIndex(of: "M"))
        let friday = try #require(letters.firstIndex(of: "F"))
        #expect(marks.count > friday, "\(header)\n\(week)")
        #expect(marks[monday] == "✗", "\(header)\n\(week)")
        #expect(marks[friday] == "✓", "\(header)\n\(week)")
    }
}
