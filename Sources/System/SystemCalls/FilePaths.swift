/// A path's directory and its last component, as dirname(1) and basename(1) give them.
///
/// Not Foundation's `NSString.deletingLastPathComponent` and `lastPathComponent`: in
/// swift-corelibs-foundation (Swift 6.3) they trap on a one-character relative path, so
/// `vigil report -o r` or `--data-dir d` died with SIGILL.
public enum FilePaths {
    /// The directory holding `path`: "." for a bare name, "/" for a name in the root; trailing
    /// slashes are not a component ("a/b/" is in "a").
    public static func directory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The last component of `path`, without trailing slashes ("/" for the root, "" for "").
    public static func lastComponent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), bytes.count > 1 else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }
}
