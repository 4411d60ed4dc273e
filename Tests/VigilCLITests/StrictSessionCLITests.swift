import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Strict sessions (issue 36), through the real binary: nothing the person can do in the moment
/// ends one before its planned end: not q, not Ctrl-C, not `vigil stop`, not SIGTERM or a closed
/// terminal. `vigil stop --early` ends it after the cooling-off set in the config beforehand, and a
/// strict session killed with SIGKILL is logged as broken, never as completed.
@Suite struct StrictSessionCLITests {
    /// A config with a short cooling-off, so the test need not wait ten minutes.
    static func config(_ home: String, coolOff: String = "3s") -> String {
        let path = home + "/strict.yaml"
        write("session:\n  strict_cooloff: \(coolOff)\n", to: path)
        return path
    }

    /// How many times the session told the person it refused something.
    static func refusals(_ p: Background) -> Int { p.said.components(separatedBy: "a strict session").count - 1 }

    @Test func signalsAndStopDoNotEndAStrictSessionAndAnEarlyEndWaitsForTheCoolingOff() async throws {
        let home = freshHome()
        let data = home + "/d"
        let p = try background(
            vigilBinary, ["start", "--strict", "--minutes", "30", "--json", "--data-dir", data, "--config", Self.config(home)], home: home)
        defer { p.process.kill(SIGKILL) }
        #expect(try await eventually(300) { p.printed.contains("session_started") || !p.process.isRunning }, "\(p.said)")
        let announced = Self.refusals(p)
        #expect(announced == 1, "the start says it is strict: \(p.said)")

        // Ctrl-C, SIGTERM and a closed terminal: each refused, and said so; the session runs on.
        for (n, signo) in [SIGINT, SIGTERM, SIGHUP].enumerated() {
            kill(p.process.pid, signo)
            #expect(try await eventually(60) { Self.refusals(p) == announced + n + 1 }, "signal \(signo): \(p.said)")
            #expect(p.process.isRunning, "signal \(signo) did not end it")
        }
        // `vigil stop` refuses, and says how to end it early.
        let stop = try await vigil(["stop", "--data-dir", data], home: home)
        #expect(stop.status == 1, "\(stop)")
        #expect(stop.stderr.contains("the running session is strict") && stop.stderr.contains("vigil stop --early"), "\(stop.stderr)")
        #expect(p.process.isRunning)
        let status = try await vigil(["status", "--json", "--data-dir", data], home: home)
        #expect(status.stdout.contains("\"strict\""), "\(status.stdout)")

        // The early end: the session ends after the cooling-off, as abandoned (before its plan).
        let asked = Date()
        let early = try await vigil(["stop", "--early", "--data-dir", data], home: home)
        #expect(early.status == 0, "\(early)")
        #expect(early.stdout.contains("The strict session ends at"), "\(early.stdout)")
        #expect(await p.process.exited() == 0, "\(p.said)")
        #expect(Date().timeIntervalSince(asked) >= 3, "not before the cooling-off")
        #expect(p.printed.contains("\"event\":\"session_ended\",\"outcome\":\"abandoned\""), "\(p.printed)")
        let list = try await vigil(["session", "list", "--json", "--data-dir", data], home: home)
        #expect(list.stdout.contains("\"strict\""), "tagged strict: \(list.stdout)")
        #expect(!list.stdout.contains("\"broken\""), "ended as the person asked: not broken")
    }

    /// q typed in the terminal (and s for a snooze) is refused; the session runs to its plan.
    @Test func qInTheTerminalDoesNotEndAStrictSession() async throws {
        let home = freshHome()
        write("q\ns\np\n", to: home + "/keys")
        let (status, text) = try await inPseudoTerminal(
            "\(vigilBinary) start --strict --minutes 0.1 --json --data-dir \(home)/d --config \(Self.config(home))", home: home,
            env: ["TERM": "dumb"], stdin: home + "/keys")
        #expect(status == 0, "\(text)")
        #expect(text.contains("q, Ctrl-C and `vigil stop` do not end it"), "\(text)")
        #expect(text.contains("no snoozes in a strict session"), "\(text)")
        #expect(text.contains("a strict session cannot be paused"), "\(text)")
        #expect(text.contains("\"event\":\"session_ended\",\"outcome\":\"completed\""), "ran to its plan: \(text)")
    }

    /// Killed with SIGKILL, which no program can refuse: closed at the next start as interrupted
    /// and tagged broken.
    @Test func aStrictSessionKilledIsLoggedAsBroken() async throws {
        let home = freshHome()
        let data = home + "/d"
        let p = try background(vigilBinary, ["start", "--strict", "--minutes", "30", "--json", "--data-dir", data], home: home)
        #expect(try await eventually(300) { p.printed.contains("\"event\":\"sensor\"") || !p.process.isRunning }, "\(p.said)")
        p.process.kill(SIGKILL)
        _ = await p.process.exited()
        let next = try await vigil(["start", "--minutes", "0.02", "--json", "--data-dir", data], home: home)
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("closed as interrupted"), "\(next.stderr)")
        let list = try await vigil(["session", "list", "--json", "--data-dir", data], home: home)
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list.stdout)")
        let killed = try #require(sessions.first { ($0["tags"] as? [String])?.contains("strict") == true }, "\(list.stdout)")
        #expect(killed["outcome"] as? String == "interrupted")
        #expect(killed["tags"] as? [String] == ["strict", "broken"], "\(killed)")
    }
}
