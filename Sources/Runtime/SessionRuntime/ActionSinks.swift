import DBusSupport
import Foundation
import MediaControl
import VigilCore

/// A channel that acts on a distraction instead of (or beside) telling it (issue 36): what it did
/// goes into the log with each delivery ("paused mpv"), so the record says what Vigil changed on
/// the person's desktop. `act` runs at the levels `alarms.channels` gives it; `undo` when the
/// episode is over. Both return nil when there was nothing to do (nothing playing, no window to
/// hide): that is no delivery.
public protocol ActionSink: AlarmSink {
    func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String?
    func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String?
}

extension ActionSink {
    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) { _ = try act(alarm) }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        try undo(episode: episode, closedBy: closedBy) != nil
    }
}

/// `pause_media`: the media players that are playing (MPRIS) are paused at the alarm's level, and
/// exactly those resumed when the person is back; a player the person played, paused or stopped
/// meanwhile is left as the person left it (`MediaPauser`). At a Pomodoro break the players are
/// paused too, and resumed when the person is back for the next work period (not when the break's
/// time is up: the person may still be away). Without a session bus there is no player Vigil could
/// pause: nothing to do, not a failure.
public final class MediaPauseSink: ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.pauseMedia
    private let pauser: MediaPauser
    private let available: Bool
    /// In a Pomodoro break: an episode the break ends leaves the players paused for it.
    private var onBreak = false

    public init(address: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        available = address != nil || (try? MessageBus.session.address(environment: environment)) != nil
        pauser = MediaPauser(address: address)
    }

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        try pause()
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? {
        guard !(onBreak && closedBy == .onBreak) else { return nil }
        return try resume()
    }

    /// A break pauses the players; the next work period, once the person is back, resumes them.
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        switch cue {
        case .breakStarts:
            onBreak = true
            _ = try pause()
        case .breakOver:
            break
        case .workStarts:
            onBreak = false
            _ = try resume()
        }
        // The cue itself is told by the other channels.
        return false
    }

    private func pause() throws(AlarmChannelUnavailable) -> String? {
        guard available else { return nil }
        do {
            let paused = try pauser.pausePlaying()
            return paused.isEmpty ? nil : "paused " + paused.map(\.identity).joined(separator: ", ")
        } catch {
            throw AlarmChannelUnavailable("cannot reach the media players on the session bus: \(error)")
        }
    }

    private func resume() throws(AlarmChannelUnavailable) -> String? {
        guard available, !pauser.pausedPlayers.isEmpty else { return nil }
        do {
            let (resumed, left) = try pauser.resume()
            let words =
                (resumed.isEmpty ? [] : ["resumed " + resumed.map(\.identity).joined(separator: ", ")])
                + (left.isEmpty ? [] : ["left to you: " + left.map(\.identity).joined(separator: ", ")])
            return words.isEmpty ? nil : words.joined(separator: "; ")
        } catch {
            throw AlarmChannelUnavailable("cannot reach the media players on the session bus: \(error)")
        }
    }
}
