import CGPS
import Foundation
import Synchronization
import VigilCore

/// Location from gpsd through libgps (`gps_open` / `gps_stream` / `gps_waiting` / `gps_read`).
///
/// The only module that imports `CGPS`. TPV reports with a 2D or 3D fix become location samples;
/// losing the fix, gpsd going away and coming back are status samples. When gpsd is not there or
/// dies, the detector says so once and keeps trying with a growing delay (0.5 s to 30 s), so a
/// restarted gpsd is picked up without restarting the session.
public final class GPSDDetector: Detector, Sendable {
    public let sensor = SensorKind.location
    public let host: String
    public let port: String
    private let now: @Sendable () -> Timestamp
    private let retry: (first: Double, longest: Double)

    /// - Parameters:
    ///   - retry: seconds before the first reconnection attempt, doubling up to `longest`.
    ///   - now: the session's clock; samples carry the time they were received, not the receiver's
    ///     own time, so a recording and the live session share one timeline.
    public init(host: String = "localhost", port: String = "2947", retry: (first: Double, longest: Double) = (0.5, 30),
                now: @escaping @Sendable () -> Timestamp) {
        self.host = host
        self.port = port
        self.retry = retry
        self.now = now
    }

    public func samples() -> AsyncStream<Sample> {
        let (stream, continuation) = AsyncStream<Sample>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let box = StopFlag()
        continuation.onTermination = { _ in box.stop() }
        let thread = Thread { [self] in
            self.run(emit: { continuation.yield($0) }, stopped: { box.isStopped })
            continuation.finish()
        }
        thread.name = "vigil-gpsd"
        thread.start()
        return stream
    }

    /// The blocking client loop, on its own thread: libgps is a blocking API.
    func run(emit: (Sample) -> Void, stopped: () -> Bool) {
        var reported: SensorState?
        func report(_ state: SensorState, _ detail: String) {
            guard state != reported else { return }
            reported = state
            emit(Sample(time: now(), payload: .status(SensorStatus(sensor: .location, state: state, detail: detail))))
        }
        var delay = retry.first
        let where_ = "gpsd at \(host):\(port)"
        while !stopped() {
            guard let connection = GPSConnection(host: host, port: port) else {
                let reason = String(cString: vigil_gps_errstr(errno))
                report(reported == nil ? .unavailable : .lost,
                       "cannot reach \(where_) (\(reason)); is gpsd running? Start it with `sudo systemctl start gpsd`, or set the address in the config. Retrying.")
                sleep(seconds: delay, unless: stopped)
                delay = min(delay * 2, retry.longest)
                continue
            }
            delay = retry.first
            report(.noFix, "connected to \(where_); waiting for a fix")
            var report_ = vigil_gps_report()
            while !stopped() {
                guard connection.waiting(microseconds: 250_000) else { continue }
                guard connection.read(&report_) else {
                    report(.lost, "\(where_) went away; reconnecting")
                    break
                }
                guard report_.is_tpv else { continue }
                if report_.mode >= 2, report_.latitude.isFinite, report_.longitude.isFinite {
                    report(.available, "fix from \(where_)")
                    let fix = LocationFix(
                        latitude: report_.latitude, longitude: report_.longitude,
                        horizontalAccuracy: report_.eph.isFinite ? report_.eph : nil,
                        speed: report_.speed.isFinite ? report_.speed : nil,
                        mode: report_.mode == 3 ? .threeD : .twoD)
                    emit(Sample(time: now(), payload: .location(fix)))
                } else if report_.mode == 1 || report_.mode == 0, reported == .available {
                    report(.noFix, "the receiver lost its fix")
                }
            }
        }
    }

    private func sleep(seconds: Double, unless stopped: () -> Bool) {
        var left = seconds
        while left > 0, !stopped() {
            let step = min(left, 0.1)
            usleep(useconds_t(step * 1_000_000))
            left -= step
        }
    }
}

/// One libgps connection. Owns the `gps_data_t` and closes it in `deinit`.
final class GPSConnection {
    private let data: UnsafeMutablePointer<gps_data_t>

    init?(host: String, port: String) {
        guard let d = vigil_gps_new() else { return nil }
        guard vigil_gps_open(host, port, d) == 0 else {
            vigil_gps_free(d)
            return nil
        }
        guard vigil_gps_watch(d) >= 0 else {
            _ = vigil_gps_close(d)
            vigil_gps_free(d)
            return nil
        }
        data = d
    }

    deinit {
        _ = vigil_gps_close(data)
        vigil_gps_free(data)
    }

    func waiting(microseconds: Int32) -> Bool { vigil_gps_waiting(data, microseconds) }

    /// False when the connection is gone.
    func read(_ report: inout vigil_gps_report) -> Bool { vigil_gps_read(data, &report) >= 0 }
}

/// Set from the stream's termination handler, read by the client thread.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func stop() { flag.store(true, ordering: .relaxed) }
    var isStopped: Bool { flag.load(ordering: .relaxed) }
}
