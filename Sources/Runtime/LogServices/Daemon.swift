import DetectorSupport
import Foundation
import Logging
import ServiceLifecycle
import SystemCalls
import VigilCore

/// `vigil daemon`: the reminder rounds and, with sync set up, the sync schedule, and with
/// `daemon.watch` the all-day watch (`DayWatchService`), run as one
/// service group (swift-service-lifecycle's `ServiceGroup`): a graceful shutdown (the command's
/// SIGTERM, Ctrl-C or SIGHUP) ends both, a round's error ends the group with it, and `run`
/// returns when all have stopped.
public struct VigilDaemon: Sendable {
    private let group: ServiceGroup

    public init(reminders: ReminderDaemon<ContinuousClock>, sync: SyncSchedule?, watch: DayWatchService? = nil) {
        var services: [any Service] = [Rounds(daemon: reminders)]
        if let sync { services.append(Syncing(schedule: sync)) }
        if let watch { services.append(Watching(watch: watch)) }
        // The daemon's own lines go through `Diagnostics`; the group's are not for the person.
        let quiet = Logger(label: "vigil.daemon") { _ in SwiftLogNoOpLogHandler() }
        group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: quiet))
    }

    /// Runs until shut down, or until the reminder rounds fail (their error is thrown).
    public func run() async throws { try await group.run() }

    /// Ends every service: the rounds' wait and a sync under way are cut short (a sync cut
    /// anywhere is completed by the next one).
    public func shutDown() async { await group.triggerGracefulShutdown() }

    private struct Rounds: Service {
        let daemon: ReminderDaemon<ContinuousClock>
        func run() async throws { try await cancelWhenGracefulShutdown { try await daemon.run() } }
    }

    private struct Watching: Service {
        let watch: DayWatchService
        func run() async throws { await cancelWhenGracefulShutdown { await watch.run() } }
    }

    private struct Syncing: Service {
        let schedule: SyncSchedule
        func run() async throws { try await cancelWhenGracefulShutdown { await schedule.run() } }
    }
}

/// The daemon's sync: vigil-sync now, then every `sync.every`; after a failure sooner (a minute,
/// doubling up to `sync.every`), so a server that was down is caught up soon after it is back.
public struct SyncSchedule: Sendable {
    let call: SyncToolCall
    let every: Double
    let log: @Sendable (String, Bool) -> Void

    /// - Parameter log: a line for the person, and whether it is a warning.
    public init(call: SyncToolCall, every: Double, log: @escaping @Sendable (String, Bool) -> Void) {
        self.call = call
        self.every = every
        self.log = log
    }

    public func run() async {
        // After a failure a minute, doubling up to `every`.
        var retry = Backoff(first: min(60, every), longest: every)
        while !Task.isCancelled {
            let (status, output) = await runSyncTool(call)
            let said = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            let wait: Double
            if status == 0 {
                retry.reset()
                wait = every
                log("vigil daemon: \(said)", false)
            } else {
                wait = retry.next()
                log("vigil daemon: sync failed (exit \(status)): \(said)", true)
            }
            do { try await Task.sleep(for: .seconds(wait)) } catch { return }
        }
    }
}

/// Runs vigil-sync (next to vigil) to its end: its exit status and what it said (both streams).
/// Cancelled (the daemon stopping), it stops vigil-sync too: a sync cut anywhere is completed by
/// the next one.
public func runSyncTool(_ call: SyncToolCall) async -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: FilePaths.directory(of: executablePath()) + "/vigil-sync")
    process.arguments = call.arguments
    process.environment = ProcessInfo.processInfo.environment.merging(call.environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return (127, "cannot start vigil-sync: \(error)")
    }
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    } onCancel: {
        process.terminate()
    }
}

/// How vigil-sync is run for the log at `log` and the config's sync settings: the URLs, which can
/// hold a password, go in its environment (which only its user can read, and which it clears once
/// read), never on its command line (which `ps` shows every user).
public struct SyncToolCall: Sendable {
    public var arguments: [String]
    public var environment: [String: String]

    public init(log: String, url: String, sync: VigilConfiguration.Sync) {
        arguments = ["--log", log]
        environment = ["VIGIL_SYNC_URL": url]
        if let file = sync.passwordFile { arguments += ["--password-file", file] }
        if sync.shareReasons { arguments.append("--share-reasons") }
        if let group = sync.group { arguments += ["--group", group] }
        if let groupURL = sync.groupURL { environment["VIGIL_SYNC_GROUP_URL"] = groupURL }
        if let alias = sync.alias { arguments += ["--alias", alias] }
    }
}

/// This program's own file, through /proc (what the shell found on PATH may be a link).
public func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}
