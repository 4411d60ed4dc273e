/// JSON text for the lines Vigil writes by hand (recordings, timelines, reports), where the fields
/// are known and speed matters: every recording sample and timeline event is one such line.

/// A JSON number for a finite Double: integers without a fraction, others in the shortest form that
/// reads back to the same value.
public func jsonNumber(_ v: Double) -> String {
    precondition(v.isFinite, "recordings hold finite numbers only")
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return v.description
}

/// A JSON string literal. Besides the C0 controls JSON requires escaped, DEL, the C1 and the bidi
/// controls are written as `\u` escapes too (`isTerminalControl`): a reader gets the same string
/// back, and JSON printed to a terminal cannot drive it.
public func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where u.isTerminalControl:
            let hex = String(u.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
