/// The time of sessions that ran at the same time, counted once.
///
/// After sync one log holds the sessions of several devices, and even one device can log two at
/// once (a replay logged while a live session ran). The time is the person's, not the device's
/// (docs/sync.md, "Merging"):
///
/// - an instant inside an episode of any session is *distracted*;
/// - otherwise, an instant inside any session's judged time is *focused*;
/// - otherwise (paused, a gap, no session) it is not counted.
///
/// So distracted time is the union of all sessions' episodes, and focused time the union of all
/// sessions' focused spans minus that. Each counted instant goes to exactly one session, whose
/// task, hour and day it is counted in: a distracted instant to the earliest-starting session
/// distracted then, a focused instant to the earliest-starting session focused then (earliest in
/// the facts' order: by start, then id). A pause on one device hides nothing another device judged.
///
/// Only the sessions of a *group* are resolved here: sessions whose extents (start to end, and any
/// span of theirs reaching beyond) overlap one another's, directly or through others. Any other
/// session keeps the spans `Statistics.report` computes for it alone, which are already counted
/// once. Finding the groups is one pass over the sessions, which allocates nothing when there are
/// none, so the report's single-device path costs what it did; a group is resolved when the report
/// comes to it, into buffers the next group reuses.
struct CountedTime {
    /// The groups of two or more sessions, as ranges of positions in `StatisticsFacts.sessions`,
    /// ascending.
    private(set) var groups: [Range<Int>] = []

    /// The group last resolved (`resolve(_:_:)`): its session at index `k` counts
    /// `focused[focusedRanges[k]]` and `distracted[distractedRanges[k]]` instead of its own spans
    /// (either may be empty: another session took that time), each ascending, touching spans
    /// joined.
    private(set) var focusedRanges: [Range<Int>] = []
    private(set) var distractedRanges: [Range<Int>] = []
    private(set) var focused: [Span] = []
    private(set) var distracted: [Span] = []
    /// The person's focused time in the group, ascending, joined across sessions: unbroken focus
    /// and the lifetime's focused hours are the person's, read in time order.
    private(set) var personFocused: [Span] = []
    /// When two or more of the group's sessions were judged at once (their judged spans or
    /// episodes): ascending, disjoint, each instant once however many sessions shared it.
    private(set) var overlap: [Span] = []
    private var scratch = GroupScratch()

    /// Finds the groups among the first `count` sessions of `facts` (sorted by start, as the facts
    /// keep them). A group ends before position `i` when every session before `i` has ended by the
    /// time every session from `i` on has started: in start order, when `i` starts no earlier than
    /// the furthest end so far.
    init(_ facts: StatisticsFacts, sessions count: Int) {
        var first = 0
        var reach = Int64.min
        var reachesBack = false
        for position in 0..<count {
            let extent = Self.extent(facts, position)
            if extent.start < facts.sessions[position].start { reachesBack = true }
            if extent.start >= reach {
                if position - first >= 2 { groups.append(first..<position) }
                first = position
            }
            reach = max(reach, extent.end)
        }
        if count - first >= 2 { groups.append(first..<count) }
        // A span before its session's start (the store never gives one) can reach back over
        // groups already closed: then the earliest start from each position on decides.
        if reachesBack { groups = Self.groupsReachingBack(facts, count) }
    }

    private static func groupsReachingBack(_ facts: StatisticsFacts, _ count: Int) -> [Range<Int>] {
        var earliestFrom = [Int64](repeating: .max, count: count + 1)
        for position in stride(from: count - 1, through: 0, by: -1) {
            earliestFrom[position] = min(earliestFrom[position + 1], extent(facts, position).start)
        }
        var groups: [Range<Int>] = []
        var first = 0
        var reach = Int64.min
        for position in 0..<count {
            if earliestFrom[position] >= reach {
                if position - first >= 2 { groups.append(first..<position) }
                first = position
            }
            reach = max(reach, extent(facts, position).end)
        }
        if count - first >= 2 { groups.append(first..<count) }
        return groups
    }

