/// What a person's day was, outside focus sessions: one stretch per application in front, or away,
/// or locked, or asleep, as the all-day watch (`vigil daemon` with `daemon.watch`) keeps it. A
/// stretch, not a sample per second: a day is a few hundred rows.
public struct DayStretch: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// An application in front (its class, category and the rule that gave it; no class: no
        /// window had the focus).
        case app
        /// No input for `daemon.watch_away_after`: from the last input on.
        case away
        /// The screen locked.
        case locked
        /// The machine asleep.
        case asleep
    }

    public var kind: Kind
    public var appClass: String?
    public var category: AppCategory?
    public var rule: String?
    public var start: Timestamp
    public var end: Timestamp

    public init(kind: Kind, appClass: String? = nil, category: AppCategory? = nil, rule: String? = nil, start: Timestamp, end: Timestamp) {
        self.kind = kind
        self.appClass = appClass
        self.category = category
        self.rule = rule
        self.start = start
        self.end = end
    }

    public var seconds: Double { end - start }
}

/// The all-day watch's judgement (no clock, no I/O): the desktop's and the window manager's
/// readings in, closed stretches out. The stretch in progress is kept until something changes, so
/// a day is written as it is lived and an abrupt end loses at most that stretch.
///
/// - Asleep over locked over away over the application in front: a locked screen is not "away
///   in Firefox".
/// - Away starts at the last input (the reading says how long ago), so the application's stretch
///   ends there, not when the threshold was crossed.
/// - While a focus session runs the watch is `suspended`: the session's own record is that time's.
public struct DayWatch: Sendable {
    /// How long without input is away.
    public let awayAfter: Double
    private var focus: AppFocus?
    private var locked = false
    private var asleep = false
    /// The last input the desktop reported (a reading's instant less its idle time).
    private var lastInput: Timestamp?
    /// Since when the person is away (`lastInput`, once `awayAfter` has passed since it).
    private var awaySince: Timestamp?
    public private(set) var suspended = false
    /// The stretch in progress (its end is the latest reading's instant).
    public private(set) var current: DayStretch?
    /// The watch's first reading: no stretch begins before it (an idle time of hours read at the
    /// start is away from here, not from hours ago, which an earlier run may have written).
    private var origin: Timestamp?

    public init(awayAfter: Double) { self.awayAfter = max(1, awayAfter) }

    /// A reading at `time`; returns the stretches it closed (never an empty one).
    public mutating func receive(_ payload: SamplePayload, at time: Timestamp) -> [DayStretch] {
        if origin == nil { origin = time }
        switch payload {
        case .app(let f): focus = f
        case .desktop(.idle(let idle)):
            // Some desktops report a pause once, when it begins (GNOME's idle watch), and the next
            // reading only at the next input: the time since the last input grows by itself.
            guard idle.isFinite, idle >= 0 else { return tick(at: time) }
            lastInput = time - idle
        case .desktop(.locked): locked = true
        case .desktop(.unlocked): locked = false
        case .desktop(.sleeping): asleep = true
        case .desktop(.woke):
            asleep = false
            // Waking is no input; the next idle reading says whether they are back.
            lastInput = time
        default: return tick(at: time)
        }
        return settle(at: time, changedAt: time)
    }

    /// Time passes without a reading: away begins once `awayAfter` has passed since the last input.
    public mutating func tick(at time: Timestamp) -> [DayStretch] {
        if origin == nil { origin = time }
        return settle(at: time, changedAt: nil)
    }

    /// A focus session started: the stretch in progress ends, and nothing is kept until `resume`.
    public mutating func suspend(at time: Timestamp) -> [DayStretch] {
        let closed = close(at: time)
        suspended = true
        return closed
    }

    /// The session ended: a stretch starts in the state last read.
    public mutating func resume(at time: Timestamp) {
        guard suspended else { return }
        suspended = false
        current = stretch(from: time)
    }

    /// Closes the stretch in progress at `time` (the watch stopping).
    public mutating func close(at time: Timestamp) -> [DayStretch] {
        guard var open = current else { return [] }
        current = nil
        open.end = max(open.start, time)
        return open.end > open.start ? [open] : []
    }

    /// What the state is now, as a stretch starting at `time`.
    private func stretch(from time: Timestamp) -> DayStretch {
        if asleep { return DayStretch(kind: .asleep, start: time, end: time) }
        if locked { return DayStretch(kind: .locked, start: time, end: time) }
        if awaySince != nil { return DayStretch(kind: .away, start: time, end: time) }
        guard let focus, !focus.appClass.isEmpty else { return DayStretch(kind: .app, start: time, end: time) }
        return DayStretch(kind: .app, appClass: focus.appClass, category: focus.category, rule: focus.rule, start: time, end: time)
    }

    private static func same(_ a: DayStretch, _ b: DayStretch) -> Bool {
        a.kind == b.kind && a.appClass == b.appClass && a.category == b.category && a.rule == b.rule
    }

    /// Away or not at `now`, and the stretch that follows: a state change at `changedAt` (a
    /// reading's), or at the last input when away began or ended.
    private mutating func settle(at now: Timestamp, changedAt: Timestamp?) -> [DayStretch] {
        var at = changedAt
        let away = lastInput.map { now - $0 >= awayAfter } ?? false
        if away, awaySince == nil {
            awaySince = lastInput
            at = lastInput
        } else if !away, awaySince != nil {
            awaySince = nil
            at = lastInput ?? now
        }
        guard let at else {
            if !suspended, let open = current, now > open.end { current?.end = now }
            return []
        }
        return change(at: max(min(at, now), origin ?? at), now: now)
    }

    /// The state changed at `at` (at or before `now`): a new stretch if it reads differently.
    private mutating func change(at: Timestamp, now: Timestamp) -> [DayStretch] {
        guard !suspended else { return [] }
        guard let open = current else {
            current = stretch(from: at)
            current?.end = now
            return []
        }
        var next = stretch(from: max(at, open.start))
        guard !Self.same(open, next) else {
            if now > open.end { current?.end = now }
            return []
        }
        var closed = open
        closed.end = next.start
        next.end = max(now, next.start)
        current = next
        return closed.end > closed.start ? [closed] : []
    }
}
