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
///
/// Between samples a replay fires only the ticks that can change something: the session says
/// until when it is steady (`FocusSession.steadiness()`: no alarm or confirmation falls due, no
/// score moves, or a rising one has not reached the next threshold), and the ticks on the grid
/// before that are skipped, except the last one before the next input while an episode is open or
/// the score rises. They would only have booked time, which the next tick or sample books in one
/// piece, to the nanosecond. A live session ticks every second (its screen shows the time
/// passing); `skipsSteadyTicks: false` makes a replay do the same, which the tests compare against.
public struct SessionStepper {
    public private(set) var session: FocusSession
    private let tick: Double
    /// `tick` in nanoseconds: the grid is `start + k·tick`, reached exactly when skipping.
    private let tickNanoseconds: Int64
    private let gap: Double
    private let skipsSteadyTicks: Bool
    /// The ticks handed to the session so far (for the tests and benchmarks of skipping).
    public private(set) var ticksFired = 0
    /// The next tick on the grid.
    private var nextTick: Timestamp?
    /// The last sample, tick or control seen.
    private var lastSeen: Timestamp?

    public init(session: FocusSession, skipsSteadyTicks: Bool = true) {
        self.session = session
        tick = session.configuration.session.tick
        tickNanoseconds = max(1, Int64(saturating: (tick * 1e9).rounded()))
        gap = session.configuration.session.gap
        self.skipsSteadyTicks = skipsSteadyTicks
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
            // Ticks no later than the last sample do nothing (samples every second or more often
            // leave one between each two): passed over without asking the session anything.
            if skipsSteadyTicks, nt <= seen { nt = firstTick(from: nt, notBefore: Timestamp(nanoseconds: seen.nanoseconds &+ 1)) }
            while nt < t, !session.isEnded {
                if skipsSteadyTicks {
                    nt = nextNeededTick(from: nt, before: t)
                    guard nt < t else { break }
                }
                session.tick(at: nt, into: &events)
                ticksFired += 1
                lastSeen = nt
                nt = nt + tick
            }
        } else if nt <= t {
            // Skip the ticks of the gap, keeping them on the grid: the first after `t`.
            nt = firstTick(from: nt, notBefore: Timestamp(nanoseconds: t.nanoseconds &+ 1))
        }
        nextTick = nt
    }

    /// The next tick from `nt` that may matter before the input at `t`: the first one at or after
    /// the session's steadiness (or, while the score rises, where it reaches the next
    /// threshold); and at least the last one before `t` while an episode is open or the score
    /// rises, since an input tells what the tick before it judged (a return at `t` is "away for 7
    /// min", a pause "at 0.42"). Nothing else a tick leaves behind depends on the ticks before it
    /// (the time booked is booked in one piece).
    private func nextNeededTick(from nt: Timestamp, before t: Timestamp) -> Timestamp {
        let steadiness = session.steadiness()
        var due = firstTick(from: nt, notBefore: min(steadiness.until ?? t, t))
        if let threshold = steadiness.riseThreshold, due > nt {
            // The score rises until `due`: the first tick where it reaches the threshold, found by
            // bisection (it never falls meanwhile), or none before `due`.
            let steps = (due.nanoseconds &- nt.nanoseconds) / tickNanoseconds
            var low: Int64 = 0
            var high = steps
            while low < high {
                let mid = low + (high - low) / 2
                if session.scoreIfJudged(at: Timestamp(nanoseconds: nt.nanoseconds &+ mid &* tickNanoseconds)) >= threshold {
                    high = mid
                } else {
                    low = mid + 1
                }
            }
            if low < steps { due = Timestamp(nanoseconds: nt.nanoseconds &+ low &* tickNanoseconds) }
        }
        guard due >= t, session.hasOpenEpisode || steadiness.scoreMayRise else { return due }
        return max(nt, Timestamp(nanoseconds: due.nanoseconds &- tickNanoseconds))
    }

    /// The first tick on the grid through `from` that is not before `instant`.
    private func firstTick(from nt: Timestamp, notBefore instant: Timestamp) -> Timestamp {
        guard instant > nt else { return nt }
        let ahead = instant.nanoseconds &- nt.nanoseconds
        let steps = ahead / tickNanoseconds + (ahead % tickNanoseconds == 0 ? 0 : 1)
        let (span, o1) = steps.multipliedReportingOverflow(by: tickNanoseconds)
        let (moved, o2) = nt.nanoseconds.addingReportingOverflow(span)
        return o1 || o2 ? instant : Timestamp(nanoseconds: moved)
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
            ticksFired += 1
            lastSeen = nt
            nt = nt + tick
        }
        nextTick = nt
    }

    /// The ticks due before the sample, then the sample. Starts the session at the sample if it
    /// has not started.
    /// A rule the person taught during the session (`FocusSession.learn`), after the ticks due.
    public mutating func learn(_ rule: LearnedRule, current: AppFocus?, at t: Timestamp, into events: inout [SessionEvent]) {
        ticks(before: t, into: &events)
        session.learn(rule, current: current, at: t, into: &events)
    }

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
