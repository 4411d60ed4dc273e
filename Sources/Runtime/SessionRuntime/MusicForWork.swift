import DBusSupport
import Foundation
import MediaControl
import VigilCore

/// `session.music` in a live session (issue 36, `SessionMusic`): the named player plays from the
/// session's start, pauses at a break or a pause and plays again after it, and pauses at the end.
/// Driven by the session's own events, off the session's path (D-Bus calls wait for answers),
/// and said to the person: what plays, or why it cannot.
public final class MusicForWork: @unchecked Sendable {
    private let music: SessionMusic
    private let queue = DispatchQueue(label: "vigil-session-music")
    private let tell: @Sendable (String) -> Void
    /// Said once: a player that is not there, or a bus that cannot be reached.
    private var toldProblem = false

    public init?(configuration: VigilConfiguration.Session, address: String? = nil, tell: @escaping @Sendable (String) -> Void) {
        guard let name = configuration.music else { return nil }
        music = SessionMusic(name: name, address: address)
        self.tell = tell
    }

    public func handle(_ events: [SessionEvent]) {
        for e in events {
            switch e.kind {
            case .sessionStarted:
                queue.async { self.attempt("playing", { () throws(DBusFailure) in try self.music.start() }, missing: true) }
            case .stateChanged(let from, let to, _, _):
                if case .paused(let kind) = to, !from.isPaused {
                    let what = kind == .pause ? "paused while you pause" : "paused for the break"
                    queue.async { self.attempt(what, { () throws(DBusFailure) in try self.music.pause() }) }
                } else if from.isPaused, !to.isPaused, !to.isEnded {
                    queue.async { self.attempt("playing again", { () throws(DBusFailure) in try self.music.resume() }) }
                }
            case .sessionEnded:
                queue.async { self.attempt("paused: the session is over", { () throws(DBusFailure) in try self.music.pause() }) }
            default:
                break
            }
        }
    }

    /// Waits until what was asked of the player is done.
    public func drain() { queue.sync {} }

    private func attempt(_ what: String, _ body: () throws(DBusFailure) -> MediaPlayer?, missing: Bool = false) {
        do {
            if let player = try body() {
                tell("music: \(player.identity) \(what) (session.music)")
            } else if missing, !toldProblem {
                toldProblem = true
                tell(
                    "session.music: no media player named '\(music.name)' is on the session bus: start it first "
                        + "(`playerctl --list-all` lists those there are); Vigil starts no program")
            }
        } catch {
            guard !toldProblem else { return }
            toldProblem = true
            tell("session.music: cannot reach the media player (\(error.message))")
        }
    }
}

extension SessionState {
    fileprivate var isPaused: Bool { if case .paused = self { true } else { false } }
    fileprivate var isEnded: Bool { if case .ended = self { true } else { false } }
}
