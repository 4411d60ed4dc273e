import VigilCore

/// Anything that yields samples in time order from a known start: Vigil's own recordings, and the
/// sensors' native files (`libinput record`, gpsd JSON, WAV) once read into samples. Replay, the
/// merge and `vigil inspect` work on this, so every supported format goes through the same engine.
public protocol SampleSource: AnyObject {
    /// The file it reads, for messages.
    var path: String { get }
    /// The instant its time 0 stands for.
    var start: Timestamp { get }
    /// The task of the recorded session, if the file says.
    var task: String? { get }
    /// The planned length of the recorded session in seconds, if the file says.
    var plannedSeconds: Double? { get }
    /// Lines of kinds this version does not know, skipped so far.
    var skippedLines: Int { get }
    /// The next sample, or nil at the end.
    func next() throws(RecordingError) -> Sample?
    /// It holds several sessions, told apart by the silences between them (another tool's export
    /// of days): a replay splits it into its sessions, as `vigil replay --split` does.
    var holdsSessions: Bool { get }
}

extension SampleSource {
    public var holdsSessions: Bool { false }
}

extension RecordingReader: SampleSource {
    public var start: Timestamp { header.start }
    public var task: String? { header.task }
    public var plannedSeconds: Double? { header.plannedSeconds }
}

/// Samples already in memory: what the readers of the sensors' native formats produce (a
/// `libinput record` file, a gpsd log and a WAV file all become a few samples per second).
public final class SampleArray: SampleSource {
    public let path: String
    public let start: Timestamp
    public let task: String? = nil
    public let plannedSeconds: Double? = nil
    public let skippedLines: Int
    public let samples: [Sample]
    private var index = 0

    /// - Parameter samples: in time order (stable-sorted here if they are not).
    public init(path: String, start: Timestamp, samples: [Sample], skippedLines: Int = 0) {
        self.path = path
        self.start = start
        self.skippedLines = skippedLines
        var ordered = samples
        if zip(samples, samples.dropFirst()).contains(where: { $0.time > $1.time }) {
            ordered = samples.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        self.samples = ordered
    }

    public func next() throws(RecordingError) -> Sample? {
        guard index < samples.count else { return nil }
        defer { index += 1 }
        return samples[index]
    }
}
