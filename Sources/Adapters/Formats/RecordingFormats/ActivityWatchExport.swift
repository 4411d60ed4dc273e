import JSONScanning
import SystemCalls
import VigilCore
import VigilRecording

/// ActivityWatch's export (`aw-server`'s `GET /api/0/export`, or a bucket's export) read as a
/// recording, so a person moving from ActivityWatch can replay and report their history.
///
/// What is read, and how it becomes samples:
/// - `currentwindow` buckets (aw-watcher-window: `data.app`, `data.title`): each event is the
///   application in front from its timestamp, categorised with the `apps:` rules (the title is used
///   for matching and dropped unless `apps.store_titles`); an event that changes nothing Vigil
///   keeps (another title, same category) is no change. Events within the watcher's pulse time
///   (2 s) of each other are one stretch in front; where the window data stops for longer, no
///   window is in front.
/// - Sessions: an afk event of over an hour (`sessionBreak`: a night, a weekend) is a silence:
///   nothing is read inside it, and a replay splits the export there into the sessions it holds.
/// - `afkstatus` buckets (aw-watcher-afk: `data.status` `afk` / `not-afk`): the desktop's idle
///   time. aw-watcher-afk dates an `afk` event from the last input, so the idle time is the time
///   since the event began; `not-afk` is active. Between events nothing is read: the computer was
///   off or the watcher stopped, a gap.
/// - `web.tab.current` buckets (aw-watcher-web: `data.url`, `data.title`): the tab in front of a
///   browser. While that browser's window is in front, the tab's address and title are matched
///   against the `apps:` rules as a URL-in-title extension would show them ("Cats - https://…"),
///   so `site:` rules and title pieces see the site even where the page's title does not name it;
///   see `WebTabs`. Addresses and tab titles are used for matching and never kept.
/// - Other buckets (editors, input counts) are skipped.
///
/// The export's `buckets` is an object keyed by bucket id (what aw-server returns) or an array
/// (aw-core's export schema); events may come in any order (the server sends newest first).
///
/// Nothing here grows with the time an export spans, only with its size. The file is streamed
/// (`JSONStream`: one event in memory at a time, never the document), each event is kept as 40
/// bytes (its application and title interned, its category worked out once), and the samples are
/// made as the replay asks for them (`ActivityWatchSamples`). An afk or not-afk event is read as
/// readings `afkCadence` apart (the session's `gap` must not be crossed, or the replay would take
/// the stretch for a machine asleep), and only through its first `longestWatched`: beyond that the
/// stretch is a gap. An afk event of over `sessionBreak` is one reading and a silence. So an
/// event lasting decades costs at most a few hundred samples, not a billion.
public enum ActivityWatchExport {
    /// Seconds between the readings of a `not-afk` event's first seconds. Each reading after input
    /// is one activity event for the presence judgement, which wants several within
    /// `input.resume_within` before someone away counts as back: readings every 3 s bring a person
    /// back within about 10 s of a `not-afk` event's start, as a desktop polled every second does.
    static let readingEvery = 3.0
    /// The longest stretch of one `not-afk` event read as readings: 12 hours. aw-watcher-afk ends
    /// a `not-afk` event after 3 minutes without input, so a longer one is a machine nobody watched.
    static let longestWatched = 12 * 3600.0
    /// The largest single value (an event, a bucket's fields) held at once: 16 MiB.
    static let largestValue = 1 << 24
    /// aw-watcher-window's pulse time (its poll time, 1 s, plus 1 s): its heartbeats merge into one
    /// event while they come within it, so events of a window in front follow each other within it.
    static let pulseTime = 2.0
    /// An afk stretch longer than this ends a session and the next input starts another (a night,
    /// a weekend): `vigil replay --split`'s silence, an hour.
    static let sessionBreak = RecordedSessions.silence

    /// The afk stretches longer than `sessionBreak`, in time order: inside them nothing is read,
    /// so each is a silence between two sessions.
    struct Breaks {
        private(set) var spans: [(start: Timestamp, end: Timestamp)] = []

        init() {}

        /// From the afk buckets' events (each bucket in time order); overlapping ones joined.
        init(_ buckets: [[Event]]) {
            let long = buckets.joined().filter { $0.afk && $0.duration > ActivityWatchExport.sessionBreak }.sorted { $0.start < $1.start }
            for e in long {
                if let last = spans.last, e.start <= last.end {
                    spans[spans.count - 1].end = max(last.end, e.end)
                } else {
                    spans.append((e.start, e.end))
                }
            }
        }

