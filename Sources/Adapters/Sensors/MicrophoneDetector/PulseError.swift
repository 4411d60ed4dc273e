import CPulse

/// A libpulse failure: the `PA_ERR_*` code of the context, as `pa_strerror` reads it.
///
/// libpulse keeps the last error in the context (`pa_context_errno`), where any later operation
/// on the same context may replace it, so the code is taken at the call that failed (or in the
/// state callback that reported the failure), not when the message is shown.
struct PulseError: Error, Equatable, CustomStringConvertible {
    /// A `PA_ERR_*` code, e.g. `PA_ERR_CONNECTIONREFUSED`.
    var code: Int32

    /// The error of the last failed operation on `context`.
    init(context: OpaquePointer?) {
        code = pa_context_errno(context)
    }

    /// libpulse's text: "Connection refused", "No such entity".
    var description: String { String(cString: pa_strerror(code)) }
}
