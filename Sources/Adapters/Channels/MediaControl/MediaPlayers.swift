import DBusSupport
import Foundation

/// A media player on the session bus, as MPRIS names it.
public struct MediaPlayer: Sendable, Hashable, CustomStringConvertible {
    /// Its well-known name (`org.mpris.MediaPlayer2.mpv`, `org.mpris.MediaPlayer2.firefox.instance_1_42`).
    public var busName: String
    /// The connection that owned the name when it was seen: a player that quit and started again
    /// is another player.
    public var owner: String
    /// What it calls itself (`Identity`: "mpv Media Player", "Firefox"), or the name's last part.
    public var identity: String

    public var description: String { identity }
}

/// Pauses the MPRIS media players that are playing (`org.mpris.MediaPlayer2.Player`, the
/// freedesktop specification every Linux player and browser implements) and later resumes exactly
/// those, unless the person played, paused or stopped one of them in between.
///
/// How it tells the person's hand from its own, two ways, for a player may report only the last
/// of quick changes (mpv's property observers coalesce them): before pausing a player it asks the
/// bus for the player's `PropertiesChanged` signals, which queue on this connection until `resume`
/// reads them, and it notes the player's `Position` once paused. A `PlaybackStatus` other than
/// `Paused` among the signals (played again; stopped), or another position (it played on, or was
/// moved), means the player is the person's again, and it is left as it is. A player that left
/// the bus, or whose name another program now owns, is left alone too.
///
/// Not for concurrent use: the alarm dispatcher calls it from its one queue.
public final class MediaPauser: @unchecked Sendable {
    static let prefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    private let address: String?
    private var bus: BusConnection?
    /// The players this paused and has not resumed yet, with the match rule of their signals and
    /// their position once paused (nil for a player that does not tell it).
    private var paused: [(player: MediaPlayer, rule: String, position: Int64?)] = []
    /// The `PlaybackStatus` values each paused player's owner reported since it was paused.
    private var reported: [String: [String]] = [:]

    /// - Parameter address: the session bus's address; nil takes the environment's.
    public init(address: String? = nil) { self.address = address }

    /// The players it paused and has not resumed.
    public var pausedPlayers: [MediaPlayer] { paused.map(\.player) }

    /// Pauses every player that is playing now (and was not paused by this already); returns them.
    public func pausePlaying() throws(DBusFailure) -> [MediaPlayer] {
        let bus = try connection()
        var done: [MediaPlayer] = []
        for player in try Self.players(on: bus) where !paused.contains(where: { $0.player.owner == player.owner }) {
            // A player that answers badly (or quits meanwhile) is skipped, not the whole pause.
            guard (try? Self.status(of: player, on: bus)) == "Playing" else { continue }
            let rule =
                "type='signal',sender='\(player.owner)',path='\(Self.path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
            do {
                try bus.addMatch(rule)
                try bus.call(player.busName, Self.path, Self.player, "Pause")
            } catch {
                try? bus.removeMatch(rule)
                continue
            }
            paused.append((player, rule, settledPosition(of: player, on: bus)))
            done.append(player)
        }
        return done
    }

    /// Plays again the players it paused that are still paused as it left them; returns those it
    /// resumed and those it left to the person.
    public func resume() throws(DBusFailure) -> (resumed: [MediaPlayer], leftAlone: [MediaPlayer]) {
        guard !paused.isEmpty else { return ([], []) }
        let bus = try connection()
        readReports(on: bus)
        var resumed: [MediaPlayer] = []
        var left: [MediaPlayer] = []
        for (player, rule, position) in paused {
            defer { try? bus.removeMatch(rule) }
            let touched = reported[player.owner, default: []].contains { $0 != "Paused" } || position != self.position(of: player, on: bus)
            guard !touched, (try? bus.nameOwner(player.busName)) == player.owner, (try? Self.status(of: player, on: bus)) == "Paused",
                (try? bus.call(player.busName, Self.path, Self.player, "Play")) != nil
            else {
                left.append(player)
                continue
            }
            resumed.append(player)
        }
        paused = []
        reported = [:]
        return (resumed, left)
    }

    /// The players on the bus now, by their well-known names.
    public func players() throws(DBusFailure) -> [MediaPlayer] { try Self.players(on: connection()) }

    static func players(on bus: BusConnection) throws(DBusFailure) -> [MediaPlayer] {
        let names = try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames").first?.elements ?? []
        var found: [MediaPlayer] = []
        for name in names.compactMap(\.string).sorted() where name.hasPrefix(prefix) {
            guard let owner = (try? bus.nameOwner(name)) ?? nil else { continue }
            let identity = (try? bus.property(name, path, "org.mpris.MediaPlayer2", "Identity", timeout: 2))?.string
            found.append(MediaPlayer(busName: name, owner: owner, identity: identity ?? String(name.dropFirst(prefix.count))))
        }
        return found
    }

    /// Where a player just paused stays: once it says it is paused and two readings 50 ms apart
    /// agree (a player applies a pause on its own time); nil when they do not within half a second.
    private func settledPosition(of player: MediaPlayer, on bus: BusConnection) -> Int64? {
        var last: Int64?
        for _ in 0..<10 {
            if (try? Self.status(of: player, on: bus)) == "Paused" {
                let now = position(of: player, on: bus)
                if let now, now == last { return now }
                last = now
            }
            usleep(50_000)
        }
        return nil
    }

    /// Where the player is in what it plays (µs), when it says.
    private func position(of player: MediaPlayer, on bus: BusConnection) -> Int64? {
        (try? bus.property(player.busName, Self.path, Self.player, "Position", timeout: 2))?.signed
    }

    /// The player's `PlaybackStatus`: "Playing", "Paused" or "Stopped".
    static func status(of player: MediaPlayer, on bus: BusConnection) throws(DBusFailure) -> String? {
        try bus.property(player.busName, path, Self.player, "PlaybackStatus", timeout: 2).string
    }

    /// Takes the signals queued since the pause: each paused player's `PlaybackStatus` changes.
    private func readReports(on bus: BusConnection) {
        while let signal = try? bus.nextSignal(timeout: 0) {
            guard signal.member == "PropertiesChanged", signal.arguments.first?.string == Self.player,
                let changed = signal.arguments.dropFirst().first?.dictionary, let status = changed["PlaybackStatus"]?.string
            else { continue }
            reported[signal.sender, default: []].append(status)
        }
    }

    private func connection() throws(DBusFailure) -> BusConnection {
        if let bus, bus.isConnected { return bus }
        // A new connection: what the old one paused is still paused, but its signals are gone,
        // so the person's hand can no longer be told; those players are left to the person.
        paused = []
        reported = [:]
        let made = try BusConnection(.session, address: address)
        bus = made
        return made
    }
}
