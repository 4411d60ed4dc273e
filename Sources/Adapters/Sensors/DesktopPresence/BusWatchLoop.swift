import DBusSupport
import DetectorSupport
import Foundation
import VigilCore

/// What the three D-Bus detectors share: connect, watch until the session stops or the connection
/// or service is lost, say why, and try again after a growing delay.
///
/// `watch` reports `.available` itself once it has read the first state, and returns only when the
/// session stops; a failure (no bus, no service, the bus or the service gone) is thrown.
func runBusWatch(
    _ context: DetectorContext, bus: MessageBus, address: String?, retry: Backoff, what: String,
    remedy: String, watch: (BusConnection, DetectorContext) throws(DBusFailure) -> Void
) {
    context.keepConnecting(retry: retry) {
        do throws(DBusFailure) {
            try watch(try BusConnection(bus, address: address), context)
            return .stopped
        } catch {
            let reason = error.kind == .noBus ? "cannot reach \(bus.name) (\(error.message))" : error.description
            return context.lastReported == .available
                ? .lost("lost \(what): \(reason); reconnecting") : .failed("\(what): \(reason). \(remedy) Retrying.")
        }
    }
}

/// The match rule for a bus name's owner changes, to notice a service that leaves or arrives.
func ownerChangedRule(_ name: String) -> String {
    "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='\(name)'"
}

/// For a NameOwnerChanged signal about `name`: the new owner ("" when the name was released),
/// nil for any other signal.
func newOwner(of name: String, in signal: DBusSignal) -> String? {
    guard signal.interface == "org.freedesktop.DBus", signal.member == "NameOwnerChanged", signal.arguments.count == 3,
        signal.arguments[0].string == name
    else { return nil }
    return signal.arguments[2].string
}

/// A lock state that reports only its changes; the first state reported is a lock, never an
/// unlock (an unlocked screen at start is not an event).
struct LockState {
    private(set) var locked: Bool?

    /// The event to emit for a newly observed state, if it is a change.
    mutating func observe(_ isLocked: Bool) -> DesktopEvent? {
        defer { locked = isLocked }
        guard locked != isLocked else { return nil }
        if locked == nil && !isLocked { return nil }
        return isLocked ? .locked : .unlocked
    }
}
