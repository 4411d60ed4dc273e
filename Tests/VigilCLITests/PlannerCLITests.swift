import Foundation
import TestSupport
import Testing

/// Tasks, habits, today, motivate and the daemon from the terminal, on fixed dates (`--now`, in
/// UTC as `vigil()` sets TZ).
@Suite struct PlannerCLITests {
    /// Runs vigil with a private data dir at a fixed instant.
    func run(_ args: [String], _ home: String, at now: String = "2026-11-16T10:00:00Z", env: [String: String] = [:]) async throws -> Run {
        try await vigil(args + ["--data-dir", home + "/d", "--now", now], home: home, env: env)
    }

    @Test func tasksFromAddToDone() async throws {
        let home = freshHome()
        #expect(
            try await run(
                ["task", "add", "Write chapter 3", "--due", "2026-11-20", "--priority", "high", "--estimate", "6h", "--tag", "thesis"], home
            )
            .stdout == "Added task #1: Write chapter 3 (due 2026-11-20). Start it with `vigil start --task 1`.\n")
        #expect(try await run(["task", "add", "Send invoice", "--due", "2026-11-16 17:00", "--note", "to ACME"], home).status == 0)
        #expect(try await run(["task", "add", "Learn Rust", "--term", "long", "--priority", "low"], home).status == 0)

        // Most urgent first; the breakdown adds up.
        let list = try await run(["task", "list"], home).stdout.split(separator: "\n").map(String.init)
        #expect(list.count == 4)
        #expect(list[1].contains("Write chapter 3") && list[1].contains("63.5"), "\(list)")
        #expect(list[2].contains("Send invoice") && list[2].contains("59.3"), "\(list)")
        #expect(list[3].contains("Learn Rust") && list[3].contains("5.0"), "\(list)")
        let byDue = try await run(["task", "list", "--sort", "due"], home).stdout
        #expect(byDue.range(of: "Send invoice")!.lowerBound < byDue.range(of: "Write chapter 3")!.lowerBound)
        #expect(!(try await run(["task", "list", "--tag", "thesis"], home).stdout.contains("Send invoice")))

        let why = try await run(["task", "why", "1"], home).stdout
        #expect(why.hasPrefix("#1 Write chapter 3: urgency 63.5"))
        #expect(why.contains("+30.0  priority   high priority"))
        // Due at the end of Friday, 4 days 14 hours away: 35 × (1 − 4.583/14) = 23.5.
        #expect(why.contains("+23.5  deadline   due 2026-11-20, in 4 days"))
        #expect(try await run(["next"], home).stdout.hasPrefix("#1 Write chapter 3  (urgency 63.5"))

        // The next day the invoice is overdue: 15 + 40 + 0.5 + 10 = 65.5, second to the chapter
        // (30 + 26.0 + 0.5 + 10 = 66.5).
        let late = try await run(["next", "--count", "2"], home, at: "2026-11-17T10:00:00Z").stdout.split(separator: "\n")
        #expect(late[0].hasPrefix("#1 Write chapter 3  (urgency 66.5") && late[1].hasPrefix("#2 Send invoice  (urgency 65.5"), "\(late)")
        #expect(try await run(["task", "why", "Send invoice"], home, at: "2026-11-17T10:00:00Z").stdout.contains("overdue since 2026-11-16 17:00"))

