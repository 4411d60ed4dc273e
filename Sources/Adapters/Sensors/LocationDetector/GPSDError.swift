import CGPS
import SystemCalls

/// A libgps call that failed, and the code it left in errno.
///
/// libgps reports through errno with two kinds of value: `gps_open` puts its own negative netlib
/// codes there (`NL_NOHOST`, `NL_NOCONNECT`: "can't connect to host/port pair"), which only
/// `gps_errstr` can read; `gps_stream` and the allocation leave an ordinary errno, which
/// `gps_errstr` would call "unknown error". The code is taken right at the failing call: the
/// cleanup after it (`gps_close`, `free`) may change errno.
struct GPSDError: Error, Equatable, CustomStringConvertible {
    /// The libgps function that failed (`gps_open`, `gps_stream`).
    var call: String
    /// errno as the call left it: a negative netlib code or a positive errno.
    var code: Int32

    /// The error of the libgps call that has just failed. Call it first thing after the failure.
    @inline(__always)
    static func current(call: String) -> GPSDError {
        GPSDError(call: call, code: SystemError.current(call: call).errno)
    }

    /// What went wrong, in libgps's words for its own codes and the C library's for errno.
    var reason: String {
        code < 0 ? String(cString: vigil_gps_errstr(code)) : SystemError(call: call, errno: code).reason
    }

    /// "gps_open: can't connect to host/port pair".
    var description: String { "\(call): \(reason)" }
}
