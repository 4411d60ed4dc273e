import ArgumentParser
import DisplayWidth
import Foundation
import SessionRuntime
import VigilCore

struct DesktopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desktop",
        abstract: "Say which desktop this is and where each signal comes from; install what a desktop needs.",
        discussion: """
            GNOME Shell tells no other program which window is in front on Wayland: Vigil sees it \
            through a small GNOME Shell extension of its own, which `vigil desktop install` puts in \
            your extensions folder and enables (GNOME Shell 43 and later). Other desktops need \
            nothing installed.

            Examples:
              vigil desktop
              vigil desktop install
              vigil desktop uninstall
            """,
        subcommands: [Show.self, Install.self, Uninstall.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which desktop this is, what each sensor uses on it, and the GNOME Shell extension's state.",
            discussion: """
                Examples:
                  vigil desktop
                  vigil desktop show --json
                """
        )
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print a JSON object: desktop, session_type, sensors (sensor, source), gnome_extension (docs/json.md).")
        var json = false

        func run() async throws {
            await guarded {
                let config = try common.loadConfiguration()
                let setup = DesktopSetup()
                let sensors = Composition.registry.availability(configuration: config)
                let gnome = setup.gnomeExtension
                if json {
                    printJSON(DesktopWords.json(setup.session, sensors, gnome))
                } else {
                    print(DesktopWords.text(setup.session, sensors, gnome), terminator: "")
                }
            }
        }
    }

    struct Install: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install and enable Vigil's GNOME Shell extension for you, which tells Vigil the window in front.",
            discussion: """
                Writes the extension for the GNOME Shell installed here into \
                $XDG_DATA_HOME/gnome-shell/extensions/vigil@vigil.dev (~/.local/share when unset) and \
                adds it to GNOME Shell's enabled extensions (gsettings). GNOME Shell loads it when it \
                next starts: log out and in again (on X11, Alt+F2 then r is enough). Running it \
                again updates the extension.

                Examples:
                  vigil desktop install
                  vigil desktop install --shell-version 46
                """
        )
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("The GNOME Shell version to install for (default: the installed one's).", valueName: "major"))
        var shellVersion: Int?
        @Option(help: ArgumentHelp("Write into this extensions folder instead of yours, and enable nothing (packaging).", valueName: "dir"))
        var into: String?

        func validate() throws {
            if let v = shellVersion, !(1...999).contains(v) {
                throw ValidationError("--shell-version is GNOME Shell's major version (43, 46…); got \(v).")
            }
            if into?.isEmpty == true { throw ValidationError("--into needs a folder.") }
        }

        func run() async throws {
            await guarded {
                let done: DesktopSetup.Installed
                do throws(DesktopSetupError) {
                    done = try DesktopSetup().installGnomeExtension(shellMajor: shellVersion, into: into, enable: into == nil)
                } catch {
                    throw Failure(error.description, code: .unavailable)
                }
                print(DesktopWords.installed(done), terminator: "")
            }
        }
    }

    struct Uninstall: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable Vigil's GNOME Shell extension and remove it from your extensions folder.",
            discussion: """
                Examples:
                  vigil desktop uninstall
                """
        )
        @OptionGroup var common: CommonOptions

        func run() async throws {
            await guarded {
                let (disabled, removed) = try DesktopSetup().uninstallGnomeExtension()
                switch (disabled, removed) {
                case (false, false): print("Vigil's GNOME Shell extension was not installed: nothing to do.")
                default:
                    print(
                        "Removed Vigil's GNOME Shell extension\(disabled ? " and disabled it" : ""). "
                            + "GNOME Shell stops running it at the next login.")
                }
            }
        }
    }
}

/// What `vigil desktop` says, in words and as JSON.
enum DesktopWords {
    static func text(_ session: DesktopSetup.Session, _ sensors: [SensorAvailability], _ gnome: DesktopSetup.GnomeExtensionState) -> String {
        var out = "Desktop: \((session.desktop ?? "unknown ($XDG_CURRENT_DESKTOP is not set)").terminalSafe)"
        if let type = session.type { out += " (\(type.terminalSafe) session)" }
        out += "\n"
        for s in sensors {
            let use = s.detector == nil ? " (not in use: \(s.status?.detail ?? "off"))" : ""
            out += "  \(s.sensor.rawValue.padded(toWidth: 9)) \(s.source.terminalSafe)\(use.terminalSafe)\n"
        }
        guard let shell = gnome.shell else { return out }
        out += "GNOME Shell \(shell.terminalSafe): Vigil's extension "
        if gnome.running {
            out += "is running.\n"
        } else if !gnome.installed {
            out += "is not installed: run `vigil desktop install` to see the window in front on GNOME.\n"
        } else if gnome.enabled == false {
            out += "is installed but not enabled: run `vigil desktop install` again.\n"
        } else {
            out += "is installed and enabled, not running: GNOME Shell loads it at your next login.\n"
        }
        return out
    }

    static func json(_ session: DesktopSetup.Session, _ sensors: [SensorAvailability], _ gnome: DesktopSetup.GnomeExtensionState) -> JSONValue {
        let extensionState: JSONValue =
            gnome.shell == nil
            ? .null
            : .object([
                ("shell", .str(gnome.shell ?? "")), ("directory", .str(gnome.directory)), ("installed", .bool(gnome.installed)),
                ("enabled", gnome.enabled.map { .bool($0) } ?? .null), ("running", .bool(gnome.running)),
            ])
        return .object([
            ("desktop", session.desktop.map { .str($0) } ?? .null), ("session_type", session.type.map { .str($0) } ?? .null),
            ("sensors", .array(sensors.map { .object([("sensor", .str($0.sensor.rawValue)), ("source", .str($0.source))]) })),
            ("gnome_extension", extensionState),
        ])
    }

    static func installed(_ done: DesktopSetup.Installed) -> String {
        let folder = FileManager.default.displayPath(done.files.first.map { ($0 as NSString).deletingLastPathComponent } ?? "")
        var out =
            "Installed Vigil's GNOME Shell extension (for GNOME Shell \(done.shellMajor >= 45 ? "45 and later" : "43 and 44")) in \(folder.terminalSafe).\n"
        if let wasEnabled = done.wasEnabled {
            out += wasEnabled ? "It was already enabled.\n" : "Enabled it in GNOME Shell's settings.\n"
            if done.userExtensionsOff {
                out +=
                    "But GNOME Shell runs no extensions of yours now (disable-user-extensions is on): turn extensions on in GNOME's Extensions app.\n"
            }
        } else if let why = done.notEnabled {
            out += "Not enabled: \(why.terminalSafe). Enable vigil@vigil.dev in GNOME's Extensions app.\n"
        }
        if done.wasEnabled != nil || done.notEnabled != nil {
            out +=
                "GNOME Shell loads it when it next starts: log out and in again (on X11, Alt+F2 then r is enough). `vigil desktop` then says it runs.\n"
        }
        return out
    }
}

extension FileManager {
    /// `path` with the home folder written `~`.
    fileprivate func displayPath(_ path: String) -> String {
        let home = NSHomeDirectory()
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }
}
