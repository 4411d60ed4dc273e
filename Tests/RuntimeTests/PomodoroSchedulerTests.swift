import SessionRuntime
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilTesting

/// The Pomodoro scheduler on a clock that moves only when told to: breaks at the end of each work
/// period, a wait after each break that only activity ends, long breaks after every set.
@Suite struct PomodoroSchedulerTests {
    final class Steps: Sendable {
        private let steps = Mutex<[PomodoroScheduler<ManualClock>.Step]>([])
        func add(_ s: PomodoroScheduler<ManualClock>.Step) { steps.withLock { $0.append(s) } }
        var all: [PomodoroScheduler<ManualClock>.Step] { steps.withLock { $0 } }
    }

    func input(keys: Int = 0, clicks: Int = 0) -> Sample {
        Sample(time: Timestamp(nanoseconds: 0), payload: .input(InputActivity(window: 5, keyPresses: keys, clicks: clicks, idle: 1)))
    }

    @Test func breaksThenAWaitThatOnlyActivityEnds() async {
        let clock = ManualClock()
        let steps = Steps()
        // 10 min work, 2 min short breaks, 5 min long break after every second period.
        let scheduler = PomodoroScheduler(plan: PomodoroPlan(work: 600, shortBreak: 120, longBreak: 300, rounds: 2), clock: clock) { steps.add($0) }
        let run = Task { await scheduler.run() }

        await settle(sleepingOn: clock)
        clock.advance(by: .seconds(599))
        await settle(sleepingOn: clock)
        #expect(steps.all.isEmpty)
        clock.advance(by: .seconds(1))
        await settle(sleepingOn: clock) { steps.all.count == 1 }
        #expect(steps.all == [.breakStarts(period: 1)])

        clock.advance(by: .seconds(120))
        await settle(sleepingOn: clock) { scheduler.isWaiting }
        #expect(steps.all == [.breakStarts(period: 1), .waiting(period: 1)])
        // Time alone does not end the wait, nor does input without activity (a moved mouse).
        clock.advance(by: .seconds(3600))
        scheduler.observe(input())
        #expect(scheduler.isWaiting)
        scheduler.observe(input(keys: 3))
        #expect(!scheduler.isWaiting)
        #expect(steps.all.last == .resumed(period: 1))

        // The second period ends in the long break.
        await settle(sleepingOn: clock)
        clock.advance(by: .seconds(600))
        await settle(sleepingOn: clock) { steps.all.count == 4 }
        clock.advance(by: .seconds(299))
        await settle(sleepingOn: clock)
        #expect(!scheduler.isWaiting)
        clock.advance(by: .seconds(1))
        await settle(sleepingOn: clock) { scheduler.isWaiting }
        #expect(steps.all == [.breakStarts(period: 1), .waiting(period: 1), .resumed(period: 1), .breakStarts(period: 2), .waiting(period: 2)])

        run.cancel()
        await run.value
    }

    @Test func cancellingEndsAWait() async {
        let clock = ManualClock()
        let scheduler = PomodoroScheduler(plan: PomodoroPlan(work: 60, shortBreak: 60, longBreak: 60, rounds: 4), clock: clock) { _ in }
        let run = Task { await scheduler.run() }
        await settle(sleepingOn: clock)
        clock.advance(by: .seconds(60))
        await settle(sleepingOn: clock)
        clock.advance(by: .seconds(60))
        await settle(sleepingOn: clock) { scheduler.isWaiting }
        run.cancel()
        await run.value
        #expect(!scheduler.isWaiting)
    }

    /// Issue 32: the wait ends by the session's presence rule, from any source: the desktop's idle
    /// time (input since the latest activity seen), an unlocked screen, a call starting.
    @Test func theWaitEndsOnPresenceFromAnySource() async {
        let t0 = Timestamp(nanoseconds: 0)
        func desktop(_ e: DesktopEvent, at s: Double) -> Sample { Sample(time: t0 + s, payload: .desktop(e)) }
        for (name, back) in [
            ("idle time falls", desktop(.idle(0.4), at: 300)), ("unlocked", desktop(.unlocked, at: 300)),
            ("a call starts", Sample(time: t0 + 300, payload: .media(MediaActivity(calls: 1)))),
        ] {
            let clock = ManualClock()
            let scheduler = PomodoroScheduler(plan: PomodoroPlan(work: 60, shortBreak: 60, longBreak: 60, rounds: 4), clock: clock) { _ in }
            let run = Task { await scheduler.run() }
            // Input during the work period, then nothing: the desktop's idle time grows.
            scheduler.observe(desktop(.idle(1), at: 50))
            await settle(sleepingOn: clock)
            clock.advance(by: .seconds(60))
            await settle(sleepingOn: clock)
            clock.advance(by: .seconds(60))
            await settle(sleepingOn: clock) { scheduler.isWaiting }
            scheduler.observe(desktop(.idle(151), at: 200))
            scheduler.observe(desktop(.locked, at: 210))
            #expect(scheduler.isWaiting, "\(name): the same last input, reported again, is nobody back")
            scheduler.observe(back)
            #expect(!scheduler.isWaiting, "\(name) ends the wait")
            run.cancel()
            await run.value
        }
    }
}
