import Foundation
import PostgresNIO
import VigilConfig
import VigilCore

/// Why sync could not run, with what to do, and what kind of failure it is (the CLI's exit code).
public struct SyncError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The settings are wrong: the URL, the password file, TLS, a missing database.
        case configuration
        /// The server cannot be reached or went away: try again later; nothing is lost.
        case unreachable
        /// The server refused the user or its password.
        case authentication
        /// The server's schema was made by a newer Vigil.
        case newerServer
        /// The server refused a statement (permissions, a full disk).
        case server
        /// The local log could not be read or written.
        case store
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// Where the sync server is and how to talk to it, from `sync.url` as libpq reads a URL:
/// `postgres://[user[:password]@][host][:port][/database][?param=value&...]`, with libpq's
/// parameters `sslmode` (disable, allow, prefer, require, verify-ca, verify-full; prefer by
/// default), `sslrootcert`, `host` (a directory is a Unix socket), `port`, `user`, `password`,
/// `dbname`, `connect_timeout` and `application_name`; and libpq's environment (`PGHOST`,
/// `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE`) for what the URL leaves out.
public struct ServerAddress: Sendable, Equatable {
    /// libpq's modes, as `config check` knows them too.
    public typealias SSLMode = SyncURL.SSLMode

    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    public var password: String?
    public var sslMode: SSLMode
    public var sslRootCert: String?
    public var connectTimeout: Int
    /// How long a statement may wait for a lock (the push lock another device holds), and how long
    /// one may run, in seconds: PostgreSQL's `lock_timeout` and `statement_timeout`, set on every
    /// connection so that a device that dropped off holding a lock cannot stall a sync for ever.
    public var lockTimeout = 60
    public var statementTimeout = 600
    /// The URL without its password, for messages.
    public var shown: String

    /// Whether `host` is a socket directory rather than a host name.
    public var isUnixSocket: Bool { host.hasPrefix("/") }

    /// Reads `url`; the password comes from the URL, else `passwordFile`, else `PGPASSWORD`.
    public init(url: String, passwordFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SyncError) {
        // The URL's syntax is held to the rules `config check` holds it to (one set: `SyncURL`).
        let parsed: SyncURL
        do {
            parsed = try SyncURL(url)
        } catch {
            throw SyncError(.configuration, "sync.url: \(error.description)")
        }
        let (components, params) = (parsed.components, parsed.parameters)
        let login = ProcessInfo.processInfo.userName
        host =
            params["host"] ?? components.percentEncodedHost.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? environment["PGHOST"]
            ?? "/var/run/postgresql"
        let portText = params["port"] ?? components.port.map(String.init) ?? environment["PGPORT"] ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw SyncError(.configuration, "PGPORT: the port must be a number from 1 to 65535; got '\(portText.quotedValue())'")
        }
        self.port = port
        user = params["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"] ?? login
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = params["dbname"] ?? (path.isEmpty ? nil : path) ?? environment["PGDATABASE"] ?? user
        let modeText = params["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        guard let mode = SSLMode(rawValue: modeText) else {
            throw SyncError(
                .configuration,
                "PGSSLMODE: sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")); got '\(modeText.quotedValue())'")
        }
        sslMode = mode
        sslRootCert = params["sslrootcert"].map { ($0 as NSString).expandingTildeInPath }
        // Checked by `SyncURL` when the URL names one.
        connectTimeout = params["connect_timeout"].flatMap { Int($0) } ?? 10
        if let inURL = params["password"] ?? components.password {
            password = inURL
        } else if let passwordFile {
            password = try Self.readPasswordFile(passwordFile)
        } else {
            password = environment["PGPASSWORD"]
        }
        shown = Self.masked(url)
    }

    /// `url` with its password (the user info's, or a `password` parameter) shown as `***`: the one
    /// form in which a sync URL appears in anything Vigil prints.
    public static func masked(_ url: String) -> String { url.maskingPasswords }

    /// The first line of a file private to its owner, as libpq requires of ~/.pgpass.
    static func readPasswordFile(_ path: String) throws(SyncError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw SyncError(
                .configuration, "sync.password_file: \(path): \(String(cString: strerror(errno))). Write the password into it (chmod 600).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SyncError(.configuration, "sync.password_file: \(path) is not a regular file. Name a file holding the password.")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SyncError(
                .configuration,
                "sync.password_file: \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))). Make it private: chmod 600 \(path)"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SyncError(.configuration, "sync.password_file: \(path) cannot be read, or is not text.")
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    /// postgres-nio's configuration for it: TLS as libpq's `sslmode` means it.
    func connectionConfiguration() throws(SyncError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if isUnixSocket {
            configuration = .init(unixSocketPath: host + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: try tls())
        }
        // The connect timeout covers the start-up too (TLS, authentication): a server that accepts
        // the connection and never answers is given up after it.
        configuration.options.connectTimeout = .seconds(Int64(connectTimeout))
        configuration.options.additionalStartupParameters = [
            ("lock_timeout", String(lockTimeout * 1000)), ("statement_timeout", String(statementTimeout * 1000)),
            // A device that drops off inside a transaction (holding the push lock) is ended by the
            // server after this long, so the others wait at most this much for it.
            ("idle_in_transaction_session_timeout", String(lockTimeout * 1000)),
        ]
        return configuration
    }

    private func tls() throws(SyncError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return .disable
        case .allow, .prefer, .require:
            // libpq: without a root certificate these encrypt but check nobody; with one, require checks the chain.
            tls.certificateVerification = sslMode == .require && sslRootCert != nil ? .noHostnameVerification : .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let sslRootCert {
            guard FileManager.default.isReadableFile(atPath: sslRootCert) else {
                throw SyncError(
                    .configuration, "sync.url: sslrootcert \(sslRootCert) cannot be read. Name the CA certificate that signed the server's.")
            }
            tls.trustRoots = .file(sslRootCert)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw SyncError(.configuration, "sync.url: TLS cannot be set up: \(error)")
        }
        return sslMode == .allow || sslMode == .prefer ? .prefer(context) : .require(context)
    }
}
