import DesktopPresence
import Foundation
import VigilCore

/// `vigil desktop`'s service: which desktop this is, where each signal comes from on it, and what
/// a desktop needs installed for Vigil to see it (GNOME Shell: Vigil's extension).
public struct DesktopSetup: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The desktop as the session names it (`$XDG_CURRENT_DESKTOP`, "ubuntu:GNOME"), and its
    /// session type (`$XDG_SESSION_TYPE`: wayland, x11, tty).
    public struct Session: Sendable, Equatable {
        public var desktop: String?
        public var type: String?
    }

    public var session: Session {
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let type = value("XDG_SESSION_TYPE") ?? (value("WAYLAND_DISPLAY") != nil ? "wayland" : value("DISPLAY") != nil ? "x11" : nil)
        return Session(desktop: value("XDG_CURRENT_DESKTOP"), type: type)
    }

    /// Vigil's GNOME Shell extension here.
    public struct GnomeExtensionState: Sendable, Equatable {
        /// The installed GNOME Shell's version ("43.9"), nil when it is not installed.
        public var shell: String?
        public var directory: String
        public var installed: Bool
        /// In `enabled-extensions`; nil when the settings cannot be read.
        public var enabled: Bool?
        /// Running GNOME Shell has it loaded (it answers on the session bus).
        public var running: Bool
    }

    public var gnomeExtension: GnomeExtensionState {
        let files = GnomeShellExtension(environment: environment)
        let shell = GnomeShellExtension.installedShell(environment: environment)
        return GnomeExtensionState(
            shell: shell?.version, directory: files.directory, installed: files.isInstalled,
            enabled: shell == nil ? nil : GnomeShellSettings.isEnabled(GnomeShellExtensionFiles.uuid, environment: environment),
            running: DesktopShell.probe() == .gnome(extensionRunning: true))
    }

    /// What `installGnomeExtension` did.
    public struct Installed: Sendable {
        public var files: [String]
        /// The GNOME Shell version the flavour is for, and whether it was found installed (else given).
        public var shellMajor: Int
        /// Whether it was in GNOME Shell's enabled extensions already; nil when not enabled here
        /// (`enable: false`, or the settings could not be written: `notEnabled` says why).
        public var wasEnabled: Bool?
        /// GNOME Shell's `disable-user-extensions` is on: it runs no extension of the person's.
        public var userExtensionsOff = false
        /// Why it was not enabled, when it was not.
        public var notEnabled: String?
        /// GNOME Shell already runs it (an update of a loaded copy takes effect at the next login too).
        public var running: Bool
    }

    /// Writes the extension for the installed GNOME Shell (or `shellMajor`) into `directory` (the
    /// person's own extensions folder by default) and enables it in GNOME Shell's settings.
    public func installGnomeExtension(shellMajor given: Int? = nil, into directory: String? = nil, enable: Bool = true) throws(DesktopSetupError)
        -> Installed
    {
        do {
            return try install(shellMajor: given, into: directory, enable: enable)
        } catch let error as GnomeSetupError {
            throw DesktopSetupError(description: error.description)
        } catch {
            throw DesktopSetupError(description: "\(error)")
        }
    }

    private func install(shellMajor given: Int?, into directory: String?, enable: Bool) throws -> Installed {
        guard let major = given ?? GnomeShellExtension.installedShell(environment: environment)?.major else {
            throw GnomeSetupError(
                "GNOME Shell is not installed here (no gnome-shell on $PATH), so there is nothing to install: on other desktops"
                    + " Vigil needs no extension. To install it anyway, name the GNOME Shell version with --shell-version.")
        }
        let files = directory.map { GnomeShellExtension(extensionsDirectory: $0) } ?? GnomeShellExtension(environment: environment)
        let written = try files.install(shellMajor: major)
        var outcome = Installed(files: written, shellMajor: major, running: DesktopShell.probe() == .gnome(extensionRunning: true))
        guard enable else { return outcome }
        do {
            let enabling = try GnomeShellSettings.enable(GnomeShellExtensionFiles.uuid, environment: environment)
            outcome.wasEnabled = enabling.wasEnabled
            outcome.userExtensionsOff = enabling.userExtensionsOff
        } catch let error as GnomeSetupError {
            outcome.notEnabled = error.description
        }
        return outcome
    }

    /// Disables the extension and removes its files: whether it was enabled, and whether files were removed.
    public func uninstallGnomeExtension() throws -> (disabled: Bool, removed: Bool) {
        let disabled = (try? GnomeShellSettings.disable(GnomeShellExtensionFiles.uuid, environment: environment)) ?? false
        let removed = try GnomeShellExtension(environment: environment).uninstall()
        return (disabled, removed)
    }
}

/// Why a desktop's part could not be installed, in words for the person.
public struct DesktopSetupError: Error, CustomStringConvertible {
    public var description: String
}
