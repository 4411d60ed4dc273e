import Foundation
import SystemCalls

/// A device node libinput could not use, and the errno that says why.
///
/// libinput passes errors as minus errno: `open_restricted` returns one (ours, `vigil_open_device`,
/// reads errno in C right at its open(2)), and so do `libinput_dispatch` and the seat calls. This
/// is where such a value becomes a Swift error and text, built where the value is returned.
struct LibinputError: Error, Equatable, CustomStringConvertible {
    /// The device node, e.g. `/dev/input/event3`.
    var path: String
    /// The errno, positive.
    var errno: Int32

    /// `result` is a value as libinput passes them: minus errno.
    init(path: String, result: Int32) {
        precondition(result < 0, "libinput errors are negative")
        self.path = path
        errno = -result
    }

    /// The node exists but may not be opened by this user (EACCES, EPERM): the `input` group is missing.
    var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// "/dev/input/event3: Permission denied"; ENODEV (the node opens, but libinput does not take
    /// it, or no kernel device is behind it) says so in libinput's terms.
    var description: String {
        if errno == ENODEV { return "\(path): not an input device libinput can use" }
        return "\(path): \(SystemError(call: "open", errno: errno, path: path).reason)"
    }
}
