import Foundation
import VigilCore
import VigilPlanner
import VigilStore

/// Loop Habit Tracker's CSV export as Vigil habits and their days.
///
/// Loop (Settings → Export as CSV) writes a zip, "Loop Habits CSV DATE.zip", holding `Habits.csv`
/// (one habit a row), `Checkmarks.csv` (a row a day, newest first: the date, then one column per
/// habit, in the order of `Habits.csv`) and a folder per habit. The layout, from Loop's own source
/// (github.com/iSoron/uhabits, uhabits-core: `HabitList.writeCSV`, `HabitsCSVExporter`,
/// `Entry.formattedValue`), in its two generations:
///
/// - Loop 2.3 on: `Habits.csv` is `Position,Name,Type,Question,Description,FrequencyNumerator,
///   FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?`; the days are
///   `YES_MANUAL`, `YES_AUTO`, `NO`, `SKIP`, `UNKNOWN` (or a number, for a numerical habit).
/// - Before: `Position,Name,Question,Description,NumRepetitions,Interval,Color`; the days are
///   numbers: 2 done, 1 done automatically, 0 not done, 3 skipped, -1 unknown.
///
/// Its header is written as is, not quoted (`Date,Meditate,Wake up early,`), so a name with a
/// comma is told apart by `Habits.csv`'s names. As Vigil takes them:
///
/// - a day done by the person (`YES_MANUAL`, 2) → completed; skipped (`SKIP`, 3) → skipped; the
///   others (`YES_AUTO`: not done, but the frequency allowed it; `NO`; `UNKNOWN`) → not marked;
/// - the frequency: every day → every day; N times in 7 days → N times a week; other intervals
///   (2 times in 3 days, once a month) → the times a week nearest above, said in `notes`;
/// - `Archived?` true → archived; the colour is kept; the question and description are not;
/// - the habit starts on the first day the file judges (done, not done or skipped);
/// - numerical habits (`Type` NUMERICAL, or numbers other than Loop's marks in the old layout)
///   are skipped: Vigil's habits are done or not.
public struct LoopExport: Sendable {
    /// The habits with their completed and skipped days.
    public var habits: [ImportedHabit]
    /// Numerical habits, not imported.
    public var numerical: [String] = []
    /// What did not come across as it was (a frequency approximated), for the person.
    public var notes: [String] = []
    /// Marks on days after `today`, left out: a day is marked once it has come, as `vigil habit
    /// check` marks it (`PlannerError.futureDay`). Said in the summary, with their place.
    public var future: [FutureMark] = []

    /// A mark on a day that has not come yet, and where it is.
    public struct FutureMark: Sendable, Equatable {
        public var file: String
        /// Its line in Checkmarks.csv, from 1.
        public var line: Int
        public var habit: String
        public var day: Int
    }

