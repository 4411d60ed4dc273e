import VigilCore

/// Vigil's own recording format: JSON Lines, one header line, then one sample per line.
///
/// ```
/// {"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z","source":"...","note":"..."}
/// {"t":5,"kind":"input","window":5,"keys":12,"travel":340.5,"clicks":1,"scroll":0,"idle":0.8}
/// {"t":5,"kind":"audio","rms":-52.1,"peak":-40.2,"lufs":-48}
/// {"t":6,"kind":"location","lat":48.85837,"lon":2.294481,"acc":8,"speed":0.1,"mode":3}
/// {"t":7,"kind":"status","sensor":"location","state":"no_fix","detail":"no satellites"}
/// {"t":900,"kind":"control","action":"break"}
/// ```
/// `t` is seconds since the header's `start`. Readers ignore keys they do not know and skip lines of
/// kinds they do not know, so newer writers stay readable. docs/recording-format.md has every field.
public enum RecordingFormat {
    public static let version = 1
}

/// The first line of a recording.
public struct RecordingHeader: Hashable, Sendable {
    public var version: Int
    /// The instant `t = 0` stands for.
    public var start: Timestamp
    /// Where the recording came from: a recorder, a generator, a converted third-party log.
    public var source: String?
    public var note: String?
    /// The task the recorded session was about, if any.
    public var task: String?
    /// The planned length of the recorded session in seconds, if it had one.
    public var plannedSeconds: Double?
    /// The longest plan a header may hold, in seconds: a year, as `vigil replay --minutes` allows.
    /// The session's end is an instant, so a plan of 1e300 s would overflow it.
    public static let longestPlan = 365 * 86_400.0

    public init(
        version: Int = RecordingFormat.version, start: Timestamp, source: String? = nil, note: String? = nil, task: String? = nil,
        plannedSeconds: Double? = nil
    ) {
        self.version = version
        self.start = start
        self.source = source
        self.note = note
        self.task = task
        self.plannedSeconds = plannedSeconds
    }
}

/// A recording that cannot be read, with the place and what to do.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The content is wrong: fix or replace the file.
        case data
        /// The file could not be opened, read or written.
        case io
        /// The file to write could not be created: choose another path.
        case cannotCreate
    }

    public var file: String
    public var line: Int
    public var message: String
    public var kind: Kind

    public init(file: String, line: Int, message: String, kind: Kind = .data) {
        self.file = file
        self.line = line
        self.message = message
        self.kind = kind
    }

    /// On one line, inert in a terminal: the file's name is the person's (`terminalSafe`).
    public var description: String { (line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)").terminalSafe }
}

extension RecordingError: PersonFacingError {
    public var exitStatus: ExitStatus {
        switch kind {
        case .data: .dataError
        case .io: .ioError
        case .cannotCreate: .cannotCreate
        }
    }
}
