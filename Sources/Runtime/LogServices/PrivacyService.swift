import SessionRuntime
import SystemCalls
import VigilCore
import VigilStore

/// Why forgetting was refused.
public enum PrivacyError: Error, Equatable, Sendable {
    /// A session is running: what it logs next would belong to the period being forgotten.
    case sessionRunning
}

/// What Vigil stores about the person, as `vigil forget` removes it: the rule that a running
/// session ends first, checked before the person is asked; the period's rows; and the unfinished
/// output files an interrupted Vigil left (each may hold any period).
public struct PrivacyService: Sendable {
    public let paths: VigilPaths

    public init(paths: VigilPaths) { self.paths = paths }

    /// What `forget` removed: the period's rows, and the unfinished outputs' paths.
    public struct Forgotten: Sendable {
        public var rows: ForgottenRows
        public var leftovers: [String]
    }

    /// Forgets the local days `days` (inclusive) in `store` once `confirmed` says so, told how many
    /// sessions they hold; nil when the answer was no. Refused before asking while a session runs.
    /// The unfinished outputs go first: they may hold any period, and a failure of the log's
    /// delete must not leave them.
    public func forget(
        _ days: ClosedRange<Int>, in log: LocalLog, now: LocalNow, confirmed: (_ sessions: Int) throws -> Bool
    ) throws -> Forgotten? {
        if SessionStatusFile(dataDirectory: paths.dataDirectory).running() != nil { throw PrivacyError.sessionRunning }
        let (from, to) = (now.startOfDay(days.lowerBound), now.startOfDay(days.upperBound + 1))
        let store = log.store
        guard try confirmed(try store.sessionCount(from: from, to: to)) else { return nil }
        let leftovers = removeLeftovers()
        return Forgotten(rows: try store.forget(from: from, to: to, fromDay: days.lowerBound, toDay: days.upperBound), leftovers: leftovers)
    }

    /// Removes the temporaries of outputs a killed Vigil left (an export, a report, a recording,
    /// the status file); returns their paths.
    public func removeLeftovers() -> [String] {
        OutputFile.removeLeftovers(journal: paths.outputJournal, directory: paths.dataDirectory)
    }
}
