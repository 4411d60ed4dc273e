import ArgumentParser
import DisplayWidth
import Foundation
import SessionRuntime
import SessionViews
import VigilCore

struct Sensors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check each live sensor: is it in use here, and if not, why and what to do.",
        discussion: """
            Starts the detector of each enabled sensor, \(HelpText.sensors), for a moment, as \
            `vigil start` would, and prints whether each is in use, with the reason and the remedy \
            when it is not. A sensor that is switched off or not there on this machine is "not in \
            use": the session does without it. Exits 0 when a session can run, 1 when it cannot \
            tell whether you are at the computer (neither the desktop nor input devices work) or a \
            configured workplace has no gpsd.

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
            let sensors = Composition.registry.availability(configuration: config)
            let statuses = await DetectorCatalog.probe(sensors, timeout: timeout)
            let uses = DetectorCatalog.uses(statuses, configuration: config)
            var records: [JSONValue] = []
            for ((s, var status), use) in zip(zip(sensors, statuses), uses) {
                // A detector says it is retrying, as it does in a session; this check asks once.
                if status.detail.hasSuffix(" Retrying.") { status.detail.removeLast(" Retrying.".count) }
                if json {
                    records.append(
                        .object([
                            ("sensor", .string(s.sensor.rawValue)), ("use", .string(use.rawValue)), ("state", .string(status.state.rawValue)),
                            ("source", .string(s.source)), ("detail", .string(status.detail)),
                        ]))
                } else {
                    let name = s.sensor.rawValue.padded(toWidth: 9)
                    let state = use.words.padded(toWidth: 12)
                    // The source names config values (a server, a device); the detail is the
                    // system's own words: both inert.
                    print("\(name) \(state) \(s.source.terminalSafe)")
                    if !status.detail.isEmpty { print("          \(status.detail.terminalSafe)") }
                }
            }
            if json { printJSON(.array(records)) }
            if uses.contains(.failing) { throw ExitCode(1) }
        }
    }
}
