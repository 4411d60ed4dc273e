import Foundation
import Synchronization
import VigilCore
import VigilStats

extension JSONValue {
    /// An instant: `2026-11-24T09:30:00+01:00`, local time to the second with its UTC offset.
    static func time(_ t: Timestamp?) -> JSONValue {
        guard let t else { return .null }
        return .str(Shown.times.withLock { $0 }.iso8601(t))
    }

    /// A local day, days since 1970-01-01: `2026-11-24`.
    static func day(_ d: Int?) -> JSONValue { d.map { .str(civilDate($0)) } ?? .null }
}

/// Prints one JSON document, ending in a newline: an array with each element on a line of its
/// own (so a listing reads, and greps, a record a line), anything else on one line.
func printJSON(_ value: JSONValue) {
    if case .array(let items) = value, !items.isEmpty {
        print("[\n" + items.map(\.text).joined(separator: ",\n") + "\n]")
    } else {
        print(value.text)
    }
}

/// How local times are shown: in the command's time zone (`--time-zone`, else TZ), set as it
/// starts (`Vigil.main`), so every listing, JSON time and status line agrees with its days.
enum Shown {
    static let times = Mutex(LocalTimeFormat())

    /// `2026-11-24 09:30`.
    static func minute(_ t: Timestamp) -> String { times.withLock { $0 }.minute(t) }
}

/// Which listing prints a session (docs/json.md): `log` its judged figures and episodes; `session
/// list` and `session show` the whole row (a list without the episodes).
enum SessionListing {
    case log, history

    /// The row's fields `log` leaves out.
    fileprivate static let logOmits: Set<String> = ["task_id", "length_s", "episode_count", "tags", "note", "intent", "intent_kept"]
}

/// A session as `log`, `session list` and `session show` print it with --json: one set of fields in
/// one order, of which `log` prints a part.
func sessionJSON(_ s: SessionRecord, episodes: [EpisodeRecord]? = nil, actions: [AlarmDelivery]? = nil, as listing: SessionListing) -> JSONValue {
    var fields: [(String, JSONValue)] = [
        ("id", .int(s.id)), ("task", .string(s.task)), ("task_id", .int(s.taskId)), ("source", .string(s.source?.rawValue)),
        ("device", .string(s.device)), ("start", .time(s.started)), ("end", .time(s.ended)), ("outcome", .string(s.outcome)),
        ("length_s", .seconds(s.ended.map { $0 - s.started })), ("focused_s", .seconds(s.focusedSeconds)),
        ("distracted_s", .seconds(s.distractedSeconds)), ("episode_count", .int(s.episodes)), ("tags", .strings(s.tags)),
        ("note", .string(s.note)), ("intent", .string(s.intent)), ("intent_kept", .string(s.intentKept?.rawValue)),
    ]
    if listing == .log { fields.removeAll { SessionListing.logOmits.contains($0.0) } }
    if let episodes { fields.append(("episodes", .array(episodes.map(episodeJSON)))) }
    if let actions {
        fields.append(
            (
                "actions",
                .array(
                    actions.map { a in
                        .object([
                            ("time", .time(a.time)), ("episode", .int(a.episode)), ("level", .int(a.level)), ("channel", .string(a.channel.rawValue)),
                            ("done", .string(a.action.rawValue)), ("detail", .string(a.detail)),
                        ])
                    })
            ))
    }
    return .object(fields)
}

/// A distraction episode as `log --json` and `session show --json` print it (docs/json.md).
func episodeJSON(_ e: EpisodeRecord) -> JSONValue {
    .object([
        ("number", .int(e.number)), ("start", .time(e.startedAt)), ("end", .time(e.endedAt)), ("cause", .string(e.cause)),
        ("peak_score", .score(e.peakScore)), ("alarm_level", .int(e.alarmLevel)), ("reason", .string(e.reason)),
        ("label", .string(e.label?.rawValue)),
    ])
}
