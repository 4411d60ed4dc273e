import Foundation
import TestSupport
import Testing

/// The live session screen in a real pseudo-terminal (Data/pty_drive.py: Python's pty module),
/// driven by a replayed scenario: Samples/coffee-break played as the sensors at 60x, so its coffee
/// break (away from 8:00 to 16:30) happens in seconds, and keys typed as a person would.
@Suite(.serialized) struct LiveViewTests {
    static let driver = repo + "/Tests/VigilCLITests/Data/pty_drive.py"
    static let scenario = repo + "/Samples/coffee-break/session.jsonl"
    static let ansi = try! NSRegularExpression(pattern: "\u{1B}\\[[0-9;?]*[ -/]*[@-~]")

    static func plain(_ s: String) -> String {
        ansi.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "")
    }

    struct Step: Encodable {
        var wait: String
        var send: String
        var timeout: Double = 40
    }

    func drive(_ steps: [Step], cols: Int = 100, args: [String], home: String) async throws -> (Int32, String) {
        let steps = String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)
        let capture = home + "/screen.out"
        let env = ["env", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "TERM=xterm-256color", "TZ=UTC", "PATH=/usr/bin:/bin"]
        let r = await runProcess("/usr/bin/python3", [Self.driver, String(cols), "30", capture, steps, "--"] + env + [vigilBinary] + args)
        let screen = String(decoding: FileManager.default.contents(atPath: capture) ?? Data(), as: UTF8.self)
        return (r.status, screen)
    }

    @Test func keysStateChangesSummaryAndCtrlCOnARecordedScenario() async throws {
        let home = freshHome()
        let steps = [
            Step(wait: "State +FOCUSED", send: "p"),  // pause ...
            Step(wait: "State +PAUSED", send: "p"),  // ... and resume
            Step(wait: "resumed|State +FOCUSED", send: "?"),  // help on
            Step(wait: "this help", send: "?"),  // and off
            Step(wait: "State +(DISTRACTED|ALARM)", send: ""),
            Step(wait: "State +ALARM 1", send: "s"),  // snooze the alarm
            Step(wait: "snoozed +alarm 1 quiet for 5 min", send: ""),
            Step(wait: "back to work", send: "q"),  // end? ... no
            Step(wait: "End the session now\\?", send: "n"),
            Step(wait: "Episodes +1", send: "\u{3}"),  // Ctrl-C ends it, saved
            Step(wait: "Session abandoned", send: ""),
        ]
        let (status, screen) = try await drive(
            steps,
            args: [
                "start", "--replay", Self.scenario, "--pace", "60", "--minutes", "25", "--log",
                "--data-dir", home + "/d",
            ], home: home)
        let text = Self.plain(screen)
        #expect(status == 0, "\(text.suffix(3000))")
        // The screen: the task, the time against the plan, a progress bar, each sensor's reading.
        #expect(text.contains("Vigil · \"slides\""))
        #expect(text.contains("/ 00:25:00"))
        #expect(text.contains("% · 00:"), "the bar with the time left")
        #expect(text.range(of: "Input +[0-9]+ keys/min", options: .regularExpression) != nil)
        #expect(text.range(of: "Audio +-[0-9]+ LUFS", options: .regularExpression) != nil)
        #expect(text.range(of: "Location +[0-9]+ m from where you started · 3D fix", options: .regularExpression) != nil)
        #expect(text.range(of: "Score +0\\.[0-9]{2}  [▁▂▃▄▅▆▇█ ]+", options: .regularExpression) != nil)
        // The state changes the scenario brings, and what the keys did.
        for state in ["PAUSED", "FOCUSED", "DISTRACTED", "ALARM 1"] { #expect(text.contains("State     \(state)"), "\(state)") }
        #expect(text.contains("p  pause, or resume after a pause"), "the help")
        #expect(text.contains("snoozed       alarm 1 quiet for 5 min · 2 snoozes left"))
        // The summary after the screen.
        #expect(text.contains("Session abandoned:"), "\(text.suffix(1500))")
        #expect(text.range(of: "1 distraction episode \\(1 away\\)", options: .regularExpression) != nil, "\(text.suffix(1500))")
        // Ctrl-C left a complete session in the log: ended, with its episode, snooze and alarms.
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("\"source\":\"rehearsal\""))
        #expect(log.stdout.contains("\"outcome\":\"abandoned\""), "\(log.stdout)")
        #expect(log.stdout.contains("\"cause\":\"away\""))
        #expect(!FileManager.default.fileExists(atPath: home + "/d/running-session.json"), "the status file is gone")
    }

    @Test func qAsksAndYEnds() async throws {
        let home = freshHome()
        let (status, screen) = try await drive(
            [
                Step(wait: "State +FOCUSED", send: "q"), Step(wait: "End the session now\\?", send: "y"),
                Step(wait: "Session abandoned", send: ""),
            ],
            args: ["start", "--replay", Self.scenario, "--pace", "60", "--minutes", "25", "--data-dir", home + "/d"], home: home)
        #expect(status == 0, "\(Self.plain(screen).suffix(2000))")
    }

    /// A narrow terminal: every line of the screen fits in 40 columns.
    @Test func narrowTerminalsDegradeGracefully() async throws {
        let home = freshHome()
        let (status, screen) = try await drive(
            [Step(wait: "State +FOCUSED", send: ""), Step(wait: "00:02:", send: "\u{3}"), Step(wait: "Session", send: "")],
            cols: 40, args: ["start", "--replay", Self.scenario, "--pace", "60", "--minutes", "25", "--data-dir", home + "/d"],
            home: home)
        #expect(status == 0)
        // Frames start with cursor-home (the last one is followed by the summary, printed after
        // the screen was left).
        let frames = screen.components(separatedBy: "\u{1B}[H").dropFirst().dropLast()
        #expect(frames.count >= 3)
        for frame in frames {
            for line in Self.plain(frame).replacingOccurrences(of: "\r", with: "").split(separator: "\n") {
                #expect(line.count <= 40, "\(line)")
            }
        }
    }

    /// Pomodoro 7/2/5x2 over the coffee break: a break at 7:00, then waiting (the person is away
    /// until 16:30), then focused again when the typing comes back.
    @Test func pomodoroBreaksAndWaitsForYouToComeBack() async throws {
        let home = freshHome()
        let (status, screen) = try await drive(
            [
                Step(wait: "State +ON BREAK", send: ""), Step(wait: "State +WAITING FOR YOU TO COME BACK", send: ""),
                Step(wait: "back from break", send: ""), Step(wait: "Session completed", send: ""),
            ],
            args: [
                "start", "--replay", Self.scenario, "--pace", "60", "--minutes", "20", "--pomodoro", "7/2/5x2",
                "--data-dir", home + "/d",
            ], home: home)
        let text = Self.plain(screen)
        #expect(status == 0, "\(text.suffix(2000))")
        #expect(text.contains("on break      planned break"))
        #expect(text.contains(", on break "), "the summary names the break as a break (issue 32: it said paused)")
        let bad = try await vigil(["start", "--pomodoro", "25-5", "--data-dir", home + "/d"], home: home)
        #expect(bad.status == 64 && bad.stderr.contains("--pomodoro: '25-5' is not a plan like 25/5/15x4"))
    }

    /// Outside text on the screen (the task, the application in front and its rule, a sensor's
    /// words, an episode's reason) is shown inert among the screen's own escape sequences.
    @Test func textFromARecordingIsInertOnTheScreen() async throws {
        let home = freshHome()
        let recording = home + "/hostile.jsonl"
        TerminalSafetyCLITests().hostileRecording(at: recording)
        let (status, screen) = try await drive(
            [Step(wait: "State +(DISTRACTED|ALARM)", send: ""), Step(wait: "Session completed", send: "")],
            args: ["start", "--replay", recording, "--pace", "120", "--data-dir", home + "/d"], home: home)
        #expect(status == 0, "\(Self.plain(screen).suffix(2000))")
        // Vigil's own sequences are CSI (ESC [): the screen, the cursor, colours; its bell rings
        // for an alarm. Nothing else a terminal obeys is left.
        let own = screen.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        #expect(TerminalSafetyCLITests.obeyed(own.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\u{7}", with: "")).isEmpty)
        #expect(!own.contains("\u{1B}"), "no OSC, no hostile CSI")
        #expect(own.contains("Vigil · \"evil\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}31m\\u{202E}txt.exe"), "\(Self.plain(screen).suffix(2000))")
        #expect(own.contains("in evil\\u{1B}]0;pwned"), "the app's episode names it")
    }

    /// Piped (no terminal): plain lines, no redraws, the same events.
    @Test func notATerminalGivesPlainLines() async throws {
        let home = freshHome()
        let r = try await vigil(["start", "--replay", Self.scenario, "--pace", "200", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}["))
        #expect(r.stdout.contains("distracted    episode 1"))
        #expect(r.stdout.contains("ended         completed"))
        // The readings too, a line a minute, dated when they were read (the minute's first tick).
        #expect(
            r.stdout.range(
                of: "00:14:[0-5][0-9]  status        alarm 2 · score 1.00 · input 0 keys/min · audio -[0-9]+ LUFS · location [0-9]+ m · 3D fix",
                options: .regularExpression) != nil, "\(r.stdout)")
        // In order: no line is dated before the one above it (issue 20: the status of minute 12,
        // dated 00:12:00, came after an alarm at 00:12:27).
        let times = r.stdout.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.prefix(8).split(separator: ":").compactMap { Int($0) }
            return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : nil
        }
        #expect(times.count > 20)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(r.stdout)")
    }

    /// `vigil status` from another terminal, then `vigil stop`.
    @Test func statusAndStopFromAnotherTerminal() async throws {
        let home = freshHome()
        #expect(try await vigil(["status", "--data-dir", home + "/d"], home: home).status == 1)
        let p = try background(
            vigilBinary,
            ["start", "--replay", Self.scenario, "--pace", "2", "--minutes", "25", "--task", "slides", "--log", "--data-dir", home + "/d"],
            home: home
        ).process
        var status = try await vigil(["status", "--json", "--data-dir", home + "/d"], home: home)
        let deadline = ContinuousClock.now + .seconds(300)
        while status.status != 0, p.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            status = try await vigil(["status", "--json", "--data-dir", home + "/d"], home: home)
        }
        #expect(status.status == 0, "\(status.stdout)")
        #expect(
            status.stdout.contains("\"running\":true") && status.stdout.contains("\"task\":\"slides\"")
                && status.stdout.contains("\"state\":\"focused\""),
            "\(status.stdout)")
        // For a person: when it started in local time, to the second (TZ=UTC here).
        let shown = try await vigil(["status", "--data-dir", home + "/d"], home: home).stdout
        #expect(shown.range(of: #"started \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (UTC|GMT)\. "#, options: .regularExpression) != nil, "\(shown)")
        // A second session is refused while this one runs.
        let second = try await vigil(["start", "--minutes", "1", "--data-dir", home + "/d"], home: home)
        #expect(second.status == 1 && second.stderr.contains("a session is already running"), "\(second.stderr)")
        let stop = try await vigil(["stop", "--data-dir", home + "/d"], home: home)
        #expect(stop.status == 0 && stop.stdout.contains("Ended the focus session on \"slides\""), "\(stop.stdout)\(stop.stderr)")
        #expect(await p.exited() == 0)
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home)
        #expect(log.stdout.contains("\"outcome\":\"abandoned\""), "\(log.stdout)")
        #expect(try await vigil(["status", "--data-dir", home + "/d"], home: home).status == 1)
    }
}
