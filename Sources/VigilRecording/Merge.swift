import VigilCore

/// Merges several recordings into one timeline by absolute time. Ties keep file order, so the
/// merged order (and everything replayed from it) is deterministic.
public final class MergedRecordings {
    public let readers: [RecordingReader]
    // Only `next()` touches this, one call at a time: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var heads: [Sample?]

    public init(_ readers: [RecordingReader]) throws(RecordingError) {
        self.readers = readers
        var heads: [Sample?] = []
        if readers.count > 1 {
            for r in readers { heads.append(try r.next()) }
        }
        self.heads = heads
    }

    public func next() throws(RecordingError) -> Sample? {
        // One recording (the usual case) needs no merging: hand its samples straight through.
        if readers.count == 1 { return try readers[0].next() }
        var best = -1
        for i in heads.indices {
            guard let h = heads[i] else { continue }
            if best < 0 || h.time < heads[best]!.time { best = i }
        }
        guard best >= 0 else { return nil }
        let sample = heads[best]
        heads[best] = try readers[best].next()
        return sample
    }

    /// Start of the earliest recording.
    public var start: Timestamp? { readers.map(\.header.start).min() }
}
