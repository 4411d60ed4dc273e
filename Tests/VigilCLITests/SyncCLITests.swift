import Foundation
import TestSupport
import Testing

/// One PostgreSQL server for the CLI's sync tests, a database per test.
private let postgres: Result<PostgresServer, any Error> = Result { try PostgresServer() }

/// `vigil sync` and `vigil device` as a person runs them: two computers are two homes with their
/// own config and data directory, and the same `sync.url`.
@Suite struct SyncCLITests {
    let server: PostgresServer
    init() throws { server = try postgres.get() }

    func computer(_ name: String, url: String) async throws -> String {
        let home = freshHome()
        write("sync:\n  url: \(url)\n", to: home + "/config/vigil/config.yaml")
        let named = try await vigil(["device", "--name", name], home: home)
        try #require(named.status == 0, "\(named.stderr)")
        return home
    }

    @Test func twoComputersSyncAndSeeEachOthersSessions() async throws {
        let url = server.url(try server.createDatabase())
        let laptop = try await computer("laptop", url: url)
        let desktop = try await computer("desktop", url: url)
        for (home, seed) in [(laptop, "1"), (desktop, "2")] {
            let r = try await vigil(["simulate", "--days", "14", "--seed", seed], home: home)
            try #require(r.status == 0, "\(r.stderr)")
        }
        let env = ["PGPASSWORD": server.password]
        let first = try await vigil(["sync"], home: laptop, env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("(the first time)"), "\(first.stdout)")
        #expect(first.stdout.contains("Received 0 sessions"), "\(first.stdout)")
        let second = try await vigil(["sync"], home: desktop, env: env)
        #expect(second.status == 0, "\(second.stderr)")
        let third = try await vigil(["sync"], home: laptop, env: env)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout.contains("Devices: desktop, laptop."), "\(third.stdout)")
        let again = try await vigil(["sync"], home: laptop, env: env)
        #expect(again.stdout.contains("Up to date: nothing to send or receive."), "\(again.stdout)")

        // Both logs hold both computers' sessions.
        func sessions(_ home: String) async throws -> Int {
            try await vigil(["log", "--json", "--limit", "100000", "--source", "all"], home: home).stdout.split(separator: "\n").count
        }
        let onLaptop = try await sessions(laptop)
        let onDesktop = try await sessions(desktop)
        #expect(onLaptop == onDesktop)
        #expect(onLaptop > 20)
        let devices = try await vigil(["device"], home: laptop).stdout
        #expect(devices.contains("laptop") && devices.contains("(this device)") && devices.contains("desktop"), "\(devices)")
    }

    /// Each failure says what to do, with its own exit code, and leaves the log as it was.
    @Test func failuresNameTheRemedyAndTheirExitCode() async throws {
        let database = try server.createDatabase()
        let home = try await computer("laptop", url: server.url(database))
        let simulated = try await vigil(["simulate", "--days", "10"], home: home)
        try #require(simulated.status == 0)

        let wrong = try await vigil(["sync"], home: home, env: ["PGPASSWORD": "not-it"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("sync.password_file or PGPASSWORD"), "\(wrong.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(freePort())/x?sslmode=disable\n", to: home + "/config/vigil/config.yaml")
        let down = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(down.status == 75)
        #expect(down.stderr.contains("cannot be reached") && down.stderr.contains("Waiting here:"), "\(down.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(server.port)/x?sslmode=sometimes\n", to: home + "/config/vigil/config.yaml")
        let badMode = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(badMode.status == 78)
        #expect(badMode.stderr.contains("sslmode must be one of"), "\(badMode.stderr)")

        write("sync:\n  url: postgres://vigil@127.0.0.1:\(server.port)/no_such_db?sslmode=disable\n", to: home + "/config/vigil/config.yaml")
        let noDatabase = try await vigil(["sync"], home: home, env: ["PGPASSWORD": server.password])
        #expect(noDatabase.status == 78)
        #expect(noDatabase.stderr.contains("createdb no_such_db"), "\(noDatabase.stderr)")

        let passwordFile = home + "/pw"
        write(server.password + "\n", to: passwordFile)
        chmod(passwordFile, 0o644)
        write(
            "sync:\n  url: \(server.url(database))\n  password_file: \(passwordFile)\n", to: home + "/config/vigil/config.yaml")
        let open = try await vigil(["sync"], home: home)
        #expect(open.status == 78)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")
        chmod(passwordFile, 0o600)
        let fine = try await vigil(["sync"], home: home)
        #expect(fine.status == 0, "\(fine.stderr)")

        let notSetUp = try await vigil(["sync"], home: freshHome())
        #expect(notSetUp.status == 78)
        #expect(notSetUp.stderr.contains("sync is not set up"), "\(notSetUp.stderr)")
    }
}
