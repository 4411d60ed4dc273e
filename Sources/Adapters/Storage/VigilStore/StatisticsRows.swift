import Foundation
import GRDB
import GRDBSQLite
import VigilCore
import VigilStats

// The statistics reader's rows, column by column (`StatisticsReader`): names as indexes, the
// stored words of outcomes, sources and causes read as their bytes, and the rows of a table
// grouped by session. The report's hot path: no `String` is made for a row that does not need one.

/// Names (tasks, application classes) as the facts' indexes into their list, recognised by their
/// bytes: a `String` and a hash for every row cost more than reading it. A person has a handful of
/// tasks, and a few dozen applications; past 16 names, they are found by a hash of their bytes,
/// and only a name whose hash another name has is looked up by `String`.
struct NameTable {
    private(set) var names: [String] = []
    private var bytes: [[UInt8]] = []
    private var byHash: [UInt64: Int32] = [:]
    private var byName: [String: Int32] = [:]
    private var last: Int32 = -1

    /// The index of the column's text; -1 for NULL.
    mutating func index(_ p: OpaquePointer, _ column: Int32) -> Int32 {
        guard let c = sqlite3_column_text(p, column) else { return -1 }
        let text = UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, column)))
        if last >= 0, same(bytes[Int(last)], text) { return last }
        if names.count <= 16 {
            for i in bytes.indices where same(bytes[i], text) {
                last = Int32(i)
                return last
            }
        }
        // FNV-1a: no allocation.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        if let i = byHash[hash], same(bytes[Int(i)], text) {
            last = i
            return i
        }
        let name = String(decoding: text, as: UTF8.self)
        if let i = byName[name] {
            last = i
            return i
        }
        last = Int32(names.count)
        names.append(name)
        bytes.append(Array(text))
        byName[name] = last
        if byHash[hash] == nil { byHash[hash] = last }
        return last
    }
}

/// Applications (a class and the category it had) as the facts' indexes into their list.
struct ApplicationTable {
    private(set) var keys: [ApplicationKey] = []
    private var classes = NameTable()
    /// By class index × the number of categories + the category's place in `AppCategory.allCases`:
    /// the application's index + 1 (0: not met yet).
    private var byClass: [Int32] = []
    private let categories = AppCategory.allCases

    /// The row's application, of the category at that place in `AppCategory.allCases`; -1 when it
    /// has no class.
    mutating func index(_ p: OpaquePointer, classColumn: Int32, category: Int) -> Int32 {
        let c = Int(classes.index(p, classColumn))
        guard c >= 0 else { return -1 }
        let slot = c * categories.count + category
        if slot >= byClass.count { byClass += repeatElement(0, count: (c + 1) * categories.count - byClass.count) }
        if byClass[slot] == 0 {
            keys.append(ApplicationKey(classes.names[c], categories[category]))
            byClass[slot] = Int32(keys.count)
        }
        return byClass[slot] - 1
    }
}

/// An activity row's kind and category as one number: -1 for a call, else the category's place in
/// `AppCategory.allCases`; a category this version does not know (or none) counts as neutral, as
/// `vigil apps` shows it.
let activityKind =
    "CASE WHEN kind = 'call' THEN -1 "
    + AppCategory.allCases.enumerated().map { "WHEN category = '\($0.element.rawValue)' THEN \($0.offset) " }.joined()
    + "ELSE \(AppCategory.allCases.firstIndex(of: .neutral)!) END"

@inline(__always) func same(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
    a.count == b.count && (a.isEmpty || a.withUnsafeBytes { memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 })
}

/// A session's outcome from its column's bytes (no `String` per row).
func outcome(_ p: OpaquePointer, _ column: Int32) -> SessionFacts.Outcome {
    guard let c = sqlite3_column_text(p, column) else { return .open }
    let text = UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, column)))
    for (name, outcome) in outcomeNames where same(name, text) { return outcome }
    return .open
}

/// A session's source from its column's bytes, as its place in `SessionSource.allCases`; -1 for
/// one this version does not know.
func sourceIndex(_ p: OpaquePointer, _ column: Int32) -> Int {
    guard let c = sqlite3_column_text(p, column) else { return -1 }
    let text = UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, column)))
    return sourceNames.firstIndex { same($0, text) } ?? -1
}

let sourceNames = SessionSource.allCases.map { Array($0.rawValue.utf8) }

let outcomeNames: [([UInt8], SessionFacts.Outcome)] = [
    (Array("completed".utf8), .completed), (Array("abandoned".utf8), .abandoned), (Array("interrupted".utf8), .interrupted),
]

