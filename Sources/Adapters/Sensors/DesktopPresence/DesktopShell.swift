import DBusSupport

/// The desktop shell on the session bus, for picking how to see the application in front: GNOME
/// Shell (with or without Vigil's extension loaded) or KWin. One connection, two or three calls.
public enum DesktopShell: Sendable, Equatable {
    case none
    case gnome(extensionRunning: Bool)
    case kwin

    public static func probe(busAddress: String? = nil) -> DesktopShell {
        guard let bus = try? BusConnection(.session, address: busAddress) else { return .none }
        if (try? bus.nameHasOwner(GnomeFocusDetector.shell)) == true {
            return .gnome(extensionRunning: (try? GnomeFocusDetector.current(bus, timeout: 2)) != nil)
        }
        if (try? bus.nameHasOwner(KWinFocusDetector.kwin)) == true { return .kwin }
        return .none
    }
}
