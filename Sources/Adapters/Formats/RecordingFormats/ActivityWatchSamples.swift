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
    /// An export spans days: its afk stretches of over an hour are silences between sessions.
    public let holdsSessions = true
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
    /// The long afk stretches (`ActivityWatchExport.Breaks`): nothing is read inside them.
    let breaks: ActivityWatchExport.Breaks
    /// Window: the browsers' tabs (aw-watcher-web), and what their pages match.
    let tabs: [ActivityWatchExport.WebTabs]
    let pages: ActivityWatchExport.PageRules?
    /// Window: for each application, the tabs its windows show (-1: none, not a browser).
    private var tabsOf: [Int32: Int] = [:]
    /// The event whose samples come next.
    private var index = 0
    /// Window: the changes of what is in front worked out from the last event, in time order,
    /// and how many of them were told. Afk: the next reading's offset into the event, nil before
    /// its first.
    private var pending: [(Timestamp, AppFocus)] = []
    private var told = 0
    private var offset: Double?
    /// Window: the last focus told and when, so that the same one is not told twice.
    private var last: (time: Timestamp, focus: AppFocus)?

    init(
        kind: ActivityWatchExport.Kind, events: [ActivityWatchExport.Event], cadence: ActivityWatchExport.Cadence, names: ActivityWatchExport.Names,
        breaks: ActivityWatchExport.Breaks = .init(), tabs: [ActivityWatchExport.WebTabs] = [], pages: ActivityWatchExport.PageRules? = nil
    ) {
        self.kind = kind
        self.events = events
        self.cadence = cadence
        self.names = names
        self.breaks = breaks
        self.tabs = tabs
        self.pages = pages
    }

    mutating func next() -> Sample? {
        switch kind {
        case .window: nextWindow()
        case .afk: nextReading()
        // Tabs are read into the window events (`WebTabs`), never on their own.
        case .web: nil
        }
    }

    /// The window events as changes of what is in front. aw-watcher-window polls every second and
    /// sends heartbeats with a pulse time of 2 s, so one window's events follow each other with
    /// gaps of about a second: a gap up to `pulseTime` is the same window still in front, a longer
    /// one is no window data (nothing in front). An event that tells the same focus as the last
    /// (another title that changes no category, when titles are not kept) is no change.
    private mutating func nextWindow() -> Sample? {
        while true {
            guard let (time, focus) = nextFocus() else { return nil }
            // The same focus again is no change, unless a break lies between: a new session.
            if let last, last.focus == focus, !breaks.separate(last.time, time) { continue }
            last = (time, focus)
            return Sample(time: time, payload: .app(focus))
        }
    }

    private mutating func nextFocus() -> (Timestamp, AppFocus)? {
        while told == pending.count {
            pending.removeAll(keepingCapacity: true)
            told = 0
            guard index < events.count else { return nil }
            let e = events[index]
            index += 1
            // The window data stops before the next event (or the export ends): nothing in front,
            // unless nobody is there then (the screen locked during a long afk stretch).
            let dataStops =
                (index == events.count || events[index].start - e.end > ActivityWatchExport.pulseTime) && breaks.containing(e.end) == nil
            if let inside = breaks.containing(e.start) {
                // Nobody there: what the screen showed during a long afk stretch is not read; a
                // window still in front at its end is what the person comes back to.
                guard e.end > inside.end else { continue }
                shown(e, from: inside.end, to: e.end)
                if dataStops { pending.append((e.end, Self.nothing)) }
            } else if let crossed = breaks.first(startingIn: e.start, e.end) {
                shown(e, from: e.start, to: crossed.start)
                if e.end > crossed.end {
                    // Told again after the break.
                    shown(e, from: crossed.end, to: e.end)
                    if dataStops { pending.append((e.end, Self.nothing)) }
                }
            } else {
                shown(e, from: e.start, to: e.end)
                if dataStops { pending.append((e.end, Self.nothing)) }
            }
        }
        told += 1
        return pending[told - 1]
    }

    static let nothing = AppFocus(appClass: "", category: .neutral)

    /// The changes of what is in front while `e`'s window was, from `from` to `to`: the window
    /// from `from`, and for a browser's window each tab of its browser in front meanwhile (its
    /// page matched against the rules: `WebTabs`).
    private mutating func shown(_ e: ActivityWatchExport.Event, from: Timestamp, to: Timestamp) {
        let browser: Int
        if tabs.isEmpty {
            // No browser's tabs in the export: no lookup on the replay's path.
            browser = -1
        } else if let known = tabsOf[e.app] {
            browser = known
        } else {
            browser = tabs.firstIndex { $0.shows(in: names.apps[Int(e.app)]) } ?? -1
            tabsOf[e.app] = browser
        }
        guard browser >= 0, from < to, let pages else {
            pending.append((from, focus(e)))
            return
        }
        var cursor = from
        for tab in tabs[browser].tabs(from: from, to: to) {
            if tab.start > cursor { pending.append((cursor, focus(e))) }
            pending.append((tab.start, focus(e, rule: pages.rule(app: e.app, mask: tab.page))))
            cursor = tab.end
        }
        if cursor < to || cursor == from { pending.append((cursor, focus(e))) }
    }

    private func focus(_ e: ActivityWatchExport.Event, rule: Int32? = nil) -> AppFocus {
        let (category, rule) = names.result(rule ?? e.rule)
        return AppFocus(appClass: names.apps[Int(e.app)], category: category, rule: rule, title: e.title < 0 ? nil : names.titles[Int(e.title)])
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
            // The next reading after this one. A long afk stretch (a night) has only its first:
            // the silence after it ends the session.
            if t >= e.duration || (e.afk && e.duration > ActivityWatchExport.sessionBreak) {
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
