import Foundation
import Testing

/// The records of a JSON array document (`task list --json`, `log --json` ...); none when the text
/// is not one.
func jsonRecords(_ text: String) -> [[String: Any]] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
}

/// The object of a one-object JSON document.
func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}

/// The style docs/json.md sets, on one parsed value: snake_case keys, no epoch `_ms` fields, no
/// number with more than four decimals, every string that starts like a time an ISO 8601 time
/// with its offset. What breaks it, as "path: problem".
func jsonStyleProblems(_ value: Any, at path: String = "$") -> [String] {
    switch value {
    case let object as [String: Any]:
        return object.sorted { $0.key < $1.key }.flatMap { key, v -> [String] in
            var problems: [String] = []
            if key.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) == nil { problems.append("\(path).\(key): not snake_case") }
            if key.hasSuffix("_ms") { problems.append("\(path).\(key): an epoch integer, not a time") }
            return problems + jsonStyleProblems(v, at: "\(path).\(key)")
        }
    case let array as [Any]:
        return array.enumerated().flatMap { jsonStyleProblems($1, at: "\(path)[\($0)]") }
    case let string as String:
        guard string.range(of: #"^\d{4}-\d{2}-\d{2}T"#, options: .regularExpression) != nil else { return [] }
        let shape = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$"#
        let f = ISO8601DateFormatter()
        f.formatOptions = string.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return string.range(of: shape, options: .regularExpression) != nil && f.date(from: string) != nil
            ? [] : ["\(path): \(string) is not an ISO 8601 time with an offset"]
    default:
        // JSONSerialization's numbers are NSNumbers; a Swift Double (in a test's own value) is not
        // one on Linux.
        guard let number = (value as? NSNumber)?.doubleValue ?? (value as? Double) else { return [] }
        let scaled = number * 10_000
        return abs(scaled - scaled.rounded()) <= max(1e-6, 8 * scaled.ulp) ? [] : ["\(path): \(number) has more than four decimals"]
    }
}

