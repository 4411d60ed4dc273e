import VigilCore

/// Picking the desktop's idle backend among the D-Bus ones, for the runtime.
///
/// The order is GNOME, then org.freedesktop.ScreenSaver: GNOME also owns the freedesktop name but
/// answers only Inhibit there, and Mutter's watches are event-driven where the other is polled.
/// A Wayland compositor's idle protocol and X11's screen saver (other modules) come after both:
/// KWin offers the freedesktop interface with its lock as well as the idle protocols, and under
/// Xwayland the X11 screen saver sees only X clients' input. logind is not an alternative but an addition to any of them (lock and sleep): see
/// `LogindDetector`.
public enum DesktopBusBackends {
    /// The D-Bus backends in the order `desktop.backend: auto` tries them.
    public static let order: [DesktopBackend] = [.gnome, .freedesktop]

    /// Whether `backend` answers on the session bus (false for backends that are not D-Bus ones).
    public static func probe(_ backend: DesktopBackend, busAddress: String? = nil) -> Bool {
        switch backend {
        case .gnome: GnomeIdleDetector.probe(busAddress: busAddress)
        case .freedesktop: ScreenSaverIdleDetector.probe(busAddress: busAddress)
        case .wayland, .x11: false
        }
    }

    /// The backend to use: the configured one when it is a D-Bus backend (even if it does not
    /// answer now: its detector then says why, and picks it up when it comes), else the first in
    /// `order` that answers; nil when none does (try Wayland, then X11) or another is configured.
    public static func pick(_ config: VigilConfiguration.Desktop, busAddress: String? = nil) -> DesktopBackend? {
        if let chosen = config.backend { return order.contains(chosen) ? chosen : nil }
        return order.first { probe($0, busAddress: busAddress) }
    }

    /// The idle-and-lock detector for a D-Bus backend; nil for Wayland and X11.
    public static func detector(
        for backend: DesktopBackend, config: VigilConfiguration.Desktop, busAddress: String? = nil
    ) -> (any Detector)? {
        switch backend {
        case .gnome: GnomeIdleDetector(config: config, busAddress: busAddress)
        case .freedesktop: ScreenSaverIdleDetector(config: config, busAddress: busAddress)
        case .wayland, .x11: nil
        }
    }
}
