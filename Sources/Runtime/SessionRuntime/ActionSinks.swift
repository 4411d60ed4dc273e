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
    /// The session is over: whatever is still changed is put back.
    func sessionEnded()
    /// What the person is told after what the action did (`act` for `.fired`, `undo` for
    /// `.cleared`): how and when it will be undone. Nil: nothing to add.
    func afterword(_ action: AlarmDelivery.Action) -> String?
}

extension ActionSink {
    public func sessionEnded() {}
    public func afterword(_ action: AlarmDelivery.Action) -> String? { nil }

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

    public func afterword(_ action: AlarmDelivery.Action) -> String? {
        action == .fired ? "resumed when you are back at work" : nil
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? {
        guard !(onBreak && closedBy == .onBreak) else { return nil }
        return try resume()
    }

    /// Players still paused when the session ends (in a break) play again.
    public func sessionEnded() {
        onBreak = false
        _ = try? resume()
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

/// The window in front, when the alarm is an application's and the rules call that window
/// distracting: what `hide` and `dim` act on.
private func distractionInFront(
    _ alarm: AlarmNotice, _ control: (any WindowControl)?, _ apps: VigilConfiguration.Apps
) throws(AlarmChannelUnavailable) -> (any WindowControl, ShownWindow)? {
    guard alarm.cause == .app else { return nil }
    guard let control else { throw AlarmChannelUnavailable(WindowControls.unsupported) }
    guard let front = try control.windows().first(where: \.focused),
        apps.categorize(appClass: front.appClass, title: front.title).category == .distracting
    else { return nil }
    return (control, front)
}

/// Writes a window down before it is changed, so a crash leaves it findable; a journal that cannot
/// be written stops the action (`refusal` says which).
private func writeDown(
    _ window: ShownWindow, token: String, action: String?, by control: any WindowControl, in journal: HiddenWindows?, _ refusal: String
) throws(AlarmChannelUnavailable) {
    do {
        try journal?.add(.init(pid: getpid(), desktop: control.name, token: token, appClass: window.appClass, action: action))
    } catch {
        throw AlarmChannelUnavailable("\(refusal) \(window.appClass): \(error)")
    }
}

/// What `hide` and `dim` share: the desktop's window control, the rules that say which window is
/// a distraction, the journal each window is written down in before it is changed (nil: nowhere,
/// in tests), and the windows changed and not put back yet.
public class WindowActionSink: @unchecked Sendable {
    let control: (any WindowControl)?
    let apps: VigilConfiguration.Apps
    let journal: HiddenWindows?
    /// The desktop's token of each window changed, and the application's class.
    var changed: [(token: String, appClass: String)] = []

    public init(control: (any WindowControl)?, apps: VigilConfiguration.Apps, journal: HiddenWindows? = nil) {
        self.control = control
        self.apps = apps
        self.journal = journal
    }
}

/// `hide`: the distracting window in front is moved out of sight, never closed, and put back where
/// it was (behind the window the person is on) at a break, a pause, the session's end, or when
/// the person asks (`vigil restore`). Not when the person is back at work: that is what hiding
/// brought about, and the distraction put back beside the work would undo it (and, in front,
/// open the next episode at once). Only an application distraction is acted on, and only a
/// window the rules call distracting.
public final class HideSink: WindowActionSink, ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.hide

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        guard let (control, front) = try distractionInFront(alarm, control, apps) else { return nil }
        // Written down first: a window is hidden only once it can be found again after a crash.
        let token = try control.token(front.id)
        try writeDown(front, token: token, action: nil, by: control, in: journal, "not hiding")
        do {
            try control.hide(token)
        } catch {
            journal?.remove(token: token)
            throw error
        }
        changed.append((token, front.appClass))
        return "hid \(front.appClass) (\(control.name))"
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? {
        guard closedBy != .back else { return nil }
        return try restoreAll()
    }

    public func afterword(_ action: AlarmDelivery.Action) -> String? {
        action == .fired ? "not closed; it comes back where it was at your next break or pause, or at the session's end" : nil
    }

    /// A Pomodoro break puts the windows back.
    public func announce(_ cue: PomodoroCue) throws(AlarmChannelUnavailable) -> Bool {
        if case .breakStarts = cue { _ = try restoreAll() }
        return false
    }

    public func sessionEnded() { _ = try? restoreAll() }

    private func restoreAll() throws(AlarmChannelUnavailable) -> String? {
        guard let control, !changed.isEmpty else { return nil }
        var back: [String] = []
        while let w = changed.first {
            if try control.restore(w.token) { back.append(w.appClass) }
            journal?.remove(token: w.token)
            changed.removeFirst()
        }
        return back.isEmpty ? nil : "restored " + back.joined(separator: ", ")
    }
}

/// `dim` (where the desktop allows: GNOME's extension, KWin's scripts): the distracting window in
/// front is dimmed, as GNOME's Wellbeing fades the screen, and brightened again when the episode
/// ends, the person back or not (a dimmed window is no use to anyone). Written down first, as a
/// hidden window is, so that a crash leaves nothing dim.
public final class DimSink: WindowActionSink, ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.dim

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        guard let (control, front) = try distractionInFront(alarm, control, apps) else { return nil }
        let token = try control.token(front.id)
        guard !changed.contains(where: { $0.token == token }) else { return nil }
        try writeDown(front, token: token, action: "dim", by: control, in: journal, "not dimming")
        let done: Bool
        do {
            done = try control.dim(token, true)
        } catch {
            journal?.remove(token: token, action: "dim")
            throw error
        }
        guard done else {
            journal?.remove(token: token, action: "dim")
            return nil
        }
        changed.append((token, front.appClass))
        return "dimmed \(front.appClass) (\(control.name))"
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? { try brightenAll() }

    public func sessionEnded() { _ = try? brightenAll() }

    public func afterword(_ action: AlarmDelivery.Action) -> String? {
        action == .fired ? "it brightens again when the episode ends" : nil
    }

    private func brightenAll() throws(AlarmChannelUnavailable) -> String? {
        guard let control, !changed.isEmpty else { return nil }
        var back: [String] = []
        while let w = changed.first {
            if try control.dim(w.token, false) { back.append(w.appClass) }
            journal?.remove(token: w.token, action: "dim")
            changed.removeFirst()
        }
        return back.isEmpty ? nil : "brightened " + back.joined(separator: ", ")
    }
}

/// `refocus`: the last window of a `work` application the person used comes back to the front.
/// Nothing to undo.
public final class RefocusSink: ActionSink, @unchecked Sendable {
    public let channel = AlarmChannel.refocus
    private let control: (any WindowControl)?
    private let apps: VigilConfiguration.Apps

    public init(control: (any WindowControl)?, apps: VigilConfiguration.Apps) {
        self.control = control
        self.apps = apps
    }

    public func act(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) -> String? {
        guard alarm.cause == .app else { return nil }
        guard let control else { throw AlarmChannelUnavailable(WindowControls.unsupported) }
        let windows = try control.windows()
        guard let work = windows.first(where: { apps.categorize(appClass: $0.appClass, title: $0.title).category == .work }), !work.focused
        else { return nil }
        try control.focus(work.id)
        return "brought back \(work.appClass) (\(control.name))"
    }

    public func undo(episode: Int, closedBy: EpisodeCloser) throws(AlarmChannelUnavailable) -> String? { nil }
}
