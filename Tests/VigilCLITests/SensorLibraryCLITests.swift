import Foundation
import Testing

/// The sensor libraries (libpulse, libinput, libxcb, libgps… and the thirty libraries they bring) are
/// opened when a sensor first needs them, not when Vigil starts (CSensorLibraries, issue 18). The
/// dynamic loader's own account of what it loaded and why (`LD_DEBUG=files`) is the witness.
@Suite struct SensorLibraryCLITests {
    static let sensorLibraries = [
        "libpulse.so", "libpulse-simple.so", "libinput.so", "libudev.so", "libxcb.so", "libxcb-screensaver.so", "libgps.so", "libdbus-1.so",
        "libical.so",
    ]

    /// The libraries the loader opened before `main` (its lines `file=libc.so.6 [0];  needed by …`
    /// before the first dlopen) and those opened later (`… dynamically loaded by …`, and the
    /// libraries those need).
    static func loaded(_ stderr: String) -> (atStart: [String], later: [String]) {
        var atStart: [String] = []
        var later: [String] = []
        for line in stderr.split(separator: "\n") {
            guard let file = line.range(of: "file=") else { continue }
            let name = String(line[file.upperBound...].prefix { $0 != " " && $0 != "[" })
            if line.contains("dynamically loaded") || !later.isEmpty {
                later.append(name)
            } else if line.contains("needed by") {
                atStart.append(name)
            }
        }
        return (atStart, later)
    }

    static func sensorLibraries(in names: [String]) -> [String] {
        names.filter { name in sensorLibraries.contains { name.hasPrefix($0) } }
    }

    @Test func commandsThatOpenNoSensorLoadNoSensorLibrary() async throws {
        // (`status` exits 1: no session is running.)
        for (args, exit) in [
            (["--help"], 0), (["report", "--last", "7d"], 0), (["task", "list"], 0), (["status"], 1),
            (["replay", "Samples/coffee-break/session.jsonl"], 0),
        ] {
            let run = try await vigil(args, env: ["LD_DEBUG": "files"])
            let (atStart, later) = Self.loaded(run.stderr)
            let sensors = Self.sensorLibraries(in: atStart + later)
            let status = run.status
            #expect(status == Int32(exit), "vigil \(args.joined(separator: " ")): \(run.stderr.suffix(400))")
            // The loader did speak (libc at least), so an empty list below means something.
            #expect(atStart.contains { $0.hasPrefix("libc.so") }, "LD_DEBUG=files said nothing about libc: \(run.stderr.prefix(300))")
            #expect(sensors.isEmpty, "vigil \(args.joined(separator: " ")) loaded \(sensors)")
        }
    }

    @Test func aSensorCheckOpensEachLibraryWhenItsSensorIsAsked() async throws {
        // Servers that are not there: each detector opens its library, then fails to connect, which
        // is its answer (`sensors` ends at the last answer; the timeout only bounds a hung one).
        let home = freshHome()
        let config = home + "/config.yaml"
        try """
        input: {enabled: false}
        audio: {enabled: true, server: "unix:\(home)/no-pulse-here"}
        location: {enabled: true, gpsd: "127.0.0.1:1"}
        desktop: {enabled: false}
        apps: {enabled: false}
        media: {enabled: false}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try await vigil(["sensors", "--timeout", "60", "--config", config], home: home, env: ["LD_DEBUG": "files"])
        let (start, later) = Self.loaded(run.stderr)
        let atStart = Self.sensorLibraries(in: start)
        let opened = Self.sensorLibraries(in: later)
        #expect(atStart.isEmpty, "loaded at start: \(atStart)")
        #expect(opened.contains { $0.hasPrefix("libpulse.so.0") }, "opened: \(opened)")
        #expect(opened.contains { $0.hasPrefix("libgps.so") }, "opened: \(opened)")
        #expect(!opened.contains { $0.hasPrefix("libinput.so") }, "input is off, yet libinput was opened: \(opened)")
        // And the sensors say what they found, as before: the servers are not there.
        #expect(run.stdout.contains("PulseAudio") && run.stdout.contains("gpsd"), "\(run.stdout)")
    }
}
