import Synchronization
import VigilCore

/// Several detectors of one sensor as one: the desktop's idle backend (X11, GNOME, KDE) and logind
/// (lock and sleep) both speak for the `desktop` sensor.
///
/// Readings pass through as they come. The status is the parts' together, said once every part has
/// said its own: available while any part is, otherwise the first part's state; the detail names
/// every part, so `vigil sensors` says what works and what does not ("idle from X11 :0; logind: no
/// system bus").
public struct CombinedDetector: Detector {
    public let sensor: SensorKind
    public let parts: [any Detector]

    public init(sensor: SensorKind, parts: [any Detector]) {
        self.sensor = sensor
        self.parts = parts
    }

    public func readings() -> AsyncStream<SamplePayload> {
        let (stream, continuation) = AsyncStream<SamplePayload>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let state = CombinedState(parts: parts.count)
        let sensor = self.sensor
        let parts = self.parts
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for (i, part) in parts.enumerated() {
                    group.addTask {
                        for await reading in part.readings() {
                            guard case .status(let status) = reading else {
                                continuation.yield(reading)
                                continue
                            }
                            // One lock around noting, combining and telling: two parts changing at
                            // once cannot leave an older combination as the last one told.
                            state.heard.withLock { heard in
                                heard.statuses[i] = status
                                // The status speaks for every part: it waits until each has said
                                // something (each detector's first sample is its status, said at
                                // once), so `vigil sensors` names them all. Readings do not wait.
                                let all = heard.statuses.compactMap { $0 }
                                guard all.count == parts.count else { return }
                                let combined = Self.combine(all, sensor: sensor)
                                guard heard.reported != combined else { return }
                                heard.reported = combined
                                continuation.yield(.status(combined))
                            }
                        }
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Available if any part is; otherwise the first part's state. Every part's detail, in order.
    static func combine(_ statuses: [SensorStatus], sensor: SensorKind) -> SensorStatus {
        let state = statuses.contains { $0.state == .available } ? SensorState.available : (statuses.first?.state ?? .unavailable)
        let detail = statuses.map(\.detail).filter { !$0.isEmpty }.joined(separator: "; ")
        return SensorStatus(sensor: sensor, state: state, detail: detail)
    }
}

/// What the parts said last, and what was told.
private final class CombinedState: Sendable {
    let heard: Mutex<(statuses: [SensorStatus?], reported: SensorStatus?)>
    init(parts: Int) { heard = Mutex((Array(repeating: nil, count: parts), nil)) }
}

/// A part that only says why it is missing: combined with the parts that do work, so the
/// sensor's status names what is not there ("no desktop idle interface: …").
public struct MissingDetector: Detector {
    public let sensor: SensorKind
    public let detail: String

    public init(sensor: SensorKind, detail: String) {
        self.sensor = sensor
        self.detail = detail
    }

    public func readings() -> AsyncStream<SamplePayload> {
        let status = SamplePayload.status(SensorStatus(sensor: sensor, state: .unavailable, detail: detail))
        return AsyncStream { c in
            c.yield(status)
            c.finish()
        }
    }
}
