import CXCB
import SystemCalls

/// An XCB failure: the connection's state code (`xcb_connection_has_error`).
///
/// XCB has no error text of its own. A failed connection says only which of seven things went
/// wrong; when that is a socket error (`XCB_CONN_ERROR`) the cause is in errno, which is taken
/// right at the failing `xcb_connect` (the `xcb_disconnect` after it may change it).
public enum XCBError: Error, Equatable, CustomStringConvertible {
    /// The connection failed or broke. `errno` is the socket's error when there was one.
    case connection(code: Int32, errno: Int32)
    /// libxcb or libxcb-screensaver could not be opened (`SensorLibrary`): what to install.
    case library(String)
    /// The window manager did not do what was asked of it: why, in a sentence.
    case refused(String)

    /// The state of `connection` right after a call that failed; nil when it is still healthy.
    @inline(__always)
    static func check(_ connection: OpaquePointer) -> XCBError? {
        let code = xcb_connection_has_error(connection)
        guard code != 0 else { return nil }
        return .connection(code: code, errno: code == XCB_CONN_ERROR ? SystemError.current(call: "xcb").errno : 0)
    }

    public var description: String {
        switch self {
        case .connection(let code, let errno):
            switch code {
            case XCB_CONN_ERROR:
                errno == 0
                    ? "the connection to the X server failed or was closed"
                    : SystemError(call: "connection to the X server", errno: errno).description
            case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: "the X server does not support an extension Vigil asked for"
            case XCB_CONN_CLOSED_MEM_INSUFFICIENT: "out of memory"
            case XCB_CONN_CLOSED_REQ_LEN_EXCEED: "a request was longer than the X server accepts"
            case XCB_CONN_CLOSED_PARSE_ERR: "the display name could not be parsed"
            case XCB_CONN_CLOSED_INVALID_SCREEN: "the X server has no such screen"
            case XCB_CONN_CLOSED_FDPASSING_FAILED: "passing a file descriptor to the X server failed"
            default: "XCB connection error \(code)"
            }
        case .library(let problem), .refused(let problem): problem
        }
    }
}
