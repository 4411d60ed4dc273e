import ArgumentParser
import Foundation
import SessionRuntime
import SessionViews
import VigilCore

struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise recordings without running a session.",
        discussion: """
            Reads recordings in any of these formats, told apart by their content: \
            \(HelpText.formats).

            For each it prints what it holds, sensor by sensor: for input activity, key presses \
            (autorepeat excluded), clicks, scroll ticks, pointer travel, app-switch gestures and \
            the longest idle gaps; for microphone loudness, integrated loudness (audio files), \
            maximum momentary and short-term loudness and the sample peak; for location, fixes, \
            fix losses, distance travelled, the largest distance from the first fix (or from the \
            workplace, for coarse fixes) and the top speed; for the desktop, its idle readings, the \
            longest idle time, screen locks and sleeps; for the application in front, its changes \
            and the time in each application with its category; for calls and media playback, the \
            calls, the time on calls and the time playing. Counts and levels only: no key, audio, \
            coordinate or window title is printed.

            Examples:
              vigil inspect Samples/coffee-break/session.jsonl
              vigil inspect --json keyboard.yml office.wav drive.json
            """
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: ArgumentHelp("Recordings in any supported format.", valueName: "file"))
    var files: [String]

    @Flag(help: "Print one JSON object per file (fields: \(documented("inspect-json.md"))).")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one recording to inspect.") }
        for file in files { try validatePath(file, "a recording") }
    }

    func run() async throws {
        await guarded {
            let config = try common.loadConfiguration()
            // Every file is read before anything is printed, so a bad file stops the command
            // without half a report.
            let results = try Recordings(configuration: config, signals: Composition.registry.signals).inspect(files)
            for (i, r) in results.enumerated() {
                if json {
                    print(r.json())
                } else {
                    if i > 0 { print() }
                    print(r.text())
                }
            }
        }
    }
}
