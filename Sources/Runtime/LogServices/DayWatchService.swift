import Foundation
import SessionRuntime
import VigilCore
import VigilStore

/// The all-day watch (`daemon.watch`, docs/whole-day-design.md): the desktop's and the window
/// manager's detectors, the same a session runs, judged by `DayWatch` into stretches that are
/// written to the log as each one ends. While a focus session runs (its status file names a live
/// process) the watch records nothing: the session's own record is that time's.
public struct DayWatchService: Sendable {
    let store: EventStore
    let detectors: [any Detector]
    let settings: VigilConfiguration.Daemon
    let sessionRunning: @Sendable () -> Bool
    let now: @Sendable () -> Timestamp
    /// How often time is looked at without a reading: away begins on time, and a session that
    /// started or ended is seen, within this.
    let resolution: Duration
    let report: @Sendable (String, _ warning: Bool) -> Void
    /// Where the stretch in progress is published for the daemon's goals.
    let state: DayWatchState?

    public init(
        log: LocalLog, detectors: [any Detector], settings: VigilConfiguration.Daemon, state: DayWatchState? = nil,
        sessionRunning: @escaping @Sendable () -> Bool,
        now: @escaping @Sendable () -> Timestamp, resolution: Duration = .seconds(5), report: @escaping @Sendable (String, Bool) -> Void
    ) {
        store = log.store
        self.state = state
        self.detectors = detectors
        self.settings = settings
        self.sessionRunning = sessionRunning
        self.now = now
        self.resolution = resolution
        self.report = report
    }

    private enum Input: Sendable {
        case reading(SamplePayload)
        case tick
    }

    /// Runs until its task is cancelled; the stretch in progress is written then.
    public func run() async {
        prune()
        let (inputs, continuation) = AsyncStream<Input>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        await withTaskGroup(of: Void.self) { group in
            for detector in detectors {
                group.addTask { for await payload in detector.readings() { continuation.yield(.reading(payload)) } }
            }
            let resolution = resolution
            group.addTask {
                while (try? await Task.sleep(for: resolution)) != nil { continuation.yield(.tick) }
            }
            var loop = Loop(service: self)
            for await input in inputs {
                switch input {
                case .reading(let payload): loop.receive(payload)
                case .tick: loop.tick()
                }
            }
            group.cancelAll()
            loop.stop()
        }
    }

    /// Drops what is older than `daemon.watch_days`.
    func prune() {
        let before = now() - Double(settings.watchDays) * 86_400
        do { try store.pruneStretches(endedBefore: before) } catch { report("the day watch could not drop old stretches: \(error)", true) }
    }

    /// The watch's state between readings: its judgement, the stretches not yet written, the
    /// sensors' last words.
    private struct Loop {
        let service: DayWatchService
        var watch: DayWatch
        var unwritten: [DayStretch] = []
        var statuses: [SensorKind: SensorState] = [:]
        var lastPrune: Timestamp

        init(service: DayWatchService) {
            self.service = service
            watch = DayWatch(awayAfter: service.settings.watchAwayAfter)
            lastPrune = service.now()
        }

        mutating func receive(_ payload: SamplePayload) {
            if case .status(let status) = payload {
                // Said when it changes, as a session's sensor line says it.
                guard statuses[status.sensor] != status.state else { return }
                statuses[status.sensor] = status.state
                let working = status.state == .available
                let detail = status.detail.isEmpty ? "" : ": " + status.detail
                service.report("the day watch: \(status.sensor.rawValue) \(working ? "works" : "does not work")\(detail)", !working)
                return
            }
            write(watch.receive(payload, at: service.now()))
        }

        mutating func tick() {
            let time = service.now()
            let running = service.sessionRunning()
            if running, !watch.suspended {
                write(watch.suspend(at: time))
            } else if !running, watch.suspended {
                watch.resume(at: time)
            }
            write(watch.tick(at: time))
            if time - lastPrune > 6 * 3600 {
                service.prune()
                lastPrune = time
            }
        }

        mutating func stop() { write(watch.close(at: service.now())) }

        /// Writes what closed, and what an earlier write could not (the log busy or full): it is
        /// kept and tried again at the next stretch.
        mutating func write(_ closed: [DayStretch]) {
            service.state?.set(watch.current)
            unwritten += closed
            guard !unwritten.isEmpty else { return }
            do {
                try service.store.recordStretches(unwritten)
                unwritten.removeAll()
            } catch {
                service.report("the day watch could not write to the log (tried again at the next change): \(error)", true)
                if unwritten.count > 10_000 { unwritten.removeFirst(unwritten.count - 10_000) }
            }
        }
    }
}
