import ArgumentParser
import DisplayWidth
import Foundation
import RecordingFormats
import SessionViews
import VigilCore
import VigilRuntime

struct Sensors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check each live sensor: is it there, and if not, what to do.",
        discussion: """
            Starts the detector of each enabled sensor, \(HelpText.sensors), for a moment, as \
            `vigil start` would, and prints its state with the reason and the remedy when it \
            cannot be used. Exits 0 when every enabled sensor is available, 1 otherwise.

            Examples:
              vigil sensors
              vigil sensors --json
            """
    )

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print a JSON array, an object per sensor: sensor, state, source, detail (docs/json.md).")
    var json = false

    @Option(help: ArgumentHelp("Seconds to wait for each sensor's first answer.", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        // An upper bound too: the wait is a Duration, which 1e300 s or inf would overflow (a trap).
        if !(timeout > 0 && timeout <= 3600) { throw ValidationError("--timeout must be greater than 0 and at most 3600 (an hour); got \(timeout).") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            let clock = MonotonicWallClock(wallNow: Date().timeIntervalSince1970)
            let sensors = DetectorCatalog.availability(configuration: config, now: clock.now)
            let statuses = await DetectorCatalog.probe(sensors, timeout: timeout)
            var allGood = true
            var records: [JSONValue] = []
            for (s, var status) in zip(sensors, statuses) {
                // A detector says it is retrying, as it does in a session; this check asks once.
                if status.detail.hasSuffix(" Retrying.") { status.detail.removeLast(" Retrying.".count) }
                if s.detector != nil, status.state != .available { allGood = false }
                if json {
                    records.append(
                        .object([
                            ("sensor", .string(s.sensor.rawValue)), ("state", .string(status.state.rawValue)), ("source", .string(s.source)),
                            ("detail", .string(status.detail)),
                        ]))
                } else {
                    let name = s.sensor.rawValue.padded(toWidth: 9)
                    let state = status.state.rawValue.padded(toWidth: 18)
                    // The source names config values (a server, a device); the detail is the
                    // system's own words: both inert.
                    print("\(name) \(state) \(s.source.terminalSafe)")
                    if !status.detail.isEmpty { print("          \(status.detail.terminalSafe)") }
                }
            }
            if json { printJSON(.array(records)) }
            if !allGood { throw ExitCode(1) }
        }
    }
}