/// An episode's cause as stored, or nil for a cause this version does not know (its episode is
/// left out of the figures). The one place the statistics read a cause from its text: the
/// built-in causes by their bytes, without a `String` per row.
func storedCause(_ p: OpaquePointer, _ column: Int32) -> Cause? {
    guard let c = sqlite3_column_text(p, column) else { return nil }
    let text = UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, column)))
    for (name, cause) in builtInCauses where same(name, text) { return cause }
    return Cause(rawValue: String(decoding: text, as: UTF8.self))
}

let builtInCauses = Cause.builtIn.map { (Array($0.rawValue.utf8), $0) }

/// An episode's label as stored (`EpisodeLabel`); nil for none, or for one this version does not
/// know (the episode is then as judged).
func storedLabel(_ p: OpaquePointer, _ column: Int32) -> EpisodeLabel? {
    guard let c = sqlite3_column_text(p, column) else { return nil }
    let text = UnsafeRawBufferPointer(start: c, count: Int(sqlite3_column_bytes(p, column)))
    for (name, label) in labelNames where same(name, text) { return label }
    return nil
}

let labelNames = EpisodeLabel.allCases.map { (Array($0.rawValue.utf8), $0) }

/// A session's intention and the person's answer as one small number (`SessionFacts.Intent`),
/// worked out by SQLite.
let intentColumn = """
    CASE WHEN intent IS NULL THEN 0 WHEN intent_kept = 'done' THEN 2 WHEN intent_kept = 'partly' THEN 3 WHEN intent_kept = 'no' THEN 4
    ELSE 1 END
    """

/// Steps a statement's rows with SQLite's column functions.
func stepRows(_ db: Database, _ sql: String, _ arguments: StatementArguments = [], _ body: (OpaquePointer) throws -> Void) throws {
    let statement = try db.makeStatement(sql: sql)
    try statement.setArguments(arguments)
    let p = statement.sqliteStatement
    defer { sqlite3_reset(p) }
    while true {
        let rc = sqlite3_step(p)
        if rc == SQLITE_DONE { return }
        guard rc == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        try body(p)
    }
}

/// A `*_ms` column as the nearest supported instant (see TimeColumns.swift: an older Vigil may
/// have written one outside).
@inline(__always) func instant(_ p: OpaquePointer, _ column: Int32) -> Int64 {
    SupportedDates.nearest(milliseconds: sqlite3_column_int64(p, column))
}

/// Groups a reader's rows by the session's position (`index`, -1 for sessions not wanted, whose
/// rows are dropped), keeping each session's rows in the order given, and returns each session's
/// range. `keep` leaves out a row and `adjust` changes one, given the session's position. Rows
/// already in session order (nearly always: sessions are logged one after the other) stay in their
/// array; others are placed with a counting sort. `items` is taken over (left empty).
func groupBySession<T>(
    _ items: inout [T], _ ids: [Int64], sessions: Int, _ index: (Int64) -> Int32,
    keep: (T, Int) -> Bool, adjust: (inout T, Int) -> Void
) -> ([T], [Range<Int32>]) {
    var counts = [Int32](repeating: 0, count: sessions + 1)
    var inOrder = true
    var previous: Int32 = -1
    for k in ids.indices {
        let i = index(ids[k])
        if i >= 0, keep(items[k], Int(i)) {
            counts[Int(i) + 1] += 1
            if i < previous { inOrder = false }
            previous = i
        } else {
            inOrder = false
        }
    }
    for i in 0..<sessions { counts[i + 1] += counts[i] }
    let ranges = (0..<sessions).map { counts[$0]..<counts[$0 + 1] }
    var out: [T] = []
    if inOrder {
        swap(&out, &items)
        for k in out.indices { adjust(&out[k], Int(index(ids[k]))) }
        return (out, ranges)
    }
    out.reserveCapacity(Int(counts[sessions]))
    // Placed by a counting sort: each row's slot in `order`, then the rows in that order.
    var order = [Int32](repeating: -1, count: Int(counts[sessions]))
    var next = counts
    for k in ids.indices {
        let i = index(ids[k])
        guard i >= 0, keep(items[k], Int(i)) else { continue }
        order[Int(next[Int(i)])] = Int32(k)
        next[Int(i)] += 1
    }
    for k in order {
        var item = items[Int(k)]
        adjust(&item, Int(index(ids[Int(k)])))
        out.append(item)
    }
    items = []
    return (out, ranges)
}

extension Collection {
    func isSorted(by ordered: (Element, Element) -> Bool) -> Bool {
        var previous: Element?
        for e in self {
            if let p = previous, !ordered(p, e) { return false }
            previous = e
        }
        return true
    }
}
