import ArgumentParser
import Foundation
import VigilCore
import VigilEngine
import VigilStore

struct Start: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a live focus session.",
        discussion: """
            Runs until the planned time is up, or until you press Ctrl-C (the session is then
            saved as abandoned if it ended early). If Vigil is stopped by SIGTERM or its terminal
            closes (SIGHUP), the session is saved as interrupted. Sensors that cannot be used are
            listed with the reason, and the session runs with the others.

            Examples:
              vigil start --task "chapter 3" --minutes 50
              vigil start --minutes 25 --json
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("What you are focusing on.", valueName: "name"))
    var task: String?

    @Option(help: ArgumentHelp("Planned length in minutes (default: session.default_minutes).", valueName: "minutes"))
    var minutes: Double?

    @Flag(help: "Print one JSON object per event instead of text lines.")
    var json = false

    func validate() throws {
        if let m = minutes, !(m > 0) { throw ValidationError("--minutes must be greater than 0.") }
        if let t = task, t.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--task must not be blank.") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            let store = try common.openStore()
            let writer = SessionLogWriter(store: store)
            let out = Output()
            let sensors = DetectorCatalog.availability(configuration: config)
            for s in sensors where s.detector == nil {
                FileHandle.standardError.write(Data("vigil: \(s.sensor.rawValue): \(s.status.detail)\n".utf8))
            }
            let planned = (minutes ?? config.session.defaultMinutes) * 60
            let wallStart = Timestamp(seconds: Date().timeIntervalSince1970)
            let renderer = TimelineRenderer(sessionStart: wallStart)
            let asJSON = json
            let live = LiveSession(configuration: config, task: task, plannedSeconds: planned, wallStart: wallStart, clock: ContinuousClock()) { events in
                writer.write(events)
                for e in events {
                    if asJSON { out.line(renderer.json(e)) } else if let t = renderer.text(e) { out.line(t) }
                }
                out.flush()
            }
            let (commands, continuation) = AsyncStream<LiveCommand>.makeStream()
            // Ctrl-C is the person ending the session; `kill` and a closed terminal interrupt it.
            // Either way it is closed cleanly and saved, not lost.
            var sources: [any DispatchSourceSignal] = []
            let signals: [(Int32, LiveCommand)] = [(SIGINT, .control(.end)), (SIGTERM, .end(.interrupted)), (SIGHUP, .end(.interrupted))]
            for (sig, command) in signals {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
                source.setEventHandler { continuation.yield(command) }
                source.resume()
                sources.append(source)
            }
            await live.begin(statuses: sensors.map(\.status))
            await live.run(detectors: sensors.compactMap(\.detector), commands: commands)
            continuation.finish()
            _ = sources
            if let failure = writer.failure {
                throw Failure("the session ran, but its events could not all be logged: \(failure)", code: .ioError)
            }
            if let id = writer.session { FileHandle.standardError.write(Data("vigil: saved as session \(id) in \(store.path)\n".utf8)) }
        }
    }
}
