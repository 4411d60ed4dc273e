#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stream socket connected to the Unix socket at `path`, close-on-exec; the descriptor is the
/// caller's to close. Throws `connect` ENAMETOOLONG for a path longer than `sun_path` holds, and
/// the failing call's error otherwise (`connect /run/user/1000/wayland-1: No such file or directory`).
public func connectUnixSocket(_ path: String) throws(SystemError) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw SystemError(call: "connect", errno: ENAMETOOLONG, path: path)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let fd = try syscall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    do {
        try syscall("connect", path: path) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    } catch {
        close(fd)
        throw error
    }
    return fd
}
