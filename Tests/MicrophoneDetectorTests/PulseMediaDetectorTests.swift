import Foundation
import SoundAlarm
import TestSupport
import Testing
import VigilCore

@testable import MicrophoneDetector

/// A private server with a microphone, and the detector watching it once it said its first counts.
func watchedServer() async throws -> (PulseServer, Collector) {
    let server = try PulseServer(microphone: true)
    try server.start()
    let collector = Collector(PulseMediaDetector(server: server.address, retry: .init(first: 0.1, longest: 0.2)).readings())
    #expect(await collector.wait(timeout: 20) { !$0.media.isEmpty }, "\(collector.statuses)")
    return (server, collector)
}

/// The media detector against a real private PulseAudio server, with real clients: `parec`
/// recording (a call), `paplay` playing, and Vigil's own microphone detector in this process.
@Suite(.serialized) struct PulseMediaDetectorTests {
    /// A marker in every name a client gives itself and its stream: it must reach no sample.
    static let marker = "MARKER-\(UUID().uuidString.prefix(8))"

    /// How many streams of a kind (`source-outputs`, `sink-inputs`) the server has, as pactl sees them.
    func streams(_ kind: String, _ server: PulseServer) async -> Int {
        await runProcess("/usr/bin/pactl", ["--server", server.address, "list", "short", kind]).output.split(separator: "\n").count
    }

    /// Waits until pactl lists `count` streams of a kind: the server has them all.
    func waitForStreams(_ kind: String, _ count: Int, _ server: PulseServer) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while await streams(kind, server) < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(await streams(kind, server) == count, "\(kind)")
    }

    @Test func aProgramRecordingTheMicrophoneIsACallUntilItStops() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }
        #expect(collector.states == [.available])
        #expect(collector.media == [MediaActivity(calls: 0, playing: 0)], "said at the start")

        let call = try server.startRecording([
            "--client-name=\(Self.marker) Meet", "--stream-name=\(Self.marker) call with Alice", "--property=media.role=phone",
            "--property=application.process.binary=\(Self.marker)",
        ])
        #expect(await collector.wait(timeout: 20) { $0.media.last?.calls == 1 }, "\(collector.media)")
        call.kill(SIGINT)
        #expect(await collector.wait(timeout: 20) { $0.media.last?.calls == 0 }, "\(collector.media)")
        #expect(
            collector.media == [MediaActivity(calls: 0, playing: 0), MediaActivity(calls: 1, playing: 0), MediaActivity(calls: 0, playing: 0)],
            "each change said once")
        let everything = String(describing: collector.all)
        #expect(!everything.contains(Self.marker), "no name leaves the detector: \(everything)")
        #expect(!everything.contains("Alice"))
    }

    @Test func aPlayingStreamCountsUntilItEnds() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }

        let wav = try synthesize("lecture", seconds: 120, ["sine", "440", "vol", "0.1"])
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let player = try ChildProcess(
            "/usr/bin/paplay", ["--server", server.address, "-d", "vigiltest", "--client-name=\(Self.marker)", "--stream-name=\(Self.marker)", wav])
        #expect(await collector.wait(timeout: 20) { $0.media.last == MediaActivity(calls: 0, playing: 1) }, "\(collector.media)")
        player.kill(SIGTERM)
        #expect(await collector.wait(timeout: 20) { $0.media.last == MediaActivity(calls: 0, playing: 0) }, "\(collector.media)")
        #expect(collector.media.allSatisfy { $0.calls == 0 }, "playing is not a call: \(collector.media)")
        #expect(!String(describing: collector.all).contains(Self.marker))
    }

    /// Vigil's own microphone stream (a session records levels from the same server), a recording
    /// of a monitor (what a level meter or a screen recorder does) and a stream named like
    /// pavucontrol's peak meters are no calls. They are all present when a real call is counted as
    /// one, so the detector had seen them and left them out (each refresh is a complete picture).
    @Test func vigilsOwnMicrophoneAndLevelMetersAreNoCalls() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }
        let microphone = PulseMicrophoneDetector(server: server.address, window: 0.5, retry: .init(first: 0.1, longest: 0.2))
        let levels = Collector(microphone.readings())
        defer { levels.stop() }
        #expect(await levels.wait(timeout: 20) { !$0.levels.isEmpty }, "the microphone detector records: \(levels.statuses)")
        let monitor = try server.startRecording(source: "vigiltest.monitor")
        let meter = try server.startRecording(["--stream-name=Peak detect"])
        defer {
            monitor.kill()
            meter.kill()
        }
        // Vigil's stream, the monitor recording and the meter.
        try await waitForStreams("source-outputs", 3, server)

        let call = try server.startRecording()
        defer { call.kill() }
        #expect(await collector.wait(timeout: 20) { $0.media.last?.calls == 1 }, "\(collector.media)")
        #expect(await streams("source-outputs", server) == 4)
        #expect(collector.media.allSatisfy { $0.calls <= 1 }, "only the call counts: \(collector.media)")
    }

    /// Vigil's own alarm tone (SoundAlarm, in this process) is not playback; another program's
    /// stream playing at the same time is, and only it.
    @Test func vigilsOwnAlarmToneIsNotPlayback() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }

        // One long beep, played on a thread of its own: `play` returns when it has been played.
        let address = server.address
        let tone = Thread { try? TonePlayer(server: address).play(AlarmTone(level: -30, beeps: 1, beepSeconds: 60)) }
        tone.start()
        try await waitForStreams("sink-inputs", 1, server)  // the alarm tone plays

        let wav = try synthesize("music", seconds: 120, ["sine", "440", "vol", "0.1"])
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let player = try server.startPlaying(wav)
        defer { player.kill() }
        #expect(await collector.wait(timeout: 20) { $0.media.last?.playing == 1 }, "\(collector.media)")
        #expect(await streams("sink-inputs", server) == 2, "the tone and the music")
        #expect(collector.media.allSatisfy { $0.playing <= 1 }, "only the music counts: \(collector.media)")
        // The server goes away with the test; the tone's thread then returns with an error.
    }

    @Test func aServerThatDiesIsReportedAndItsSuccessorPickedUp() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }
        let call = try server.startRecording()
        #expect(await collector.wait(timeout: 20) { $0.media.last?.calls == 1 }, "\(collector.media)")
        server.kill()
        call.wait()
        #expect(await collector.wait(timeout: 20) { $0.states.last == .lost }, "\(collector.statuses)")
        #expect(collector.statuses.last?.detail.contains("reconnecting") == true, "\(collector.statuses)")

        let before = collector.media.count
        try server.start()
        #expect(await collector.wait(timeout: 20) { $0.states.last == .available && $0.media.count > before }, "\(collector.statuses)")
        #expect(collector.states == [.available, .lost, .available], "each change said once: \(collector.statuses)")
        #expect(collector.media.last == MediaActivity(calls: 0, playing: 0), "the new server's counts, said at once")
    }

    @Test func noServerIsReportedOnceWithTheRemedy() async throws {
        let collector = try await soleStatusWithoutServer { PulseMediaDetector(server: $0, retry: .init(first: 0.05, longest: 0.1)) }
        #expect(collector.statuses.first?.detail.contains("audio.server") == true, "\(collector.statuses)")
        #expect(collector.media.isEmpty)
    }

    @Test func theConfigurationChoosesTheServerAndCanTurnItOff() async {
        var configuration = VigilConfiguration.default
        configuration.audio.server = "unix:/tmp/elsewhere"
        #expect(PulseMediaDetector(configuration: configuration)?.server == "unix:/tmp/elsewhere")
        configuration.media.enabled = false
        #expect(PulseMediaDetector(configuration: configuration) == nil)
    }

    /// The rules on one stream's facts, including the paused (corked) state, which `parec`,
    /// `pacat` and `paplay` never enter (they do not cork), so the real-server tests cannot show it.
    @Test func whatCountsAsACallAndAsPlaying() async {
        let me = "4242"
        let call = StreamFacts(hasClient: true, processID: "17", mediaName: "Call", corked: false)
        #expect(call.isCall(ownProcess: me))
        var s = call
        s.corked = true
        #expect(!s.isCall(ownProcess: me) && !s.isPlaying(ownProcess: me), "paused")
        s = call
        s.processID = me
        #expect(!s.isCall(ownProcess: me) && !s.isPlaying(ownProcess: me), "Vigil's own")
        s = call
        s.hasClient = false
        #expect(!s.isCall(ownProcess: me) && !s.isPlaying(ownProcess: me), "a module's (loopback)")
        s = call
        s.mediaName = "Peak detect"
        #expect(!s.isCall(ownProcess: me), "pavucontrol's meter")
        s = call
        s.recordsMonitor = true
        #expect(!s.isCall(ownProcess: me), "recording a monitor")
        #expect(call.isPlaying(ownProcess: me))
    }
}

