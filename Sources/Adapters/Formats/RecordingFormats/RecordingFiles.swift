import Foundation
import SensorFiles
import SystemCalls
import VigilAudio
import VigilCore
import VigilRecording

/// The recording formats Vigil reads, told apart by their content, not their name.
public enum RecordingFileFormat: String, Sendable, CaseIterable {
    /// Vigil's own JSON Lines (docs/recording-format.md).
    case vigil = "vigil-jsonl"
    /// `libinput record` YAML, format version 1.
    case libinputRecord = "libinput-record"
    /// gpsd's JSON reports, as `gpspipe -w` writes them.
    case gpsdJSON = "gpsd-json"
    /// RIFF/WAVE audio.
    case wav
    /// ActivityWatch's export of its buckets (aw-watcher-window and aw-watcher-afk).
    case activityWatch = "activitywatch"

    public var description: String {
        switch self {
        case .vigil: "Vigil recording"
        case .libinputRecord: "libinput record"
        case .gpsdJSON: "gpsd JSON"
        case .wav: "WAV audio"
        case .activityWatch: "ActivityWatch export"
        }
    }
}

/// A recording file opened in whatever supported format it is, with what its reader knows about it
/// beyond the samples (for `vigil inspect`).
public struct OpenedRecording {
    public var format: RecordingFileFormat
    public var source: any SampleSource
    /// The libinput record reader's own counts (autorepeat, idle gaps between events), complete
    /// once `source` is read to the end.
    public var input: LibinputRecordingSummary? { libinput?.summary }
    /// A `libinput record` file's reader.
    public var libinput: LibinputRecordReader?
    /// The audio file's measurements over the whole file.
    public var audio: AudioFileSummary?
    /// A gpsd log's reader: its TPV reports and the track it measures as it reads, complete once
    /// `source` is read to the end.
    public var gpsd: GPSDLogReader?
}

/// A reader of a sensor's own format that makes samples as they are asked for.
protocol StreamingReader: AnyObject {
    associatedtype Failure: Error
    var path: String { get }
    var start: Timestamp { get }
    var skippedLines: Int { get }
    func next() throws(Failure) -> Sample?
    static func recordingError(_ failure: Failure) -> RecordingError
}

extension GPSDLogReader: StreamingReader {
    static func recordingError(_ failure: GPSDLogError) -> RecordingError { RecordingError(failure) }
}

extension LibinputRecordReader: StreamingReader {
    var skippedLines: Int { 0 }
    static func recordingError(_ failure: LibinputRecordError) -> RecordingError { RecordingError(failure) }
}

/// A gpsd log or a `libinput record` file as a sample source: read as it is replayed, never held
/// whole.
final class StreamingSource<Reader: StreamingReader>: SampleSource {
    let reader: Reader
    var path: String { reader.path }
    var start: Timestamp { reader.start }
    let task: String? = nil
    let plannedSeconds: Double? = nil
    var skippedLines: Int { reader.skippedLines }

    init(_ reader: Reader) { self.reader = reader }

    func next() throws(RecordingError) -> Sample? {
        do {
            return try reader.next()
        } catch {
            throw Reader.recordingError(error)
        }
    }
}

extension RecordingError {
    init(_ error: LibinputRecordError) {
        self.init(file: error.file, line: error.line, message: error.message, kind: error.isReadFailure ? .io : .data)
    }

    init(_ error: GPSDLogError) {
        self.init(file: error.file, line: error.line, message: error.message, kind: error.isReadFailure ? .io : .data)
    }
}

/// Opens recordings of every supported format as sample sources on one timeline.
///
/// How each format's time 0 is placed on the wall clock:
/// - Vigil recordings: the header's `start`.
/// - `libinput record`: its `# Current time is HH:MM:SS` comments on the date of the file's
///   modification time, or else the modification time minus the recording's length (see
///   `LibinputRecordReader`).
/// - gpsd JSON: the `time` of its first timed TPV report; every fix carries its own time.
/// - WAV: a Broadcast Wave `bext` origination time, or else the modification time minus the
///   duration (the file was written as the recording ended).
public enum RecordingFiles {
    public static let supported =
        "Vigil JSON Lines, `libinput record` YAML, gpsd JSON (`gpspipe -w`), WAV audio or an ActivityWatch export (aw-server's /api/0/export)"