    /// From the earliest to the latest instant a session's time can reach: its start and end, and
    /// its judged spans and episodes should any lie beyond them.
    static func extent(_ facts: StatisticsFacts, _ position: Int) -> Span {
        let s = facts.sessions[position]
        var start = s.start
        var end = s.end
        if !s.active.isEmpty {
            start = min(start, facts.active[Int(s.active.lowerBound)].start)
            end = max(end, facts.active[Int(s.active.upperBound) - 1].end)
        }
        for e in facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)] {
            start = min(start, e.span.start)
            end = max(end, e.span.end)
        }
        return Span(start, end)
    }

    /// Buffers a group's resolution reuses from one group to the next: most groups are two
    /// sessions, and allocating for each would cost more than resolving it.
    struct GroupScratch {
        var edges: [Edge] = []
        var episodes: [Span] = []
        var own: [Span] = []
        /// How many of a session's focused spans, then of its episodes, cover the instant: by kind,
        /// then session.
        var counts: [Int32] = []
        var pieces: [Piece] = []
        /// A large group's pieces put together by session (a counting sort), each session's from
        /// `firstPiece`.
        var piecesBySession: [Piece] = []
        var firstPiece: [Int] = []
        var nextPiece: [Int] = []
    }

    /// Where a session's focused span (its judged time outside its episodes) or episode begins
    /// (+1) or ends (-1).
    struct Edge {
        var at: Int64
        var session: Int32
        var distracted: Bool
        var step: Int8
    }

    /// A counted span and the group's session (its index in the group) it went to.
    struct Piece {
        var session: Int32
        var distracted: Bool
        var span: Span
    }

    /// Resolves a group: sweeps its sessions' edges in time order. Between two consecutive
    /// instants where anything changes, the counts say which sessions are distracted and which
    /// focused; the lowest index among those distracted (else focused) takes the stretch. A session
    /// is judged where it is one or the other (its judged spans and its episodes together): where
    /// two or more are, that is overlap.
    mutating func resolve(_ facts: StatisticsFacts, _ group: Range<Int>) {
        focusedRanges.removeAll(keepingCapacity: true)
        distractedRanges.removeAll(keepingCapacity: true)
        focused.removeAll(keepingCapacity: true)
        distracted.removeAll(keepingCapacity: true)
        personFocused.removeAll(keepingCapacity: true)
        overlap.removeAll(keepingCapacity: true)
        let size = group.count
        // The buffers as locals for the sweep (moved, not copied): arrays of a local are checked
        // once for being the only reference, a property's at every write.
        var edges = scratch.edges
        var counts = scratch.counts
        var pieces = scratch.pieces
        scratch.edges = []
        scratch.counts = []
        scratch.pieces = []
        defer {
            scratch.edges = edges
            scratch.counts = counts
            scratch.pieces = pieces
        }

        edges.removeAll(keepingCapacity: true)
        for (k, position) in group.enumerated() {
            let s = facts.sessions[position]
            scratch.episodes.removeAll(keepingCapacity: true)
            for e in facts.episodes[Int(s.episodes.lowerBound)..<Int(s.episodes.upperBound)] { scratch.episodes.append(e.span) }
            // Its own focused time, as the report computes it for a session alone.
            scratch.own.removeAll(keepingCapacity: true)
            subtract(scratch.episodes, from: facts.active[Int(s.active.lowerBound)..<Int(s.active.upperBound)], into: &scratch.own)
            Self.addEdges(of: scratch.own, session: k, distracted: false, to: &edges)
            Self.addEdges(of: scratch.episodes, session: k, distracted: true, to: &edges)
        }
        Self.sortByTime(&edges)

        counts.removeAll(keepingCapacity: true)
        for _ in 0..<2 * size { counts.append(0) }
        var focusedSessions = LowestFirst(size: size)
        var distractedSessions = LowestFirst(size: size)
        pieces.removeAll(keepingCapacity: true)
        var judgedSessions = 0
        var i = 0
        while i < edges.count {
            let at = edges[i].at
            while i < edges.count, edges[i].at == at {
                let edge = edges[i]
                let session = Int(edge.session)
                let slot = (edge.distracted ? size : 0) + session
                let before = counts[slot]
                let after = before + Int32(edge.step)
                counts[slot] = after
                let other = counts[(edge.distracted ? 0 : size) + session]
                if before == 0 {
                    if edge.distracted { distractedSessions.insert(edge.session) } else { focusedSessions.insert(edge.session) }
                    if other == 0 { judgedSessions += 1 }
                } else if after == 0 {
                    if edge.distracted { distractedSessions.remove(edge.session) } else { focusedSessions.remove(edge.session) }
                    if other == 0 { judgedSessions -= 1 }
                }
                i += 1
            }
            guard i < edges.count else { break }
            let stretch = Span(at, edges[i].at)
            if let k = distractedSessions.lowest(counting: counts, from: size) {
                pieces.append(Piece(session: k, distracted: true, span: stretch))
            } else if let k = focusedSessions.lowest(counting: counts, from: 0) {
                pieces.append(Piece(session: k, distracted: false, span: stretch))
                Self.join(stretch, to: &personFocused, from: 0)
            }
            if judgedSessions >= 2 { Self.join(stretch, to: &overlap, from: 0) }
        }

        // Each session's pieces together, in time order (the sweep made them in time order): for a
        // few sessions, a pass over the pieces for each; for more, a counting sort by session.
        if size > 8 {
            scratch.firstPiece.removeAll(keepingCapacity: true)
            for _ in 0...size { scratch.firstPiece.append(0) }
            for piece in pieces { scratch.firstPiece[Int(piece.session) + 1] += 1 }
            for k in 0..<size { scratch.firstPiece[k + 1] += scratch.firstPiece[k] }
            scratch.piecesBySession.removeAll(keepingCapacity: true)
            scratch.piecesBySession.append(contentsOf: pieces)
            scratch.nextPiece.removeAll(keepingCapacity: true)
            scratch.nextPiece.append(contentsOf: scratch.firstPiece)
            for piece in pieces {
                scratch.piecesBySession[scratch.nextPiece[Int(piece.session)]] = piece
                scratch.nextPiece[Int(piece.session)] += 1
            }
        }
        for k in 0..<size {
            let firstFocused = focused.count
            let firstDistracted = distracted.count
            func take(_ piece: Piece) {
                if piece.distracted {
                    Self.join(piece.span, to: &distracted, from: firstDistracted)
                } else {
                    Self.join(piece.span, to: &focused, from: firstFocused)
                }
            }
            if size > 8 {
                for piece in scratch.piecesBySession[scratch.firstPiece[k]..<scratch.firstPiece[k + 1]] { take(piece) }
            } else {
                for piece in pieces where piece.session == Int32(k) { take(piece) }
            }
            focusedRanges.append(firstFocused..<focused.count)
            distractedRanges.append(firstDistracted..<distracted.count)
        }
    }

    private static func addEdges(of spans: [Span], session: Int, distracted: Bool, to edges: inout [Edge]) {
        for span in spans where span.end > span.start {
            edges.append(Edge(at: span.start, session: Int32(session), distracted: distracted, step: 1))
            edges.append(Edge(at: span.end, session: Int32(session), distracted: distracted, step: -1))
        }
    }

    /// Sorts edges by time. A group's sessions come in start order and mostly one after another, so
    /// its edges are nearly in order already: an insertion sort, which then moves few and allocates
    /// nothing; the standard sort for a large group, where a long session's edges could each be
    /// moved past many.
    static func sortByTime(_ edges: inout [Edge]) {
        guard edges.count <= 1024 else {
            edges.sort { $0.at < $1.at }
            return
        }
        for i in edges.indices.dropFirst() {
            let edge = edges[i]
            var j = i
            while j > 0, edges[j - 1].at > edge.at {
                edges[j] = edges[j - 1]
                j -= 1
            }
            edges[j] = edge
        }
    }

    /// Appends `span` to `spans`, joined to the last one if it touches it (and that one is at or
    /// after `first`: another session's spans are never joined to).
    private static func join(_ span: Span, to spans: inout [Span], from first: Int) {
        if spans.count > first, spans[spans.count - 1].end == span.start {
            spans[spans.count - 1].end = span.end
        } else {
            spans.append(span)
        }
    }
}

/// The sessions of a group that count at an instant (are distracted, or are focused), to name the
/// one that started first. A group of at most 64 sessions keeps them as bits of a word (nearly all
/// groups: two sessions, or a few); a larger one in a binary min-heap of their indexes, where an
/// index is inserted when its session starts to count and dropped, once it no longer counts, when
/// it comes to the top, so the heap is never searched.
struct LowestFirst {
    private let small: Bool
    private var bits: UInt64 = 0
    private var heap: [Int32] = []

    init(size: Int) { small = size <= 64 }

    mutating func insert(_ value: Int32) {
        if small {
            bits |= 1 << UInt64(value)
            return
        }
        heap.append(value)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Its session no longer counts.
    mutating func remove(_ value: Int32) {
        if small { bits &= ~(1 << UInt64(value)) }
    }

    /// The lowest index whose session still counts (`counts[first + index] > 0`).
    mutating func lowest(counting counts: [Int32], from first: Int) -> Int32? {
        if small { return bits == 0 ? nil : Int32(bits.trailingZeroBitCount) }
        while let top = heap.first, counts[first + Int(top)] == 0 { removeTop() }
        return heap.first
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let child = right < heap.count && heap[right] < heap[left] ? right : left
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