    /// - Parameters:
    ///   - habitsCSV, checkmarksCSV: the two files' contents; the names: for messages.
    ///   - today: the local day now: marks after it are left out and listed in `future`.
    public static func parse(habitsCSV: Data, habitsFile: String, checkmarksCSV: Data, checkmarksFile: String, today: Int) throws(ImportProblem)
        -> LoopExport
    {
        let rows = csvRows(withoutByteOrderMark(habitsCSV))
        guard let header = rows.first else { throw ImportProblem(file: habitsFile, reason: "empty; expected Loop Habit Tracker's Habits.csv") }
        func column(_ name: String) -> Int? { header.firstIndex { $0.trimmingCharacters(in: .whitespaces) == name } }
        guard let nameColumn = column("Name") else {
            throw ImportProblem(file: habitsFile, record: 1, field: "Name", reason: "no such column; expected Loop Habit Tracker's Habits.csv")
        }
        let numerator = column("FrequencyNumerator") ?? column("NumRepetitions")
        let denominator = column("FrequencyDenominator") ?? column("Interval")
        guard let numerator, let denominator else {
            throw ImportProblem(
                file: habitsFile, record: 1, field: "FrequencyNumerator",
                reason: "no frequency columns (FrequencyNumerator and FrequencyDenominator, or NumRepetitions and Interval)")
        }
        let typeColumn = column("Type")
        let colorColumn = column("Color")
        let archivedColumn = column("Archived?")

        var out = LoopExport(habits: [])
        var numericalByType = Set<Int>()
        var names: [String] = []
        // The names seen, without regard to case: one lookup a habit, not a comparison with every
        // habit before it (15,000 habits took 45 s).
        var seenNames = CaseInsensitiveNames()
        for (i, row) in rows.enumerated().dropFirst() where !(row.count == 1 && row[0].isEmpty) {
            func field(_ c: Int?, _ name: String) throws(ImportProblem) -> String? {
                guard let c else { return nil }
                guard c < row.count else { throw ImportProblem(file: habitsFile, record: i + 1, field: name, reason: "missing (the row is short)") }
                return row[c]
            }
            let name = try field(nameColumn, "Name")!.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw ImportProblem(file: habitsFile, record: i + 1, field: "Name", reason: "blank: a habit needs a name") }
            if let reason = TextRules.problem(name) { throw ImportProblem(file: habitsFile, record: i + 1, field: "Name", reason: reason) }
            guard seenNames.insert(name) else {
                throw ImportProblem(file: habitsFile, record: i + 1, field: "Name", reason: "'\(name)' is in the file twice: rename one in Loop")
            }
            names.append(name)
            let numeratorName = header[numerator]
            let denominatorName = header[denominator]
            guard let n = Int(try field(numerator, numeratorName)!.trimmingCharacters(in: .whitespaces)), n >= 1 else {
                throw ImportProblem(file: habitsFile, record: i + 1, field: numeratorName, reason: "expected a whole number of times, 1 or more")
            }
            guard let d = Int(try field(denominator, denominatorName)!.trimmingCharacters(in: .whitespaces)), d >= 1 else {
                throw ImportProblem(file: habitsFile, record: i + 1, field: denominatorName, reason: "expected a whole number of days, 1 or more")
            }
            let (schedule, note) = Self.schedule(times: n, days: d)
            if let note { out.notes.append("'\(name)': \(note)") }
            if try field(typeColumn, "Type")?.trimmingCharacters(in: .whitespaces) == "NUMERICAL" { numericalByType.insert(names.count - 1) }
            let color = try field(colorColumn, "Color")?.trimmingCharacters(in: .whitespaces)
            if let color, let reason = TextRules.problem(color) {
                throw ImportProblem(file: habitsFile, record: i + 1, field: "Color", reason: reason)
            }
            let archived = try field(archivedColumn, "Archived?")?.trimmingCharacters(in: .whitespaces).lowercased() == "true"
            out.habits.append(
                ImportedHabit(
                    name: name, schedule: schedule, color: color?.isEmpty == false ? color : nil, archived: archived, days: [:], firstDay: nil))
        }