        /// The first span that starts after `time` (binary search).
        private func firstStarting(after time: Timestamp) -> Int {
            var (low, high) = (0, spans.count)
            while low < high {
                let mid = (low + high) / 2
                if spans[mid].start <= time { low = mid + 1 } else { high = mid }
            }
            return low
        }

        /// The span `time` lies strictly inside of (after its start), if any.
        func containing(_ time: Timestamp) -> (start: Timestamp, end: Timestamp)? {
            let i = firstStarting(after: time) - 1
            guard i >= 0, spans[i].start < time, time < spans[i].end else { return nil }
            return spans[i]
        }

        /// The first span that starts in [from, to), if any.
        func first(startingIn from: Timestamp, _ to: Timestamp) -> (start: Timestamp, end: Timestamp)? {
            let i = firstStarting(after: from)
            if i > 0, spans[i - 1].start == from { return spans[i - 1] }
            return i < spans.count && spans[i].start < to ? spans[i] : nil
        }

        /// Whether a span starts in (from, to]: the two instants are in different sessions.
        func separate(_ from: Timestamp, _ to: Timestamp) -> Bool {
            let i = firstStarting(after: from)
            return i < spans.count && spans[i].start <= to
        }
    }

    public struct Failure: Error {
        public var message: String
        /// The file could not be read (the disk, not its content).
        public var isReadFailure = false
    }

    /// Opens the export at `path` as samples on one timeline: the file is read once, here, and
    /// every problem is reported before the first sample.
    /// - Parameter bufferSize: the read buffer's first size (it grows to hold the largest value).
    public static func open(path: String, configuration: VigilConfiguration, bufferSize: Int = 1 << 20) throws(RecordingError)
        -> ActivityWatchSamples
    {
        let reader: LineReader
        do {
            reader = try LineReader(path: path, bufferSize: bufferSize, longestLine: largestValue)
        } catch {
            throw RecordingError(file: path, line: 0, message: "cannot read: \(error.reason)", kind: .io)
        }
        do {
            return try read(JSONStream(reader), path: path, configuration: configuration)
        } catch {
            throw RecordingError(
                file: path, line: 0, message: error.isReadFailure ? error.message : "not an ActivityWatch export Vigil reads: \(error.message)",
                kind: error.isReadFailure ? .io : .data)
        }
    }

    /// An export already in memory (a test's text, a fuzzer's input) as samples.
    public static func read(contents: some Collection<UInt8>, name: String, configuration: VigilConfiguration) throws(Failure)
        -> ActivityWatchSamples
    {
        try read(JSONStream(LineReader(contents: contents, name: name)), path: name, configuration: configuration)
    }

    static func read(_ stream: JSONStream, path: String, configuration: VigilConfiguration) throws(Failure) -> ActivityWatchSamples {
        var export = ExportReader(stream: stream, categorizer: WindowCategorizer(configuration.apps))
        try export.readDocument()
        let pages = export.pages
        let all = export.buckets.filter { $0.kind != nil && !$0.events.isEmpty }.sorted { $0.key < $1.key }
        let buckets = all.filter { $0.kind != .web }
        var first: Timestamp?
        var last: Timestamp?
        for b in buckets {
            for e in b.events {
                first = min(first ?? e.start, e.start)
                last = max(last ?? e.end, e.end)
            }
        }
        guard let first, let last else {
            throw Failure(message: "no aw-watcher-window or aw-watcher-afk events in the export (buckets of type currentwindow or afkstatus)")
        }
        // As in Vigil's own recordings: one timeline of at most 100 years.
        // (In seconds since the epoch: the nanosecond difference of instants centuries apart wraps.)
        guard last.secondsSinceEpoch - first.secondsSinceEpoch < 3.15e9 else {
            throw Failure(message: "its events span more than 100 years (\(first) to \(last)): one replay is one timeline")
        }
        let tabs = all.filter { $0.kind == .web }.map { WebTabs(bucket: $0, events: $0.sortedEvents()) }
        let sorted = buckets.map { $0.sortedEvents() }
        let breaks = Breaks(zip(buckets, sorted).filter { $0.0.kind == .afk }.map(\.1))
        let streams = zip(buckets, sorted).map { bucket, events in
            // The tabs of the browsers on the same computer as the window watcher.
            let shown = bucket.kind == .window ? tabs.filter { $0.hostname == nil || bucket.hostname == nil || $0.hostname == bucket.hostname } : []
            return BucketSamples(
                kind: bucket.kind!, events: events, cadence: Cadence(configuration), names: export.names, breaks: breaks, tabs: shown, pages: pages)
        }
        return ActivityWatchSamples(path: path, start: first, streams: streams)
    }

