import Foundation
import TestSupport
import Testing

/// Output files (issue 17): `-o` and `--record` write where the path says and nowhere a planted
/// name could send them, a FIFO or device stays what it is, no temporary outlives the command
/// however it ends (and `vigil forget` removes what SIGKILL left), a failed write exits 74, an
/// empty path is a usage error, and everything Vigil creates is its owner's only.
@Suite struct OutputFileCLITests {
    static let scenario = repo + "/Samples/coffee-break/session.jsonl"

    /// A log of a month of a simulated person's sessions, to report and export.
    func simulated(_ home: String) async throws -> String {
        let data = home + "/d"
        let r = try await vigil(["simulate", "--days", "30", "--until", "2026-11-21", "--time-zone", "UTC", "--data-dir", data], home: home)
        try #require(r.status == 0, "\(r.stderr)")
        return data
    }

    func entries(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    func fileStatus(_ path: String) -> stat? {
        var s = stat()
        return lstat(path, &s) == 0 ? s : nil
    }

    /// A device node as the test may have it: the machine's own when the test is not root (it
    /// cannot be replaced or changed then), else a copy made with mknod (the same device numbers)
    /// in the test's directory, so that a Vigil that still replaced or chmod'ed devices would not
    /// break the machine's /dev/null or /dev/full for everything else.
    func device(_ name: String, minor: Int, in home: String) throws -> String {
        guard geteuid() == 0 else { return "/dev/" + name }
        let path = home + "/" + name
        // glibc's makedev(1, minor), a macro Swift cannot call: minor | major << 8 for small numbers.
        try #require(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | minor)) == 0, "mknod: \(String(cString: strerror(errno)))")
        try #require(chmod(path, 0o666) == 0)
        return path
    }

    /// Before issue 17 the temporary was `.NAME.PID.tmp`, opened with O_CREAT|O_TRUNC (following a
    /// link there) and renamed over the output: anyone who could write the directory planted a
    /// link at that name and had the victim's file overwritten with the report. Links planted at
    /// the names of the next few thousand processes change nothing now: the victim's file is
    /// untouched, every link is still there, and the outputs are regular files.
    @Test func linksPlantedAtTemporaryNamesChangeNothing() async throws {
        let home = freshHome()
        let data = try await simulated(home)
        let shared = home + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let victim = home + "/victim"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        let last = Int((try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
        let next = try #require(last) + 1
        for pid in next..<next + 3000 {
            for name in ["report.txt", "export.json"] { #expect(symlink(victim, shared + "/.\(name).\(pid).tmp") == 0) }
        }
        let report = try await vigil(["report", "--last", "all", "-o", shared + "/report.txt", "--data-dir", data], home: home)
        #expect(report.status == 0, "\(report.stderr)")
        let export = try await vigil(["export", "--all", "-o", shared + "/export.json", "--data-dir", data], home: home)
        #expect(export.status == 0, "\(export.stderr)")

        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        for name in ["report.txt", "export.json"] {
            #expect(fileStatus(shared + "/" + name).map { $0.st_mode & S_IFMT } == S_IFREG, "\(name) is a file of its own")
        }
        #expect(try String(contentsOfFile: shared + "/report.txt", encoding: .utf8).hasPrefix("Vigil report"))
        let planted = entries(shared).filter { $0.hasSuffix(".tmp") }
        #expect(planted.count == 6000 && planted.allSatisfy { fileStatus(shared + "/" + $0).map { $0.st_mode & S_IFMT } == S_IFLNK })
    }

    /// `-o` a FIFO (read by a task) or a device: written where it is, and it stays a FIFO or a
    /// device with its mode. Before issue 17 the report replaced it with a regular file (as root,
    /// `-o /dev/null` replaced the system's /dev/null), and a recording chmod'ed it to 0600.
    @Test func aFIFOOrADeviceIsWrittenWhereItIs() async throws {
        let home = freshHome()
        let data = try await simulated(home)
        let fifo = home + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The test holds a write end of its own, so the reader sees the end of the data only when
        // the test closes it, after vigil: a Vigil that replaced the FIFO leaves it nothing, not a hang.
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let heldOpen = open(fifo, O_WRONLY | O_CLOEXEC)
        try #require(readEnd >= 0 && heldOpen >= 0 && fcntl(readEnd, F_SETFL, 0) == 0)
        async let received = offPool { FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile() }
        let r = try await vigil(["report", "--last", "all", "--format", "json", "-o", fifo, "--data-dir", data], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        close(heldOpen)
        #expect((try? JSONSerialization.jsonObject(with: try await received)) is [String: Any], "the reader got the whole report")
        #expect(fileStatus(fifo).map { $0.st_mode & S_IFMT } == S_IFIFO)

        let null = try device("null", minor: 3, in: home)
        let before = try #require(fileStatus(null))
        for args in [
            ["report", "--last", "all", "-o", null], ["export", "--all", "-o", null], ["record", "-o", null, "--minutes", "0.02"],
            ["start", "--replay", Self.scenario, "--pace", "10000", "--minutes", "25", "--record", null],
        ] {
            let run = try await vigil(args + ["--data-dir", data], home: home)
            #expect(run.status == 0, "\(args): \(run.stderr)")
            let after = try #require(fileStatus(null))
            #expect(after.st_mode == before.st_mode && after.st_rdev == before.st_rdev, "\(args): \(null) is still the device, mode and all")
        }
        #expect(entries(home).filter { $0.hasSuffix(".tmp") }.isEmpty, "no temporary beside them")
    }

    /// SIGTERM, Ctrl-C or a closed terminal while an export or a report is being written: the
    /// process ends as the signal meant (128 + its number for a shell), and neither the output,
    /// nor its temporary, nor the temporary's journal entry is left. The write is held by an
    /// LD_PRELOAD shim (Data/stall_output_write.c) after its first bytes, so the signal comes
    /// mid-write every time: a real signal against a real write, at an instant the test knows.
    @Test(arguments: [("export", SIGTERM), ("report", SIGINT), ("export", SIGHUP)])
    func aSignalMidWriteLeavesNoTemporary(command: String, signal: Int32) async throws {
        let home = freshHome()
        let data = try await simulated(home)
        let (child, out) = try await stalledWrite(command, home: home, data: data)
        kill(child.pid, signal)
        let status = await offPool { child.wait() }
        #expect(status == 128 + signal, "ended by the signal")
        #expect(entries(out).isEmpty, "\(entries(out))")
        #expect(entries(data + "/unfinished-outputs").isEmpty)
    }

    /// SIGKILL cannot be caught: the temporary stays, with its journal entry, until `vigil forget`
    /// removes it (and a status file's temporary a killed session left in the data directory).
    @Test func forgetRemovesWhatAKilledExportLeft() async throws {
        let home = freshHome()
        let data = try await simulated(home)
        let (child, out) = try await stalledWrite("export", home: home, data: data)
        kill(child.pid, SIGKILL)
        #expect(try await offPool { child.wait() } == 128 + SIGKILL)
        let left = try #require(entries(out).first.map { out + "/" + $0 })
        #expect(entries(data + "/unfinished-outputs").count == 1)
        let status = data + "/.running-session.json.vigil-\(Int32.max - 1)-abcdefghij.tmp"
        #expect(FileManager.default.createFile(atPath: status, contents: Data("{}".utf8)))

        let r = try await vigil(["forget", "--from", "2026-11-21", "--to", "2026-11-21", "--yes", "--data-dir", data], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Removed 2 unfinished output files") && r.stdout.contains(left) && r.stdout.contains(status), "\(r.stdout)")
        #expect(entries(out).isEmpty)
        #expect(entries(data + "/unfinished-outputs").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: status))
    }

    /// Starts `vigil COMMAND -o out/…` with its first write into the temporary held (see
    /// aSignalMidWriteLeavesNoTemporary) and returns once it is held, with the output's directory.
    func stalledWrite(_ command: String, home: String, data: String) async throws -> (ChildProcess, String) {
        let shim = try await buildShim("stall_output_write", in: home)
        let out = home + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let stalled = home + "/stalled"
        let args = command == "export" ? ["export", "--all", "-o", out + "/export.json"] : ["report", "--last", "all", "-o", out + "/report.txt"]
        let child = try ChildProcess(
            vigilBinary, args + ["--data-dir", data],
            environment: [
                "HOME": home, "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": noSystemBus, "TZ": "UTC",
                "LD_PRELOAD": shim,
                "VIGIL_TEST_STALLED": stalled,
            ], output: home + "/said")
        let held = try await eventually(120) { FileManager.default.fileExists(atPath: stalled) }
        let said = (try? String(contentsOfFile: home + "/said", encoding: .utf8)) ?? ""
        try #require(held, "the write was never held: \(said)")
        try #require(entries(out).count == 1 && entries(out)[0].hasSuffix(".tmp"), "a temporary is being written: \(entries(out))")
        return (child, out)
    }

    /// A recording that cannot be written (a device where every write fails with ENOSPC, as on a
    /// full disk) fails the command with exit 74 and names the file, for `start --record` (which
    /// said so and exited 0 before issue 17) and `record -o`. A regular file on a full disk (a
    /// file-size limit, as the fault-injection tests use) leaves nothing behind.
    @Test func aRecordingThatCannotBeWrittenExits74() async throws {
        let home = freshHome()
        let full = try device("full", minor: 7, in: home)
        let start = try await vigil(
            ["start", "--replay", Self.scenario, "--pace", "10000", "--minutes", "25", "--record", full, "--data-dir", home + "/d"], home: home)
        #expect(start.status == 74, "\(start.stderr)")
        #expect(
            start.stderr.contains("its recording could not be written (\(full): ") && start.stderr.contains("No space left on device"),
            "\(start.stderr)")
        let record = try await vigil(["record", "-o", full, "--minutes", "0.02", "--data-dir", home + "/d"], home: home)
        #expect(record.status == 74 && record.stderr.contains(full) && record.stderr.contains("No space left on device"), "\(record.stderr)")

        let out = home + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let limited = try background(
            "/usr/bin/prlimit", ["--fsize=50", vigilBinary, "record", "-o", out + "/r.jsonl", "--minutes", "0.02", "--data-dir", home + "/d"],
            home: home)
        let status = await limited.process.exited()
        // (Its standard error, a file under the same limit, holds only the first 50 bytes.)
        #expect(status == 74, "\(limited.said)")
        #expect(entries(out).isEmpty, "neither the recording nor its temporary: \(entries(out))")
    }

    /// An empty path is a usage error (64) with the same words everywhere. Before issue 17
    /// `report -o ""` exited 74, `start --record ""` 73 and `record -o ""` 64, and
    /// `report --data-dir ""` read the log at /vigil.sqlite3.
    @Test func anEmptyPathIsAUsageError() async throws {
        let home = freshHome()
        let cases: [([String], String)] = [
            (["report", "-o", ""], "--output"), (["export", "--all", "-o", ""], "--output"), (["record", "-o", ""], "--output"),
            (["start", "--record", ""], "--record"), (["start", "--replay", ""], "--replay"), (["replay", ""], "a recording"),
            (["inspect", ""], "a recording"), (["report", "--data-dir", ""], "--data-dir"), (["log", "--config", ""], "--config"),
            (["config", "check", "--config", ""], "--config"),
        ]
        for (args, name) in cases {
            let r = try await vigil(args, home: home)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("\(name): the path is empty"), "\(args): \(r.stderr)")
        }
    }

    /// A report, a listing or a replay whose standard output cannot be written (a full disk)
    /// exits 74 with the reason, where it exited 0 with its output lost; a session's lines are a
    /// view and never end it (FaultInjectionTests.unwritableStandardOutputAndErrorNeverEndASession).
    @Test func standardOutputThatCannotBeWrittenExits74() async throws {
        let home = freshHome()
        let data = try await simulated(home)
        let full = try device("full", minor: 7, in: home)
        // The three ways a command writes standard output: whole (report), print (log), buffered lines (replay).
        for args in [["report", "--last", "all"], ["log", "--json"], ["replay", Self.scenario]] {
            let p = try background(vigilBinary, args + ["--data-dir", data], home: home, stdout: full)
            let status = await p.process.exited()
            let message = p.said
            #expect(status == 74, "\(args): \(message)")
            #expect(message.contains("cannot write to standard output: No space left on device"), "\(args): \(message)")
        }
    }

    /// With no umask to help (000), everything a session, a report, an export and `motivate`
    /// create is its owner's only: files 0600, directories 0700 (`last-motivation` was 0666
    /// under this umask, 0644 under the usual one, before issue 17).
    @Test func everythingVigilCreatesIsItsOwnersOnly() async throws {
        let home = freshHome()
        let data = home + "/d"
        let out = home + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for args in [
            ["task", "add", "Slides"],
            ["start", "--replay", Self.scenario, "--pace", "10000", "--minutes", "25", "--log", "--record", out + "/r.jsonl"],
            ["report", "--last", "all", "--format", "html", "-o", out + "/report.html"], ["export", "--all", "-o", out + "/export.json"],
            ["motivate"],
        ] {
            let run = try background("/bin/sh", ["-c", "umask 000; exec \"$0\" \"$@\"", vigilBinary] + args + ["--data-dir", data], home: home)
            #expect(await run.process.exited() == 0, "\(args): \(run.said)")
        }
        let made = try #require(FileManager.default.enumerator(atPath: data)?.allObjects as? [String])
        #expect(made.contains("last-motivation") && made.contains("vigil.sqlite3") && made.contains("unfinished-outputs"), "\(made)")
        for path in [data] + made.map({ data + "/" + $0 }) + entries(out).map({ out + "/" + $0 }) {
            let s = try #require(fileStatus(path))
            let expected: mode_t = s.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
            #expect(s.st_mode & 0o7777 == expected, "\(path): \(String(s.st_mode & 0o7777, radix: 8))")
        }
        #expect(entries(out) == ["export.json", "r.jsonl", "report.html"])
    }
}
