import Foundation

/// A python-dbusmock service (Debian's python3-dbusmock, run with /usr/bin/python3) on one of the
/// test's private buses: a template (`logind`, `gnome_screensaver`), or an empty object that the
/// test fills with methods through dbusmock's own D-Bus API (`org.freedesktop.DBus.Mock`).
/// Methods, properties and signals then travel over the real dbus-daemon as from the real service.
public final class DBusMock {
    public let bus: SessionBus
    public let name: String
    public let log: String
    private let process: ChildProcess

    /// Starts the mock and waits (up to 30 s) until it owns `name` on the bus.
    /// - Parameter system: the bus stands in for the system bus (`--system`, with
    ///   DBUS_SYSTEM_BUS_ADDRESS pointing at it), as the logind template expects.
    public init(on bus: SessionBus, name: String, template: String? = nil, path: String? = nil, interface: String? = nil, system: Bool = false)
        throws
    {
        self.bus = bus
        self.name = name
        log = "\(bus.directory)/mock-\(name).log"
        var env = ProcessInfo.processInfo.environment
        env[system ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS"] = bus.address
        // Its call log is read by the tests while it runs.
        env["PYTHONUNBUFFERED"] = "1"
        var arguments = ["-m", "dbusmock", system ? "--system" : "--session"]
        if let template {
            arguments += ["-t", template]
        } else if let path, let interface {
            arguments += [name, path, interface]
        }
        process = try ChildProcess("/usr/bin/python3", arguments, environment: env, output: log)
        for _ in 0..<600 {
            let owned = runTool(
                "/usr/bin/gdbus",
                [
                    "call", "--address", bus.address, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                    "--method", "org.freedesktop.DBus.NameHasOwner", name,
                ])
            if owned.output.contains("true") { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        throw TestFailure("dbusmock did not take \(name): \(calls)")
    }

    /// Calls a method of the mock with gdbus (arguments in GVariant text); throws on an error reply.
    @discardableResult
    public func call(_ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
        let result = runTool(
            "/usr/bin/gdbus", ["call", "--address", bus.address, "--dest", name, "--object-path", path, "--method", method] + arguments)
        guard result.status == 0 else { throw TestFailure("gdbus call \(method) failed: \(result.output)") }
        return result.output
    }

    /// Adds (or replaces) a method; `code` is Python run by dbusmock, `ret = …` is the reply.
    public func addMethod(_ path: String, _ interface: String, _ method: String, in inSignature: String, out outSignature: String, _ code: String)
        throws
    {
        try call(path, "org.freedesktop.DBus.Mock.AddMethod", [interface, method, inSignature, outSignature, code])
    }

    /// Emits a signal from `path`; `arguments` is a GVariant array of variants, e.g. `[<uint32 1>]`.
    public func emit(_ path: String, _ interface: String, _ signal: String, _ signature: String, _ arguments: String) throws {
        try call(path, "org.freedesktop.DBus.Mock.EmitSignal", [interface, signal, signature, arguments])
    }

    /// What the mock logged: one line per method call it received ("<time> AddIdleWatch 1000").
    public var calls: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// How many calls of `method` the mock received.
    public func count(_ method: String) -> Int {
        calls.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first == Substring(method) }.count
    }

    deinit { process.kill(SIGKILL) }
}
