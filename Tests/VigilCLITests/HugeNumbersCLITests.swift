import Foundation
import Testing

/// The commands that read a recording: replays (one logged), inspections, a rehearsal (logged).
func recordingCommands(_ path: String, home: String) -> [[String]] {
    [
        ["replay", path], ["replay", "--log", "--data-dir", home + "/d", path], ["inspect", path], ["inspect", "--json", path],
        ["start", "--replay", path, "--pace", "1000", "--log", "--plain", "--data-dir", home + "/d"],
    ]
}

/// Every command that reads the recording refuses it as damaged: exit 65, `vigil: error:
/// FILE:LINE: MESSAGE`, and no session logged (a rehearsal once took damage for the recording's
/// end and logged a "completed" session).
func expectRefusedAsDamaged(_ path: String, line: Int, saying message: String = "", home: String) async throws {
    for command in recordingCommands(path, home: home) {
        let r = try await vigil(command, home: home)
        #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains("vigil: error: \(path):\(line): \(message)"), "\(command): \(r.stderr)")
    }
    let listed = try await vigil(["log", "--source", "all", "--data-dir", home + "/d"], home: home)
    #expect(!listed.stdout.contains("#1"), "nothing logged: \(listed.stdout)")
}

/// Huge finite numbers (issue 17): a recording with `"rms": 1e19` (or a distance of 1e300 m)
/// stopped `vigil replay` and `vigil start --replay` with SIGILL ("Double value cannot be converted
/// to Int") when a reason or the live screen showed the value. The line is now refused as a
/// damaged line is: its file and line, the key and its range, exit 65, nothing logged.
@Suite struct HugeNumbersCLITests {
    /// Fifteen minutes of typing in a room that turns loud after half a minute, its level 1e19
    /// dBFS: long enough to become a noise episode, whose reason showed the level.
    static func loudRecording(in home: String) throws -> (path: String, line: Int) {
        var lines = [#"{"vigil":"recording","version":1,"start":"2026-03-03T14:00:00Z","task":"loud"}"#]
        var first: Int?
        for t in 1...900 {
            if t > 30, first == nil { first = lines.count + 1 }
            lines.append(#"{"t":\#(t),"kind":"audio","rms":\#(t > 30 ? "1e19" : "-50")}"#)
            if t % 5 == 0 { lines.append(#"{"t":\#(t),"kind":"input","window":5,"keys":12,"idle":0.5}"#) }
        }
        let path = home + "/loud.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try #require(first))
    }

    /// Ten minutes 1e300 m from the workplace, typing all along.
    static func farRecording(in home: String) throws -> String {
        var lines = [#"{"vigil":"recording","version":1,"start":"2026-03-03T14:00:00Z","task":"far"}"#]
        for t in 1...600 {
            lines.append(#"{"t":\#(t),"kind":"location","lat":48.855,"lon":2.295,"acc":8,"mode":3,"dist":1e300,"cell":0.01}"#)
            if t % 5 == 0 { lines.append(#"{"t":\#(t),"kind":"input","window":5,"keys":12,"idle":0.5}"#) }
        }
        let path = home + "/far.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHugeLevelIsRefusedWithItsFileLineAndRange() async throws {
        let home = freshHome()
        let (path, line) = try Self.loudRecording(in: home)
        try await expectRefusedAsDamaged(path, line: line, saying: "column 1: \"rms\" must be from -200 to 20 dBFS, got 1e+19", home: home)
    }

    @Test func aHugeDistanceIsRefusedWithItsFileLineAndRange() async throws {
        let home = freshHome()
        try await expectRefusedAsDamaged(
            try Self.farRecording(in: home), line: 2,
            saying: "column 1: \"dist\" must be from 0 to 20037509 m (half the Earth's circumference), got 1e+300", home: home)
    }

    /// The same values at the edges of their ranges are read, judged and shown without a trap.
    @Test func valuesAtTheEdgesOfTheirRangesReplay() async throws {
        let home = freshHome()
        var lines = [#"{"vigil":"recording","version":1,"start":"2026-03-03T14:00:00Z","planned":31536000}"#]
        for t in 1...600 {
            lines.append(#"{"t":\#(t),"kind":"audio","rms":20,"peak":20,"lufs":20,"momentary":-200}"#)
            lines.append(#"{"t":\#(t),"kind":"location","lat":-90,"lon":180,"acc":0,"speed":20000,"dist":20037509,"cell":0.01}"#)
            lines.append(#"{"t":\#(t),"kind":"desktop","idle":3149999999}"#)
            if t % 5 == 0 {
                lines.append(
                    #"{"t":\#(t),"kind":"input","window":86400,"keys":999999999,"travel":1e12,"alt_tab":999999999,"idle":3149999999}"#)
            }
        }
        lines.append(#"{"t":601,"kind":"control","action":"end"}"#)
        let path = home + "/edges.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        for command in recordingCommands(path, home: home) {
            let r = try await vigil(command, home: home)
            #expect(r.status == 0, "\(command): \(r.status) \(r.stderr)")
        }
        let report = try await vigil(["report", "--data-dir", home + "/d"], home: home)
        #expect(report.status == 0, "\(report.stderr)")
    }

    /// The wait of `vigil sensors` is a Duration: 1e300 s or inf trapped making it.
    @Test(arguments: ["1e300", "inf", "1e19", "0"])
    func aHugeSensorTimeoutIsAUsageError(timeout: String) async throws {
        let r = try await vigil(["sensors", "--timeout", timeout])
        #expect(r.status == 64, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("--timeout must be greater than 0 and at most 3600 (an hour)"), "\(r.stderr)")
    }

    /// A gpsd log's numbers are held to the same ranges: file, line, key and range.
    @Test func aGPSDLogWithAHugeErrorEstimateIsRefused() async throws {
        let home = freshHome()
        let path = home + "/gps.json"
        let log = [
            #"{"class":"VERSION","release":"3.22"}"#,
            #"{"class":"TPV","mode":3,"time":"2026-03-03T14:00:00.000Z","lat":48.855,"lon":2.295,"eph":8,"speed":0.5}"#,
            #"{"class":"TPV","mode":3,"time":"2026-03-03T14:00:01.000Z","lat":48.855,"lon":2.295,"eph":1e19,"speed":0.5}"#,
        ]
        try (log.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        for command in [["replay", path], ["inspect", path]] {
            let r = try await vigil(command, home: home)
            #expect(r.status == 65, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("\(path):3: TPV \"eph\" must be from 0 to 20037509 m"), "\(command): \(r.stderr)")
        }
    }
}
