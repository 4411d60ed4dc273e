import SessionRuntime
import VigilCore

/// What help texts say Vigil watches and reads, made from the registries (`SensorKind.builtIn`,
/// `RecordingFileFormat`), so that `--help` and the manual pages made from it name every sensor
/// and every format there is, not the few there were when a text was written
/// (`HelpTextTests.helpNamesEverySensorOrNone` holds them to it).
enum HelpText {
    /// Every built-in sensor with where it reads from, in the registry's order: "the desktop's
    /// idle time, screen lock and sleep (D-Bus, Wayland or X11, and logind), input activity
    /// (libinput), ... and location (gpsd)".
    static let sensors = series(SensorKind.builtIn.map { "\(watched($0)) (\(source($0)))" }, "and")

    /// The recording formats `vigil replay` and `vigil inspect` read, told apart by their content.
    static let formats = Recordings.supported

    /// The same, by name only: "Vigil recording, libinput record, ..., or ActivityWatch export".
    static let formatNames = series(Recordings.formatNames, "or")

    /// What a sensor watches, in words.
    static func watched(_ sensor: SensorKind) -> String {
        switch sensor {
        case .desktop: "the desktop's idle time, screen lock and sleep"
        case .input: "input activity"
        case .app: "the application in front"
        case .audio: "microphone loudness"
        case .media: "calls and media playback"
        case .location: "location"
        default: sensor.rawValue
        }
    }

    /// Where a sensor reads from (`DetectorCatalog` picks among them).
    static func source(_ sensor: SensorKind) -> String {
        switch sensor {
        case .desktop: "D-Bus, Wayland or X11, and logind"
        case .input: "libinput"
        case .app: "i3/sway or X11"
        case .audio, .media: "PulseAudio"
        case .location: "gpsd"
        default: "a plug-in"
        }
    }

    /// "a, b and c".
    static func series(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