        // Checkmarks.csv: read line by line (its header is not CSV-quoted; its values never hold commas).
        let lines = withoutByteOrderMark(checkmarksCSV).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.first, first.hasPrefix("Date,") || first == "Date" else {
            throw ImportProblem(
                file: checkmarksFile, record: 1, field: "Date", reason: "expected Loop Habit Tracker's Checkmarks.csv, whose header starts with Date")
        }
        let columns = try Self.habitColumns(header: String(first.dropFirst(5)), names: names, file: checkmarksFile)
        var numericalByValue = Set<Int>()
        for (i, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            var values = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if values.last == "" { values.removeLast() }
            guard let day = civilDay(values[0]), SupportedDates.days.contains(day) else {
                throw ImportProblem(
                    file: checkmarksFile, record: i + 1, field: "Date", reason: "'\(values[0])' is not a date YYYY-MM-DD (\(SupportedDates.range))")
            }
            guard values.count == columns.count + 1 else {
                throw ImportProblem(file: checkmarksFile, record: i + 1, reason: "\(values.count - 1) values for \(columns.count) habits")
            }
            for (c, habit) in columns.enumerated() {
                let value = values[c + 1]
                let mark: DayStatus?
                switch value {
                case "YES_MANUAL", "2": mark = .completed
                case "SKIP", "3": mark = .skipped
                case "NO", "0", "YES_AUTO", "1": mark = .incomplete
                case "UNKNOWN", "-1", "": mark = nil
                default:
                    guard Int(value) != nil else {
                        throw ImportProblem(
                            file: checkmarksFile, record: i + 1, field: names[habit],
                            reason: "'\(value)' is not one of Loop's marks (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN)")
                    }
                    // A number other than a mark: an amount, so a numerical habit.
                    numericalByValue.insert(habit)
                    mark = nil
                }
                guard let mark else { continue }
                do throws(PlannerError) {
                    try HabitMarking.checkMarkable(day, today: today)
                } catch {
                    out.future.append(FutureMark(file: checkmarksFile, line: i + 1, habit: names[habit], day: day))
                    continue
                }
                out.habits[habit].firstDay = min(out.habits[habit].firstDay ?? day, day)
                if mark != .incomplete { out.habits[habit].days[day] = mark }
            }
        }
        let numerical = numericalByType.union(numericalByValue)
        let all = out.habits
        out.numerical = numerical.sorted().map { all[$0].name }
        out.habits = all.enumerated().filter { !numerical.contains($0.offset) }.map(\.element)
        return out
    }

    /// Loop's "`times` in `days` days" as a Vigil schedule, and what was changed to make it one.
    static func schedule(times: Int, days: Int) -> (Schedule, String?) {
        if times >= days { return (.daily, nil) }
        if days == 7 { return (.timesPerWeek(times), nil) }
        let perWeek = min(7, max(1, Int((Double(times) * 7 / Double(days)).rounded(.up))))
        let vigil: Schedule = perWeek == 7 ? .daily : .timesPerWeek(perWeek)
        return (vigil, "Loop's \(times) time\(times == 1 ? "" : "s") in \(days) days is \(vigil.description) in Vigil")
    }

    /// Which habit (an index into `names`) each column of Checkmarks.csv's header holds. The
    /// header is the names joined by commas as they are, so each is matched against the names
    /// Habits.csv gives, in its order (an export of some habits holds some of them).
    static func habitColumns(header: String, names: [String], file: String) throws(ImportProblem) -> [Int] {
        var rest = Substring(header)
        var columns: [Int] = []
        var next = 0
        while !rest.isEmpty, rest != "," {
            guard let found = names.indices.dropFirst(next).first(where: { rest.hasPrefix(names[$0] + ",") || rest == names[$0] }) else {
                let shown = rest.split(separator: ",").first.map(String.init) ?? String(rest)
                throw ImportProblem(file: file, record: 1, field: shown, reason: "a habit that is not in Habits.csv")
            }
            columns.append(found)
            rest = rest.dropFirst(names[found].count)
            if rest.hasPrefix(",") { rest = rest.dropFirst() }
            next = found + 1
        }
        return columns
    }
}

/// Names told apart without regard to case, as Loop's are (`caseInsensitiveCompare`): each is
/// found by its case-folded form, so telling whether a name was seen is one lookup.
struct CaseInsensitiveNames {
    private var folded: [String: [String]] = [:]
    /// Comparisons made by `caseInsensitiveCompare`, for the tests of its growth.
    private(set) var comparisons = 0

    /// Adds `name`; false when a name equal to it without regard to case is there already.
    mutating func insert(_ name: String) -> Bool {
        // Names that fold alike are compared as before (folding and comparing agree on nearly
        // every name; the comparison has the last word).
        let key = name.folding(options: [.caseInsensitive], locale: nil)
        let same = folded[key, default: []]
        for other in same {
            comparisons += 1
            if other.caseInsensitiveCompare(name) == .orderedSame { return false }
        }
        folded[key, default: []].append(name)
        return true
    }
}

/// A file's text without the byte-order mark a spreadsheet may have put in front when it saved it.
private func withoutByteOrderMark(_ data: Data) -> String {
    let text = String(decoding: data, as: UTF8.self)
    return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
}

/// Rows of a CSV text (RFC 4180: fields in double quotes may hold commas, newlines and doubled
/// quotes), as opencsv writes them for Loop.
func csvRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = text.makeIterator()
    var pending: Character? = chars.next()
    while let c = pending {
        pending = chars.next()
        if quoted {
            if c == "\"" {
                if pending == "\"" {
                    field.append("\"")
                    pending = chars.next()
                } else {
                    quoted = false
                }
            } else {
                field.append(c)
            }
            continue
        }
        switch c {
        case "\"" where field.isEmpty: quoted = true
        case ",":
            row.append(field)
            field = ""
        case "\n", "\r\n", "\r":
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        default: field.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty {
        row.append(field)
        rows.append(row)
    }
    return rows
}
