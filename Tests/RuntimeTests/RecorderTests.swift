import Foundation
import SessionRuntime
import Synchronization
import TestPlugIns
import TestSupport
import Testing
import VigilCore
import VigilRecording
import VigilTesting

/// `vigil record`'s recorder: the detectors' samples stamped on one clock, in order, until the
/// limit; and through a change-only sensor's silence, signs of life, as a live session writes them.
@Suite struct RecorderTests {
    @Test func aChangeOnlySensorsSilenceGetsSignsOfLifeUntilTheLimit() async throws {
        let dir = try temporaryDirectory("vigil-recorder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = parseRFC3339("2026-03-02T09:00:00Z")!
        let file = try SampleRecorder(path: dir + "/r.jsonl", header: RecordingHeader(start: start, source: "RecorderTests"))
        let clock = ManualClock()
        var config = VigilConfiguration.default
        config.session.gap = 60
        let sensors = PlugInRegistry([.phone]).availability(configuration: config)
        let recorder = Recorder(sensors: sensors, file: file, configuration: config, wallStart: start, clock: clock, clockStart: clock.now)
        let statuses = Mutex<[SensorStatus]>([])
        let (stop, _) = AsyncStream<Void>.makeStream()
        let run = Task { await recorder.run(limit: 100, stop: stop) { s in statuses.withLock { $0.append(s) } } }
        // The limit ends it: the clock is moved a second at a time until then.
        for _ in 0..<100 {
            await yieldUntil { clock.sleeperCount > 0 }
            clock.advance(by: .seconds(1))
        }
        await run.value
        #expect(file.close() == nil)
        let samples = try RecordingReader(path: dir + "/r.jsonl", signals: PlugInRegistry([.phone]).signals).readAll()
        #expect(samples.first?.payload == .status(SensorStatus(sensor: .phone, state: .available)))
        #expect(samples.contains { $0.payload == .reading(SignalReading(sensor: .phone, label: "unlocked")) })
        // Silent after that: signs of life (one every half gap, 30 s, when the recorder runs every
        // second; fewer when a loaded machine holds it back), never closer together than that.
        let alive = samples.filter { $0.payload == .control(.alive) }.map { $0.time - start }
        #expect((1...3).contains(alive.count), "\(alive)")
        #expect(alive.allSatisfy { $0 >= 29.5 } && zip(alive, alive.dropFirst()).allSatisfy { $1 - $0 >= 29.5 }, "\(alive)")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time <= $1.time }, "in time order")
        #expect(statuses.withLock { $0.map(\.sensor) } == [.phone])
    }

    /// Without a limit, `stop` (a signal, for `vigil record`) ends it, and the file is whole.
    @Test func stopEndsARecordingWithoutALimit() async throws {
        let dir = try temporaryDirectory("vigil-recorder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = parseRFC3339("2026-03-02T09:00:00Z")!
        let file = try SampleRecorder(path: dir + "/r.jsonl", header: RecordingHeader(start: start, source: "RecorderTests"))
        let clock = ManualClock()
        let sensors = PlugInRegistry([.phone]).availability(configuration: .default)
        let recorder = Recorder(sensors: sensors, file: file, configuration: .default, wallStart: start, clock: clock, clockStart: clock.now)
        let (stop, stopper) = AsyncStream<Void>.makeStream()
        let run = Task { await recorder.run(limit: nil, stop: stop) { _ in } }
        for _ in 0..<5 {
            await yieldUntil { clock.sleeperCount > 0 }
            clock.advance(by: .seconds(1))
        }
        stopper.yield()
        await run.value
        #expect(file.close() == nil)
        let samples = try RecordingReader(path: dir + "/r.jsonl", signals: PlugInRegistry([.phone]).signals).readAll()
        #expect(samples.contains { $0.payload == .reading(SignalReading(sensor: .phone, label: "unlocked")) })
    }
}
