import Foundation
import VigilCore

/// `sync.url` and `sync.group_url` as libpq reads a URL,
/// `postgres://[user[:password]@][host][:port][/database][?param=value&...]`, held to one set of
/// rules by `config check` and by `vigil-sync` (`ServerAddress`), so that a URL the check passes is
/// one sync takes. What the environment fills in (PGHOST, PGPORT, …) is sync's, not the syntax's.
public struct SyncURL: Sendable, Equatable {
    /// libpq's parameters Vigil reads.
    public static let parameterNames: Set<String> = [
        "sslmode", "sslrootcert", "host", "port", "user", "password", "dbname", "connect_timeout", "application_name",
    ]
    /// libpq's `sslmode` values, weakest first.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }
    /// Seconds `connect_timeout` may say.
    public static let connectTimeouts = 1...600

    public let components: URLComponents
    /// The query's parameters, each once (the last wins, as libpq reads them).
    public let parameters: [String: String]

    /// Why `text` is not a URL sync can use, in words for the person (without the key: the caller
    /// names it); the password, if any, is masked.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Problem) {
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://"), let components = URLComponents(string: text) else {
            throw Problem(
                description: "expected a PostgreSQL URL such as postgres://me@db.example.org/vigil?sslmode=verify-full; got '\(text.quotedValue())'")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.parameterNames.contains(item.name) else {
                throw Problem(
                    description:
                        "unknown parameter '\(item.name.quotedValue())' (Vigil reads \(Self.parameterNames.sorted().joined(separator: ", ")))")
            }
            parameters[item.name] = item.value ?? ""
        }
        if let port = parameters["port"] ?? components.port.map(String.init) {
            guard let n = Int(port), (1...65535).contains(n) else {
                throw Problem(description: "the port must be a number from 1 to 65535; got '\(port.quotedValue())'")
            }
        }
        if let mode = parameters["sslmode"], SSLMode(rawValue: mode) == nil {
            throw Problem(
                description: "sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")); got '\(mode.quotedValue())'")
        }
        if let timeout = parameters["connect_timeout"] {
            guard let n = Int(timeout), Self.connectTimeouts.contains(n) else {
                throw Problem(description: "connect_timeout is seconds from 1 to 600; got '\(timeout.quotedValue())'")
            }
        }
        self.components = components
        self.parameters = parameters
    }
}