/// A call silences the noise alarm, end to end: the media detector's real samples during a real
/// `parec` call, fed to the focus-session state machine with loud room levels, open no noise
/// episode; the same loud levels with the detector's samples from before the call do.
///
/// The detector runs live (wall clock); what the session sees is stamped with explicit instants,
/// so the judgement does not depend on how fast this machine is.
@Suite(.serialized) struct CallSilencesTheNoiseAlarmTests {
    /// Only the noise signal judges: no input, desktop, application or location samples are fed.
    static var configuration: VigilConfiguration {
        var c = VigilConfiguration.default
        c.input.enabled = false
        c.switching.enabled = false
        c.desktop.enabled = false
        c.apps.enabled = false
        c.location.enabled = false
        return c
    }

    /// The detector's samples (in the order it emitted them), then a loud room for 15 minutes.
    static func episodes(detectorSamples: [Sample]) -> [Episode] {
        let t0 = Timestamp(seconds: 1_800_000_000)
        var session = FocusSession(configuration: configuration)
        var events = session.start(at: t0)
        for (i, s) in detectorSamples.enumerated() {
            events += session.receive(Sample(time: t0 + 0.01 * Double(i + 1), payload: s.payload))
        }
        for second in 1...900 {
            let loud = AudioLevel(rms: -20, peak: -8, shortTermLUFS: -18, momentaryLUFS: -17)
            events += session.receive(Sample(time: t0 + Double(second), payload: .audio(loud)))
        }
        return events.compactMap { if case .episodeStarted(let e) = $0.kind { e } else { nil } }
    }

    @Test func aRealCallSilencesTheNoiseAlarm() async throws {
        let (server, collector) = try await watchedServer()
        defer { collector.stop() }
        let beforeCall = collector.all

        let call = try server.startRecording(["--property=media.role=phone"])
        defer { call.kill() }
        #expect(await collector.wait(timeout: 20) { $0.media.last?.onCall == true }, "\(collector.media)")
        let duringCall = collector.all

        let withoutCall = Self.episodes(detectorSamples: beforeCall)
        #expect(withoutCall.map(\.cause) == [.noise], "a loud room alone is noise: \(withoutCall)")
        let withCall = Self.episodes(detectorSamples: duringCall)
        #expect(withCall.isEmpty, "during a call the room is the person's own meeting: \(withCall)")
    }
}