    /// The format of the file at `path`, from its first bytes.
    public static func detect(path: String) throws(RecordingError) -> RecordingFileFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw RecordingError(file: path, line: 0, message: "is a directory, not a recording", kind: .io)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            // FileHandle does not say why; open(2) once more does.
            let reason: String
            do {
                close(try syscall("open", path: path) { Foundation.open(path, O_RDONLY | O_CLOEXEC) })
                reason = "unknown error"
            } catch {
                reason = error.reason
            }
            throw RecordingError(file: path, line: 0, message: "cannot open: \(reason)", kind: .io)
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8192)) ?? Data()
        if let format = detect(head: [UInt8](head)) { return format }
        throw RecordingError(
            file: path, line: 0,
            message: head.isEmpty ? "the file is empty" : "not a recording Vigil reads: expected \(supported)")
    }

    /// The format of a file that starts with `head`, or nil.
    public static func detect(head: [UInt8]) -> RecordingFileFormat? {
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WAVE".utf8) { return .wav }
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" })
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix("# libinput record") { return .libinputRecord }
                continue
            }
            if trimmed.hasPrefix("{") {
                if trimmed.contains("\"vigil\"") { return .vigil }
                if trimmed.contains("\"class\"") { return .gpsdJSON }
                // One JSON document, perhaps pretty-printed: its first key is on this line or the next.
                if text.drop(while: { $0 != "{" }).dropFirst().drop(while: { $0.isWhitespace }).hasPrefix("\"buckets\"") {
                    return .activityWatch
                }
                return nil
            }
            if trimmed.hasPrefix("$") || trimmed.hasPrefix("!") { return .gpsdJSON }  // NMEA echoed before gpsd's JSON
            if trimmed.hasPrefix("version:") || trimmed.hasPrefix("ndevices:") || trimmed.hasPrefix("---") {
                return .libinputRecord
            }
            return nil
        }
        return nil
    }

    /// Opens `path` in its format. Window lengths for the formats that are aggregated on reading
    /// (input events, audio) come from the config, as for the live detectors; a Vigil recording's
    /// lines of plug-in sensors are read as the registered `signals` say.
    public static func open(path: String, configuration: VigilConfiguration, signals: SignalCatalog) throws(RecordingError) -> OpenedRecording {
        let format = try detect(path: path)
        switch format {
        case .vigil:
            return OpenedRecording(format: format, source: try RecordingReader(path: path, signals: signals))
        case .libinputRecord:
            do {
                let reader = try LibinputRecordReader(path: path, window: configuration.input.window, start: .fromFile)
                return OpenedRecording(format: format, source: StreamingSource(reader), libinput: reader)
            } catch {
                throw RecordingError(error)
            }
        case .gpsdJSON:
            do {
                let reader = try GPSDLogReader(path: path)
                return OpenedRecording(format: format, source: StreamingSource(reader), gpsd: reader)
            } catch {
                throw RecordingError(error)
            }
        case .activityWatch:
            return OpenedRecording(format: format, source: try ActivityWatchExport.open(path: path, configuration: configuration))
        case .wav:
            do {
                let a = try AudioFileRecording.read(path: path, window: configuration.audio.window)
                return OpenedRecording(format: format, source: SampleArray(path: path, start: a.start, samples: a.samples), audio: a.summary)
            } catch {
                throw RecordingError(
                    file: error.file, line: 0,
                    message: error.message.hasPrefix("cannot open") ? error.message : "not a WAV file Vigil reads: \(error.message)",
                    kind: error.message.hasPrefix("cannot open") ? .io : .data)
            }
        }
    }
}
