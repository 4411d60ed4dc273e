import Foundation
import Testing

/// The command line's one set of rules, checked on every command the binary has (read from
/// ArgumentParser's own description of them, `--experimental-dump-help`, so a new command is
/// checked without being listed): `--help` with examples; a config file with a problem stops it
/// (65); a bad value or an unknown option is 64; a missing file is named; every error is printed
/// `vigil: error: ...`; `--json` prints JSON. README "Exit status" and vigil(1) document the codes.
@Suite struct CLIConformanceTests {
    /// Every leaf command, as the words typed after `vigil` ("task add").
    static let commands: [String] = everyCommand(leavesOnly: true)
    /// And the commands that group them ("task").
    static let groups: [String] = everyCommand(leavesOnly: false).filter { !commands.contains($0) }

    static func everyCommand(leavesOnly: Bool) -> [String] {
        guard let run = try? vigil(["--experimental-dump-help"]),
            let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            let root = object["command"] as? [String: Any]
        else { return [] }
        var out: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            // A hidden command is for the scripts (`config documented`, for the manuals), not for people.
            guard command["shouldDisplay"] as? Bool ?? true else { return }
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty || !leavesOnly, !path.isEmpty, path != ["help"] { out.append(path.joined(separator: " ")) }
            for s in subcommands { walk(s, path + [s["commandName"] as? String ?? "?"]) }
        }
        walk(root, [])
        return out
    }

    /// Options that take a value, by command: what `--help` lists with a <value>.
    static func options(of command: String) async throws -> [String: Bool] {
        let run = try await vigil(["--experimental-dump-help"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        var node = object?["command"] as? [String: Any]
        for word in command.split(separator: " ") {
            node = (node?["subcommands"] as? [[String: Any]])?.first { $0["commandName"] as? String == String(word) }
        }
        var out: [String: Bool] = [:]
        for argument in node?["arguments"] as? [[String: Any]] ?? [] {
            guard let names = argument["names"] as? [[String: Any]], let name = names.first?["name"] as? String,
                argument["kind"] as? String != "positional"
            else { continue }
            out[name] = argument["kind"] as? String == "option"
        }
        return out
    }

    /// The fewest arguments each command parses with, so that what follows runs it. A command
    /// missing here fails `everyCommandIsListed`: add it with the arguments it needs.
    static let minimal: [String: [String]] = [
        "start": ["--minutes", "1"], "replay": ["recording.jsonl"], "record": ["-o", "out.jsonl"], "inspect": ["recording.jsonl"],
        "sensors": [], "log": [], "status": [], "stop": [], "report": [], "task add": ["Write"], "task list": [], "task show": ["1"],
        "task edit": ["1", "--note", "n"], "task done": ["1"], "task reopen": ["1"], "task delete": ["1"], "task why": ["1"], "next": [],
        "habit add": ["Walk"], "habit list": [], "habit show": ["1"], "habit check": ["1"], "habit fail": ["1"], "habit skip": ["1"],
        "habit set": ["1", "2026-11-01", "completed"], "habit edit": ["1", "--goal", "21"], "habit note": ["1", "n"], "habit continue": ["1"],
        "habit finish": ["1"], "habit delete": ["1"], "today": [], "motivate": [], "daemon": ["--once"], "export": ["--all"], "calendar": [],
        "forget": ["--from", "2026-11-01", "--to", "2026-11-02", "--yes"], "simulate": ["--days", "1"], "config init": [],
        "config check": [], "config show": [], "config paths": [], "apps": [], "sync": [], "device": [],
        "import taskwarrior": ["tasks.json"], "import timewarrior": ["intervals.json"], "import loop": ["Habits.csv"],
        "session list": [], "session show": ["1"], "session edit": ["1", "--note", "n"], "session tag": ["1", "+deep"],
        "session delete": ["1", "--yes"], "session add": ["--start", "2026-11-20 09:00", "--end", "10:00"], "undo": [],
        "desktop show": [], "desktop install": ["--shell-version", "43"], "desktop uninstall": [], "restore": [],
        "session intent": ["1", "done"], "episode": ["1", "--was", "work"], "rules list": [], "rules forget": ["1"],
        "pause": [], "resume": [], "break": [], "snooze": [], "attach": [],
    ]

    /// A value each command refuses (64), for a command that takes one; an unknown option is
    /// refused by every command too (`everyCommandRefusesAnUnknownOption`).
    static let badValues: [String: [String]] = [
        "start": ["--minutes", "-5"], "replay": ["--pace", "zero", "x.jsonl"], "record": ["-o", "o.jsonl", "--minutes", "nan"],
        "sensors": ["--timeout", "-1"], "log": ["--limit", "-3"], "report": ["--from", "someday"], "task add": ["W", "--due", "2026-13-45"],
        "task list": ["--sort", "colour"], "task edit": ["1", "--priority", "urgent"], "next": ["--count", "0"],
        "habit add": ["Walk", "--times", "9"], "habit list": ["--sort", "colour"], "habit check": ["1", "--date", "someday"],
        "habit fail": ["1", "--date", "someday"], "habit skip": ["1", "--date", "someday"], "habit set": ["1", "someday", "completed"],
        "habit edit": ["1", "--goal", "-2"], "habit continue": ["1", "--goal", "-2"], "today": ["--count", "-1"],
        "motivate": ["--category", "nonsense"], "export": ["--all", "-o", ""], "forget": ["--from", "someday", "--to", "2026-11-02"],
        "simulate": ["--days", "-4"], "apps": ["--days", "-1"], "device": ["--name", ""],
        "session list": ["--last", "forever"], "session add": ["--start", "someday", "--end", "10:00"],
        "desktop install": ["--shell-version", "-3"], "session intent": ["1", "maybe"], "episode": ["1", "--was", "coffee"],
        "rules forget": ["first"],
    ]

    @Test func everyCommandIsListed() async {
        let commands = Self.commands
        #expect(commands.count >= 40)
        let unlisted = commands.filter { Self.minimal[$0] == nil }
        #expect(unlisted.isEmpty, "add these to CLIConformanceTests.minimal: \(unlisted)")
    }

    @Test func everyCommandHasHelpWithExamples() async throws {
        #expect(Self.groups.contains("task") && Self.groups.contains("config"), "\(Self.groups)")
        for command in Self.commands + Self.groups {
            let words = command.split(separator: " ").map(String.init)
            let run = try await vigil(words + ["--help"])
            #expect(run.status == 0, "\(command) --help")
            #expect(run.stdout.contains("USAGE: vigil \(command)"), "\(command) --help")
            #expect(run.stdout.contains("Example"), "\(command) --help shows an example")
        }
    }

    /// A config file with a problem stops every command (65, the file and line named), except
    /// the three that write, check or locate it; none of them runs on defaults the person did not
    /// choose.
    @Test func everyCommandRefusesABadConfig() async throws {
        let home = freshHome()
        let config = home + "/bad.yaml"
        try "session:\n  gap: banana\n".write(toFile: config, atomically: true, encoding: .utf8)
        for command in Self.commands {
            let words = command.split(separator: " ").map(String.init) + (Self.minimal[command] ?? [])
            let run = try await vigil(words + ["--config", config, "--data-dir", home + "/data"], home: home, stdin: "")
            switch command {
            case "config paths":
                #expect(run.status == 0, "\(command) locates the file whatever it holds")
            case "config init":
                #expect(run.status == 1, "\(command) leaves an existing file as it is")
                #expect(run.stderr.hasPrefix("vigil: error: ") && run.stderr.contains("already exists"), "\(command): \(run.stderr)")
            default:
                #expect(run.status == 65, "\(command) with a bad config: \(run.status) \(run.stderr)")
                #expect(run.stderr.hasPrefix("vigil: error: \(config):2: session.gap:"), "\(command): \(run.stderr)")
            }
        }
        // And a config named with --config that is not there is the same error, for every command.
        for command in Self.commands where !["config paths", "config init"].contains(command) {
            let words = command.split(separator: " ").map(String.init) + (Self.minimal[command] ?? [])
            let run = try await vigil(words + ["--config", home + "/missing.yaml", "--data-dir", home + "/data"], home: home, stdin: "")
            #expect(run.status == 65, "\(command) with a missing config: \(run.status)")
            #expect(run.stderr.hasPrefix("vigil: error: \(home)/missing.yaml: no such file"), "\(command): \(run.stderr)")
        }
    }

    @Test func everyCommandRefusesAnUnknownOption() async throws {
        for command in Self.commands {
            let words = command.split(separator: " ").map(String.init) + (Self.minimal[command] ?? [])
            let run = try await vigil(words + ["--no-such-option"])
            #expect(run.status == 64, "\(command) --no-such-option: \(run.status)")
            #expect(run.stderr.hasPrefix("vigil: error: Unknown option '--no-such-option'"), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("See 'vigil \(command) --help'"), "\(command): \(run.stderr)")
        }
    }

    /// A bad value is 64 and `vigil: error: ` whether ArgumentParser or the command finds it, and
    /// names the option it was given to.
    @Test func everyBadValueIsAUsageError() async throws {
        for (command, arguments) in Self.badValues.sorted(by: { $0.key < $1.key }) {
            #expect(Self.commands.contains(command), "\(command) is a command")
            let home = freshHome()
            // Task and habit 1 exist, so that what is refused is the value, not the number.
            _ = try await vigil(["task", "add", "Write"], home: home)
            _ = try await vigil(["habit", "add", "Walk"], home: home)
            let words = command.split(separator: " ").map(String.init)
            let run = try await vigil(words + arguments, home: home, stdin: "")
            #expect(run.status == 64, "\(command) \(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("vigil: error: "), "\(command) \(arguments): \(run.stderr)")
            let option = arguments.first { $0.hasPrefix("-") }
            if let option, option != "-o" {
                #expect(run.stderr.contains(option), "\(command): the message names \(option): \(run.stderr)")
            }
        }
    }

    /// Every command with a file argument names a missing one and what went wrong (74).
    @Test func aMissingFileIsNamed() async throws {
        let home = freshHome()
        for command in ["replay", "inspect"] {
            let run = try await vigil([command, home + "/no-such-recording.jsonl"], home: home)
            #expect(run.status == 74, "\(command): \(run.status)")
            #expect(
                run.stderr.hasPrefix("vigil: error: \(home)/no-such-recording.jsonl: cannot open: No such file or directory"),
                "\(command): \(run.stderr)")
        }
    }

    /// Every command that takes `--json` prints JSON (a document, or JSON Lines) in the style of
    /// docs/json.md, on a log with a simulated week in it; every listing has `--json`.
    @Test func everyJSONOptionPrintsJSON() async throws {
        let home = freshHome()
        let data = home + "/data"
        let simulate = try await vigil(["simulate", "--days", "7", "--until", "2026-11-20", "--data-dir", data], home: home)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        _ = try await vigil(["task", "add", "Write", "--data-dir", data], home: home)
        _ = try await vigil(["habit", "add", "Walk", "--data-dir", data], home: home)
        var checked: [String] = []
        for command in Self.commands {
            guard try await Self.options(of: command)["json"] == false else { continue }
            var words = command.split(separator: " ").map(String.init) + (Self.minimal[command] ?? [])
            if command == "replay" || command == "inspect" { words = [command, repo + "/Samples/coffee-break/session.jsonl"] }
            if command == "start" {
                words = ["start", "--replay", repo + "/Samples/coffee-break/session.jsonl", "--pace", "10000", "--minutes", "25"]
            }
            let run = try await vigil(words + ["--json", "--data-dir", data, "--now", "2026-11-21T09:00:00Z"], home: home, stdin: "")
            checked.append(command)
            if command == "status" {
                // No session is running: exit 1, and the JSON says so.
                #expect(run.status == 1 && run.stdout == "{\"running\":false}\n", "status --json: \(run.status) \(run.stdout)")
                continue
            }
            if command == "sensors" { continue }  // The sensors' state is this machine's; its JSON is checked in SensorFormatsCLITests.
            #expect(run.status == 0, "\(command) --json: \(run.status) \(run.stderr)")
            let text = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // A document, or JSON Lines (the streams: timelines and inspect): one per line.
            let documents =
                text.hasPrefix("[") || !text.contains("\n{") ? [text].filter { !$0.isEmpty } : text.split(separator: "\n").map(String.init)
            #expect(!documents.isEmpty, "\(command) --json prints something, [] at least")
            for document in documents {
                let parsed = try? JSONSerialization.jsonObject(with: Data(document.utf8))
                #expect(parsed != nil, "\(command) --json prints JSON: \(document.prefix(200))")
                // And in the one style (docs/json.md): snake_case, rounded, ISO 8601 times with offsets.
                let problems = (parsed.map { jsonStyleProblems($0) } ?? []) + longNumbers(in: document).map { "\($0) has more than four decimals" }
                #expect(problems.isEmpty, "\(command) --json: \(problems.prefix(5))")
            }
        }
        // The report's JSON, which is --format json, too.
        let report = try await vigil(["report", "--format", "json", "--last", "7d", "--data-dir", data, "--now", "2026-11-21T09:00:00Z"], home: home)
        let parsedReport = try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8))
        let reportProblems = (parsedReport.map { jsonStyleProblems($0) } ?? ["not JSON"]) + longNumbers(in: report.stdout)
        #expect(reportProblems.isEmpty, "report --format json: \(reportProblems.prefix(5))")
        let listings = [
            "task list", "task show", "next", "habit list", "habit show", "today", "session list", "session show", "log", "apps", "config show",
        ]
        #expect(Set(listings).isSubset(of: checked), "\(Set(listings).subtracting(checked))")
    }
}
