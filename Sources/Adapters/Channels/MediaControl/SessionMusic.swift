import DBusSupport
import Foundation

/// The design's "music for the working session" (`session.music`, issue 36): one MPRIS player
/// the person names plays while they work. It is started (or resumed) when the session starts,
/// paused at a break or a pause and played again after it, and paused at the session's end. Vigil
/// launches nothing and fetches nothing: the player is the person's, already running, with what
/// it plays.
///
/// After a break it plays again only if Vigil paused it and it is still paused: music the person
/// paused or changed meanwhile is theirs.
///
/// Not for concurrent use: the session calls it from one queue.
public final class SessionMusic: @unchecked Sendable {
    /// What was named: a player's MPRIS name (`mpv`, `spotify`, `org.mpris.MediaPlayer2.vlc`) or
    /// a piece of what it calls itself ("Rhythmbox").
    public let name: String
    private let address: String?
    /// The player Vigil paused, until it plays again.
    private var pausedByVigil: MediaPlayer?

    public init(name: String, address: String? = nil) {
        self.name = name
        self.address = address
    }

    /// Plays the named player; returns it, or nil when no such player is on the bus.
    public func start() throws(DBusFailure) -> MediaPlayer? {
        let bus = try BusConnection(.session, address: address)
        guard let player = try find(on: bus) else { return nil }
        if try MediaPauser.status(of: player, on: bus) != "Playing" { try bus.call(player.busName, MediaPauser.path, MediaPauser.player, "Play") }
        pausedByVigil = nil
        return player
    }

    /// Pauses the named player if it plays (a break, a pause, the end); returns it when it did.
    public func pause() throws(DBusFailure) -> MediaPlayer? {
        let bus = try BusConnection(.session, address: address)
        guard let player = try find(on: bus), try MediaPauser.status(of: player, on: bus) == "Playing" else { return nil }
        try bus.call(player.busName, MediaPauser.path, MediaPauser.player, "Pause")
        pausedByVigil = player
        return player
    }

    /// Plays again the player Vigil paused, if it is the same one and still paused; returns it
    /// when it did.
    public func resume() throws(DBusFailure) -> MediaPlayer? {
        guard let paused = pausedByVigil else { return nil }
        pausedByVigil = nil
        let bus = try BusConnection(.session, address: address)
        guard try bus.nameOwner(paused.busName) == paused.owner, try MediaPauser.status(of: paused, on: bus) == "Paused" else {
            return nil
        }
        try bus.call(paused.busName, MediaPauser.path, MediaPauser.player, "Play")
        return paused
    }

    /// The player `name` names: by its MPRIS name (with or without the prefix, an instance suffix
    /// allowed), else by a piece of its identity, any case.
    private func find(on bus: BusConnection) throws(DBusFailure) -> MediaPlayer? {
        let wanted = name.lowercased().hasPrefix(MediaPauser.prefix.lowercased()) ? String(name.dropFirst(MediaPauser.prefix.count)) : name
        let players = try MediaPauser.players(on: bus)
        func short(_ p: MediaPlayer) -> String { String(p.busName.dropFirst(MediaPauser.prefix.count)).lowercased() }
        return players.first { short($0) == wanted.lowercased() }
            ?? players.first { short($0).hasPrefix(wanted.lowercased() + ".instance") }
            ?? players.first { $0.identity.localizedCaseInsensitiveContains(wanted) }
    }
}
