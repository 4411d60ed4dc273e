import Foundation

/// What a program run to its end said: its exit status (128 + the signal that ended it) and its
/// standard output and standard error, apart.
public struct ProgramResult: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String

    /// What it said on standard error, else on standard output, on one line, for a message.
    public var said: String {
        let text = errors.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? output : errors
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}

/// The full path of `name` on `$PATH` (a name with a slash is taken as it is), nil when there is
/// no such executable.
public func findProgram(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// Runs a helper program to its end (`gsettings`, `gnome-shell --version`): nothing on standard
/// input, both output streams read. Nil when `name` is not on `$PATH`. One that has not ended
/// after `timeout` seconds is killed, and its status is then 128 + SIGKILL: a helper stuck on a
/// bus that does not answer must not hang Vigil.
public func runProgram(
    _ name: String, _ arguments: [String], timeout: Double = 15, environment: [String: String] = ProcessInfo.processInfo.environment
) -> ProgramResult? {
    guard let path = findProgram(name, environment: environment) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do { try process.run() } catch { return ProgramResult(status: 127, output: "", errors: "cannot run \(path): \(error)") }
    // Both pipes are drained while it runs: a helper that fills one would otherwise never end.
    let group = DispatchGroup()
    let read = StreamsRead()
    DispatchQueue.global().async(group: group) { read.set(0, output.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { read.set(1, errors.fileHandleForReading.readDataToEndOfFile()) }
    var killed = false
    if ended.wait(timeout: .now() + timeout) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        killed = true
        ended.wait()
    }
    // A grandchild that kept the pipes open must not hold us either.
    _ = group.wait(timeout: .now() + 2)
    let status = killed ? 128 + SIGKILL : (process.terminationReason == .uncaughtSignal ? 128 : 0) + process.terminationStatus
    let (out, err) = read.both
    return ProgramResult(status: status, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
}

/// A program's two output streams as their readers finish them.
private final class StreamsRead: @unchecked Sendable {
    private let lock = NSLock()
    private var streams = [Data(), Data()]

    func set(_ index: Int, _ data: Data) { lock.withLock { streams[index] = data } }
    var both: (Data, Data) { lock.withLock { (streams[0], streams[1]) } }
}