    /// aw-server writes `+00:00` offsets, and naive times (UTC) from its memory storage.
    static func parseTimestamp(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        if case .success(let t) = readRFC3339(utf8: text) { return t }
        guard text.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + 1) { buffer -> Timestamp? in
            _ = buffer.initialize(from: text)
            buffer[text.count] = UInt8(ascii: "Z")
            return try? readRFC3339(utf8: UnsafeBufferPointer(buffer)).get()
        }
    }

    /// The kind of bucket Vigil reads.
    enum Kind {
        case window, afk, web
    }

    /// One event, kept small: its start and length, and its data as indexes into the interned names.
    struct Event {
        var start: Timestamp
        var duration: Double
        /// The application (an index into `Names.apps`; for a browser tab, what its page matches:
        /// `PageRules`), the `apps:` rule that matched (-1: none), the title (into `Names.titles`;
        /// -1: not kept).
        var app: Int32
        var rule: Int32
        var title: Int32
        /// Its place in its bucket, which orders events that start together.
        var order: Int32
        var afk: Bool
        var end: Timestamp { start + duration }
    }

    /// Texts kept once each, by number.
    struct Interned {
        private(set) var texts: [String] = []
        private var numbers: [String: Int32] = [:]

        /// The number of `text`, given it the first time.
        mutating func number(_ text: String) -> Int32 {
            if let i = numbers[text] { return i }
            let i = Int32(texts.count)
            texts.append(text)
            numbers[text] = i
            return i
        }
    }

    /// The names events share, each kept once.
    final class Names {
        /// Applications (the first, 0, none) and titles.
        private var appNames = Interned()
        private var titleNames = Interned()
        var apps: [String] { appNames.texts }
        var titles: [String] { titleNames.texts }
        /// Each rule's category and name, by rule index; the fallback after them.
        let results: [(category: AppCategory, rule: String?)]

        init(_ apps: VigilConfiguration.Apps) {
            results = apps.rules.map { ($0.category, $0.name) } + [(apps.fallback, nil)]
            _ = appNames.number("")
        }

        func result(_ rule: Int32) -> (category: AppCategory, rule: String?) { results[rule < 0 ? results.count - 1 : Int(rule)] }

        func app(_ name: String) -> Int32 { appNames.number(name) }
        func title(_ text: String) -> Int32 { titleNames.number(text) }
    }

    /// A bucket as read: its id, the key it sorts by, its kind once its `type` is read, its events.
    struct Bucket {
        var key: String
        var name: String
        var kind: Kind?
        var type: String?
        /// The computer its watcher ran on (aw-server's `hostname`).
        var hostname: String?
        var events: [Event] = []

        /// Oldest first; events that start together in the file's order. aw-server sends them
        /// newest first, so reversing is usually enough.
        func sortedEvents() -> [Event] {
            func before(_ a: Event, _ b: Event) -> Bool { a.start != b.start ? a.start < b.start : a.order < b.order }
            if zip(events, events.dropFirst()).allSatisfy({ before($0, $1) }) { return events }
            let reversed = Array(events.reversed())
            if zip(reversed, reversed.dropFirst()).allSatisfy({ $0.start < $1.start }) { return reversed }
            return events.sorted(by: before)
        }
    }

    /// How far apart the readings of afk and not-afk events are, from the configuration.
    struct Cadence {
        /// A `not-afk` event's first readings, through `burst` seconds: enough to come back.
        let fine: Double
        let burst: Double
        /// Afterwards: within the session's gap, and within half the idle grace while active, so
        /// the silence between readings neither looks like a gap nor scores as idle.
        let active: Double
        let away: Double

        init(_ c: VigilConfiguration) {
            let half = c.session.gap / 2
            fine = min(ActivityWatchExport.readingEvery, half)
            burst = c.input.resumeWithin + 2 * fine
            away = min(60, half)
            active = min(half, max(fine, min(60, c.input.idleGrace / 2)))
        }
    }
}