/// The numbers of a JSON text written with more than four decimals (`26627.300000000003`), which
/// the parsed value may not show (it is 26627.3 to a double's precision).
func longNumbers(in text: String) -> [String] {
    var found: [String] = []
    var inString = false
    var escaped = false
    var token = ""
    func flush() {
        if let dot = token.firstIndex(of: "."),
            token[token.index(after: dot)...].prefix { $0.isNumber }.count > 4
        {
            found.append(token)
        }
        token = ""
    }
    for c in text {
        if inString {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        } else if c == "\"" {
            flush()
            inString = true
        } else if c.isNumber || "+-.eE".contains(c) {
            token.append(c)
        } else {
            flush()
        }
    }
    flush()
    return found
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// The JSON of the listings that had none before: tasks, `next`, habits, `today`, sessions; and
/// `log`, `status`, `apps` in the one style (docs/json.md).
@Suite struct JSONOutputCLITests {
    @Test func tasksAndNext() async throws {
        let home = freshHome()
        let d = ["--data-dir", home + "/d", "--now", "2026-11-20T09:00:00Z"]
        _ = try await vigil(
            ["task", "add", "Thesis", "--due", "2026-11-21 17:30", "--priority", "high", "--tag", "Uni", "--estimate", "90m"] + d, home: home)
        _ = try await vigil(["task", "add", "Taxes"] + d, home: home)
        let list = try await vigil(["task", "list", "--json"] + d, home: home)
        #expect(list.status == 0, "\(list.stderr)")
        let tasks = jsonRecords(list.stdout)
        #expect(tasks.count == 2 && list.stdout.hasPrefix("[\n{") && list.stdout.hasSuffix("}\n]\n"), "\(list.stdout)")
        let thesis = try #require(tasks.first)
        #expect(thesis["id"] as? Int == 1 && thesis["title"] as? String == "Thesis" && thesis["done"] as? Bool == false)
        #expect(thesis["due_date"] as? String == "2026-11-21" && thesis["due_time"] as? String == "17:30", "\(thesis)")
        #expect(thesis["priority"] as? String == "high" && thesis["tags"] as? [String] == ["uni"] && thesis["estimate_minutes"] as? Int == 90)
        #expect(thesis["created"] as? String == "2026-11-20T09:00:00+00:00" && thesis["done_at"] is NSNull, "\(thesis)")
        #expect(thesis["urgency"] is NSNumber && thesis["focused_minutes"] as? Double == 0 && thesis["sessions"] as? Int == 0)
        #expect(tasks[1]["due_date"] is NSNull && tasks[1]["note"] is NSNull)

        _ = try await vigil(["task", "done", "2"] + d, home: home)
        let show = try await vigil(["task", "show", "Taxes", "--json"] + d, home: home)
        let taxes = jsonObject(show.stdout)
        #expect(taxes["done"] as? Bool == true && taxes["done_at"] as? String == "2026-11-20T09:00:00+00:00", "\(show.stdout)")
        #expect(taxes["urgency"] is NSNull)

        let next = try await vigil(["next", "--json"] + d, home: home)
        let suggested = jsonRecords(next.stdout)
        #expect(suggested.count == 1 && suggested[0]["id"] as? Int == 1, "\(next.stdout)")
        #expect((suggested[0]["reasons"] as? [String])?.isEmpty == false, "\(next.stdout)")
        // Local times carry the offset in effect then.
        let berlin = try await vigil(["task", "show", "1", "--json"] + d, home: home, env: ["TZ": "Europe/Berlin"])
        #expect(jsonObject(berlin.stdout)["created"] as? String == "2026-11-20T10:00:00+01:00", "\(berlin.stdout)")
    }

    @Test func habitsAndToday() async throws {
        let home = freshHome()
        let d = ["--data-dir", home + "/d", "--now", "2026-11-20T09:00:00Z"]
        _ = try await vigil(["habit", "add", "Walk", "--reminder", "08:00", "--goal", "21"] + d, home: home)
        _ = try await vigil(["habit", "add", "Read"] + d, home: home)
        _ = try await vigil(["habit", "check", "Walk"] + d, home: home)
        _ = try await vigil(["habit", "note", "Walk", "felt good"] + d, home: home)
        _ = try await vigil(["task", "add", "Call", "--due", "2026-11-20 15:00"] + d, home: home)
        let list = try await vigil(["habit", "list", "--json"] + d, home: home)
        let habits = jsonRecords(list.stdout)
        #expect(habits.count == 2, "\(list.stdout)\(list.stderr)")
        let walk = try #require(habits.first { $0["name"] as? String == "Walk" })
        #expect(walk["today"] as? String == "completed" && walk["streak"] as? Int == 1 && walk["completed"] as? Int == 1, "\(walk)")
        #expect(walk["schedule"] as? String == "day" && walk["since"] as? String == "2026-11-20" && walk["goal"] as? Int == 21)
        #expect(walk["reminder"] as? String == "08:00" && walk["archived"] is NSNull && walk["strength"] is NSNumber)
        #expect(habits.first { $0["name"] as? String == "Read" }?["today"] as? String == "incomplete")

        let shown = try await vigil(["habit", "show", "1", "--json"] + d, home: home)
        let show = jsonObject(shown.stdout)
        #expect(show["name"] as? String == "Walk" && show["today"] == nil, "\(show)")
        #expect((show["notes"] as? [[String: Any]])?.first?["text"] as? String == "felt good", "\(show)")
        // 2026-11-20 is the Friday of 2026-W47, the last of four weeks; the habit began that day.
        let weeks = show["last_weeks"] as? [[String: Any]] ?? []
        let thisWeek = weeks.last?["days"] as? [Any] ?? []
        #expect(weeks.count == 4 && weeks.last?["week"] as? String == "2026-W47" && thisWeek.count == 7, "\(weeks)")
        #expect(thisWeek.first is NSNull && thisWeek[safe: 4] as? String == "completed" && thisWeek[safe: 5] is NSNull, "\(thisWeek)")

        let today = try await vigil(["today", "--json"] + d, home: home)
        let agenda = jsonObject(today.stdout)
        #expect(agenda["date"] as? String == "2026-11-20" && agenda["to_do"] as? Int == 2, "\(today.stdout)")
        let items = agenda["items"] as? [[String: Any]] ?? []
        #expect(items.contains { $0["kind"] as? String == "habit" && $0["name"] as? String == "Read" && $0["status"] as? String == "incomplete" })
        #expect(items.contains { $0["kind"] as? String == "task" && $0["due_time"] as? String == "15:00" && $0["status"] as? String == "due_at" })
        // Without a log: the same object, empty, and no log made.
        let empty = try await vigil(["today", "--json", "--data-dir", home + "/none", "--now", "2026-11-20T09:00:00Z"], home: home)
        #expect(empty.stdout == "{\"date\":\"2026-11-20\",\"to_do\":0,\"items\":[]}\n", "\(empty.stdout)")
        #expect(!FileManager.default.fileExists(atPath: home + "/none/vigil.sqlite3"))
    }

    @Test func sessionsAndTheLog() async throws {
        let home = freshHome()
        let d = ["--data-dir", home + "/d", "--now", "2026-11-20T18:00:00Z"]
        let added = try await vigil(
            ["session", "add", "--start", "2026-11-20 09:00", "--end", "10:30", "--task", "thesis", "--tag", "deep"] + d, home: home)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await vigil(["session", "list", "--json"] + d, home: home)
        let list = jsonRecords(listed.stdout)
        let s = try #require(list.first)
        #expect(list.count == 1 && s["id"] as? Int == 1 && s["source"] as? String == "added" && s["task"] as? String == "thesis", "\(s)")
        #expect(s["start"] as? String == "2026-11-20T09:00:00+00:00" && s["end"] as? String == "2026-11-20T10:30:00+00:00", "\(s)")
        #expect(s["length_s"] as? Int == 5400 && s["focused_s"] is NSNull && s["tags"] as? [String] == ["deep"] && s["episodes"] == nil)
        let shownSession = try await vigil(["session", "show", "1", "--json"] + d, home: home)
        let show = jsonObject(shownSession.stdout)
        #expect(show["episodes"] as? [Any] != nil && show["length_s"] as? Int == 5400, "\(show)")

        // A simulated session's figures in whole seconds, episodes with their peak score.
        _ = try await vigil(["simulate", "--days", "3", "--until", "2026-11-19", "--data-dir", home + "/s"], home: home)
        let log = try await vigil(["log", "--json", "--limit", "50", "--data-dir", home + "/s"], home: home)
        let sessions = jsonRecords(log.stdout)
        #expect(!sessions.isEmpty, "\(log.stdout)")
        for session in sessions {
            #expect(session["focused_s"] as? Int != nil && session["session"] == nil, "\(session)")
            for e in session["episodes"] as? [[String: Any]] ?? [] {
                #expect(e["number"] as? Int != nil && e["peak_score"] as? Double != nil && e["peak"] == nil, "\(e)")
            }
        }
        let problems = jsonStyleProblems(try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)))
        #expect(problems.isEmpty, "\(problems)")
        // An empty listing is an empty array.
        let none = try await vigil(["session", "list", "--json", "--data-dir", home + "/none"], home: home)
        let noLog = try await vigil(["log", "--json", "--data-dir", home + "/none"], home: home)
        #expect(none.stdout == "[]\n" && noLog.stdout == "[]\n", "\(none.stdout)\(noLog.stdout)")
    }

    @Test func appsIsOneObject() async throws {
        let home = freshHome()
        let run = try await vigil(["apps", "--json", "--data-dir", home + "/none", "--now", "2026-11-20T09:00:00Z", "--days", "7"], home: home)
        #expect(
            run.stdout == "{\"from\":\"2026-11-14\",\"to\":\"2026-11-20\",\"apps\":[],\"calls\":{\"count\":0,\"time_s\":0}}\n", "\(run.stdout)")
    }

    @Test func theStyleCheckFindsWhatBreaksIt() async {
        let bad: [String: Any] = [
            "camelCase": 1, "started_ms": 1_794_904_620_000, "raw": 48.437918278999994, "start": "2026-11-24T09:30:00",
            "list": [["when": "2026-11-24 09:30"]],
        ]
        let problems = jsonStyleProblems(bad)
        #expect(problems.count == 4, "\(problems)")
        let long = longNumbers(in: #"{"a":26627.300000000003,"b":[0.658,1500],"c":"48.437918278999994","d":-1.5e-7,"e":0.12345}"#)
        #expect(long == ["26627.300000000003", "0.12345"], "\(long)")
        let good: [String: Any] = ["start": "2026-11-24T09:30:00+01:00", "time": "2026-03-03T14:07:59.55Z", "score": 0.658, "date": "2026-11-24"]
        #expect(jsonStyleProblems(good).isEmpty, "\(jsonStyleProblems(good))")
    }
}
