import Foundation
import Testing

/// Text from outside Vigil reaches the terminal inert: a title, a habit, a recording's application
/// and sensor words, a file's name, a config key, each made of escape sequences (a window title, a
/// screen clear, a CSI in its one-byte C1 form), a right-to-left override and a newline that would
/// forge a `vigil: error:` line, goes in through every door and is looked for in every command that
/// shows it.
@Suite struct TerminalSafetyCLITests {
    static let hostile = "evil\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}31m\u{202E}txt.exe | <script>x</script>\nvigil: error: forged\r"
    static let now = "2026-11-16T12:00:00Z"

    /// The characters a terminal obeys, listed here rather than taken from the code under test: C0
    /// controls (a newline aside; CSV's CRLF aside when `crlf`), DEL, C1 controls, bidi controls.
    static func obeyed(_ text: String, crlf: Bool = false) -> [String] {
        let bidi: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        let text = crlf ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        return text.unicodeScalars.filter { u in
            u != "\n" && (u.value < 0x20 || (0x7F...0x9F).contains(u.value) || bidi.contains(u.value))
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Whether the hostile text is there, shown: as an escape in text (`\u{1B}`, or `\\u{1B}` in
    /// Markdown) or in JSON (`\u001b`).
    static func shown(_ text: String) -> Bool {
        text.contains("evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}31m\\u{202E}txt.exe") || text.contains("evil\\\\u{1B}\\]0;pwned")
            || text.contains("evil\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202etxt.exe")
    }

    /// A JSON string literal, by Foundation (not Vigil's writer).
    static func json(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: s, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    /// Runs vigil on the test's store at a fixed instant and checks what it printed, both streams.
    func run(_ args: [String], _ home: String, csv: Bool = false, expectShown: Bool = true, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> Run
    {
        let r = try await vigil(args + ["--data-dir", home + "/d", "--now", Self.now], home: home)
        for (stream, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            let found = Self.obeyed(text, crlf: csv && stream == "stdout")
            #expect(found.isEmpty, "\(args.prefix(2)) \(stream): \(found)", sourceLocation: sourceLocation)
            // (CSV keeps a name's newline inside its quotes, as RFC 4180 allows: data, not a message.)
            let forged = text.split(separator: "\n").filter { $0.hasPrefix("vigil: error: forged") && !(csv && stream == "stdout") }
            #expect(forged.isEmpty, "\(args.prefix(2)) \(stream) has a forged line", sourceLocation: sourceLocation)
        }
        if expectShown {
            #expect(Self.shown(r.stdout + r.stderr), "\(args.prefix(2)) shows it: \(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
        }
        return r
    }

    /// A Vigil recording whose task, source, application (class and rule) and a sensor's words are
    /// the hostile text: ten minutes of typing, the first five in a distracting application.
    func hostileRecording(at path: String) {
        let h = Self.json(Self.hostile)
        var lines = [
            #"{"vigil":"recording","version":1,"start":"2026-11-16T09:00:00Z","task":\#(h),"source":\#(h),"note":\#(h)}"#,
            #"{"t":0,"kind":"app","class":\#(h),"category":"distracting","rule":\#(h)}"#,
            #"{"t":1,"kind":"status","sensor":"audio","state":"unavailable","detail":\#(h)}"#,
        ]
        for t in stride(from: 10, through: 600, by: 10) {
            lines.append(#"{"t":\#(t),"kind":"input","window":10,"keys":20,"idle":0.5}"#)
            if t == 300 { lines.append(#"{"t":300,"kind":"app","class":"code","category":"work"}"#) }
        }
        write(lines.joined(separator: "\n") + "\n", to: path)
    }

    @Test func hostileTextFromEveryDoorReachesNoTerminalRaw() async throws {
        let home = freshHome()
        let h = Self.hostile
        // The planner: a task's title, note and tag; a habit's name, colour and note.
        _ = try await run(["task", "add", h, "--note", h, "--tag", h], home)
        for command in [["task", "list"], ["task", "show", "1"], ["task", "why", "1"], ["next"]] { _ = try await run(command, home) }
        let show = try await run(["task", "show", "1"], home).stdout
        #expect(show.contains("note      evil") && show.contains("\n          vigil: error: forged\\r"), "a note keeps its lines, indented: \(show)")
        _ = try await run(["habit", "add", h, "--every", "day", "--color", h], home)
        _ = try await run(["habit", "note", "1", h], home)
        for command in [["habit", "list"], ["habit", "show", "1"], ["habit", "check", "1"], ["today"]] { _ = try await run(command, home) }

        // A recording with a hostile name and hostile contents, replayed into the log and shown by
        // everything that reads the log.
        let recording = home + "/rec\u{1B}]0;pwned\u{7}\nvigil: error: forged.jsonl"
        hostileRecording(at: recording)
        let replay = try await run(["replay", "--log", recording], home)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("in evil\\u{1B}]0;pwned"), "the app's episode names it: \(replay.stdout)")
        _ = try await run(["replay", "--json", recording], home)
        _ = try await run(["inspect", recording], home)
        _ = try await run(["inspect", "--json", recording], home)
        _ = try await run(["log", "--source", "all"], home)
        _ = try await run(["log", "--json", "--source", "all"], home)
        _ = try await run(["apps", "--days", "36500", "--source", "all"], home)
        _ = try await run(["apps", "--json", "--days", "36500", "--source", "all"], home)
        for format in ["text", "markdown", "json", "html"] {
            let report = try await run(["report", "--last", "all", "--source", "all", "--format", format], home)
            #expect(report.status == 0, "\(report.stderr)")
        }
        _ = try await run(["report", "--last", "all", "--source", "all", "--format", "csv", "--table", "tasks"], home, csv: true)
        // A rehearsal of it, in plain lines (the live screen's own test is in LiveViewTests).
        let rehearsal = try await run(["start", "--replay", recording, "--pace", "10000", "--plain"], home)
        #expect(rehearsal.status == 0, "\(rehearsal.stderr)")

        // The error path: every message that quotes a name, a path, a key or a value.
        let config = home + "/config\u{1B}[2J\nvigil: error: forged.yaml"
        write("\"evil\\e]0;pwned\\a\\nvigil: error: forged\": 1\nalarms:\n  channels: [[\"evil\\e[2J\\nvigil: error: forged\"]]\n", to: config)
        let check = try await run(["config", "check", "--config", config], home, expectShown: false)
        #expect(check.status == 65 && check.stderr.split(separator: "\n").filter { $0.hasPrefix("vigil: error:") }.count == 1, "\(check.stderr)")
        #expect(check.stderr.contains("forged.yaml:1: evil\\u{1B}]0;pwned\\u{7}\\nvigil: error: forged: unknown section"), "\(check.stderr)")
        #expect(check.stderr.contains("unknown channel 'evil\\u{1B}[2J\\nvigil: error: forged'"), "\(check.stderr)")
        #expect(check.stderr.contains("\n2 problems found"), "\(check.stderr)")
        let failures = [
            ["replay", home + "/missing\u{1B}[2J\u{202E}\nvigil: error: forged.jsonl"],
            ["inspect", home + "/d/vigil.sqlite3\u{1B}[2J\nvigil: error: forged"],
            ["task", "show", "none such \u{1B}[2J\u{9B}1m\nvigil: error: forged"],
            ["report", "--task", "none such \u{1B}[2J\nvigil: error: forged"],
            ["report", "--format", h],
            ["task", "list", "--\u{1B}[2J\nvigil: error: forged"],
        ]
        try FileManager.default.copyItem(atPath: home + "/d/vigil.sqlite3", toPath: failures[1][1])
        for args in failures {
            let r = try await run(args, home, expectShown: false)
            #expect(r.status != 0 && r.stderr.contains("\\u{1B}[2J"), "\(args): \(r.stderr)")
        }
    }
}
