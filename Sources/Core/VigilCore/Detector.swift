/// A live source of samples: the libinput, PulseAudio and gpsd detectors implement this.
///
/// A detector reports its own health as `.status` samples (available, lost, permission denied, no
/// fix), so a missing sensor is an event in the log, not a crash. It stops when the consuming task is
/// cancelled.
public protocol Detector: Sendable {
    var sensor: SensorKind { get }
    /// Samples in time order, starting with a status sample that says whether the sensor works.
    func samples() -> AsyncStream<Sample>
    /// The session has judged `sample`, one of this detector's. Live detectors need not know; a
    /// rehearsal's recording holds its clock until then.
    func taken(_ sample: Sample)
}

extension Detector {
    public func taken(_ sample: Sample) {}
}
