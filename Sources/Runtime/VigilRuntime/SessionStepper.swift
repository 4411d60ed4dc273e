import VigilCore

/// Steps the focus-session state machine through samples and the ticks between them. Replay and
/// live sessions both step it through this one type, so a live session that was recorded replays
/// to the same timeline: the ticks fall on the same grid (every `session.tick` from the start) and
/// a sample at instant t is preceded by exactly the ticks before t.
///
/// A long silence means the same in both. Samples more than `session.gap` apart mean the machine
/// slept: the ticks in between are skipped and the state machine books a gap ending at the next
/// sample. A live session ticks on through silence, so it only meets a gap when its own clock
/// stood still (the process was stopped, the machine suspended); it then receives, and records, a
/// `stall_ended` control at the instant it noticed (`hasStalled`), which ends the gap there in the
/// replay too. A live recording therefore replays to the same timeline whatever the machine did.
public struct SessionStepper {
    public private(set) var session: FocusSession
    private let tick: Double
    private let gap: Double
    /// The next tick on the grid.
    private var nextTick: Timestamp?
    /// The last sample, tick or control seen.
    private var lastSeen: Timestamp?

    public init(session: FocusSession) {
        self.session = session
        tick = session.configuration.session.tick
        gap = session.configuration.session.gap
    }

    public var isEnded: Bool { session.isEnded }

    public mutating func start(at t: Timestamp) -> [SessionEvent] {
        guard nextTick == nil else { return [] }
        nextTick = t + tick
        lastSeen = t
        return session.start(at: t)
    }

    /// Fires the ticks on the grid strictly before `t` (replay: before the sample at `t`). When the
    /// silence since the last thing seen is longer than `session.gap`, they are skipped instead.
    public mutating func ticks(before t: Timestamp, into events: inout [SessionEvent]) {
        guard var nt = nextTick, let seen = lastSeen, !session.isEnded else { return }
        if t - seen <= gap {
            while nt < t, !session.isEnded {
                session.tick(at: nt, into: &events)
                lastSeen = nt
                nt = nt + tick
            }
        } else if nt <= t {
            // Skip the ticks of the gap, keeping them on the grid.
            nt = nt + (((t - nt) / tick).rounded(.down) + 1) * tick
        }
        nextTick = nt
    }

    /// Live: whether nothing was seen for longer than `session.gap` before `t`: the session's own
    /// clock stood still. The live session then receives a `stall_ended` control at `t` before any
    /// tick, as its recording will hold it.
    public func hasStalled(at t: Timestamp) -> Bool {
        guard nextTick != nil, let seen = lastSeen, !session.isEnded else { return false }
        return t - seen > gap
    }

    /// Live: fires the ticks on the grid up to and including `t`. (After a stall, `receive` of the
    /// `stall_ended` control has skipped the ticks of the gap already.)
    public mutating func ticks(through t: Timestamp, into events: inout [SessionEvent]) {
        guard var nt = nextTick, !session.isEnded else { return }
        while nt <= t, !session.isEnded {
            session.tick(at: nt, into: &events)
            lastSeen = nt
            nt = nt + tick
        }
        nextTick = nt
    }

    /// The ticks due before the sample, then the sample. Starts the session at the sample if it
    /// has not started.
    public mutating func receive(_ sample: Sample, into events: inout [SessionEvent]) {
        if nextTick == nil { events += start(at: sample.time) }
        ticks(before: sample.time, into: &events)
        session.receive(sample, into: &events)
        lastSeen = max(lastSeen ?? sample.time, sample.time)
    }

    /// Ends the session (after the ticks due before `t`).
    public mutating func end(_ cause: EndCause, at t: Timestamp, into events: inout [SessionEvent]) {
        ticks(before: t, into: &events)
        events += session.end(cause, at: t)
    }
}
