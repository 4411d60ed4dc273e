import Foundation
import Synchronization

/// The servers this test process started, stopped when it exits: a suite's server lives in a
/// global, whose deinit never runs.
private let startedServers = Mutex<[String]>([])
private let stopAtExit: Void = {
    atexit {
        for directory in startedServers.withLock({ $0 }) {
            // The postmaster's pid is the first line of postmaster.pid; SIGQUIT is an immediate stop.
            if let text = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
                let pid = text.split(separator: "\n").first.flatMap({ Int32($0) })
            {
                kill(pid, SIGQUIT)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}()

/// A private PostgreSQL server for the sync tests (Debian's `postgresql`): `initdb` into a temporary
/// directory and `pg_ctl start` on a free loopback port with its own socket directory, password
/// authentication (SCRAM) for the user `vigil`. initdb refuses to run as root, so when the tests do,
/// the server runs as `nobody` in a directory only it may enter.
///
/// One server per suite, a database per test (`createDatabase`), so tests run side by side.
public final class PostgresServer: @unchecked Sendable {
    public let directory: String
    public let port: Int
    public let user = "vigil"
    public let password: String
    private let binaries: String
    private let asNobody: Bool
    /// With TLS: the certificate authority that signed the server's certificate (for localhost and
    /// 127.0.0.1), for `sslrootcert`.
    public private(set) var certificateAuthority: String?

    /// - Parameter tls: serve TLS with a certificate made for the test by openssl, signed by a
    ///   certificate authority of its own (`certificateAuthority`).
    public init(tls: Bool = false) throws {
        guard let version = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.compactMap(Int.init).max() else {
            throw TestFailure("PostgreSQL is not installed: `apt-get install postgresql` (scripts/setup.sh --tests does).")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        asNobody = geteuid() == 0
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-pg-\(UUID().uuidString.prefix(8))").path
        password = "pw-" + UUID().uuidString.prefix(12)
        port = freePort()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = stopAtExit
        startedServers.withLock { $0.append(directory) }
        try password.write(toFile: directory + "/pw", atomically: true, encoding: .utf8)
        if asNobody {
            // nobody owns the directory, and may read the password file initdb reads.
            _ = runTool("/bin/chown", ["-R", "nobody:nogroup", directory])
            chmod(directory, 0o700)
        }
        if tls { try makeCertificates() }
        let initdb = run(
            binaries + "/initdb",
            ["-D", directory + "/data", "-U", user, "--auth=scram-sha-256", "--pwfile=" + directory + "/pw", "-E", "UTF8", "--no-sync"])
        guard initdb.status == 0 else { throw TestFailure("initdb failed: \(initdb.output)") }
        try start()
    }

    /// A certificate authority and a server certificate it signed, for localhost and 127.0.0.1.
    private func makeCertificates() throws {
        let d = directory
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: d + "/san.ext", atomically: true, encoding: .utf8)
        for arguments in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "/ca.key", "-out", d + "/ca.crt", "-days", "2", "-subj",
                "/CN=Vigil test CA",
            ],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "/server.key", "-out", d + "/server.csr", "-subj", "/CN=localhost"],
            [
                "x509", "-req", "-in", d + "/server.csr", "-CA", d + "/ca.crt", "-CAkey", d + "/ca.key", "-CAcreateserial", "-out", d + "/server.crt",
                "-days", "2", "-extfile", d + "/san.ext",
            ],
        ] {
            let made = runTool("/usr/bin/openssl", arguments)
            guard made.status == 0 else { throw TestFailure("openssl \(arguments[0]) failed: \(made.output)") }
        }
        // PostgreSQL refuses a key others may read, and runs as nobody when the tests are root.
        chmod(d + "/server.key", 0o600)
        chmod(d + "/ca.crt", 0o644)
        if asNobody { _ = runTool("/bin/chown", ["nobody:nogroup", d + "/server.key", d + "/server.crt"]) }
        certificateAuthority = d + "/ca.crt"
    }

    /// Runs a PostgreSQL tool, as nobody when the tests run as root.
    private func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        asNobody ? runTool("/usr/sbin/runuser", ["-u", "nobody", "--", tool] + arguments) : runTool(tool, arguments)
    }

    /// Starts (or starts again) the server and waits until it accepts connections.
    public func start() throws {
        let started = run(
            binaries + "/pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"
                    + (certificateAuthority == nil
                        ? "" : " -c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key"),
                "start",
            ])
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw TestFailure("pg_ctl start failed: \(started.output)\n\(log)")
        }
    }

    /// Stops the server: `fast` rolls back open transactions and closes connections (what a
    /// restart does to a sync in progress); `immediate` is a crash.
    public func stop(mode: String = "fast") {
        _ = run(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", mode, "-w", "stop"])
    }

    /// Runs SQL with psql as the server's user; returns psql's output (tuples only, unaligned).
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") throws -> String {
        let result = runTool(
            binaries + "/psql",
            ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", statement],
            environment: ["PGPASSWORD": password, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        guard result.status == 0 else { throw TestFailure("psql failed (\(statement)): \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new, empty database; returns its name.
    public func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try sql("CREATE DATABASE \(name)")
        return name
    }

    /// The URL `sync.url` takes for `database`, without the password.
    public func url(_ database: String) -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    deinit {
        stop(mode: "immediate")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
