import CWayland
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A failure to reach or keep a Wayland compositor.
///
/// libwayland has no error text of its own: a broken connection leaves an errno
/// (`wl_display_get_error`), and a protocol error (EPROTO) the interface, object and code the
/// compositor named (`wl_display_get_protocol_error`). Connecting is Vigil's own `connect` (see
/// `WaylandConnection`), so its failure is a `SystemError` with the socket's path.
enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// No display name given and $WAYLAND_DISPLAY not set (or empty).
    case noDisplay
    /// A relative display name (`wayland-1`) with $XDG_RUNTIME_DIR not set, where its socket lives.
    case noRuntimeDirectory(display: String)
    /// `socket` or `connect` failed.
    case connect(SystemError)
    /// The connection broke: the compositor closed it or a read or write failed.
    case broken(errno: Int32)
    /// The compositor ended the connection over a request it refused.
    case protocolError(interface: String, object: UInt32, code: UInt32)
    /// The compositor did not answer a round trip within the seconds given (it hangs, or is stopped).
    case noAnswer(seconds: Double)
    /// The compositor withdrew a global Vigil uses (the seat, the idle manager).
    case withdrawn(interface: String)

    /// The state of `display` after a call that failed; nil while it is healthy.
    static func check(_ display: OpaquePointer) -> WaylandError? {
        let code = wl_display_get_error(display)
        guard code != 0 else { return nil }
        guard code == EPROTO else { return .broken(errno: code) }
        var interface: UnsafePointer<wl_interface>?
        var object: UInt32 = 0
        let protocolCode = wl_display_get_protocol_error(display, &interface, &object)
        return .protocolError(interface: String(cString: vigil_wl_interface_name(interface)), object: object, code: protocolCode)
    }

    var description: String {
        switch self {
        case .noDisplay: "$WAYLAND_DISPLAY is not set"
        case .noRuntimeDirectory(let display): "$XDG_RUNTIME_DIR is not set, so the socket of \(display) cannot be found"
        case .connect(let error): error.description
        case .broken(let errno):
            errno == EPIPE || errno == ECONNRESET
                ? "the compositor closed the connection" : SystemError(call: "connection to the compositor", errno: errno).description
        case .protocolError(let interface, let object, let code):
            "the compositor ended the connection with a protocol error (\(interface.isEmpty ? "object" : interface)@\(object), code \(code))"
        case .noAnswer(let seconds): "the compositor did not answer within \(seconds.secondsText) s"
        case .withdrawn(let interface): "the compositor withdrew its \(interface)"
        }
    }
}

extension Double {
    /// "2", "0.5": seconds in a message, without a trailing ".0".
    var secondsText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
