import DBusSupport

/// A window as Vigil's GNOME Shell extension lists it (`org.vigil.Focus1.Windows`).
public struct ShellListedWindow: Sendable, Equatable {
    /// Mutter's window id (`meta_window_get_id`), stable while the window lives.
    public var id: UInt64
    /// The WM class, else the application id.
    public var appClass: String
    public var title: String
    public var focused: Bool
    public var minimised: Bool
}

/// The windows of GNOME Shell through Vigil's extension (revision 2 of `org.vigil.Focus1`): the
/// list in mutter's most-recently-used order, and what the window actions ask (issue 36): bring
/// one to the front, minimise one, show it again. GNOME lets no other program do these on Wayland;
/// the extension runs inside the shell and does them as the shell's own Alt+Tab and minimise do.
///
/// Each call makes its own connection to the session bus: the actions are rare.
public final class GnomeShellWindows: Sendable {
    /// The extension revision that has the window calls.
    static let revision: UInt64 = 2
    private let busAddress: String?

    public init(busAddress: String? = nil) { self.busAddress = busAddress }

    /// Whether the extension answers with the window calls; a sentence saying why not otherwise.
    public func check() -> String? {
        do {
            let bus = try BusConnection(.session, address: busAddress)
            let version =
                try bus.property(GnomeFocusDetector.shell, GnomeFocusDetector.path, GnomeFocusDetector.interface, "Version", timeout: 2)
                .unsigned ?? 0
            guard version >= Self.revision else {
                return "the running GNOME Shell extension is revision \(version), which cannot move windows: "
                    + "run `vigil desktop install`, then log out and in again"
            }
            return nil
        } catch {
            return "Vigil's GNOME Shell extension does not answer (\(error.message)); `vigil desktop install` installs it"
        }
    }

    public func windows() throws(DBusFailure) -> [ShellListedWindow] {
        let reply = try call("Windows", [])
        guard let list = reply.first?.elements else {
            throw DBusFailure(.badReply, "\(GnomeFocusDetector.interface).Windows did not answer a(tsssbb)")
        }
        return list.compactMap { item in
            guard case .structure(let f) = item, f.count == 6, let id = f[0].unsigned, let appID = f[1].string, let wmClass = f[2].string,
                let title = f[3].string, let focused = f[4].bool, let minimised = f[5].bool
            else { return nil }
            return ShellListedWindow(id: id, appClass: wmClass.isEmpty ? appID : wmClass, title: title, focused: focused, minimised: minimised)
        }
    }

    /// Brings the window to the front; false when it is gone.
    public func activate(_ id: UInt64) throws(DBusFailure) -> Bool { try answer("ActivateWindow", id) }

    /// Minimises the window; false when it is gone or cannot be minimised.
    public func minimise(_ id: UInt64) throws(DBusFailure) -> Bool { try answer("Minimize", id) }

    /// Shows a minimised window behind the one in front; false when it is gone or not minimised.
    public func unminimise(_ id: UInt64) throws(DBusFailure) -> Bool { try answer("Unminimize", id) }

    /// Dims the window (opacity 40 %) or brightens it again; false when it is gone.
    public func dim(_ id: UInt64, _ on: Bool) throws(DBusFailure) -> Bool { try answer("Dim", id, [.bool(on)]) }

    private func answer(_ member: String, _ id: UInt64, _ more: [DBusValue] = []) throws(DBusFailure) -> Bool {
        guard let done = try call(member, [.uint64(id)] + more).first?.bool else {
            throw DBusFailure(.badReply, "\(GnomeFocusDetector.interface).\(member) did not answer a boolean")
        }
        return done
    }

    private func call(_ member: String, _ arguments: [DBusValue]) throws(DBusFailure) -> [DBusValue] {
        let bus = try BusConnection(.session, address: busAddress)
        return try bus.call(GnomeFocusDetector.shell, GnomeFocusDetector.path, GnomeFocusDetector.interface, member, arguments)
    }
}
