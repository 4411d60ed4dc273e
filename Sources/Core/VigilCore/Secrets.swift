/// Passwords written into a URL (`postgres://me:secret@host/db`, `?password=secret`), masked
/// wherever Vigil shows a text that may hold one: `config show`, a config problem that quotes a
/// value, sync's messages. The text is not parsed as a URL (a value with a problem may not be
/// one): every `scheme://user:password@` and every `password=value` in it is masked.
extension String {
    public var maskingPasswords: String {
        guard contains("@") || contains("password=") else { return self }
        var out = Substring(self)
        var result = ""
        while let scheme = out.firstRange(of: "://") {
            result += out[..<scheme.upperBound]
            out = out[scheme.upperBound...]
            // The authority ends at the first /, ? or #; its user information at its last @.
            let authorityEnd = out.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0 == " " || $0 == "\n" } ?? out.endIndex
            if let at = out[..<authorityEnd].lastIndex(of: "@"), let colon = out[..<at].firstIndex(of: ":") {
                result += out[...colon] + "***"
                out = out[at...]
            }
        }
        result += out
        return result.maskingPasswordParameters
    }

    /// `password=value` (a URL's query, libpq's key=value form) with the value masked: up to the
    /// next `&`, space, quote or line end.
    private var maskingPasswordParameters: String {
        var result = ""
        var rest = Substring(self)
        while let key = rest.firstRange(of: "password=") {
            result += rest[..<key.upperBound]
            rest = rest[key.upperBound...]
            let end = rest.firstIndex { "& \n'\"".contains($0) } ?? rest.endIndex
            if end > rest.startIndex { result += "***" }
            rest = rest[end...]
        }
        return result + rest
    }

    /// A value quoted in a message: passwords masked, and cut to `limit` characters with how long
    /// it was (a value of 10 MB is named, not printed).
    public func quotedValue(limit: Int = 120) -> String {
        let masked = maskingPasswords
        guard masked.count > limit else { return masked }
        return String(masked.prefix(limit)) + "… (\(masked.count) characters)"
    }
}
