import RecordingFormats
import VigilCore
import VigilRecording

/// Recorded sensor files as `vigil replay`, `vigil inspect` and `vigil start --replay` reach
/// them: every format told apart by its content (RecordingFormats), read as the registered
/// signals say.
public struct Recordings: Sendable {
    public let configuration: VigilConfiguration
    public let signals: SignalCatalog

    public init(configuration: VigilConfiguration, signals: SignalCatalog) {
        self.configuration = configuration
        self.signals = signals
    }

    /// The formats read, as help texts list them (`RecordingFiles.supported`).
    public static var supported: String { RecordingFiles.supported }

    /// The formats by name: "Vigil recording", "libinput record", ....
    public static var formatNames: [String] { RecordingFileFormat.allCases.map(\.description) }

    /// The files merged into one stream of samples in time order.
    public func open(_ paths: [String]) throws -> MergedRecordings {
        try MergedRecordings(try paths.map { try RecordingFiles.open(path: $0, configuration: configuration, signals: signals).source })
    }

    /// Reads the files through, as a session would, and drops what was read: a damaged line is
    /// refused with its file and line before anything starts, not found halfway and taken for the
    /// end.
    public func check(_ paths: [String]) throws {
        let merged = try open(paths)
        while try merged.next() != nil {}
    }

    /// What each file holds, every file read before any is reported (so a bad file stops the
    /// command without half a report).
    public func inspect(_ paths: [String]) throws -> [RecordingInspection] {
        try paths.map { try RecordingInspection.inspect(try RecordingFiles.open(path: $0, configuration: configuration, signals: signals)) }
    }
}
