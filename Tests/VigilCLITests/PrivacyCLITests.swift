import Foundation
import TestSupport
import Testing

/// `vigil export --all` gives everything stored; `vigil forget` deletes a period without a trace.
@Suite struct PrivacyCLITests {
    func logged(_ home: String) async throws {
        // Two recorded sessions on two days, and a task and a habit.
        for (sample, task) in [("coffee-break", "secret-project-7"), ("loud-room", "public-work")] {
            let r = try await vigil(
                ["replay", "--log", "--task", task, "--data-dir", home + "/d", repo + "/Samples/\(sample)/session.jsonl"], home: home)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try await vigil(["task", "add", "Slides", "--data-dir", home + "/d"], home: home).status == 0)
        #expect(try await vigil(["habit", "add", "Walk", "--data-dir", home + "/d"], home: home).status == 0)
    }

    @Test func exportGivesEveryTable() async throws {
        let home = freshHome()
        try await logged(home)
        let r = try await vigil(["export", "--all", "-o", home + "/export.json", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        let mode = (try FileManager.default.attributesOfItem(atPath: home + "/export.json")[.posixPermissions] as! NSNumber).intValue
        #expect(mode == 0o600)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home + "/export.json"))) as? [String: Any])
        let tables = try #require(json["tables"] as? [String: [[String: Any]]])
        // Every table of the log but SQLite's and GRDB's bookkeeping and sync's two internal ones
        // (the clock and the flag that is set only while a sync writes).
        let listed = await runProcess(
            "/usr/bin/sqlite3",
            [home + "/d/vigil.sqlite3", "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"])
        let inLog = Set(listed.output.split(separator: "\n").map(String.init)).subtracting([
            "sqlite_sequence", "grdb_migrations", "sync_clock", "sync_applying",
        ])
        #expect(inLog.count >= 17)
        #expect(Set(tables.keys) == inLog)
        #expect(tables["activities"] != nil, "time in applications and on calls is exported too")
        #expect(tables["sessions"]?.count == 2)
        #expect(tables["sessions"]?.map { $0["task"] as? String } == ["secret-project-7", "public-work"])
        #expect((tables["state_changes"]?.count ?? 0) >= 4)
        #expect(tables["episodes"]?.count == 2)
        #expect(tables["alarms"]?.isEmpty == false)
        #expect(tables["tasks"]?.first?["title"] as? String == "Slides")
        #expect(tables["habits"]?.first?["name"] as? String == "Walk")
        // Everything the log holds is in it: the row counts match the log's own.
        let stats = try await vigil(["log", "--json", "--limit", "10", "--source", "all", "--data-dir", home + "/d"], home: home).stdout
        #expect(jsonRecords(stats).count == tables["sessions"]?.count)
        let bad = try await vigil(["export", "--data-dir", home + "/d"], home: home)
        #expect(bad.status == 64 && bad.stderr.contains("say --all"))
    }

    @Test func forgetDeletesAPeriodWithoutATrace() async throws {
        let home = freshHome()
        try await logged(home)
        let db = home + "/d/vigil.sqlite3"
        func fileBytes() -> Data {
            var all = FileManager.default.contents(atPath: db) ?? Data()
            all.append(FileManager.default.contents(atPath: db + "-wal") ?? Data())
            return all
        }
        #expect(fileBytes().range(of: Data("secret-project-7".utf8)) != nil, "the name is in the file before")
        // Not in a terminal, it needs --yes, and nothing is deleted without it.
        var r = try await vigil(["forget", "--from", "2026-03-03", "--to", "2026-03-03", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 1 && r.stderr.contains("add --yes to delete 1 session"), "\(r.stderr)")
        r = try await vigil(["forget", "--from", "2026-03-03", "--to", "2026-03-03", "--yes", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Forgot 1 session with "), "\(r.stdout)")
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home).stdout
        #expect(!log.contains("secret-project-7") && log.contains("public-work"))
        // Overwritten, not just unlinked: the name is nowhere in the database or its WAL.
        #expect(fileBytes().range(of: Data("secret-project-7".utf8)) == nil)
        r = try await vigil(["forget", "--from", "2026-03-09", "--to", "2026-03-03", "--yes", "--data-dir", home + "/d"], home: home)
        #expect(r.status == 64 && r.stderr.contains("--from 2026-03-09 is after --to 2026-03-03"))
    }

    /// A live session on the real sensors (a private PulseAudio playing pink noise, gpsd fed by
    /// gpsfake with a receiver's log) with a recording: the database, its WAL, the recording and a
    /// JSON report hold none of the positions gpsd reported and none of the audio's samples. With
    /// the opt-in, the same search finds the positions in the recording, so the search can fail.
    /// (The input detector cannot run live here, with no /dev/input: a libinput recording replayed
    /// into the same log stands in, and its key codes must not be in the database.)
    @Test func aLiveSessionStoresNoPositionAudioOrKeys() async throws {
        let home = freshHome()
        let wav = home + "/noise.wav"
        let made = await runProcess(
            "/usr/bin/sox", ["-R", "-n", "-r", "48000", "-c", "1", "-b", "16", wav, "synth", "60", "pinknoise", "vol", "0.5"])
        try #require(made.status == 0, "sox: \(made.output)")
        let pulse = try PulseServer()
        try pulse.start()
        let player = try pulse.startPlaying(wav)
        defer { player.kill(SIGKILL) }
        let gpsLog = repo + "/Tests/LocationDetectorTests/Data/haicom-305N.log"
        let (privatePort, exactPort) = (freePort(), freePort())
        let gpsPrivate = try GPSFake(log: gpsLog, port: privatePort, once: false)
        defer { gpsPrivate.stop() }
        let gpsExact = try GPSFake(log: gpsLog, port: exactPort, once: false)
        defer { gpsExact.stop() }

        func config(port: Int, exact: Bool) -> String {
            let path = home + "/config-\(port).yaml"
            let text = """
                audio:
                  server: \(pulse.address)
                location:
                  gpsd: localhost:\(port)
                  max_accuracy: 1000
                  exact_coordinates: \(exact)
                """
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }
        let (privateConfig, exactConfig) = (config(port: privatePort, exact: false), config(port: exactPort, exact: true))
        // The default, with the event log; and the opt-in, a recording only.
        async let session = vigil(
            [
                "start", "--minutes", "0.4", "--task", "privacy", "--record", home + "/session.jsonl",
                "--config", privateConfig, "--data-dir", home + "/d",
            ], home: home)
        async let optIn = vigil(
            ["record", "-o", home + "/exact.jsonl", "--minutes", "0.4", "--config", exactConfig, "--data-dir", home + "/d2"], home: home)
        let (r, e) = try await (session, optIn)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(e.status == 0, "\(e.stderr)")
        let replayKeys = try await vigil(
            ["replay", "--log", "--data-dir", home + "/d", repo + "/Tests/InputDetectorTests/Data/keyboard-alt-tab.yml"], home: home)
        #expect(replayKeys.status == 0, "\(replayKeys.stderr)")
        let report = try await vigil(
            ["report", "--last", "all", "--format", "json", "-o", home + "/report.json", "--data-dir", home + "/d"], home: home)
        #expect(report.status == 0, "\(report.stderr)")

        // What the sensors really gave: gpsd's own reports and the audio file's samples.
        let positions = gpsPrivate.reportedFixes + gpsExact.reportedFixes
        try #require(positions.count >= 4, "gpsd reported too little: \(gpsPrivate.log)")
        var needles: [Data] = []
        for p in positions {
            for degrees in [p.lat, p.lon] {
                // Four decimals (about 11 m) as text, and the exact double as stored bytes.
                let text = String(format: "%.5f", degrees)
                needles.append(Data(text.dropLast().utf8))
                needles.append(withUnsafeBytes(of: degrees.bitPattern.littleEndian) { Data($0) })
            }
        }
        let coordinateNeedles = needles
        let audio = try Data(contentsOf: URL(fileURLWithPath: wav))
        let pcm = audio[(try #require(audio.range(of: Data("data".utf8))).upperBound + 4)...]
        var audioNeedles: [Data] = []
        for offset in stride(from: pcm.startIndex + 4096, to: pcm.endIndex - 16, by: 8192) {
            let chunk = Data(pcm[offset..<offset + 8])
            audioNeedles.append(chunk)
            // The same two samples as 32-bit floats, as a capture in float format would hold them.
            let floats = chunk.withUnsafeBytes { raw in
                (0..<2).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
            }
            audioNeedles.append(floats.withUnsafeBytes { Data($0) })
        }
        #expect(audioNeedles.count > 100)

        func contents(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
        let stored = ["/d/vigil.sqlite3", "/d/vigil.sqlite3-wal", "/session.jsonl", "/report.json"].map { contents(home + $0) }
        #expect(stored[0].count > 0 && stored[2].count > 0)
        for (name, data) in zip(["database", "WAL", "recording", "report"], stored) {
            let foundCoordinate = coordinateNeedles.first { data.range(of: $0) != nil }
            #expect(foundCoordinate == nil, "the \(name) holds a position: \(foundCoordinate.map { String(decoding: $0, as: UTF8.self) } ?? "")")
            #expect(!audioNeedles.contains { data.range(of: $0) != nil }, "the \(name) holds audio samples")
            #expect(data.range(of: Data("KEY_".utf8)) == nil, "the \(name) holds a key name")
        }
        // The session did see the sensors: levels and coarse fixes with their distance.
        let lines = String(decoding: stored[2], as: UTF8.self).split(separator: "\n")
        let fixes = lines.filter { $0.contains("\"kind\":\"location\"") }
        #expect(lines.filter { $0.contains("\"kind\":\"audio\"") }.count >= 10)
        #expect(fixes.count >= 2, "no fixes recorded: \(gpsPrivate.log)")
        #expect(fixes.allSatisfy { $0.contains("\"cell\":0.01") && $0.contains("\"dist\":") }, "\(fixes.prefix(3))")
        // The opt-in keeps them: the same search finds them there.
        let exact = contents(home + "/exact.jsonl")
        #expect(String(decoding: exact, as: UTF8.self).contains("\"kind\":\"location\""))
        #expect(coordinateNeedles.contains { exact.range(of: $0) != nil }, "the opt-in recording should hold exact positions")
        // Everything written is its owner's only: the data directory, every file (0600) and
        // directory (0700) in it, the recording.
        func mode(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        func isDirectory(_ path: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeDirectory
        }
        #expect(mode(home + "/d") == 0o700)
        let written = try FileManager.default.contentsOfDirectory(atPath: home + "/d")
        #expect(written.contains("vigil.sqlite3"))
        for file in written {
            let path = home + "/d/" + file
            #expect(mode(path) == (isDirectory(path) ? 0o700 : 0o600), "\(file): \(String(mode(path), radix: 8))")
        }
        #expect(mode(home + "/session.jsonl") == 0o600 && mode(home + "/exact.jsonl") == 0o600)
        // And the input log: the replayed keyboard session is there, as counts.
        let log = try await vigil(["log", "--json", "--source", "all", "--data-dir", home + "/d"], home: home)
        #expect(jsonRecords(log.stdout).count == 2, "\(log.stdout)")
    }
}
