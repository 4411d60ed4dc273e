import Foundation
import Testing
import VigilCore
import VigilPlanner

@testable import VigilImports

/// Imports keep the rules the commands keep (`SessionSpanRules`, `TextRules`, `HabitRules`), with
/// the record that breaks one named: what Timewarrior, Taskwarrior and Loop really write, with one
/// bad value each.
@Suite struct ImportRulesTests {
    /// 2026-11-20 12:00 UTC.
    let now = Timestamp(seconds: 1_795_176_000)

    /// `timew export`'s layout (Timewarrior 1.4): a JSON array, one interval a line.
    func timew(_ intervals: [String]) -> Data {
        Data(("[\n" + intervals.joined(separator: ",\n") + "\n]\n").utf8)
    }

    @Test(arguments: [
        (
            #"{"id":1,"start":"19700101T000000Z","end":"21991231T000000Z","tags":["thesis"]}"#,
            "time.json, record 2, field 'end': '21991231T000000Z': a session lasts at most a day, and this one lasts "
        ),
        (
            #"{"id":1,"start":"20261120T090000Z","end":"20261123T090000Z","tags":["thesis"]}"#,
            "time.json, record 2, field 'end': '20261123T090000Z': a session lasts at most a day, and this one lasts 3 days; cut it into days in Timewarrior (`timew modify end @1 TIME`"
        ),
        (
            #"{"id":1,"start":"20261121T090000Z","end":"20261121T100000Z","tags":["thesis"]}"#,
            "time.json, record 2, field 'end': '20261121T100000Z': it ends in the future: a session is added once it is over; correct it in Timewarrior (`timew modify end @1 TIME`)"
        ),
    ])
    func aTimewarriorIntervalSessionAddWouldRefuseStopsTheImport(interval: String, message: String) {
        let problem = #expect(throws: ImportProblem.self) {
            try TimewarriorExport.parse(
                timew([#"{"id":2,"start":"20261119T090000Z","end":"20261119T100000Z","tags":["ok"]}"#, interval]), file: "time.json", now: now)
        }
        #expect(problem?.description.hasPrefix(message) == true, "\(problem?.description ?? "accepted")")
    }

    @Test func aTimewarriorIntervalWithoutTimeIsSkippedAndCounted() throws {
        let parsed = try TimewarriorExport.parse(timew([#"{"id":1,"start":"20261119T090000Z","end":"20261119T090000Z"}"#]), file: "t", now: now)
        #expect(parsed.intervals.isEmpty && parsed.empty == 1)
    }

    /// A NUL (`\u0000` in JSON) would end the text where it is stored: refused, named.
    @Test func aNULInImportedTextIsRefusedNotCutShort() {
        let tag = #expect(throws: ImportProblem.self) {
            try TimewarriorExport.parse(
                timew([#"{"id":1,"start":"20261119T090000Z","end":"20261119T100000Z","tags":["the\u0000sis"]}"#]), file: "t", now: now)
        }
        #expect(tag?.record == 1 && tag?.field == "tags" && tag?.reason.contains("NUL") == true, "\(String(describing: tag))")
        let task = #expect(throws: ImportProblem.self) {
            try TaskwarriorExport.parse(
                Data(#"[{"uuid":"u1","status":"pending","description":"Write\u0000 chapter 3","entry":"20261119T090000Z"}]"#.utf8),
                file: "tasks.json",
                zone: TimeZone(identifier: "UTC")!, now: now)
        }
        #expect(task?.field == "description" && task?.reason.contains("NUL") == true, "\(String(describing: task))")
        let habit = #expect(throws: ImportProblem.self) {
            try LoopExport.parse(
                habitsCSV: Data(
                    "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Medi\u{0}tate,YES_NO,,,1,1,#FF8F00\n"
                        .utf8),
                habitsFile: "Habits.csv", checkmarksCSV: Data("Date,\n".utf8), checkmarksFile: "Checkmarks.csv", today: 20_777)
        }
        #expect(habit?.record == 2 && habit?.field == "Name" && habit?.reason.contains("NUL") == true, "\(String(describing: habit))")
    }

    /// A Loop mark on a day that has not come is left out and said, not dropped without a word.
    @Test func aLoopMarkInTheFutureIsReported() throws {
        let habits = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Meditate,YES_NO,,,1,1,#FF8F00\n"
        let checks = "Date,Meditate,\n2026-11-21,YES_MANUAL,\n2026-11-20,YES_MANUAL,\n"
        let today = Int(CivilTime.daysFromCivil(year: 2026, month: 11, day: 20))
        let parsed = try LoopExport.parse(
            habitsCSV: Data(habits.utf8), habitsFile: "Habits.csv", checkmarksCSV: Data(checks.utf8), checkmarksFile: "Checkmarks.csv", today: today)
        #expect(parsed.habits[0].days == [today: .completed])
        #expect(parsed.future == [LoopExport.FutureMark(file: "Checkmarks.csv", line: 2, habit: "Meditate", day: today + 1)])
    }

    /// Loop's names are told apart without regard to case by one lookup each: the comparisons do
    /// not grow with the habits before (15,000 habits took 45 s).
    @Test func tellingLoopsNamesApartIsLinear() {
        var names = CaseInsensitiveNames()
        var distinct = 0
        for i in 0..<3000 where names.insert("Habit \(i)") { distinct += 1 }
        let again = names.insert("HABIT 17")
        #expect(distinct == 3000 && !again)
        #expect(names.comparisons <= 3001, "\(names.comparisons) comparisons for 3001 names")
    }
}
