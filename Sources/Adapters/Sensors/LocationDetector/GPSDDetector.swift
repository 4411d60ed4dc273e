import CGPS
import DetectorSupport
import Foundation
import SystemCalls
import VigilCore

/// Location from gpsd through libgps (`gps_open` / `gps_stream` / `gps_waiting` / `gps_read`).
///
/// The only module that imports `CGPS`. TPV reports with a 2D or 3D fix become location samples;
/// losing the fix, gpsd going away and coming back are status samples. Exact positions do not leave
/// this module unless the person opted in: each fix leaves as its distance from the workplace and a
/// coarse cell (`LocationPrivacy`). When gpsd is not there or
/// dies, the detector says so once and keeps trying with a growing delay (0.5 s to 30 s), so a
/// restarted gpsd is picked up without restarting the session.
public final class GPSDDetector: Detector, Sendable {
    public let sensor = SensorKind.location
    public let host: String
    public let port: String
    private let retry: Backoff
    private let location: VigilConfiguration.Location

    /// - Parameters:
    ///   - location: the workplace fixes are measured against and whether exact coordinates may
    ///     leave (`location.exact_coordinates`).
    ///   - retry: the waits between reconnection attempts (`Backoff`).
    public init(
        host: String = "localhost", port: String = "2947", location: VigilConfiguration.Location = .init(),
        retry: Backoff = .reconnect
    ) {
        self.host = host
        self.port = port
        self.location = location
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .location, threadName: "vigil-gpsd") { [self] context in
            self.run(context)
        }
    }

    /// The blocking client loop, on its own thread: libgps is a blocking API.
    func run(_ context: DetectorContext) {
        // One per session, across reconnections: the workplace set by the first fix stays.
        var privacy = LocationPrivacy(config: location)
        let where_ = "gpsd at \(host):\(port)"
        context.keepConnecting(retry: retry) {
            // libgps is opened now, not at Vigil's start (CSensorLibraries).
            if let problem = SensorLibrary.gps.open(vigil_load_libgps) { return .failed("cannot use gpsd: \(problem). Retrying.") }
            let connection: GPSConnection
            do throws(GPSDError) {
                connection = try GPSConnection(host: host, port: port)
            } catch {
                return .failed(
                    "cannot reach \(where_) (\(error.reason)); is gpsd running? Start it with `sudo systemctl start gpsd`, or set location.gpsd in the config. Retrying."
                )
            }
            context.report(.noFix, "connected to \(where_); waiting for a fix")
            var report = vigil_gps_report()
            while !context.isStopped {
                // Event-driven: libgps may already hold reports it read (`gps_waiting` without a
                // wait looks there first); otherwise sleep on gpsd's socket and the stop pipe until
                // either has something, instead of waking four times a second to look.
                guard connection.waiting(microseconds: 0) else {
                    connection.sleepUntilReadable(orStop: context.stopDescriptor)
                    continue
                }
                guard connection.read(&report) else { return .lost("\(where_) went away; reconnecting") }
                guard report.is_tpv else { continue }
                // A position off the globe (a garbled report) is no position; the other numbers are
                // brought into range where every sample is emitted (`SampleLimits.clamped`).
                if report.mode >= 2, SampleLimits.latitude.contains(report.latitude), SampleLimits.longitude.contains(report.longitude) {
                    context.report(.available, "fix from \(where_)")
                    let fix = LocationFix(
                        latitude: report.latitude, longitude: report.longitude,
                        horizontalAccuracy: report.eph.isFinite ? report.eph : nil,
                        speed: report.speed.isFinite ? report.speed : nil,
                        mode: report.mode == 3 ? .threeD : .twoD)
                    context.emit(.location(privacy.protect(fix)))
                } else if report.mode == 1 || report.mode == 0, context.lastReported == .available {
                    context.report(.noFix, "the receiver lost its fix")
                }
            }
            return .stopped
        }
    }
}

/// One libgps connection. Owns the `gps_data_t` and closes it in `deinit`.
final class GPSConnection {
    private let data: UnsafeMutablePointer<gps_data_t>

    /// Connects and asks for reports. The error is taken at the call that failed, before the
    /// cleanup after it can change errno.
    init(host: String, port: String) throws(GPSDError) {
        guard let d = vigil_gps_new() else { throw .current(call: "calloc") }
        guard vigil_gps_open(host, port, d) == 0 else {
            let error = GPSDError.current(call: "gps_open")
            vigil_gps_free(d)
            throw error
        }
        guard vigil_gps_watch(d) >= 0 else {
            let error = GPSDError.current(call: "gps_stream")
            _ = vigil_gps_close(d)
            vigil_gps_free(d)
            throw error
        }
        data = d
    }

    deinit {
        _ = vigil_gps_close(data)
        vigil_gps_free(data)
    }

    func waiting(microseconds: Int32) -> Bool { vigil_gps_waiting(data, microseconds) }

    /// Sleeps until gpsd's socket is readable or `stop` is (the session ended). A minute at most,
    /// so a socket that poll never reports still gets looked at.
    func sleepUntilReadable(orStop stop: Int32) { _ = waitReadable(vigil_gps_descriptor(data), orStop: stop, seconds: 60) }

    /// False when the connection is gone.
    func read(_ report: inout vigil_gps_report) -> Bool { vigil_gps_read(data, &report) >= 0 }
}
