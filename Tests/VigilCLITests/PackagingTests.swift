import Foundation
import TestSupport
import Testing

/// How Vigil reaches a person's machine: the manual pages (scripts/generate-manuals.py), the
/// Debian package (scripts/build-deb.sh), scripts/install.sh and its --uninstall, and the
/// reminder daemon's systemd unit. Each runs the scripts on the debug binaries this suite built.
@Suite struct PackagingTests {
    /// The directory of the built vigil and vigil-sync.
    let binaries = URL(fileURLWithPath: vigilBinary).deletingLastPathComponent().path

    /// The test's environment with `changes`: the scripts need PATH.
    func environment(_ changes: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(changes) { $1 }
    }

    func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-packaging-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Every command's page name (vigil, vigil-report, vigil-task-add), from the binary's own
    /// description of its commands; the parser's `help` and hidden commands have none.
    func commandPages() async throws -> [String] {
        let dump = await runProcess(vigilBinary, ["--experimental-dump-help"])
        let json = try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any]
        var pages: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let name = command["commandName"] as? String ?? "?"
            guard name != "help", command["shouldDisplay"] as? Bool ?? true else { return }
            pages.append((path + [name]).joined(separator: "-"))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [name]) }
        }
        walk(json?["command"] as? [String: Any] ?? [:], [])
        return pages
    }

    func generatePages(into dir: String) async -> (status: Int32, output: String) {
        await runProcess(
            "/usr/bin/python3", [repo + "/scripts/generate-manuals.py", "--vigil", vigilBinary, "--output", dir], environment: environment())
    }

    @Test func everyCommandHasAPageThatRendersWithoutWarnings() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let generated = await generatePages(into: dir)
        #expect(generated.status == 0, "\(generated.output)")
        let pages = try await commandPages()
        #expect(pages.count > 30)
        #expect(pages.contains("vigil-task-add") && pages.contains("vigil-report") && pages.contains("vigil-daemon"))
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/man1").sorted()
        let expected = pages.map { $0 + ".1" }.sorted()
        #expect(written == expected)
        for page in pages {
            let file = dir + "/man1/" + page + ".1"
            let rendered = await runProcess("/usr/bin/groff", ["-ww", "-man", "-Tutf8", "-z", file])
            #expect(rendered.status == 0 && rendered.output.isEmpty, "\(page): \(rendered.output)")
            let source = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
                let present = source.contains(".SH \(section)\n")
                #expect(present, "\(page) has no \(section)")
            }
        }
    }

    @Test func pagesSayVigilsOwnExitCodesEnvironmentAndExamples() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(await generatePages(into: dir).status == 0)
        // As a person reads it: man -l, at a set width.
        let man = await runProcess(
            "/usr/bin/man", ["-l", dir + "/man1/vigil-sync.1"], environment: environment(["MANWIDTH": "100", "MANPAGER": "cat"]))
        #expect(man.status == 0)
        let sync = man.output
        for code in ["64", "75", "77", "78"] {
            let listed = sync.contains("\n       \(code) ")
            #expect(listed, "vigil-sync(1) lacks exit status \(code)")
        }
        #expect(sync.contains("PGPASSWORD") && sync.contains("XDG_DATA_HOME") && sync.contains("vigil.sqlite3"))
        #expect(sync.contains("EXAMPLES") && sync.contains("vigil sync"))
        #expect(!sync.contains(">0"))

        let add = try String(contentsOfFile: dir + "/man1/vigil-task-add.1", encoding: .utf8)
        #expect(add.contains("\\fB64\\fR") && !add.contains("\\fB75\\fR") && !add.contains("PGHOST"))
        #expect(add.contains(".SH EXAMPLES") && add.contains("vigil task add"))
        #expect(add.contains("\\fBvigil\\-task\\fR(1)"))
        let root = try String(contentsOfFile: dir + "/man1/vigil.1", encoding: .utf8)
        for code in [0, 1, 64, 65, 69, 73, 74, 75, 77, 78] {
            let listed = root.contains("\\fB\(code)\\fR")
            #expect(listed, "vigil(1) lacks exit status \(code)")
        }
        #expect(root.contains("\\fBvigil\\-report\\fR(1)") && root.contains("NO_COLOR") && root.contains("XDG_CONFIG_HOME"))
    }

    @Test func theConfigPageDocumentsEveryKeyOfTheDefaultConfig() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(await generatePages(into: dir).status == 0)
        let page = dir + "/man5/vigil.yaml.5"
        let rendered = await runProcess("/usr/bin/groff", ["-ww", "-man", "-Tutf8", "-z", page])
        #expect(rendered.status == 0 && rendered.output.isEmpty, "\(rendered.output)")
        let source = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        // section.key for every key of config/vigil.yaml, with its comment's words.
        var section = ""
        var keys = 0
        for line in try String(contentsOfFile: repo + "/config/vigil.yaml", encoding: .utf8).split(separator: "\n") {
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { continue }
            if !line.hasPrefix(" ") {
                section = String(line[..<colon])
            } else if line.hasPrefix("  "), !line.hasPrefix("   "), !line.contains("#") {
                let key = section + "." + line[line.index(line.startIndex, offsetBy: 2)..<colon]
                keys += 1
                let documented = source.contains("\\fB\(key)\\fR")
                #expect(documented, "vigil.yaml(5) lacks \(key)")
            }
        }
        #expect(keys > 60)
        #expect(source.contains("Planned length of \\fBvigil start\\fR when --minutes is not given"))
        #expect(source.contains(".SH \"SYNC\"") && source.contains("/usr/share/vigil/vigil.yaml"))
    }

    /// The config page is made from what the binary documents, so a `vigil` composed with a
    /// plug-in documents its section too (`vigil config documented`); the product's is its
    /// config/vigil.yaml, byte for byte.
    @Test func theConfigPageDocumentsThePlugInsSectionsOfItsBinary() async throws {
        #expect(
            await runProcess(vigilBinary, ["config", "documented"]).output
                == (try String(contentsOfFile: repo + "/config/vigil.yaml", encoding: .utf8)))
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let generated = await runProcess(
            "/usr/bin/python3", [repo + "/scripts/generate-manuals.py", "--vigil", pluggedBinary, "--output", dir], environment: environment())
        #expect(generated.status == 0, "\(generated.output)")
        let source = try String(contentsOfFile: dir + "/man5/vigil.yaml.5", encoding: .utf8)
        for key in ["phone.grace", "phone.full", "phone.enabled"] { #expect(source.contains("\\fB\(key)\\fR"), "vigil.yaml(5) lacks \(key)") }
        #expect(source.contains("Time in hand that scores nothing"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/man1/vigil-config-documented.1"), "a command for the manuals' script, not for people")
    }

    @Test func theDebianPackageHasTheFilesAndTheDependencies() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A debug build links the toolchain's Swift runtime, which no package has: refused...
        let refused = await runProcess("/bin/bash", [repo + "/scripts/build-deb.sh", "--bin", binaries, "--output", dir], environment: environment())
        #expect(refused.status == 1 && refused.output.contains("no Debian package has these linked libraries"), "\(refused.output)")
        // ...unless asked.
        let built = await runProcess(
            "/bin/bash", [repo + "/scripts/build-deb.sh", "--bin", binaries, "--output", dir, "--allow-unpackaged", "--compression", "none"],
            environment: environment())
        #expect(built.status == 0, "\(built.output)")
        let version = await runProcess(vigilBinary, ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = await runProcess("/usr/bin/dpkg", ["--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = dir + "/vigil_\(version)_\(arch).deb"
        #expect(built.output.hasSuffix(deb + "\n"))

        let info = await runProcess("/usr/bin/dpkg-deb", ["-I", deb]).output
        let depends = info.split(separator: "\n").first { $0.hasPrefix(" Depends: ") } ?? ""
        let recommends = info.split(separator: "\n").first { $0.hasPrefix(" Recommends: ") } ?? ""
        #expect(depends.contains("libsqlite3-0 (>= ") && depends.contains("libc6 (>= ") && depends.contains("libwayland-client0"), "\(info)")
        for library in ["libinput10", "libpulse0", "libxcb1", "libxcb-screensaver0", "libdbus-1-3", "libudev1", "libgps", "libical3"] {
            let recommended = recommends.contains(library)
            #expect(recommended, "Recommends lacks \(library): \(recommends)")
        }
        #expect(info.contains(" Package: vigil\n") && info.contains(" Version: \(version)\n") && info.contains(" Architecture: \(arch)\n"))

        let contents = await runProcess("/usr/bin/dpkg-deb", ["--contents", deb]).output
        let expected = [
            "./usr/bin/vigil", "./usr/bin/vigil-sync", "./usr/share/man/man1/vigil.1.gz", "./usr/share/man/man1/vigil-report.1.gz",
            "./usr/share/man/man1/vigil-task-add.1.gz", "./usr/share/man/man1/vigil-daemon.1.gz", "./usr/share/man/man5/vigil.yaml.5.gz",
            "./usr/share/bash-completion/completions/vigil", "./usr/share/zsh/vendor-completions/_vigil",
            "./usr/share/fish/vendor_completions.d/vigil.fish", "./usr/share/vigil/vigil.yaml", "./usr/lib/systemd/user/vigil-daemon.service",
            "./usr/share/gnome-shell/extensions/vigil@vigil.dev/extension.js", "./usr/share/gnome-shell/extensions/vigil@vigil.dev/metadata.json",
        ]
        for file in expected {
            let listed = contents.contains(" \(file)\n")
            #expect(listed, "the package lacks \(file)")
        }
        #expect(contents.contains("root/root") && !contents.contains("DEBIAN"))

        // Unpacked as dpkg would, the programs run and the unit starts /usr/bin/vigil.
        let root = dir + "/root"
        #expect(await runProcess("/usr/bin/dpkg-deb", ["-x", deb, root]).status == 0)
        let unpacked = await runProcess(root + "/usr/bin/vigil", ["--version"])
        #expect(unpacked.status == 0 && unpacked.output == version + "\n")
        #expect(await runProcess(root + "/usr/bin/vigil-sync", ["--help"]).status == 0)
        let unit = try String(contentsOfFile: root + "/usr/lib/systemd/user/vigil-daemon.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/vigil daemon\n"))
        let config = try String(contentsOfFile: root + "/usr/share/vigil/vigil.yaml", encoding: .utf8)
        #expect(config == (try String(contentsOfFile: repo + "/config/vigil.yaml", encoding: .utf8)))
        // Debian 12's GNOME Shell is 43: the legacy flavour.
        let metadata = try String(contentsOfFile: root + "/usr/share/gnome-shell/extensions/vigil@vigil.dev/metadata.json", encoding: .utf8)
        #expect(metadata.contains("\"43\""), "\(metadata)")
    }

    @Test func installAndUninstallRoundTrip() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let prefix = dir + "/prefix"
        // No session bus: on a developer's GNOME desktop, the install must not enable the
        // extension in their own settings.
        let env = environment([
            "PREFIX": prefix, "XDG_CONFIG_HOME": dir + "/config", "XDG_DATA_HOME": dir + "/data",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/vigil-tests/session_bus",
        ])
        // The person's own config and data, which no uninstall may touch.
        try FileManager.default.createDirectory(atPath: dir + "/config/vigil", withIntermediateDirectories: true)
        try "session: {default_minutes: 25}\n".write(toFile: dir + "/config/vigil/config.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/data/vigil", withIntermediateDirectories: true)
        try "log".write(toFile: dir + "/data/vigil/vigil.sqlite3", atomically: true, encoding: .utf8)
        let script = repo + "/scripts/install.sh"

        let missing = await runProcess("/bin/bash", [script, "--bin", dir + "/nothing", "--no-packages"], environment: env)
        #expect(missing.status == 1 && !FileManager.default.fileExists(atPath: prefix + "/bin/vigil"), "\(missing.output)")

        let installed = await runProcess("/bin/bash", [script, "--bin", binaries, "--no-packages"], environment: env)
        #expect(installed.status == 0, "\(installed.output)")
        let manifestPath = prefix + "/share/doc/vigil/install-manifest"
        let manifest = ((try? String(contentsOfFile: manifestPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        for file in [
            "/bin/vigil", "/bin/vigil-sync", "/share/man/man1/vigil-report.1", "/share/man/man1/vigil-task-add.1", "/share/man/man5/vigil.yaml.5",
            "/share/bash-completion/completions/vigil", "/share/zsh/site-functions/_vigil", "/share/doc/vigil/vigil.yaml",
        ] {
            let listed = manifest.contains(prefix + file)
            #expect(listed, "the manifest lacks \(file)")
        }
        #expect(manifest.contains(dir + "/config/fish/completions/vigil.fish"))
        // GNOME Shell is installed here (the tests run it): its extension too, in the person's
        // data folder; without a session bus GNOME's settings cannot be saved, and it says so.
        #expect(manifest.contains(dir + "/data/gnome-shell/extensions/vigil@vigil.dev/extension.js"), "\(manifest)")
        #expect(installed.output.contains("install: Installed Vigil's GNOME Shell extension"), "\(installed.output)")
        #expect(installed.output.contains("install: Not enabled: GNOME's settings did not keep"), "\(installed.output)")
        for file in manifest {
            let exists = FileManager.default.fileExists(atPath: file)
            #expect(exists, "\(file) is listed but not there")
        }
        #expect(await runProcess(prefix + "/bin/vigil", ["--version"]).status == 0)

        // Again over itself: the same files.
        #expect(await runProcess("/bin/bash", [script, "--bin", binaries, "--no-packages"], environment: env).status == 0)
        let again = ((try? String(contentsOfFile: manifestPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(again == manifest)

        let removed = await runProcess("/bin/bash", [script, "--uninstall"], environment: env)
        #expect(removed.status == 0, "\(removed.output)")
        let left = FileManager.default.enumerator(atPath: prefix)?.allObjects as? [String] ?? []
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/config/fish"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/data/gnome-shell"))
        #expect((try? String(contentsOfFile: dir + "/config/vigil/config.yaml", encoding: .utf8)) == "session: {default_minutes: 25}\n")
        #expect(FileManager.default.fileExists(atPath: dir + "/data/vigil/vigil.sqlite3"))
        let twice = await runProcess("/bin/bash", [script, "--uninstall"], environment: env)
        #expect(twice.status == 1 && twice.output.contains("nothing to remove"))
    }

    @Test func aFailedBuildInstallsNothing() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A Swift toolchain whose build fails, first on PATH.
        let tools = dir + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        // Written by a shell of its own, not by this process: a child that another test spawns
        // meanwhile would inherit the descriptor of a script this process is writing, and running
        // the script then fails (ETXTBSY) before it can say the build failed. It leaves a mark,
        // so the test knows the build ran.
        let script = "#!/bin/sh\necho 'error: the build failed here' >&2\necho \"$@\" >>'\(dir)/build-ran'\nexit 1\n"
        let made = await runProcess("/bin/sh", ["-c", "cat >\"$1\" <<'EOF'\n\(script)EOF\nchmod 755 \"$1\"", "sh", tools + "/swift"])
        #expect(made.status == 0, "\(made.output)")
        let path = tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let env = environment(["PREFIX": dir + "/prefix", "XDG_CONFIG_HOME": dir + "/config", "PATH": path])
        let failed = await runProcess("/bin/bash", [repo + "/scripts/install.sh", "--no-packages"], environment: env)
        #expect(failed.status != 0 && failed.output.contains("error: the build failed here"), "\(failed.output)")
        let ran = (try? String(contentsOfFile: dir + "/build-ran", encoding: .utf8)) ?? ""
        #expect(ran.hasPrefix("build -c release"), "the build was run: \(ran)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/prefix"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/config"))
    }

    @Test func theDaemonUnitStartsUnderPlainWindowManagersAndItsManualResolves() async throws {
        let unit = try String(contentsOfFile: repo + "/config/vigil-daemon.service", encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines.contains("WantedBy=default.target"))
        #expect(!lines.contains { $0.hasPrefix("WantedBy=graphical-session") || $0.hasPrefix("PartOf=") })
        #expect(lines.contains("Documentation=man:vigil-daemon(1) man:vigil.yaml(5)"))
        // install.sh and build-deb.sh put their own path in place of this one.
        #expect(lines.contains("ExecStart=%h/.local/bin/vigil daemon"))

        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(await generatePages(into: dir + "/man").status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/man/man1/vigil-daemon.1"))
        #expect(FileManager.default.fileExists(atPath: dir + "/man/man5/vigil.yaml.5"))
        // systemd's own check, where systemd is installed: the keys, the command, and the pages
        // named by Documentation= (through man, on the generated pages).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else { return }
        let runtime = dir + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let tested = dir + "/vigil-daemon.service"
        try unit.replacingOccurrences(of: "%h/.local/bin/vigil", with: vigilBinary).write(toFile: tested, atomically: true, encoding: .utf8)
        let env = environment(["XDG_RUNTIME_DIR": runtime, "MANPATH": dir + "/man"])
        let verified = await runProcess("/usr/bin/systemd-analyze", ["--user", "verify", tested], environment: env)
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
        // And the check can fail: without the pages, man cannot find them.
        let unresolved = await runProcess(
            "/usr/bin/systemd-analyze", ["--user", "verify", tested], environment: environment(["XDG_RUNTIME_DIR": runtime, "MANPATH": dir]))
        #expect(unresolved.status != 0 && unresolved.output.contains("vigil-daemon(1)"))
    }
}