        #expect(try await run(["task", "edit", "2", "--due", "none", "--priority", "low", "--tag", "admin"], home).status == 0)
        let show = try await run(["task", "show", "2"], home).stdout
        #expect(
            show.contains("priority  low · short-term") && show.contains("due       –") && show.contains("tags      admin")
                && show.contains("note      to ACME"))
        #expect(try await run(["task", "done", "2"], home).stdout == "Done: #2 Send invoice.\n")
        #expect(!(try await run(["task", "list"], home).stdout.contains("Send invoice")))
        #expect(try await run(["task", "list", "--done"], home).stdout.contains("✓ Send invoice"))
        #expect(try await run(["task", "reopen", "2"], home).status == 0)
        // A delete asks; without a terminal it needs --yes, and nothing is deleted without it.
        let refused = try await run(["task", "delete", "learn rust"], home)
        #expect(refused.status == 1 && refused.stderr.contains("add --yes to delete task #3 \"Learn Rust\""), "\(refused.stderr)")
        #expect(try await run(["task", "list", "--all"], home).stdout.contains("Learn Rust"))
        #expect(try await run(["task", "delete", "3", "--yes"], home).status == 0)
        #expect(try await run(["task", "list", "--all"], home).stdout.split(separator: "\n").count == 3)
    }

    @Test func aSessionStartedOnATaskIsLinkedToIt() async throws {
        let home = freshHome()
        #expect(try await run(["task", "add", "Slides"], home).status == 0)
        let session = try await vigil(["start", "--task", "1", "--tag", "Deep, late", "--minutes", "0.05", "--data-dir", home + "/d"], home: home)
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("started       task \"Slides\""))
        let show = try await run(["task", "show", "Slides"], home).stdout
        #expect(show.contains("in 1 session · 0 distraction episodes"), "\(show)")
        let listed = try await vigil(["session", "list", "--data-dir", home + "/d"], home: home)
        #expect(listed.stdout.contains("\"Slides\"  [deep, late]"), "\(listed.stdout)")
        // The report takes the task's number or its title in any case, and selects the same sessions.
        let byNumber = try await vigil(["report", "--task", "1", "--last", "all", "--format", "json", "--data-dir", home + "/d"], home: home)
        let byTitle = try await vigil(["report", "--task", "SLIDES", "--last", "all", "--format", "json", "--data-dir", home + "/d"], home: home)
        #expect(byNumber.status == 0 && byNumber.stdout == byTitle.stdout, "\(byNumber.stderr)")
        #expect(byNumber.stdout.contains("\"Slides\""), "\(byNumber.stdout)")
        // A number that is no task is an error, not a session named "7".
        let wrong = try await vigil(["start", "--task", "7", "--minutes", "0.05", "--data-dir", home + "/d"], home: home)
        #expect(wrong.status == 65 && wrong.stderr.contains("no task #7"), "\(wrong.stderr)")
    }

    /// In a terminal a delete asks, and only a yes deletes (`script` gives it a pseudo-terminal).
    @Test func deletesAskInATerminal() async throws {
        let home = freshHome()
        #expect(try await run(["task", "add", "Slides"], home).status == 0)
        #expect(try await run(["habit", "add", "Read"], home).status == 0)
        func answered(_ answer: String, _ args: [String]) async throws -> String {
            let input = home + "/answer"
            FileManager.default.createFile(atPath: input, contents: Data((answer + "\n").utf8))
            let command = ([vigilBinary] + args + ["--data-dir", home + "/d"]).map { "'\($0)'" }.joined(separator: " ")
            let (status, out) = try await inPseudoTerminal(command, home: home, env: ["TZ": "UTC"], stdin: input)
            #expect(status == 0, "\(out)")
            return out
        }
        var out = try await answered("n", ["task", "delete", "slides"])
        #expect(out.contains("Delete task #1 \"Slides\"? Its sessions stay in the log. [y/N]") && out.contains("Nothing deleted."), "\(out)")
        #expect(try await run(["task", "show", "1"], home).status == 0)
        out = try await answered("y", ["task", "delete", "1"])
        #expect(out.contains("Deleted task #1 Slides."), "\(out)")
        #expect(try await run(["task", "show", "1"], home).status == 65)
        out = try await answered("", ["habit", "delete", "read"])
        #expect(out.contains("Delete habit #1 \"Read\" and its history? [y/N]") && out.contains("Nothing deleted."), "\(out)")
        let refused = try await run(["habit", "delete", "1"], home)
        #expect(refused.status == 1 && refused.stderr.contains("add --yes to delete habit #1 \"Read\" and its history"), "\(refused.stderr)")
        #expect(try await run(["habit", "delete", "1", "--yes"], home).stdout == "Deleted habit #1 Read and its history.\n")
    }

    @Test func badTaskInputSaysWhatToDo() async throws {
        let home = freshHome()
        var r = try await run(["task", "add", "   "], home)
        #expect(r.status == 64 && r.stderr.contains("The task's title must not be blank."))
        r = try await run(["task", "add"], home)
        #expect(r.status == 64 && r.stderr.contains("Missing expected argument '<title>'"))
        r = try await run(["task", "add", "X", "--due", "2026-02-30"], home)
        #expect(r.status == 64 && r.stderr.contains("--due: '2026-02-30' is no real date"))
        r = try await run(["task", "add", "X", "--due", "someday"], home)
        #expect(
            r.status == 64 && r.stderr.contains("--due: 'someday' is not a date; use YYYY-MM-DD, \"YYYY-MM-DD HH:MM\" (local time)"), "\(r.stderr)")
        r = try await run(["task", "add", "X", "--estimate", "lots"], home)
        #expect(r.status == 64 && r.stderr.contains("--estimate: 'lots' is not a duration; use minutes like 90m"))
        r = try await run(["task", "add", "X", "--priority", "urgent"], home)
        #expect(r.status == 64)
        // A refused task creates nothing, not even the log.
        r = try await run(["task", "show", "12"], home)
        #expect(r.status == 65 && r.stderr.contains("there are no tasks or habits yet"), "\(r.stderr)")
        #expect(try await run(["task", "add", "Y"], home).status == 0)
        r = try await run(["task", "show", "12"], home)
        #expect(r.status == 65 && r.stderr.contains("no task #12. `vigil task list --all` shows every task with its number."))
        r = try await run(["task", "done", "nothing like it"], home)
        #expect(r.status == 65 && r.stderr.contains("no task is called 'nothing like it'. `vigil task list --all` shows every task"))
    }

    @Test func habitsStreaksAndTheNextDay() async throws {
        let home = freshHome()
        #expect(
            try await run(["habit", "add", "Read", "--every", "day", "--goal", "3", "--reminder", "21:00", "--color", "blue"], home)
                .stdout == "Added habit #1: Read, every day, reminded at 21:00. Mark it with `vigil habit check 1`.\n")
        #expect(try await run(["habit", "add", "Gym", "--times", "3/week", "--flag", "--priority", "high"], home).status == 0)
        #expect(try await run(["habit", "add", "Thesis", "--days", "mon,tue,wed,thu,fri", "--auto", "50m on thesis"], home).status == 0)

        // Monday: Read done. Tuesday: not marked. Wednesday: Read done again.
        let check = try await run(["habit", "check", "1"], home)
        #expect(check.stdout.hasPrefix("Completed: Read on 2026-11-16. Streak 1 (new streak) · score 1 · strength 10 %."), "\(check.stdout)")
        let wednesday = "2026-11-18T10:00:00Z"
        let list = try await run(["habit", "list"], home, at: wednesday).stdout
        #expect(list.contains("to do") && list.contains("Read"))
        // Tuesday was failed on its own the next time Vigil ran; so were Thesis's Monday and Tuesday.
        let show = try await run(["habit", "show", "1"], home, at: wednesday).stdout
        #expect(show.contains("done       1 completed · 1 failed · 0 skipped · success 50 %"), "\(show)")
        #expect(show.contains("goal       1/3"))
        // Correct Tuesday after the fact: it was done after all.
        #expect(try await run(["habit", "set", "1", "2026-11-17", "completed"], home, at: wednesday).status == 0)
        let done = try await run(["habit", "check", "Read"], home, at: wednesday).stdout
        #expect(done.contains("Streak 3 (new streak) · score 3"), "\(done)")
        #expect(
            done.contains("Goal reached: 3 times! Keep it going with `vigil habit continue 1 --goal 6`, or finish it with `vigil habit finish 1`"))
        #expect(try await run(["habit", "skip", "2"], home, at: wednesday).status == 0)
        #expect(try await run(["habit", "note", "1", "Evenings work best."], home, at: wednesday).status == 0)
        let shown = try await run(["habit", "show", "Read"], home, at: wednesday).stdout
        #expect(shown.contains("streak     3 days (new streak) · best 3 · score 3 (best 3)"), "\(shown)")
        #expect(shown.contains("18 days until this becomes a habit · 87 days until a lifestyle change"))
        #expect(shown.contains("goal       3/3 reached"))
        #expect(shown.contains("note 2026-W47  Evenings work best."))
        #expect(shown.contains("2026-W47  ✓ ✓ ✓"), "\(shown)")

        // Sorting: flagged first, by reminder time, by priority.
        let flagged = try await run(["habit", "list", "--sort", "flag"], home, at: wednesday).stdout.split(separator: "\n")
        #expect(flagged[1].contains("Gym"))
        let byName = try await run(["habit", "list", "--sort", "name"], home, at: wednesday).stdout.split(separator: "\n")
        #expect(byName.dropFirst().map { $0.contains("Gym") ? "Gym" : $0.contains("Read") ? "Read" : "Thesis" } == ["Gym", "Read", "Thesis"])

        #expect(try await run(["habit", "finish", "1"], home, at: wednesday).status == 0)
        #expect(!(try await run(["habit", "list"], home, at: wednesday).stdout.contains("Read")))
        #expect(try await run(["habit", "list", "--archived"], home, at: wednesday).stdout.contains("archived"))
    }

    /// In a terminal, reaching the goal asks whether to continue or finish; finishing archives it.
    @Test func reachingTheGoalAsksInATerminal() async throws {
        let home = freshHome()
        #expect(try await run(["habit", "add", "Walk", "--every", "day", "--goal", "1"], home).status == 0)
        write("f\n", to: home + "/answer")
        let (status, text) = try await inPseudoTerminal(
            "TZ=UTC \(vigilBinary) habit check 1 --data-dir \(home)/d --now 2026-11-16T10:00:00Z", home: home, stdin: home + "/answer")
        #expect(status == 0, "\(text)")
        #expect(text.contains("Goal reached: 1 times!") && text.contains("Continue or finish? [c/f]"), "\(text)")
        #expect(text.contains("Finished and archived: Walk."), "\(text)")
        #expect(try await run(["habit", "list", "--archived"], home).stdout.contains("archived"))
        #expect(!(try await run(["habit", "list"], home).stdout.contains("Walk")))
    }

    @Test func badHabitInputSaysWhatToDo() async throws {
        let home = freshHome()
        var r = try await run(["habit", "add", "X", "--every", "day", "--times", "3/week"], home)
        #expect(r.status == 64 && r.stderr.contains("conflicting schedule: give one of --every, --days or --times, not --every and --times"))
        r = try await run(["habit", "add", "X", "--days", "mon,funday"], home)
        #expect(r.status == 64 && r.stderr.contains("--days: 'mon,funday' is not a list of weekdays like mon,wed,fri"))
        r = try await run(["habit", "add", "X", "--reminder", "25:00"], home)
        #expect(r.status == 64 && r.stderr.contains("--reminder: '25:00' is not a time like 07:30"))
        r = try await run(["habit", "add", "X", "--auto", "lots on thesis"], home)
        #expect(r.status == 64 && r.stderr.contains("is not like \"50m on thesis\""))
        #expect(try await run(["habit", "add", "X"], home).status == 0)
        r = try await run(["habit", "check", "1", "--date", "2026-11-20"], home)
        #expect(r.status == 65 && r.stderr.contains("2026-11-20 is in the future"))
        r = try await run(["habit", "set", "1", "2026-11-16", "done"], home)
        #expect(r.status == 64 && r.stderr.contains("the status must be completed, failed, skipped or incomplete"))
        r = try await run(["habit", "check", "4"], home)
        #expect(r.status == 65 && r.stderr.contains("no habit #4"))
    }

    @Test func todayListsWhatIsDueAndCountsIt() async throws {
        let home = freshHome()
        #expect(try await run(["today", "--count"], home).stdout == "0\n")
        #expect(!FileManager.default.fileExists(atPath: home + "/d"), "asking creates nothing")
        #expect(try await run(["habit", "add", "Stretch", "--every", "day", "--reminder", "10:30"], home).status == 0)
        #expect(try await run(["habit", "add", "Piano", "--days", "tue,thu"], home).status == 0)
        #expect(try await run(["task", "add", "Invoice", "--due", "2026-11-16 17:00"], home).status == 0)
        #expect(try await run(["task", "add", "Taxes", "--due", "2026-11-30"], home).status == 0)
        let today = try await run(["today"], home).stdout
        #expect(
            today == """
                Today, 2026-11-16: 2 to do
                  [ ] habit #1 Stretch · at 10:30 · streak 0
                  [ ] task #1 Invoice · due at 17:00

                """, "\(today)")
        #expect(try await run(["habit", "check", "1"], home).status == 0)
        #expect(try await run(["today", "--count"], home).stdout == "1\n")
    }

    @Test func motivateGivesANewLineEachTimeAndReadsYourOwn() async throws {
        let home = freshHome()
        var seen: [String] = []
        for _ in 0..<6 {
            let r = try await run(["motivate", "--category", "health"], home)
            #expect(r.status == 0)
            seen.append(r.stdout)
        }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "never the same twice in a row: \(seen)")
        // Your own collection is read with the built-in one; a bad entry is named with its line.
        write("- text: Mine.\n  category: gardening\n", to: home + "/config/vigil/motivation.yaml")
        let bad = try await run(["motivate"], home)
        #expect(
            bad.status == 65 && bad.stderr.contains("vigil/motivation.yaml:2: category: expected focus, study or health, got 'gardening'"),
            "\(bad.stderr)")
        #expect(try await run(["motivate", "--category", "sleep"], home).status == 64)
    }

    /// The daemon end to end: the real binary on a private session bus with a real notification
    /// service; a reminder is sent once, not again on the next look or after a restart.
    @Test func theDaemonSendsDueRemindersAsNotifications() async throws {
        let home = freshHome()
        #expect(try await run(["habit", "add", "Stretch", "--every", "day", "--reminder", "10:30"], home).status == 0)
        #expect(try await run(["task", "add", "Invoice", "--due", "2026-11-16 17:00"], home).status == 0)
        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        var r = try await run(["daemon", "--once"], home, at: "2026-11-16T10:31:00Z", env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("reminded: Time for: Stretch"), "\(r.stderr)")
        r = try await run(["daemon", "--once"], home, at: "2026-11-16T10:32:00Z", env: env)
        #expect(r.status == 0 && !r.stderr.contains("reminded:"), "nothing due is no failure: \(r.stderr)")
        // At 16:00 the invoice is due in an hour, and Stretch (every 2 h since 10:30) comes back.
        r = try await run(["daemon", "--once"], home, at: "2026-11-16T16:00:30Z", env: env)
        #expect(r.stderr.contains("reminded: Due at 17:00: Invoice"), "\(r.stderr)")
        let calls = SessionBus.notifications(log)
        #expect(calls.compactMap { $0["summary"] as? String } == ["Time for: Stretch", "Still to do today: Stretch", "Due at 17:00: Invoice"])
        // Without a notification daemon it says so and keeps the reminder for later.
        let quiet = try SessionBus()
        r = try await run(["daemon", "--once"], home, at: "2026-11-16T12:31:00Z", env: ["DBUS_SESSION_BUS_ADDRESS": quiet.address])
        #expect(r.status == 69 && r.stderr.contains("cannot send reminders"), "\(r.stderr)")
        #expect(r.stderr.contains("1 due reminder could not be sent; it waits for the next look"), "\(r.stderr)")
    }

    @Test func theDaemonStopsCleanlyOnSIGTERM() async throws {
        let home = freshHome()
        let p = try background(
            vigilBinary, ["daemon", "--data-dir", home + "/d"], home: home, env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        // It says it runs once it watches for signals; stopped from then on, whenever that is.
        #expect(try await eventually(300) { p.said.contains("vigil daemon: reminders from") || !p.process.isRunning }, "\(p.said)")
        kill(p.process.pid, SIGTERM)
        let status = await p.process.exited()
        let text = p.said
        #expect(status == 0, "\(text)")
        #expect(text.contains("vigil daemon: stopped"), "\(text)")
    }
}
