import Foundation
import Testing

/// gpsd logs through the commands (issue 17): streamed, so damage late in a long log is refused as
/// in a short one, and a rehearsal of one keeps the receiver's exact positions out of everything
/// it writes unless the person opted in, as the live location detector does.
@Suite struct GPSDLogCLITests {
    /// A real receiver's log from gpsd's regression suite (a drive near Brisbane; its first fix
    /// comes without a time).
    static let log = repo + "/Tests/LocationDetectorTests/Data/haicom-305N.log.chk"

    /// The positions the log holds, read from its TPV reports here, not by Vigil: each as text to
    /// four decimals (about 11 m) and as the bytes of the exact double.
    static func positions() throws -> [Data] {
        var needles: [Data] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            guard let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], report["class"] as? String == "TPV",
                let lat = report["lat"] as? Double, let lon = report["lon"] as? Double
            else { continue }
            for degrees in [lat, lon] {
                needles.append(Data(String(format: "%.5f", degrees).dropLast().utf8))
                needles.append(withUnsafeBytes(of: degrees.bitPattern.littleEndian) { Data($0) })
            }
        }
        return needles
    }

    /// `vigil start --replay gpspipe.json --record out.jsonl` once wrote the log's coordinates at
    /// full precision whatever `location.exact_coordinates` said. By default the recording holds
    /// coarse cells with their distance, and neither it nor the event log (the rehearsal's, and a
    /// replay's kept beside it) holds a position; with the opt-in the recording keeps them (so the
    /// search below can find them), the log still not.
    @Test(arguments: [false, true]) func aRehearsalOfAGPSDLogRecordsExactPositionsOnlyWithTheOptIn(optIn: Bool) async throws {
        let home = freshHome()
        let config = home + "/config.yaml"
        write("location:\n  exact_coordinates: \(optIn)\n", to: config)
        let recording = home + "/out.jsonl"
        let r = try await vigil(
            [
                "start", "--replay", Self.log, "--pace", "1000", "--plain", "--log", "--record", recording, "--config", config, "--data-dir",
                home + "/d",
            ],
            home: home)
        #expect(r.status == 0, "\(r.stderr)")
        // A replay kept in the same log: events only, whatever the config says.
        let replayed = try await vigil(["replay", "--log", "--config", config, "--data-dir", home + "/d", Self.log], home: home)
        #expect(replayed.status == 0, "\(replayed.stderr)")

        let needles = try Self.positions()
        #expect(needles.count > 400)
        func contents(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
        let written = contents(recording)
        let fixes = String(decoding: written, as: UTF8.self).split(separator: "\n").filter { $0.contains("\"kind\":\"location\"") }
        #expect(fixes.count == 248, "every fix of the log is recorded")
        for (name, path) in [("database", home + "/d/vigil.sqlite3"), ("WAL", home + "/d/vigil.sqlite3-wal")] {
            let stored = contents(path)
            let found = needles.first { stored.range(of: $0) != nil }
            #expect(found == nil, "the \(name) holds a position: \(found.map { String(decoding: $0, as: UTF8.self) } ?? "")")
        }
        #expect(contents(home + "/d/vigil.sqlite3").count > 0)
        if optIn {
            #expect(fixes.allSatisfy { !$0.contains("\"cell\"") }, "\(fixes.prefix(3))")
            #expect(needles.contains { written.range(of: $0) != nil }, "the opt-in keeps the exact positions")
        } else {
            #expect(fixes.allSatisfy { $0.contains("\"cell\":0.01") }, "\(fixes.prefix(3))")
            #expect(fixes.contains { $0.contains("\"dist\":") }, "coarse fixes carry their distance: \(fixes.prefix(3))")
            let found = needles.first { written.range(of: $0) != nil }
            #expect(found == nil, "the recording holds a position: \(found.map { String(decoding: $0, as: UTF8.self) } ?? "")")
        }
        let again = try await vigil(["replay", recording], home: home)
        #expect(again.status == 0, "the recording replays: \(again.stderr)")
    }

    /// A log far longer than the reader's buffer, damaged 10,000 lines in: every command that reads
    /// it says which line (exit 65) and none logs a session, as for a damaged Vigil recording.
    @Test func aLongGPSDLogDamagedLateIsRefusedByEveryCommand() async throws {
        let home = freshHome()
        var lines = [#"{"class":"VERSION","release":"3.22"}"#]
        let start = 1_772_442_000.0  // 2026-03-02T09:00:00Z
        for i in 0..<5_000 {
            let time = Date(timeIntervalSince1970: start + Double(i)).ISO8601Format()
            lines.append("$GPGGA,\(i),5212.318,N,00007.308,E,1,08,0.9,10.0,M,47.0,M,,*47")
            lines.append(#"{"class":"TPV","mode":3,"time":"\#(time)","lat":\#(52.2053 + Double(i) * 1e-6),"lon":0.1218,"eph":5.0}"#)
        }
        let damaged = 10_000
        lines[damaged - 1] = #"{"class":"TPV","mode":3,"time":"2026-03-02T11:46:00Z","lat":52.21,"lon":0.1218,"eph":1e19}"#
        let path = home + "/gpspipe.json"
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        try await expectRefusedAsDamaged(path, line: damaged, saying: "TPV \"eph\" must be from 0 to 20037509 m", home: home)
    }
}
