import SessionRuntime
import VigilCore
import VigilStore

/// A simulated history is refused in a log that holds sessions: it would mix with them.
public struct LogNotEmpty: Error, Sendable {
    public var path: String
    public var sessions: Int
}

extension LocalLog {
    /// Runs `simulator` over `days` and logs what it produced as simulated sessions, a month per
    /// transaction (a crash leaves whole months, never half a session); `progress` is told the
    /// days done after each month. Refused (`LogNotEmpty`) before any simulating when the log
    /// holds sessions, and again, atomically, where the first month is written. Returns the
    /// sessions and events logged.
    /// With `day`, the day around the sessions too, as the all-day watch records it.
    public func simulate(
        _ simulator: inout HistorySimulator, days: ClosedRange<Int>, day: DaySimulator? = nil, progress: (_ daysDone: Int) -> Void
    ) throws -> (sessions: Int, events: Int) {
        var day = day
        var stretches: [DayStretch] = []
        if let n = try store.counts()["sessions"], n > 0 { throw LogNotEmpty(path: path, sessions: n) }
        var batch: [[SessionEvent]] = []
        var (sessions, events, done) = (0, 0, 0)
        var claimed = false  // the log is this simulation's: its first sessions are written
        for chunkStart in stride(from: days.lowerBound, through: days.upperBound, by: 30) {
            let chunk = chunkStart...min(days.upperBound, chunkStart + 29)
            simulator.run(days: chunk, day: &day, stretches: { stretches += $0 }, emit: { batch.append($0) })
            if !claimed {
                let existing = try store.appendSessionsIntoAnEmptyLog(batch, source: .simulated)
                if existing > 0 { throw LogNotEmpty(path: path, sessions: existing) }
                claimed = !batch.isEmpty
            } else {
                try store.appendSessions(batch, source: .simulated)
            }
            try store.recordStretches(stretches)
            stretches.removeAll(keepingCapacity: true)
            sessions += batch.count
            events += batch.reduce(0) { $0 + $1.count }
            batch.removeAll(keepingCapacity: true)
            done += chunk.count
            progress(done)
        }
        return (sessions, events)
    }
}
