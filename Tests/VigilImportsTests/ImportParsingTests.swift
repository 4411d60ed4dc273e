import Foundation
import Testing
import VigilCore
import VigilImports
import VigilPlanner

private let utc = TimeZone(identifier: "UTC")!
private let now = Timestamp(seconds: 1_795_000_000)

private func day(_ text: String) -> Int { civilDay(text)! }

/// Taskwarrior's `task export`, field by field (the records as Taskwarrior 2.6.2 prints them).
@Suite struct TaskwarriorParsingTests {
    static let export = """
        [
        {"id":1,"description":"Write chapter 3","due":"20261201T000000Z","entry":"20261120T080000Z","modified":"20261120T080000Z","priority":"H","project":"Thesis","status":"pending","uuid":"919b4b96-e8f8-4d27-91c0-dbff66d77439","tags":["deep","writing"],"urgency":13.5},
        {"id":0,"description":"Send invoice","due":"20261127T170000Z","end":"20261121T093000Z","entry":"20261120T080000Z","modified":"20261121T093000Z","priority":"L","status":"completed","uuid":"ce43ee84-934d-4d33-839e-64cd8bf24b95","annotations":[{"entry":"20261120T090000Z","description":"ask Bob first"},{"entry":"20261121T090000Z","description":"sent"}],"urgency":0},
        {"id":0,"description":"Throw away","entry":"20261120T080000Z","status":"deleted","uuid":"b006d43b-051d-4e79-93fc-0d9345cc85dc"},
        {"id":3,"description":"Water plants","due":"20261125T235959Z","entry":"20261120T080000Z","recur":"weekly","status":"recurring","uuid":"5b2aff92-25ca-47cc-b740-9197e4c0cd78"},
        {"id":4,"description":"Water plants","due":"20261125T235959Z","entry":"20261120T080000Z","parent":"5b2aff92-25ca-47cc-b740-9197e4c0cd78","status":"pending","uuid":"a597f34d-1d70-4552-9656-5eb69158d8ac"}
        ]
        """

    @Test func everyFieldComesAcross() throws {
        let parsed = try TaskwarriorExport.parse(Data(Self.export.utf8), file: "tasks.json", zone: utc, now: now)
        let titles = parsed.tasks.map(\.task.title)
        #expect(titles == ["Write chapter 3", "Send invoice", "Water plants"])
        #expect(parsed.deleted == 1)
        #expect(parsed.recurring == 1)
        let chapter = parsed.tasks[0].task
        #expect(parsed.tasks[0].uuid == "919b4b96-e8f8-4d27-91c0-dbff66d77439")
        #expect(chapter.priority == .high)
        #expect(chapter.tags == ["deep", "writing", "thesis"], "the project is one more tag, lowercased")
        #expect(chapter.due == Deadline(day: day("2026-12-01")), "local midnight is the day itself")
        #expect(chapter.created == exportTime("20261120T080000Z"))
        #expect(chapter.done == nil)
        let invoice = parsed.tasks[1].task
        #expect(invoice.priority == .low)
        #expect(invoice.due == Deadline(day: day("2026-11-27"), minute: 17 * 60))
        #expect(invoice.done == exportTime("20261121T093000Z"))
        #expect(invoice.note == "2026-11-20: ask Bob first; 2026-11-21: sent")
        let plants = parsed.tasks[2].task
        #expect(plants.due == Deadline(day: day("2026-11-25")), "23:59:59 (eod) is the day itself")
        #expect(plants.priority == .medium, "no priority: Vigil's default")
    }

    @Test func deadlinesAreReadInTheLocalZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // Taskwarrior stores `due:2026-12-01` typed in Berlin as 23:00 UTC the day before.
        let one = #"[{"description":"x","status":"pending","uuid":"u1","due":"20261130T230000Z"}]"#
        let parsed = try TaskwarriorExport.parse(Data(one.utf8), file: "f", zone: berlin, now: now)
        let due = parsed.tasks.first?.task.due
        #expect(due == Deadline(day: day("2026-12-01")))
    }

    @Test func jsonLinesAreReadToo() throws {
        let lines = """
            {"description":"a","status":"pending","uuid":"u1"}
            {"description":"b","status":"waiting","uuid":"u2"}
            """
        let parsed = try TaskwarriorExport.parse(Data(lines.utf8), file: "f", zone: utc, now: now)
        #expect(parsed.tasks.map(\.task.title) == ["a", "b"])
        #expect(parsed.tasks.first?.task.created == now, "without entry: added now")
    }

    /// A bad record names the file, the record (from 1) and the field.
    @Test(arguments: [
        (#"[{"description":"a","status":"pending","uuid":"u1"},{"description":"b","status":"pending","uuid":"u2","due":"tomorrow"}]"#, 2, "due"),
        (#"[{"description":"a","status":"pending"}]"#, 1, "uuid"),
        (#"[{"description":"  ","status":"pending","uuid":"u1"}]"#, 1, "description"),
        (#"[{"description":"a","status":"pending","uuid":"u1","priority":"X"}]"#, 1, "priority"),
        (#"[{"description":"a","status":"started","uuid":"u1"}]"#, 1, "status"),
        (#"[{"description":"a","status":"pending","uuid":"u1","tags":"home"}]"#, 1, "tags"),
        (#"[{"description":"a","status":"completed","uuid":"u1"}]"#, 1, "end"),
        (#"[{"description":"a","status":"pending","uuid":"u1"},{"description":"a","status":"pending","uuid":"u1"}]"#, 2, "uuid"),
    ])
    func aBadRecordIsNamed(json: String, record: Int, field: String) {
        let problem = #expect(throws: ImportProblem.self) {
            try TaskwarriorExport.parse(Data(json.utf8), file: "tasks.json", zone: utc, now: now)
        }
        #expect(problem?.file == "tasks.json")
        #expect(problem?.record == record)
        #expect(problem?.field == field)
    }

    @Test func notJSONIsSaidSo() {
        let problem = #expect(throws: ImportProblem.self) {
            try TaskwarriorExport.parse(Data("[{\"description\": ".utf8), file: "tasks.json", zone: utc, now: now)
        }
        #expect(problem?.description.hasPrefix("tasks.json: not valid JSON") == true)
    }
}

/// Timewarrior's `timew export` (the records as Timewarrior 1.4.3 prints them).
@Suite struct TimewarriorParsingTests {
    /// After every interval here: 2027-01-01.
    static let later = Timestamp(seconds: 1_798_761_600)

    @Test func closedIntervalsBecomeSessionsAndOpenOnesWait() throws {
        let export = """
            [
            {"id":3,"start":"20261120T090000Z","end":"20261120T103000Z","tags":["thesis"]},
            {"id":2,"start":"20261120T110000Z","end":"20261120T114500Z","tags":["Deep Work"," thesis","deep work"]},
            {"id":1,"start":"20261123T100000Z","tags":["reading"],"annotation":"chapter two"}
            ]
            """
        let parsed = try TimewarriorExport.parse(Data(export.utf8), file: "time.json", now: Self.later)
        #expect(parsed.open == 1)
        #expect(parsed.intervals.count == 2)
        let first = parsed.intervals[0]
        #expect(first.start == exportTime("20261120T090000Z"))
        #expect(first.end - first.start == 5400)
        #expect(first.sessionTags == ["thesis"])
        // Tags as `vigil session tag` keeps them (trimmed, lower case, each once), not a task name.
        #expect(parsed.intervals[1].sessionTags == ["deep work", "thesis"])
        #expect(parsed.intervals[1].tags == ["Deep Work", "thesis", "deep work"], "as Timewarrior wrote them, for the import's record")
        #expect(parsed.intervals[0].key != parsed.intervals[1].key)
    }

    /// An interval's task: the first tag that is a task's title, as `--task` names one; no other tag
    /// makes one (it used to be the tags joined with ", ").
    @Test func aTagNamesATaskOnlyWhenItIsATasksTitle() {
        let tasks = [
            TaskItem(id: 1, title: "Write chapter 3", created: now), TaskItem(id: 2, title: "Review", created: now),
            TaskItem(id: 3, title: "Review", created: now), TaskItem(id: 4, title: "Old", created: now, done: now),
            TaskItem(id: 5, title: "Old", created: now),
        ]
        let byTag = TaskByTag(tasks)
        #expect(byTag.task(for: ["thesis", "write chapter 3"])?.id == 1, "exact title, without regard to case")
        #expect(byTag.task(for: ["thesis"]) == nil)
        #expect(byTag.task(for: ["review"]) == nil, "two open tasks share the title: none")
        #expect(byTag.task(for: ["review", "Write chapter 3"])?.id == 1)
        #expect(byTag.task(for: ["old"])?.id == 5, "the open one before the done one")
        #expect(byTag.task(for: ["1"]) == nil, "a number is not a title")
        #expect(byTag.task(for: []) == nil)
    }

    @Test func theKeyIsStartEndAndTagsNotTheId() throws {
        let a = try TimewarriorExport.parse(
            Data(#"[{"id":1,"start":"20261120T090000Z","end":"20261120T100000Z","tags":["a","b"]}]"#.utf8), file: "f", now: Self.later)
        let b = try TimewarriorExport.parse(
            Data(#"[{"id":7,"start":"20261120T090000Z","end":"20261120T100000Z","tags":["b","a"]}]"#.utf8), file: "f", now: Self.later)
        let c = try TimewarriorExport.parse(
            Data(#"[{"id":1,"start":"20261120T090000Z","end":"20261120T100001Z","tags":["a","b"]}]"#.utf8), file: "f", now: Self.later)
        #expect(a.intervals[0].key == b.intervals[0].key)
        #expect(a.intervals[0].key != c.intervals[0].key)
    }

    @Test func anEndBeforeItsStartIsNamed() {
        let problem = #expect(throws: ImportProblem.self) {
            try TimewarriorExport.parse(Data(#"[{"start":"20261120T090000Z","end":"20261120T080000Z"}]"#.utf8), file: "time.json", now: Self.later)
        }
        #expect(
            problem?.description
                == "time.json, record 1, field 'end': '20261120T080000Z': the session must end after it starts; correct it in Timewarrior (`timew modify end @ID TIME`) and export again"
        )
    }

    @Test func anEmptyExportHasNothing() throws {
        let parsed = try TimewarriorExport.parse(Data("[\n]\n".utf8), file: "f", now: Self.later)
        #expect(parsed.intervals.isEmpty && parsed.open == 0)
    }
}

/// Loop Habit Tracker's CSV export, in the layout of Loop's own source (github.com/iSoron/uhabits,
/// uhabits-core: HabitList.writeCSV, HabitsCSVExporter, Entry.formattedValue; GPL-3.0). The files
/// here are written for these tests after that layout, not copied.
@Suite struct LoopParsingTests {
    /// After every day here: 2026-12-31.
    static let today = Int(CivilTime.daysFromCivil(year: 2026, month: 12, day: 31))

    /// Loop 2.3's layout.
    static let habits = """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Meditate,YES_NO,Did you meditate this morning?,,1,1,#FF8F00,,,,false
        002,"Read, slowly",YES_NO,"Did you read ""a bit""?",,3,7,#00897B,,,,false
        003,Run,NUMERICAL,How far?,,1,1,#3949AB,km,AT_LEAST,5.0,false
        004,Floss,YES_NO,Floss?,,2,3,#D32F2F,,,,true

        """
    static let checkmarks = """
        Date,Meditate,Read, slowly,Run,Floss,
        2026-11-20,YES_MANUAL,SKIP,5000,NO,
        2026-11-19,NO,YES_MANUAL,0,YES_MANUAL,
        2026-11-18,YES_AUTO,YES_AUTO,0,UNKNOWN,
        2026-11-17,UNKNOWN,UNKNOWN,UNKNOWN,UNKNOWN,

        """

    @Test func habitsAndTheirDaysComeAcross() throws {
        let parsed = try LoopExport.parse(
            habitsCSV: Data(Self.habits.utf8), habitsFile: "Habits.csv", checkmarksCSV: Data(Self.checkmarks.utf8), checkmarksFile: "Checkmarks.csv",
            today: Self.today)
        #expect(parsed.habits.map(\.name) == ["Meditate", "Read, slowly", "Floss"])
        #expect(parsed.numerical == ["Run"])
        let meditate = parsed.habits[0]
        #expect(meditate.schedule == .daily)
        #expect(meditate.color == "#FF8F00")
        #expect(meditate.days == [day("2026-11-20"): .completed], "NO and YES_AUTO are not marked")
        #expect(meditate.firstDay == day("2026-11-18"), "the first day Loop judged (YES_AUTO)")
        let read = parsed.habits[1]
        #expect(read.schedule == .timesPerWeek(3))
        #expect(read.days == [day("2026-11-20"): .skipped, day("2026-11-19"): .completed])
        let floss = parsed.habits[2]
        #expect(floss.archived)
        #expect(floss.schedule == .timesPerWeek(5), "2 in 3 days: 4.67 a week, the nearest above")
        #expect(parsed.notes == ["'Floss': Loop's 2 times in 3 days is 5 times a week in Vigil"])
    }

    /// Loop before 2.3: NumRepetitions and Interval, numbers for the marks.
    @Test func theOlderLayoutIsReadToo() throws {
        let habits = """
            Position,Name,Question,Description,NumRepetitions,Interval,Color
            001,Meditate,Did you meditate this morning?,,1,1,#FF8F00
            002,Wake up early,Did you wake up before 6am?,,2,7,#00897B
            003,Pages,How many?,,1,1,#00897B
            """
        let checks = """
            Date,Meditate,Wake up early,Pages,
            2015-01-25,-1,2,12000,
            2015-01-24,2,0,0,
            2015-01-23,3,1,0,
            """
        // Saved again by a spreadsheet, with a byte-order mark in front: the same.
        let parsed = try LoopExport.parse(
            habitsCSV: Data(("\u{FEFF}" + habits).utf8), habitsFile: "H", checkmarksCSV: Data(("\u{FEFF}" + checks).utf8), checkmarksFile: "C",
            today: Self.today)
        #expect(parsed.habits.map(\.name) == ["Meditate", "Wake up early"])
        #expect(parsed.numerical == ["Pages"], "amounts other than the marks: a numerical habit")
        #expect(parsed.habits[0].days == [day("2015-01-24"): .completed, day("2015-01-23"): .skipped])
        #expect(parsed.habits[1].schedule == .timesPerWeek(2))
        #expect(parsed.habits[1].days == [day("2015-01-25"): .completed])
    }

    @Test(arguments: [
        ("Date,Meditate,Nope,\n2026-11-20,YES_MANUAL,NO,\n", "C, record 1, field 'Nope': a habit that is not in Habits.csv"),
        (
            "Date,Meditate,\n2026-11-31,YES_MANUAL,\n",
            "C, record 2, field 'Date': '2026-11-31' is not a date YYYY-MM-DD (from 1970-01-01 to 2199-12-31)"
        ),
        (
            "Date,Meditate,\n2026-11-20,MAYBE,\n",
            "C, record 2, field 'Meditate': 'MAYBE' is not one of Loop's marks (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN)"
        ),
        ("Date,Meditate,\n2026-11-20,YES_MANUAL,NO,\n", "C, record 2: 2 values for 1 habits"),
        ("Habit,Meditate\n", "C, record 1, field 'Date': expected Loop Habit Tracker's Checkmarks.csv, whose header starts with Date"),
    ])
    func aBadCheckmarksFileIsNamed(checks: String, message: String) {
        let habits = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Meditate,YES_NO,,,1,1,#FF8F00\n"
        let problem = #expect(throws: ImportProblem.self) {
            try LoopExport.parse(
                habitsCSV: Data(habits.utf8), habitsFile: "H", checkmarksCSV: Data(checks.utf8), checkmarksFile: "C", today: Self.today)
        }
        #expect(problem?.description == message)
    }

    @Test func aBadHabitsFileIsNamed() {
        let habits = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Meditate,YES_NO,,,0,1,#FF8F00\n"
        let problem = #expect(throws: ImportProblem.self) {
            try LoopExport.parse(
                habitsCSV: Data(habits.utf8), habitsFile: "H", checkmarksCSV: Data("Date,\n".utf8), checkmarksFile: "C", today: Self.today)
        }
        #expect(problem?.description == "H, record 2, field 'FrequencyNumerator': expected a whole number of times, 1 or more")
    }
}
