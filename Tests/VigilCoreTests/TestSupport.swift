import VigilCore
import VigilTesting

let epoch = testEpoch

/// Input activity ending at `t`, with the last event `idle` seconds before.
func typing(_ keys: Int = 10, idle: Double = 0.5, travel: Double = 0, clicks: Int = 0, scroll: Int = 0, switches: AppSwitches = AppSwitches())
    -> SamplePayload
{
    .input(InputActivity(window: 5, keyPresses: keys, pointerTravel: travel, clicks: clicks, scrollTicks: scroll, switches: switches, idle: idle))
}

/// An idle input window: nothing happened, the last event was `idle` seconds ago.
func idleWindow(_ idle: Double) -> SamplePayload { .input(InputActivity(window: 5, idle: idle)) }

extension FocusSession {
    /// Feeds input windows every 5 s over `[from, to]`; `active` says whether the person typed then.
    /// Returns every event. Models the live detector: idle grows in windows with no activity.
    mutating func drive(from: Double, to: Double, lastInput: inout Double, active: (Double) -> Bool) -> [SessionEvent] {
        var events: [SessionEvent] = []
        var t = from
        while t <= to {
            if active(t) {
                lastInput = t - 0.5
                events += receive(Sample(time: at(t), payload: typing(idle: 0.5)))
            } else {
                events += receive(Sample(time: at(t), payload: idleWindow(t - lastInput)))
            }
            t += 5
        }
        return events
    }
}

extension Array where Element == SessionEvent {
    var states: [SessionState] {
        compactMap { if case .stateChanged(_, let to, _, _) = $0.kind { return to } else { return nil } }
    }
    var episodesStarted: [Episode] {
        compactMap { if case .episodeStarted(let e) = $0.kind { return e } else { return nil } }
    }
    var episodesEnded: [Episode] {
        compactMap { if case .episodeEnded(let e) = $0.kind { return e } else { return nil } }
    }
    var alarms: [(time: Timestamp, level: Int, repeat: Int)] {
        compactMap { if case .alarm(let l, let r, _, _, _) = $0.kind { return ($0.time, l, r) } else { return nil } }
    }
    var summary: SessionSummary? {
        compactMap { if case .sessionEnded(let s) = $0.kind { return s } else { return nil } }.last
    }
}
