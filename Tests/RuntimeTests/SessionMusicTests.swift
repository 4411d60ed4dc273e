import Foundation
import SessionRuntime
import Synchronization
import TestSupport
import Testing

@testable import VigilCore

/// `session.music` with a real player (mpv with mpv-mpris, on a private session bus, read back
/// with playerctl), driven by a session's own events: it plays from the start, pauses for a
/// break, plays again after it, and pauses at the end; a player that is not there is said once.
@Suite(.serialized) struct SessionMusicTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    func state(_ from: SessionState, _ to: SessionState, at seconds: Double) -> SessionEvent {
        SessionEvent(time: t0 + seconds, kind: .stateChanged(from: from, to: to, score: 0, reason: nil))
    }

    @Test func theNamedPlayerPlaysWhileThePersonWorks() async throws {
        let players = try MediaPauseTests.Players()
        try await players.start("music")
        try await players.start("other")
        // Both paused before the session: the music is started by it, the other player left alone.
        try await players.command("music", "pause")
        try await players.command("other", "pause")
        let told = Mutex<[String]>([])
        var session = VigilConfiguration.Session()
        session.music = players.names["music"]
        let music = try #require(MusicForWork(configuration: session, address: players.bus.address) { line in told.withLock { $0.append(line) } })

        music.handle([SessionEvent(time: t0, kind: .sessionStarted(task: "essay", plannedSeconds: 1500))])
        music.drain()
        #expect(players.status(of: "music") == "Playing")
        #expect(players.status(of: "other") == "Paused", "only the named player")
        music.handle([state(.focused, .paused(.breakTime), at: 600)])
        music.drain()
        #expect(players.status(of: "music") == "Paused")
        music.handle([state(.paused(.breakTime), .focused, at: 900)])
        music.drain()
        #expect(players.status(of: "music") == "Playing")
        let summary = SessionSummary(
            outcome: .completed, started: t0, ended: t0 + 1500, activeSeconds: 1200, focusedSeconds: 1200, distractedSeconds: 0,
            pausedSeconds: 300, gapSeconds: 0, episodes: 0, alarms: 0)
        music.handle([SessionEvent(time: t0 + 1500, kind: .sessionEnded(summary))])
        music.drain()
        #expect(players.status(of: "music") == "Paused")
        let said = told.withLock { $0 }
        #expect(said.count == 4 && said.allSatisfy { $0.hasPrefix("music: ") && $0.hasSuffix("(session.music)") }, "\(said)")
        #expect(said.count == 4 && said[1].contains("paused for the break") && said[2].contains("playing again"), "\(said)")
    }

    @Test func aPlayerThatIsNotThereIsSaidOnceAndNothingIsStarted() async throws {
        let players = try MediaPauseTests.Players()
        try await players.start("music")
        try await players.command("music", "pause")
        let told = Mutex<[String]>([])
        var session = VigilConfiguration.Session()
        session.music = "spotify"
        let music = try #require(MusicForWork(configuration: session, address: players.bus.address) { line in told.withLock { $0.append(line) } })
        music.handle([SessionEvent(time: t0, kind: .sessionStarted(task: nil, plannedSeconds: 600))])
        music.handle([state(.focused, .paused(.pause), at: 60), state(.paused(.pause), .focused, at: 120)])
        music.drain()
        #expect(players.status(of: "music") == "Paused", "another player is not taken for it")
        let said = told.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("no media player named 'spotify'"), "\(said)")
        #expect(MusicForWork(configuration: VigilConfiguration.Session(), tell: { _ in }) == nil, "none named: no music")
    }
}
