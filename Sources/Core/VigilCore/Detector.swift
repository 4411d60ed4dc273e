/// A live source of readings: the libinput, PulseAudio and gpsd detectors implement this.
///
/// A detector reports its own health as `.status` readings (available, lost, permission denied, no
/// fix), so a missing sensor is an event in the log, not a crash. It stops when the consuming task is
/// cancelled.
///
/// A detector has no clock: the session that takes a reading is the one that stamps it (on its
/// monotonic clock, so a live session, its recording and `vigil record` share one timeline). A
/// source's own instants would only be stamped over.
public protocol Detector: Sendable {
    var sensor: SensorKind { get }
    /// Readings in the order they were made, starting with a status that says whether the sensor works.
    func readings() -> AsyncStream<SamplePayload>
    /// The session has judged `reading`, one of this detector's. Live detectors need not know; a
    /// rehearsal's recording holds its clock until then.
    func taken(_ reading: SamplePayload)
}

extension Detector {
    public func taken(_ reading: SamplePayload) {}
}
