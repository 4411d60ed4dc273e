import ArgumentParser
import Foundation
import RecordingFormats
import SessionViews
import VigilConfig
import VigilCore
import VigilRuntime

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the config file and show where Vigil keeps its files.",
        subcommands: [Check.self, Paths.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a config file: every bad key is named with its line and the reason.",
            discussion: """
                Examples:
                  vigil config check
                  vigil config check --config ~/my-vigil.yaml
                """
        )
        @OptionGroup var common: CommonOptions

        func run() async throws {
            await guarded {
                let paths = common.paths
                if !paths.configExplicit && !FileManager.default.fileExists(atPath: paths.configFile) {
                    print("No config file at \(paths.configFile.terminalSafe): using the defaults (documented in config/vigil.yaml).")
                    return
                }
                do throws(ConfigErrors) {
                    _ = try ConfigLoader.load(path: paths.configFile)
                    print("\(paths.configFile.terminalSafe): OK")
                } catch {
                    let n = error.errors.count
                    throw Failure(error.description + "\n\(n) problem\(n == 1 ? "" : "s") found; nothing was changed.", code: .dataError)
                }
            }
        }
    }

    struct Paths: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the config file and data paths in use.",
            discussion: "Examples:\n  vigil config paths\n  vigil config paths --data-dir /tmp/vigil")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let p = common.paths
            let exists = FileManager.default.fileExists(atPath: p.configFile)
            print("config:    \(p.configFile.terminalSafe)\(exists ? "" : " (not present: defaults apply)")")
            print("data dir:  \(p.dataDirectory.terminalSafe)")
            print("event log: \(p.databasePath.terminalSafe)")
        }
    }
}
