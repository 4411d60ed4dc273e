import VigilCore
import VigilRecording

/// An ActivityWatch export's samples, made as they are asked for from the events read (see
/// `ActivityWatchExport`): the window buckets' applications and the afk buckets' idle readings,
/// merged in time order (samples at the same instant in the buckets' order by id).
public final class ActivityWatchSamples: SampleSource {
    public let path: String
    public let start: Timestamp
    public let task: String? = nil
    public let plannedSeconds: Double? = nil
    public let skippedLines = 0
    private var streams: [BucketSamples]
    /// Each bucket's next sample; the earliest is taken next.
    private var heads: [Sample?]
    /// The buckets with a next sample, as a binary heap by (time, bucket).
    private var heap: [Int] = []

    init(path: String, start: Timestamp, streams: [BucketSamples]) {
        self.path = path
        self.start = start
        self.streams = streams
        heads = []
        for i in self.streams.indices { heads.append(self.streams[i].next()) }
        for i in heads.indices where heads[i] != nil { push(i) }
    }

    public func next() throws(RecordingError) -> Sample? {
        guard let top = heap.first, let sample = heads[top] else { return nil }
        heads[top] = streams[top].next()
        if heads[top] == nil {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                down(0)
            }
        } else {
            down(0)
        }
        return sample
    }

    private func before(_ a: Int, _ b: Int) -> Bool {
        let (x, y) = (heads[a]!.time, heads[b]!.time)
        return x != y ? x < y : a < b
    }

    private func push(_ i: Int) {
        heap.append(i)
        var k = heap.count - 1
        while k > 0 {
            let parent = (k - 1) / 2
            guard before(heap[k], heap[parent]) else { break }
            heap.swapAt(k, parent)
            k = parent
        }
    }

    private func down(_ from: Int) {
        var k = from
        while true {
            let (l, r) = (2 * k + 1, 2 * k + 2)
            var least = k
            if l < heap.count, before(heap[l], heap[least]) { least = l }
            if r < heap.count, before(heap[r], heap[least]) { least = r }
            guard least != k else { return }
            heap.swapAt(k, least)
            k = least
        }
    }
}

/// One bucket's samples, in time order, from its events (oldest first).
struct BucketSamples {
    let kind: ActivityWatchExport.Kind
    let events: [ActivityWatchExport.Event]
    let cadence: ActivityWatchExport.Cadence
    let names: ActivityWatchExport.Names
    /// The event whose samples come next.
    private var index = 0
    /// Window: the end of the last event, when no window is in front from then on. Afk: the next
    /// reading's offset into the event, nil before its first.
    private var pendingBlank: Timestamp?
    private var offset: Double?

    init(kind: ActivityWatchExport.Kind, events: [ActivityWatchExport.Event], cadence: ActivityWatchExport.Cadence, names: ActivityWatchExport.Names)
    {
        self.kind = kind
        self.events = events
        self.cadence = cadence
        self.names = names
    }

    mutating func next() -> Sample? {
        switch kind {
        case .window: nextWindow()
        case .afk: nextReading()
        }
    }

    private mutating func nextWindow() -> Sample? {
        if let blank = pendingBlank {
            pendingBlank = nil
            return Sample(time: blank, payload: .app(AppFocus(appClass: "", category: .neutral)))
        }
        guard index < events.count else { return nil }
        let e = events[index]
        index += 1
        // The window data stops before the next event (or the export ends): nothing in front.
        if index == events.count || events[index].start - e.end > 1 { pendingBlank = e.end }
        let (category, rule) = names.result(e.rule)
        return Sample(
            time: e.start,
            payload: .app(
                AppFocus(appClass: names.apps[Int(e.app)], category: category, rule: rule, title: e.title < 0 ? nil : names.titles[Int(e.title)])))
    }

    /// The readings of an afk or not-afk event: from its start, `cadence` apart, through its
    /// first `longestWatched` seconds, and one at its end; none after the next event has begun.
    private mutating func nextReading() -> Sample? {
        while index < events.count {
            let e = events[index]
            let t = offset ?? 0
            let clip = index + 1 < events.count ? events[index + 1].start - e.start : .infinity
            guard t <= clip else {
                index += 1
                offset = nil
                continue
            }
            // The next reading after this one.
            if t >= e.duration {
                index += 1
                offset = nil
            } else {
                let step = e.afk ? cadence.away : (t < cadence.burst ? cadence.fine : cadence.active)
                let watched = min(e.duration, ActivityWatchExport.longestWatched)
                offset = t + step < watched ? t + step : (t < watched ? watched : e.duration)
            }
            return Sample(time: e.start + t, payload: .desktop(.idle(e.afk ? t : 0)))
        }
        return nil
    }
}