/// Reads the export's structure: the buckets, each bucket's fields, and its events one at a time.
struct ExportReader {
    typealias Failure = ActivityWatchExport.Failure
    let stream: JSONStream
    var categorizer: ActivityWatchExport.WindowCategorizer
    var names: ActivityWatchExport.Names { categorizer.names }
    /// What browser tabs' pages match, worked out as they are read.
    let pages: ActivityWatchExport.PageRules
    var buckets: [ActivityWatchExport.Bucket] = []

    init(stream: JSONStream, categorizer: ActivityWatchExport.WindowCategorizer) {
        self.stream = stream
        self.categorizer = categorizer
        pages = ActivityWatchExport.PageRules(categorizer.apps, names: categorizer.names)
    }

    mutating func readDocument() throws(Failure) {
        guard try stream.peek() == UInt8(ascii: "{") else { throw Failure(message: "an ActivityWatch export needs a \"buckets\" object at the top") }
        stream.consume(1)
        var sawBuckets = false
        try stream.members { (key: String) throws(Failure) in
            if key == "buckets" {
                sawBuckets = true
                try readBuckets()
            } else {
                try stream.skipValue()
            }
        }
        guard try stream.peek() == nil else { throw stream.failure("text after the export's closing '}'") }
        guard sawBuckets else { throw Failure(message: "an ActivityWatch export needs a \"buckets\" object at the top") }
    }

    mutating func readBuckets() throws(Failure) {
        switch try stream.peek() {
        case UInt8(ascii: "{"):
            stream.consume(1)
            try stream.members { (key: String) throws(Failure) in try readBucket(key: key) }
        case UInt8(ascii: "["):
            stream.consume(1)
            try stream.elements { (i: Int) throws(Failure) in
                // Sorted as their place in the list, after any keyed ones.
                try readBucket(key: "\u{10FFFF}" + String(repeating: "0", count: max(0, 12 - String(i).count)) + String(i))
            }
        default:
            throw Failure(message: "\"buckets\" must be an object keyed by bucket id, or a list")
        }
    }

    mutating func readBucket(key: String) throws(Failure) {
        guard try stream.peek() == UInt8(ascii: "{") else {
            // Not a bucket: skipped, as before.
            try stream.skipValue()
            return
        }
        stream.consume(1)
        let number = buckets.count + 1
        var bucket = ActivityWatchExport.Bucket(key: key, name: key.hasPrefix("\u{10FFFF}") ? "bucket \(number)" : key)
        try stream.members { (field: String) throws(Failure) in
            switch field {
            case "id":
                if let id = try stream.stringValue() { bucket.name = id }
            case "hostname":
                bucket.hostname = try stream.stringValue()
            case "type":
                bucket.type = try stream.stringValue()
                switch bucket.type {
                case "currentwindow": bucket.kind = .window
                case "afkstatus": bucket.kind = .afk
                case "web.tab.current": bucket.kind = .web
                default:
                    bucket.kind = nil
                    bucket.events = []
                }
            case "events":
                guard try stream.peek() == UInt8(ascii: "[") else {
                    try stream.skipValue()
                    return
                }
                stream.consume(1)
                try stream.elements { (i: Int) throws(Failure) in
                    // A bucket of another type: its events are only checked to be JSON.
                    if bucket.type != nil && bucket.kind == nil {
                        try stream.skipValue()
                        return
                    }
                    bucket.events.append(try readEvent(i + 1, of: bucket))
                }
            default:
                try stream.skipValue()
            }
        }
        if bucket.type == nil { bucket.events = [] }
        buckets.append(bucket)
    }

