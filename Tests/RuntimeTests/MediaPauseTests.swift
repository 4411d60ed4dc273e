import Foundation
import SessionRuntime
import Synchronization
import TestSupport
import Testing
import VigilCore

/// `pause_media` against real players: mpv with Debian's MPRIS plug-in (mpv-mpris), several of
/// them on a private session bus, driven through the alarm dispatcher as a session drives it, and
/// read back with playerctl (another MPRIS client, not Vigil's).
@Suite(.serialized) struct MediaPauseTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    /// mpv players on one private bus, each looping a second of tone with no audio output.
    final class Players {
        let bus: SessionBus
        /// playerctl looks for players on the system bus too, and gives up on all of them when
        /// there is none: an empty one of its own.
        let system: SessionBus
        let directory: String
        private var processes: [String: ChildProcess] = [:]

        init() throws {
            bus = try SessionBus()
            system = try SessionBus()
            directory = bus.directory
            // A second of 440 Hz, 8 kHz mono: what mpv plays (to no sound device: --ao=null).
            let rate = 8000
            var data = Data("RIFF".utf8)
            func le32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
            func le16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
            le32(36 + rate * 2)
            data.append(contentsOf: Array("WAVEfmt ".utf8))
            for (value, bytes) in [(16, 4), (1, 2), (1, 2), (rate, 4), (rate * 2, 4), (2, 2), (16, 2)] {
                if bytes == 4 { le32(value) } else { le16(value) }
            }
            data.append(contentsOf: Array("data".utf8))
            le32(rate * 2)
            for i in 0..<rate { le16(Int(Int16(8000 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))) & 0xFFFF) }
            try data.write(to: URL(fileURLWithPath: directory + "/tone.wav"))
        }

        /// Starts an mpv named `name` (its MPRIS name is then `org.mpris.MediaPlayer2.mpv` or
        /// `….mpv.instance<pid>`) and waits until playerctl lists it playing.
        func start(_ name: String) async throws {
            let before = Set(list())
            processes[name] = try ChildProcess(
                "/usr/bin/env",
                [
                    "-i", "PATH=/usr/bin:/bin", "HOME=\(directory)", "DBUS_SESSION_BUS_ADDRESS=\(bus.address)", "/usr/bin/mpv", "--no-config",
                    "--script=/usr/lib/mpv-mpris/mpris.so", "--ao=null", "--no-video", "--loop-file=inf", "--really-quiet",
                    directory + "/tone.wav",
                ],
                output: directory + "/\(name).log")
            let found = try await eventually(30) { Set(self.list()).subtracting(before).first.map { self.status($0) == "Playing" } ?? false }
            guard found, let player = Set(list()).subtracting(before).first else {
                throw TestFailure("mpv (\(name)) did not come up playing on the bus: \(log(name)) \(list())")
            }
            names[name] = player
        }

        /// Each started player's playerctl name (`mpv`, `mpv.instance1234`).
        var names: [String: String] = [:]

        func list() -> [String] {
            playerctl(["--list-all"]).output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("mpv") }
        }
        func status(_ player: String) -> String { playerctl(["--player", player, "status"]).output.trimmingCharacters(in: .whitespacesAndNewlines) }
        func status(of name: String) -> String { status(names[name] ?? "?") }
        func command(_ name: String, _ verb: String) async throws {
            _ = playerctl(["--player", names[name] ?? "?", verb])
            _ = try await eventually(10) { self.status(of: name) == (verb == "play" ? "Playing" : "Paused") }
        }
        func playerctl(_ arguments: [String]) -> (status: Int32, output: String) {
            runTool(
                "/usr/bin/playerctl", arguments,
                environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": system.address])
        }
        func log(_ name: String) -> String { (try? String(contentsOfFile: directory + "/\(name).log", encoding: .utf8)) ?? "" }

        deinit { for p in processes.values { p.kill(SIGKILL) } }
    }

    final class Deliveries: Sendable {
        let all = Mutex<[AlarmDelivery]>([])
        func add(_ d: AlarmDelivery) { all.withLock { $0.append(d) } }
    }

    func dispatcher(_ players: Players, _ deliveries: Deliveries) -> AlarmDispatcher {
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.terminal], [.terminal, .pauseMedia]]
        return AlarmDispatcher(
            configuration: alarms, task: nil, sinks: [MediaPauseSink(address: players.bus.address)], onDelivery: { deliveries.add($0) },
            report: { _ in })
    }

    func alarm(_ level: Int, at seconds: Double) -> SessionEvent {
        SessionEvent(time: t0 + seconds, kind: .alarm(level: level, repeat: 0, episode: 1, cause: .app, reason: "2 min in Firefox"))
    }

    func cleared(at seconds: Double) -> SessionEvent {
        SessionEvent(time: t0 + seconds, kind: .alarmCleared(level: 2, episode: 1, closedBy: .back, recoverySeconds: 30))
    }

    /// Two players playing and one the person paused: the alarm's level pauses the two, and the
    /// person's return plays exactly those two again; the paused one is never started.
    @Test func playingPlayersArePausedAtTheLevelAndExactlyThoseResumed() async throws {
        let players = try Players()
        for name in ["music", "video", "podcast"] { try await players.start(name) }
        try await players.command("podcast", "pause")
        let deliveries = Deliveries()
        let alarms = dispatcher(players, deliveries)

        // Level 1 is the terminal's alone: nothing is paused.
        alarms.handle([alarm(1, at: 30)])
        alarms.drain()
        #expect(players.status(of: "music") == "Playing" && players.status(of: "video") == "Playing")
        alarms.handle([alarm(2, at: 120)])
        alarms.drain()
        #expect(players.status(of: "music") == "Paused" && players.status(of: "video") == "Paused", "\(players.list())")
        #expect(players.status(of: "podcast") == "Paused")
        let fired = deliveries.all.withLock { $0 }.filter { $0.channel == .pauseMedia && $0.action == .fired }
        #expect(fired.count == 1 && fired.first?.delivered == true, "\(fired)")
        #expect(fired.first?.detail.hasPrefix("paused ") == true && fired.first?.detail.contains("mpv") == true, "\(fired)")

        alarms.handle([cleared(at: 150)])
        alarms.drain()
        _ = try await eventually(10) { players.status(of: "music") == "Playing" && players.status(of: "video") == "Playing" }
        #expect(players.status(of: "music") == "Playing" && players.status(of: "video") == "Playing")
        #expect(players.status(of: "podcast") == "Paused", "the person's paused player is not started")
        let cleared = deliveries.all.withLock { $0 }.filter { $0.channel == .pauseMedia && $0.action == .cleared }
        #expect(cleared.count == 1 && cleared.first?.detail.hasPrefix("resumed ") == true, "\(cleared)")
    }

    /// What the person does with a paused player meanwhile wins: one played and paused again stays
    /// paused, one played stays playing, one that quit is not looked for.
    @Test func aPlayerThePersonTouchedMeanwhileIsLeftAsThePersonLeftIt() async throws {
        let players = try Players()
        for name in ["replayed", "kept", "steady"] { try await players.start(name) }
        let deliveries = Deliveries()
        let alarms = dispatcher(players, deliveries)
        alarms.handle([alarm(2, at: 120)])
        alarms.drain()
        for name in ["replayed", "kept", "steady"] { #expect(players.status(of: name) == "Paused", "\(name)") }
        // The person plays one and pauses it again, and plays another.
        try await players.command("replayed", "play")
        try await players.command("replayed", "pause")
        try await players.command("kept", "play")
        alarms.handle([cleared(at: 200)])
        alarms.drain()
        _ = try await eventually(10) { players.status(of: "steady") == "Playing" }
        #expect(players.status(of: "steady") == "Playing", "the one left alone is resumed")
        #expect(players.status(of: "replayed") == "Paused", "paused by the person again: stays paused")
        #expect(players.status(of: "kept") == "Playing")
        let cleared = deliveries.all.withLock { $0 }.filter { $0.channel == .pauseMedia && $0.action == .cleared }
        #expect(cleared.first?.detail.contains("left to you") == true, "\(cleared)")
    }

    /// A Pomodoro break pauses the players, and keeps them paused when it ends an episode that
    /// had paused them; they play again when the person is back for the next work period, not
    /// when the break's time is up.
    @Test func aBreakPausesAndThePersonsReturnResumes() async throws {
        let players = try Players()
        try await players.start("music")
        let deliveries = Deliveries()
        let alarms = dispatcher(players, deliveries)
        alarms.handle([alarm(2, at: 120)])
        alarms.announce(.breakStarts(period: 1, rounds: 4, minutes: 5, long: false))
        alarms.handle([SessionEvent(time: t0 + 130, kind: .alarmCleared(level: 2, episode: 1, closedBy: .onBreak, recoverySeconds: nil))])
        alarms.drain()
        #expect(players.status(of: "music") == "Paused")
        alarms.announce(.breakOver(period: 1, rounds: 4))
        alarms.drain()
        #expect(players.status(of: "music") == "Paused", "the break's time is up, the person not back yet")
        alarms.announce(.workStarts(period: 2, rounds: 4, minutes: 25))
        alarms.drain()
        _ = try await eventually(10) { players.status(of: "music") == "Playing" }
        #expect(players.status(of: "music") == "Playing")
    }

    /// No session bus (a console, a test's scrubbed environment): no player to pause, and nothing
    /// is said or logged.
    @Test func withoutASessionBusThereIsNothingToDo() throws {
        let sink = MediaPauseSink(environment: [:])
        let notice = AlarmNotice(time: t0, level: 2, repeatCount: 0, episode: 1, cause: .app, reason: "", task: nil, isPersistent: false)
        #expect(try sink.act(notice) == nil)
        #expect(try sink.undo(episode: 1, closedBy: .back) == nil)
    }
}
