import Foundation
import VigilCore
import VigilRecording

/// ActivityWatch's export (`aw-server`'s `GET /api/0/export`, or a bucket's export) read as a
/// recording, so a person moving from ActivityWatch can replay and report their history.
///
/// What is read, and how it becomes samples:
/// - `currentwindow` buckets (aw-watcher-window: `data.app`, `data.title`): each event is the
///   application in front from its timestamp, categorised with the `apps:` rules (the title is used
///   for matching and dropped unless `apps.store_titles`). Where the window data stops before the
///   next event, no window is in front.
/// - `afkstatus` buckets (aw-watcher-afk: `data.status` `afk` / `not-afk`): the desktop's idle
///   time, as a reading every 3 seconds through each event. aw-watcher-afk dates an `afk` event
///   from the last input, so the idle time is the time since the event began; `not-afk` is active.
///   Between events nothing is read: the computer was off or the watcher stopped, a gap.
/// - Other buckets (browser tabs, editors) are skipped.
///
/// The export's `buckets` is an object keyed by bucket id (what aw-server returns) or an array
/// (aw-core's export schema); events may come in any order (the server sends newest first).
public enum ActivityWatchExport {
    /// Seconds between the idle readings made from an afk event. Each reading after input is one
    /// activity event for the presence judgement, which wants several within `input.resume_within`
    /// before someone away counts as back: readings every 3 s bring a person back within about
    /// 10 s of a `not-afk` event's start, as a desktop polled every second does.
    static let readingEvery = 3.0
    /// The longest event, in seconds: a year (366 days), which is 10 million readings when afk.
    static let longestEvent = 366 * 86_400.0

    public struct Failure: Error {
        public var message: String
    }

    /// The samples of an export, in time order, and the instant of the first.
    public static func read(data: Data, apps: VigilConfiguration.Apps) throws(Failure) -> (start: Timestamp, samples: [Sample]) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation's own sentence says nothing; its debug description names the place.
            let place = (error as NSError).userInfo["NSDebugDescription"] as? String
            throw Failure(message: "not valid JSON (\(place ?? "cut short or not JSON")): is the export complete?")
        }
        guard let object = root as? [String: Any], let buckets = object["buckets"] else {
            throw Failure(message: "an ActivityWatch export needs a \"buckets\" object at the top")
        }
        let list: [[String: Any]]
        if let byId = buckets as? [String: Any] {
            list = byId.keys.sorted().compactMap { byId[$0] as? [String: Any] }
        } else if let array = buckets as? [[String: Any]] {
            list = array
        } else {
            throw Failure(message: "\"buckets\" must be an object keyed by bucket id, or a list")
        }
        var samples: [Sample] = []
        for bucket in list {
            let name = bucket["id"] as? String ?? "a bucket"
            switch bucket["type"] as? String {
            case "currentwindow": samples += windowSamples(try events(bucket, name), apps: apps)
            case "afkstatus": samples += afkSamples(try events(bucket, name))
            default: continue
            }
        }
        guard let first = samples.min(by: { $0.time < $1.time }), let last = samples.max(by: { $0.time < $1.time }) else {
            throw Failure(message: "no aw-watcher-window or aw-watcher-afk events in the export (buckets of type currentwindow or afkstatus)")
        }
        // As in Vigil's own recordings: one timeline of at most 100 years.
        // (In seconds since the epoch: the nanosecond difference of instants centuries apart wraps.)
        guard last.time.secondsSinceEpoch - first.time.secondsSinceEpoch < 3.15e9 else {
            throw Failure(message: "its events span more than 100 years (\(first.time) to \(last.time)): one replay is one timeline")
        }
        return (first.time, samples)
    }

    /// One event: when it began, how long it lasted, its data.
    struct Event {
        var start: Timestamp
        var duration: Double
        var data: [String: Any]
        var end: Timestamp { start + duration }
    }

    /// A bucket's events, oldest first.
    static func events(_ bucket: [String: Any], _ name: String) throws(Failure) -> [Event] {
        guard let raw = bucket["events"] as? [[String: Any]] else { return [] }
        var out: [Event] = []
        for (i, e) in raw.enumerated() {
            guard let text = e["timestamp"] as? String, let start = parseTimestamp(text) else {
                throw Failure(
                    message:
                        "\(name), event \(i + 1): \"timestamp\" must be an ISO 8601 time \(SupportedDates.range), such as 2024-05-01T09:00:00+00:00")
            }
            let duration: Double
            switch e["duration"] {
            case nil, is NSNull: duration = 0
            case let n as NSNumber: duration = n.doubleValue
            default: throw Failure(message: "\(name), event \(i + 1): \"duration\" must be a number of seconds")
            }
            // At most a year: an afk event becomes a reading every 3 s, so 100 years would be a
            // billion samples (a stopped program, by memory, not by a trap).
            guard duration.isFinite, duration >= 0, duration <= longestEvent else {
                throw Failure(
                    message: "\(name), event \(i + 1): \"duration\" must be seconds from 0 to a year (\(jsonNumber(longestEvent))), got \(duration)")
            }
            out.append(Event(start: start, duration: duration, data: e["data"] as? [String: Any] ?? [:]))
        }
        return out.sorted { $0.start < $1.start }
    }

    /// aw-server writes `+00:00` offsets, and naive times (UTC) from its memory storage.
    static func parseTimestamp(_ text: String) -> Timestamp? {
        if let t = parseRFC3339(text) { return t }
        return parseRFC3339(text + "Z")
    }

    static func windowSamples(_ events: [Event], apps: VigilConfiguration.Apps) -> [Sample] {
        var out: [Sample] = []
        for (i, e) in events.enumerated() {
            let app = e.data["app"] as? String ?? ""
            let title = e.data["title"] as? String
            let (category, rule) = apps.categorize(appClass: app, title: title)
            out.append(
                Sample(
                    time: e.start,
                    payload: .app(AppFocus(appClass: app, category: category, rule: rule, title: apps.storeTitles ? title : nil))))
            // The window data stops before the next event (or the export ends): nothing in front.
            let next = i + 1 < events.count ? events[i + 1].start : nil
            if next.map({ $0 - e.end > 1 }) ?? true {
                out.append(Sample(time: e.end, payload: .app(AppFocus(appClass: "", category: .neutral))))
            }
        }
        return out
    }

    static func afkSamples(_ events: [Event]) -> [Sample] {
        var out: [Sample] = []
        for e in events {
            let afk = (e.data["status"] as? String) == "afk"
            var t = 0.0
            while true {
                out.append(Sample(time: e.start + t, payload: .desktop(.idle(afk ? t : 0))))
                if t >= e.duration { break }
                t = min(t + readingEvery, e.duration)
            }
        }
        return out
    }
}
