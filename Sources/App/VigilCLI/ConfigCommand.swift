import ArgumentParser
import DisplayWidth
import Foundation
import SessionRuntime
import SessionViews
import SystemCalls
import VigilCore

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Write, check and show the config file, and show where Vigil keeps its files.",
        discussion: """
            Every key is documented, with its default, in vigil.yaml(5): man vigil.yaml

            Examples:
              vigil config init
              vigil config show
              vigil config check
            """,
        subcommands: [Init.self, Check.self, Show.self, Paths.self, Documented.self]
    )

    struct Init: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a commented config file to start from: every key, its default and what it does.",
            discussion: """
                Every key is written commented out (#key: value), so the new file changes nothing: \
                uncomment a key and change its value. An existing file is never overwritten.

                Examples:
                  vigil config init
                  vigil config init --config ~/my-vigil.yaml
                """
        )
        static let checksConfiguration = false
        @OptionGroup var common: CommonOptions

        func run() async throws {
            await guarded {
                let path = common.paths.configFile
                let text =
                    """
                    # Vigil configuration, written by `vigil config init`.
                    #
                    # Every key below is commented out and keeps its default, shown: uncomment the ones you
                    # want to change. `vigil config check` checks this file, `vigil config show` shows what is
                    # in effect and where it comes from, and `man vigil.yaml` documents every key.

                    """ + ConfigService(paths: common.paths, plugIns: Composition.registry.config).commentedDefaults() + "\n"
                try createNew(path, contents: text)
                print("Wrote \(path.terminalSafe): every key is commented out with its default; uncomment what you want to change.")
                print(
                    """
                    Alarms can act, not only tell (alarms.channels): pause_media pauses the music or video that plays
                    at alarm levels 2 to 4 and resumes it when you are back (on by default); hide moves a distracting
                    window out of sight, never closing it, and refocus brings your work window back (both off until
                    you add them). session.strict makes every session a commitment that q and Ctrl-C cannot end early.
                    """)
            }
        }

        /// Creates `path` with `contents`, never replacing what is there: created exclusively, and
        /// removed again if it could not be written whole.
        private func createNew(_ path: String, contents: String) throws {
            let directory = FilePaths.directory(of: path)
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw Failure(
                    "\(directory.terminalSafe): cannot create the config directory. Choose another file with --config.", code: .cannotCreate)
            }
            let fd: Int32
            do {
                fd = try syscall("open", path: path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            } catch  where error.errno == EEXIST {
                throw Failure(
                    "\(path.terminalSafe) already exists and is left as it is. `vigil config show` shows what it sets; "
                        + "write the commented defaults elsewhere with --config FILE.", code: .failure)
            } catch {
                throw Failure(
                    "\(path.terminalSafe): cannot create the config file: \(error.reason). Choose another with --config.", code: .cannotCreate)
            }
            defer { close(fd) }
            do {
                try writeAll(fd, Array(contents.utf8))
                try syscall("fsync", path: path) { fsync(fd) }
            } catch {
                unlink(path)
                throw Failure("\(path.terminalSafe): cannot write the config file: \(error.reason). Nothing was left behind.", code: .ioError)
            }
        }
    }

    struct Check: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a config file: every bad key is named with its line and the reason.",
            discussion: """
                Examples:
                  vigil config check
                  vigil config check --config ~/my-vigil.yaml
                """
        )
        static let checksConfiguration = false
        @OptionGroup var common: CommonOptions

        func run() async throws {
            await guarded {
                let paths = common.paths
                if !paths.configExplicit && !FileManager.default.fileExists(atPath: paths.configFile) {
                    print(
                        "No config file at \(paths.configFile.terminalSafe): using the defaults (man vigil.yaml; vigil config init writes a file to start from)."
                    )
                    return
                }
                try ConfigService(paths: paths, plugIns: Composition.registry.config).check()
                print("\(paths.configFile.terminalSafe): OK")
            }
        }
    }

    struct Show: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the configuration in effect, each key with where its value comes from.",
            discussion: """
                Each key is followed by "default" or by the file and line that set it.

                Examples:
                  vigil config show
                  vigil config show --json
                """
        )
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print a JSON array of {key, value, source, line}.") var json = false

        func run() async throws {
            await guarded {
                let paths = common.paths
                // Loaded first: a file with a problem is refused with every problem named.
                _ = try common.loadConfiguration()
                let settings = ConfigService(paths: paths, plugIns: Composition.registry.config).settingsInEffect()
                let file = paths.configFile
                // A password written into sync.url or sync.group_url is masked, as everywhere Vigil
                // shows one (its output is pasted into bug reports); a value too long to read is cut.
                func shown(_ s: ConfigService.Setting) -> [String] { s.value.map { $0.quotedValue(limit: 200) } }
                if json {
                    printJSON(
                        .array(
                            settings.map { s in
                                .object([
                                    ("key", .string(s.key)), ("value", .string(shown(s).joined(separator: "\n"))),
                                    ("source", .string(s.line == nil ? "default" : file)), ("line", .int(s.line)),
                                ])
                            }))
                    return
                }
                var section = ""
                var out: [String] = []
                for s in settings {
                    let parts = s.key.split(separator: ".", maxSplits: 1)
                    if parts[0] != section {
                        if !section.isEmpty { out.append("") }
                        section = String(parts[0])
                        out.append("\(section):")
                    }
                    let source = s.line.map { "\(file):\($0)" } ?? "default"
                    let value = shown(s)
                    let head = "  \(parts[1]): \(value[0])".trimmingTrailingSpaces
                    out.append(head.padded(toWidth: max(head.displayWidth + 2, 44)) + "# " + source)
                    out += value.dropFirst().map { "    " + $0 }
                }
                print(out.joined(separator: "\n").terminalSafeLines)
            }
        }
    }

    /// The documented config with this program's plug-ins, for scripts/generate-manuals.py: the
    /// manual of a `vigil` composed with more modules documents their sections too.
    struct Documented: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every config key with its default and documentation, plug-ins' sections included.", shouldDisplay: false)
        static let checksConfiguration = false
        @OptionGroup var common: CommonOptions

        func run() async throws {
            await guarded {
                let text = ConfigService(paths: common.paths, plugIns: Composition.registry.config).documented()
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            }
        }
    }

    struct Paths: AsyncParsableCommand, VigilCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the config file and data paths in use.",
            discussion: "Examples:\n  vigil config paths\n  vigil config paths --data-dir /tmp/vigil\n  vigil config paths --json")
        static let checksConfiguration = false
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print a JSON object {config, config_exists, data_dir, event_log, documentation}.") var json = false

        func run() async throws {
            let p = common.paths
            let exists = FileManager.default.fileExists(atPath: p.configFile)
            let docs = documentationDirectory()
            if json {
                printJSON(
                    .object([
                        ("config", .string(p.configFile)), ("config_exists", .bool(exists)), ("data_dir", .string(p.dataDirectory)),
                        ("event_log", .string(p.databasePath)), ("documentation", docs.map { .string($0) } ?? .null),
                    ]))
                return
            }
            print("config:    \(p.configFile.terminalSafe)\(exists ? "" : " (not present: defaults apply)")")
            print("data dir:  \(p.dataDirectory.terminalSafe)")
            print("event log: \(p.databasePath.terminalSafe)")
            print("docs:      \(docs?.terminalSafe ?? "not installed (scripts/install.sh installs it; the repository's docs/ folder has it)")")
        }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
