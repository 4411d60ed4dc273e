/// The session's time: what is booked as active, paused or a gap, the machine's sleep, and the
/// planned end; the judging (FocusSession.swift) is called into as time passes.
extension FocusSession {
    /// Whether the machine is awake; asleep, since when (the gap starts there, not when the
    /// samples stop).
    enum Power: Sendable, Equatable {
        case awake
        case asleep(since: Timestamp)
    }

    /// Ends the session at its planned end if `now` is past it. While a pause extends the plan,
    /// its end moves on with the time paused up to `now`, so a pause never reaches it.
    mutating func finishIfPlanReached(before now: Timestamp, into events: inout [SessionEvent]) -> Bool {
        guard var end = plannedEnd else { return false }
        if case .paused = phase, configuration.session.pauseExtendsPlan, let seen = lastSeen, now > seen, power == .awake,
            now - seen <= configuration.session.gap
        {
            end = end + (now - seen)
        }
        guard now >= end else { return false }
        if let seen = lastSeen, end > seen {
            account(until: end, into: &events)
            evaluate(at: end, into: &events)
        }
        events += self.end(.planReached, at: end)
        return true
    }

    /// The machine is going to sleep: the gap starts now, not when the samples stop. An open
    /// episode ends here; nothing is judged until the wake-up.
    mutating func fallAsleep(at now: Timestamp, into events: inout [SessionEvent]) {
        guard power == .awake else { return }
        power = .asleep(since: now)
        activities.close(at: now, into: &events)
        if case .distracted(let m) = phase {
            closeEpisode(m, at: now, by: .sleep, into: &events)
            enter(.watching(Watch()), at: now, reason: .goingToSleep, into: &events)
        }
    }

    /// The machine woke up: the time asleep is a gap, and judging starts again from now.
    mutating func wake(at now: Timestamp, into events: inout [SessionEvent]) {
        guard case .asleep(let asleep) = power else { return }
        power = .awake
        endGap(from: asleep, to: now, reason: .wokeUp(afterSeconds: now - asleep), into: &events)
    }

    mutating func recordGap(from start: Timestamp, to end: Timestamp, into events: inout [SessionEvent]) {
        let seconds = max(0, end - start)
        ledger.gaps = Ledger.add(ledger.gaps, from: start, to: end)
        events.append(SessionEvent(time: end, kind: .gap(from: start, seconds: seconds)))
    }

    /// Nothing was judged from `start` to `end` (the samples stopped, or the machine slept; what was
    /// open then is closed already): the gap is booked, and a judged session starts judging again.
    mutating func endGap(from start: Timestamp, to end: Timestamp, reason: StateReason, into events: inout [SessionEvent]) {
        recordGap(from: start, to: end, into: &events)
        switch phase {
        case .watching, .distracted:
            activities.open(at: end)
            restartJudging(at: end)
            enter(.watching(Watch()), at: end, reason: reason, into: &events)
        case .planned, .paused, .ended:
            break
        }
    }

    /// Books the time since the last instant seen, or records a gap if nothing was seen for too long.
    mutating func account(until now: Timestamp, into events: inout [SessionEvent]) {
        guard let seen = lastSeen, now > seen else { return }
        let elapsed = now - seen
        lastSeen = now
        // Asleep: the whole time is one gap, recorded at the wake-up.
        guard power == .awake else { return }
        guard elapsed > configuration.session.gap else {
            switch phase {
            case .watching, .distracted: ledger.active = Ledger.add(ledger.active, from: seen, to: now)
            case .paused(let kind):
                ledger.paused = Ledger.add(ledger.paused, from: seen, to: now)
                if kind == .breakTime { ledger.onBreak = Ledger.add(ledger.onBreak, from: seen, to: now) }
            case .planned, .ended: break
            }
            return
        }
        // What was open ended when the samples stopped; told before the gap so times stay in order.
        if case .distracted(let m) = phase { closeEpisode(m, at: seen, by: .gap, into: &events) }
        if phase.isJudging { activities.close(at: seen, into: &events) }
        endGap(from: seen, to: now, reason: .samplesResumed(afterSeconds: elapsed), into: &events)
    }

    /// After a pause or a gap, nothing before `now` counts.
    mutating func restartJudging(at now: Timestamp) {
        scorers.restart(at: now)
        datingFloor = now
        if case .watching(var w) = phase {
            w.highSince = nil
            phase = .watching(w)
        }
        score = 0
        dominantScorer = nil
    }
}
