/// JSON text for one value, written by `JSONWriter`: for the few places that put a number or a
/// string into text of their own (a message, a recording's line).

/// A JSON number for a finite Double: integers without a fraction, others in the shortest form that
/// reads back to the same value.
public func jsonNumber(_ v: Double) -> String {
    precondition(v.isFinite, "recordings hold finite numbers only")
    var w = JSONWriter(style: .compact, capacity: 24)
    w.number(v)
    return w.text
}

/// A JSON string literal, escaped as `JSONWriter.string` escapes it.
public func jsonString(_ s: String) -> String {
    var w = JSONWriter(style: .compact, capacity: s.utf8.count + 2)
    w.string(s)
    return w.text
}
