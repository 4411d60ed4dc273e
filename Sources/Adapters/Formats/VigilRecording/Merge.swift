import VigilCore

/// Merges several recordings, of any supported format, into one timeline by absolute time. Ties
/// keep file order, so the merged order (and everything replayed from it) is deterministic.
public final class MergedRecordings {
    public let sources: [any SampleSource]
    // Only `next()` touches this, one call at a time: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var heads: [Sample?]
    /// The usual case, one Vigil recording, is read without the merge or a dynamic call per sample.
    private let single: RecordingReader?

    public init(_ sources: [any SampleSource]) throws(RecordingError) {
        self.sources = sources
        single = sources.count == 1 ? sources[0] as? RecordingReader : nil
        var heads: [Sample?] = []
        if sources.count > 1 {
            for r in sources { heads.append(try r.next()) }
        }
        self.heads = heads
        spans = Array(repeating: nil, count: sources.count > 1 ? sources.count : 0)
    }

    public func next() throws(RecordingError) -> Sample? {
        if let single { return try single.next() }
        if sources.count == 1 { return try sources[0].next() }
        var best = -1
        for i in heads.indices {
            guard let h = heads[i] else { continue }
            if best < 0 || h.time < heads[best]!.time { best = i }
        }
        guard best >= 0 else { return nil }
        let sample = heads[best]
        if let time = sample?.time {
            spans[best] = spans[best].map { ($0.first, time) } ?? (time, time)
        }
        lastSource = best
        heads[best] = try sources[best].next()
        return sample
    }

    /// Which of `sources` the sample `next()` returned last came from.
    public private(set) var lastSource = 0

    /// The first and last sample of each recording read so far (nil for one that had none), in
    /// the order given; kept only when there are several, to tell whether they belong together.
    public private(set) var spans: [(first: Timestamp, last: Timestamp)?] = []

    /// The stretches of time the recordings cover once read: recordings whose samples overlap, or
    /// follow each other within `gap` seconds, are one stretch. More than one means the files are
    /// of separate sessions (a morning and the next day's afternoon), which one replay would
    /// judge as one session with a long silence in the middle.
    public func stretches(joinedWithin gap: Double) -> [(first: Timestamp, last: Timestamp, files: [String])] {
        let read = zip(spans, sources).compactMap { span, source in span.map { ($0.first, $0.last, source.path) } }.sorted { $0.0 < $1.0 }
        var out: [(first: Timestamp, last: Timestamp, files: [String])] = []
        for (first, last, file) in read {
            if let current = out.last, first - current.last <= gap {
                out[out.count - 1] = (current.first, max(current.last, last), current.files + [file])
            } else {
                out.append((first, last, [file]))
            }
        }
        return out
    }

    /// The one recording, when it is all there is and a Vigil recording: a replay then reads it
    /// directly, without a call through the merge for every sample.
    public var onlyRecording: RecordingReader? { single }

    /// Start of the earliest recording.
    public var start: Timestamp? { sources.map(\.start).min() }
    /// The first file's task, if it names one.
    public var task: String? { sources.first?.task }
    /// The first file's planned length, if it names one.
    public var plannedSeconds: Double? { sources.first?.plannedSeconds }
    public var skippedLines: Int { sources.reduce(0) { $0 + $1.skippedLines } }
}
