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
        heads[best] = try sources[best].next()
        return sample
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