    /// One event: its timestamp, duration and the data Vigil reads, checked.
    mutating func readEvent(_ number: Int, of bucket: ActivityWatchExport.Bucket) throws(Failure) -> ActivityWatchExport.Event {
        let name = bucket.name
        func problem(_ text: String) -> Failure { Failure(message: "\(name), event \(number): \(text)") }
        guard try stream.peek() == UInt8(ascii: "{") else { throw problem("expected an object with \"timestamp\", \"duration\" and \"data\"") }
        var start: Timestamp?
        var badTimestamp = false
        var duration = 0.0
        var badDuration = false
        var app: Int32 = 0
        var title: JSONScanner.Text?
        var address: JSONScanner.Text?
        var titleNUL = false
        var appNUL = false
        var afk = false
        var rule: Int32 = -1
        var titleIndex: Int32 = -1
        let names = self.names
        let pages = self.pages
        let wantsTitle = categorizer.storeTitles
        try stream.value { (s: inout JSONScanner) throws(JSONScanner.Failure) in
            try s.beginObject()
            while let key = try s.nextKey() {
                s.skipSpace()
                if s.equals(key, "timestamp") {
                    guard s.peek() == UInt8(ascii: "\"") else {
                        badTimestamp = true
                        try s.skipValue()
                        continue
                    }
                    let t = try s.string()
                    if let d = t.decoded {
                        var d = d
                        start = d.withUTF8 { ActivityWatchExport.parseTimestamp($0) }
                    } else {
                        start = ActivityWatchExport.parseTimestamp(UnsafeBufferPointer(start: s.base + t.start, count: t.end - t.start))
                    }
                    badTimestamp = start == nil
                } else if s.equals(key, "duration") {
                    if s.takeNull() {
                        duration = 0
                        badDuration = false
                        continue
                    }
                    s.skipSpace()
                    guard let c = s.peek(), c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) else {
                        badDuration = true
                        try s.skipValue()
                        continue
                    }
                    duration = try s.number()
                    badDuration = false
                } else if s.equals(key, "data") {
                    s.skipSpace()
                    guard s.peek() == UInt8(ascii: "{") else {
                        try s.skipValue()
                        continue
                    }
                    try s.beginObject()
                    while let field = try s.nextKey() {
                        s.skipSpace()
                        guard s.peek() == UInt8(ascii: "\"") else {
                            try s.skipValue()
                            continue
                        }
                        if s.equals(field, "app") {
                            let t = try s.string()
                            let text = s.text(t)
                            appNUL = text.utf8.contains(0)
                            app = names.app(text)
                        } else if s.equals(field, "title") {
                            let t = try s.string()
                            title = t
                            titleNUL = t.decoded?.utf8.contains(0) ?? false
                        } else if s.equals(field, "url") {
                            address = try s.string()
                        } else if s.equals(field, "status") {
                            afk = s.equals(try s.string(), "afk")
                        } else {
                            try s.skipValue()
                        }
                    }
                } else {
                    try s.skipValue()
                }
            }
            if bucket.kind == .web {
                // A tab's page as a URL-in-title extension shows it; never written anywhere, so a
                // NUL in it harms nothing.
                titleNUL = false
                app = -1
                if let address {
                    let page = ActivityWatchExport.WebTabs.shown(address: s.text(address))
                    app = pages.mask(of: title.map { s.text($0) + " - " + page } ?? page)
                }
            } else if bucket.kind != .afk {
                rule = categorizer.rule(app: app, title: title, in: s)
                if wantsTitle, let title { titleIndex = names.title(s.text(title)) }
            }
        }
        guard !badTimestamp, let start else {
            throw problem("\"timestamp\" must be an ISO 8601 time \(SupportedDates.range), such as 2024-05-01T09:00:00+00:00")
        }
        guard !badDuration else { throw problem("\"duration\" must be a number of seconds") }
        guard duration.isFinite, duration >= 0, start.secondsSinceEpoch + duration < Double(SupportedDates.seconds.upperBound) else {
            throw problem("\"duration\" must be seconds from 0 that end the event by 2199-12-31, got \(duration)")
        }
        // A NUL would cut the name short wherever it is written as C text: refused, not truncated.
        if appNUL { throw problem("\"data.app\" holds a NUL character (\\u0000): \(TextRules.nulRemedy)") }
        if titleNUL { throw problem("\"data.title\" holds a NUL character (\\u0000): \(TextRules.nulRemedy)") }
        guard number <= Int(Int32.max) else { throw problem("more events in one bucket than Vigil reads (\(Int32.max))") }
        return ActivityWatchExport.Event(
            start: start, duration: duration, app: app, rule: rule, title: titleIndex, order: Int32(number), afk: afk)
    }
}
