// swift-tools-version: 6.1
//
// Vigil: a procrastination-detection engine for Linux.
//
// The folders under Sources/ are the layers; a module imports only modules of its own layer or of
// the layers above it in this list (scripts/check-layers.py checks every import in CI):
//
// System     SystemCalls     the one place where errno becomes an error: system calls made, EINTR
//                            retried, errno read at the call (as NIOPosix's System.swift); output
//                            files written safely (OutputFile); files read line by line (LineReader).
//            JSONScanning    the allocation-free JSON scanner that Vigil's recordings and gpsd logs
//                            are read with.
//            DisplayWidth    text measured, cut and padded in terminal columns (wcwidth(3) through
//                            its shim CDisplayWidth), not characters.
// Core       VigilCore       samples, the pluggable-signal protocol and the built-in signals, the
//                            focus-session state machine, events, the log's records, the configuration
//                            model, the one JSON writer every output goes through. C-free, no I/O, no
//                            clock.
//            VigilTesting    a clock that moves only when told to, for tests (as NIOEmbedded).
// Domain     VigilAudio      BS.1770 loudness (K-weighting, momentary/short-term/integrated), a WAV reader.
//            VigilStats      statistics: local-time hour slots (DST-correct), figures, streaks, the
//                            report's value.
//            VigilPlanner    tasks (urgency), habits (schedules, streaks, strength), reminder planning.
//            InputCounting   input activity counted, never which keys: evdev events to counts and
//                            app-switching gestures per window (the live detector's and files').
// Views      SessionViews    a session for people: the timeline (text and JSON Lines), the live
//                            screen, the session's values in words.
//            ReportViews     the report rendered: text, JSON, CSV, Markdown, HTML with SVG charts.
// Adapters   a folder per kind, with rules between them (check-layers.py):
//   C        one system-library module per C library, each imported by one module only;
//            CSensorLibraries opens them when a sensor first needs them (generate-sensor-stubs.py).
//   Buses    DBusSupport (CDBus: a bus connection, calls, signals, the D-Bus value types).
//   Sensors  InputDetector (libinput), MicrophoneDetector (PulseAudio levels, calls and playback),
//            LocationDetector (gpsd), X11Detector (X11 idle, blanking, the window in front),
//            WaylandDetector (ext-idle-notify-v1, KDE's idle; wlroots' window list), DesktopPresence
//            (GNOME's idle monitor and Vigil's Shell extension, org.freedesktop.ScreenSaver, logind, a
//            KWin script), I3Detector (i3's and sway's IPC), HyprlandDetector
//            (Hyprland's event socket); DetectorSupport
//            (a detector's thread, status and backoff, sources combined, the focus categoriser), the
//            one sensor module the others may import.
//   Formats  VigilRecording (Vigil's JSON Lines recordings), SensorFiles (`libinput record` files,
//            gpsd logs, WAV audio as levels: read without the sensors' C libraries),
//            RecordingFormats (every format, by content, and inspect), VigilConfig (the YAML config
//            file), VigilImports (Taskwarrior's, Timewarrior's and Loop Habit Tracker's exports). No
//            C module.
//   Calendars VigilCalendar (iCalendar through libical, CICal: calendars read, tasks and sessions
//            written for other calendars). No sensor or channel.
//   Storage  VigilStore (the SQLite event log, GRDB), VigilSync (PostgreSQL). No sensor or channel.
//   Channels DesktopNotifier (notifications), SoundAlarm (tones through PulseAudio). No sensor.
// Runtime    SessionRuntime  running a focus session: SessionRunner (a live session: log, alarms,
//                            status file, Pomodoro, recording), rehearsal, the recorder, replay
//                            through the same stepper, the plug-in registry with the built-in
//                            detectors and channels, the session lock and status file.
//            LogServices     the services over the event log under the commands, reached through
//                            LocalLog (history, reports, privacy, imports, the session launcher,
//                            PlannerService), and the daemon (ReminderDaemon, sync) as a ServiceGroup.
//            HistorySimulation  `vigil simulate`'s years of sessions through the real state machine.
// App        VigilCLI        the command line (swift-argument-parser): parse, call the runtime, render.
//                            It imports no adapter: the log, files and sensors are the runtime's
//                            services' (LocalLog, Recordings, ConfigService); check-layers holds it.
//            vigil           the program: the plug-ins composed (its main.swift), then VigilCLI run.
//            vigil-sync      `vigil sync`'s worker, apart so that only it loads the PostgreSQL client.
import Foundation
import PackageDescription

/// The folders a Debian, Ubuntu or Fedora system keeps its libraries in.
let libraryFolders = [
    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/arm-linux-gnueabihf", "/usr/lib64", "/usr/lib", "/usr/local/lib",
]

/// The soname of the libgps this build compiles against (libgps.so.28 for gpsd 3.22): the sensor
/// libraries are opened when first used (CSensorLibraries), and libgps's soname changes with gpsd's
/// releases while its structs change with it, so the one to open is the one whose header this is.
/// Read off the development symlink (libgps.so -> libgps.so.28.0.0: the soname is the name up to
/// its major version); without it, the symlink's own name.
func libgpsSoname() -> String {
    for folder in libraryFolders {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/libgps.so") else { continue }
        let name = (target as NSString).lastPathComponent
        let parts = name.components(separatedBy: ".so.")
        if parts.count == 2, let major = parts[1].split(separator: ".").first, Int(major) != nil { return "libgps.so.\(major)" }
    }
    return "libgps.so"
}

/// Where libdbus's headers are: /usr/include/dbus-1.0 and its architecture's dbus-arch-deps.h
/// (what `pkg-config --cflags dbus-1` says). Given as flags rather than through pkg-config, whose
/// `-ldbus-1` would link libdbus and the eight libraries it brings into every command.
let dbusIncludeFlags: [String] = {
    var folders = ["/usr/include/dbus-1.0"]
    if let arch = libraryFolders.first(where: { FileManager.default.fileExists(atPath: $0 + "/dbus-1.0/include/dbus/dbus-arch-deps.h") }) {
        folders.append(arch + "/dbus-1.0/include")
    }
    return folders.map { "-I" + $0 }
}()

let package = Package(
    name: "Vigil",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vigil", targets: ["vigil"]),
        .executable(name: "vigil-sync", targets: ["vigil-sync"]),
        .library(name: "VigilCore", targets: ["VigilCore"]),
        .library(name: "VigilRecording", targets: ["VigilRecording"]),
        .library(name: "SessionRuntime", targets: ["SessionRuntime"]),
        .library(name: "LogServices", targets: ["LogServices"]),
        .library(name: "HistorySimulation", targets: ["HistorySimulation"]),
        .library(name: "VigilAudio", targets: ["VigilAudio"]),
        // For the fuzzers (Fuzz/): the parsers' modules.
        .library(name: "VigilConfig", targets: ["VigilConfig"]),
        .library(name: "SensorFiles", targets: ["SensorFiles"]),
        // And what a recording reaches after them: the live screen.
        .library(name: "SessionViews", targets: ["SessionViews"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System
        .target(name: "SystemCalls", path: "Sources/System/SystemCalls"),
        .target(name: "JSONScanning", path: "Sources/System/JSONScanning"),
        // wcwidth(3) in a UTF-8 locale, which Swift's Glibc module does not declare (see the shim).
        .target(name: "CDisplayWidth", path: "Sources/System/CDisplayWidth"),
        .target(name: "DisplayWidth", dependencies: ["CDisplayWidth"], path: "Sources/System/DisplayWidth"),

        // Core
        .target(
            name: "VigilCore", dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            path: "Sources/Core/VigilCore"),
        .target(name: "VigilTesting", dependencies: ["VigilCore"], path: "Sources/Core/VigilTesting"),

        // Domain
        .target(name: "VigilAudio", dependencies: ["SystemCalls"], path: "Sources/Domain/VigilAudio"),
        .target(name: "VigilStats", dependencies: ["VigilCore"], path: "Sources/Domain/VigilStats"),
        .target(name: "VigilPlanner", dependencies: ["VigilCore", "VigilStats"], path: "Sources/Domain/VigilPlanner"),
        // Input activity counted (never which keys): evdev events to counts and app-switching
        // gestures per window, for the live libinput detector and for `libinput record` files alike.
        .target(name: "InputCounting", dependencies: ["VigilCore"], path: "Sources/Domain/InputCounting"),

        // Views: what people and programs read, rendered from the domain's values (no I/O).
        .target(name: "SessionViews", dependencies: ["VigilCore", "DisplayWidth"], path: "Sources/Views/SessionViews"),
        .target(name: "ReportViews", dependencies: ["VigilCore", "VigilStats", "DisplayWidth"], path: "Sources/Views/ReportViews"),

        // Adapters: C libraries, one system-library target each, each imported by exactly one module.
        .systemLibrary(name: "CGPS", path: "Sources/Adapters/C/CGPS", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CPulse", path: "Sources/Adapters/C/CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CLibinput", path: "Sources/Adapters/C/CLibinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .systemLibrary(name: "CDBus", path: "Sources/Adapters/C/CDBus", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CPulseSimple", path: "Sources/Adapters/C/CPulseSimple", providers: [.apt(["libpulse-dev"])]),
        // libical (the calendar): opened when first used, as the sensor libraries are.
        .systemLibrary(name: "CICal", path: "Sources/Adapters/C/CICal", providers: [.apt(["libical-dev"])]),
        .systemLibrary(
            name: "CXCB", path: "Sources/Adapters/C/CXCB", providers: [.apt(["libxcb1-dev", "libxcb-screensaver0-dev"])]),
        // libwayland-client and the idle protocols' glue from wayland-scanner: a C target rather than a
        // system library, because the protocols' interface tables are C to compile. Regenerated by
        // scripts/generate-wayland-protocols.sh; the COPYRIGHT files are the protocols' notices.
        .target(
            name: "CWayland", path: "Sources/Adapters/C/CWayland", exclude: ["ext-idle-notify-v1.COPYRIGHT", "kde-idle.COPYRIGHT"],
            linkerSettings: [.linkedLibrary("wayland-client")]),
        // The sensor libraries above, opened when a sensor first needs them rather than at every
        // start (scripts/generate-sensor-stubs.py writes a stub per function Vigil calls): their
        // modules link nothing (no `link` in the module maps, no pkg-config), so `vigil report`
        // starts without thirty libraries it never uses.
        .target(
            name: "CSensorLibraries", dependencies: ["CPulse", "CPulseSimple", "CLibinput", "CXCB", "CDBus", "CGPS", "CICal"],
            path: "Sources/Adapters/C/CSensorLibraries", exclude: ["symbols.txt"],
            cSettings: [.define("VIGIL_LIBGPS_SONAME", to: "\"\(libgpsSoname())\""), .unsafeFlags(dbusIncludeFlags)]),
        .target(name: "DetectorSupport", dependencies: ["VigilCore", "SystemCalls"], path: "Sources/Adapters/Sensors/DetectorSupport"),
        .target(
            name: "X11Detector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CSensorLibraries", "CXCB"],
            path: "Sources/Adapters/Sensors/X11Detector"),
        .target(
            name: "WaylandDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CWayland"],
            path: "Sources/Adapters/Sensors/WaylandDetector"),
        .target(name: "I3Detector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls"], path: "Sources/Adapters/Sensors/I3Detector"),
        .target(
            name: "HyprlandDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls"], path: "Sources/Adapters/Sensors/HyprlandDetector"
        ),
        .target(
            name: "LocationDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CSensorLibraries", "CGPS"],
            path: "Sources/Adapters/Sensors/LocationDetector"
        ),
        .target(
            name: "MicrophoneDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CSensorLibraries", "VigilAudio", "CPulse"],
            path: "Sources/Adapters/Sensors/MicrophoneDetector"),
        .target(
            name: "InputDetector", dependencies: ["VigilCore", "InputCounting", "DetectorSupport", "SystemCalls", "CSensorLibraries", "CLibinput"],
            path: "Sources/Adapters/Sensors/InputDetector"),
        // libdbus's headers through flags (`dbusIncludeFlags`); CDBus is an internal import, so no
        // module that uses DBusSupport needs them.
        .target(
            name: "DBusSupport", dependencies: ["CDBus", "CSensorLibraries", "SystemCalls"], path: "Sources/Adapters/Buses/DBusSupport",
            swiftSettings: [.unsafeFlags(dbusIncludeFlags.flatMap { ["-Xcc", $0] })]),
        .target(name: "DesktopNotifier", dependencies: ["DBusSupport"], path: "Sources/Adapters/Channels/DesktopNotifier"),
        // Actions on the person's media players (issue 36): MPRIS over D-Bus.
        .target(name: "MediaControl", dependencies: ["DBusSupport"], path: "Sources/Adapters/Channels/MediaControl"),
        .target(
            name: "DesktopPresence", dependencies: ["VigilCore", "DetectorSupport", "DBusSupport", "SystemCalls"],
            path: "Sources/Adapters/Sensors/DesktopPresence"),
        .target(name: "SoundAlarm", dependencies: ["CPulseSimple", "CSensorLibraries", "SystemCalls"], path: "Sources/Adapters/Channels/SoundAlarm"),
        .target(name: "VigilRecording", dependencies: ["VigilCore", "SystemCalls", "JSONScanning"], path: "Sources/Adapters/Formats/VigilRecording"),
        // Other tools' sensor files, read into samples without their C libraries: `libinput
        // record`'s YAML, gpsd's JSON logs, WAV audio as levels.
        .target(
            name: "SensorFiles", dependencies: ["VigilCore", "InputCounting", "VigilAudio", "SystemCalls", "JSONScanning"],
            path: "Sources/Adapters/Formats/SensorFiles"),
        .target(
            name: "RecordingFormats",
            dependencies: ["VigilCore", "VigilAudio", "VigilRecording", "SensorFiles", "SystemCalls", "JSONScanning"],
            path: "Sources/Adapters/Formats/RecordingFormats"),
        // iCalendar (RFC 5545) through libical: calendars read (events and their recurrences, in
        // their time zones) and Vigil's tasks and sessions written for other calendars.
        .target(
            name: "VigilCalendar", dependencies: ["VigilCore", "VigilStats", "CSensorLibraries", "CICal"],
            path: "Sources/Adapters/Calendars/VigilCalendar"),
        .target(name: "VigilConfig", dependencies: ["VigilCore", "VigilPlanner", "Yams"], path: "Sources/Adapters/Formats/VigilConfig"),
        .target(
            name: "VigilStore",
            dependencies: [
                "VigilCore", "VigilStats", "VigilPlanner", "SessionViews", "SystemCalls", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/Adapters/Storage/VigilStore"),
        // What other tools exported (Taskwarrior, Timewarrior, Loop Habit Tracker), read into Vigil's
        // tasks, sessions and habits (docs/imports.md).
        .target(name: "VigilImports", dependencies: ["VigilCore", "VigilPlanner", "VigilStore"], path: "Sources/Adapters/Formats/VigilImports"),
        // Sync between a person's devices through PostgreSQL (docs/sync.md): the server's schema and
        // migrations, pushing and pulling the store's rows.
        .target(
            name: "VigilSync",
            dependencies: ["VigilStore", "VigilConfig", "VigilCore", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Sources/Adapters/Storage/VigilSync"),

        // Runtime
        // Running a focus session: live, rehearsed, recorded or replayed; the plug-in registry,
        // the built-in detectors and alarm channels, the session's files.
        .target(
            name: "SessionRuntime",
            dependencies: [
                "VigilCore", "VigilAudio", "VigilPlanner", "SessionViews", "VigilRecording", "RecordingFormats", "VigilConfig", "SystemCalls",
                "VigilStore", "InputDetector", "MicrophoneDetector", "LocationDetector", "DesktopNotifier", "SoundAlarm", "DesktopPresence",
                "VigilCalendar",
                "MediaControl", "DBusSupport",
                "DetectorSupport", "X11Detector", "I3Detector", "HyprlandDetector", "WaylandDetector",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Sources/Runtime/SessionRuntime"),
        // The services over the event log, one per family of commands (history, reports, privacy,
        // imports, the planner, the session launcher), and the daemon (reminders and sync).
        .target(
            name: "LogServices",
            dependencies: [
                "VigilCore", "VigilStats", "VigilPlanner", "VigilStore", "VigilImports", "SystemCalls", "DesktopNotifier", "DetectorSupport",
                "SessionRuntime", "VigilCalendar", "ReportViews",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Runtime/LogServices"),
        // A simulated history (`vigil simulate`): years of sessions through the real state
        // machine, for trying reports and for the benchmarks; no part of a session or a service.
        .target(
            name: "HistorySimulation", dependencies: ["VigilCore", "VigilStats", "VigilStore", "SessionRuntime"],
            path: "Sources/Runtime/HistorySimulation"),

        // App
        .target(
            name: "VigilCLI",
            dependencies: [
                "VigilCore", "VigilStats", "VigilPlanner", "SessionViews", "ReportViews", "SessionRuntime", "LogServices", "HistorySimulation",
                "SystemCalls",
                "DisplayWidth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/App/VigilCLI"),
        // The program: its plug-ins composed, one line each, and the command line run with them.
        .executableTarget(name: "vigil", dependencies: ["VigilCLI", "SessionRuntime"], path: "Sources/App/vigil"),
        // `vigil sync`'s worker, a program of its own: the PostgreSQL client (SwiftNIO, BoringSSL)
        // linked into `vigil` made every command start 2 ms slower.
        .executableTarget(
            name: "vigil-sync",
            dependencies: [
                "VigilSync", "VigilStore", "VigilStats", "VigilCore", "SystemCalls", "DisplayWidth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/App/vigil-sync"),

        // Tests: one target per module, plus end-to-end tests of the command line.
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(name: "JSONScanningTests", dependencies: ["JSONScanning"]),
        .testTarget(name: "DisplayWidthTests", dependencies: ["DisplayWidth"]),
        .testTarget(name: "VigilCoreTests", dependencies: ["VigilCore", "VigilTesting"]),
        // What the detector tests share: collecting a live stream, a free port, a wall clock.
        .target(name: "TestSupport", dependencies: ["VigilCore", "VigilTesting"], path: "Tests/Support"),
        // SoundAlarm: the media detector must not count Vigil's own alarm tone as playback.
        .testTarget(
            name: "MicrophoneDetectorTests",
            dependencies: ["MicrophoneDetector", "SensorFiles", "TestSupport", "VigilAudio", "VigilCore", "SoundAlarm"]),
        .testTarget(name: "LocationDetectorTests", dependencies: ["LocationDetector", "SensorFiles", "TestSupport", "VigilCore"], exclude: ["Data"]),
        .testTarget(
            name: "InputDetectorTests",
            dependencies: ["InputDetector", "InputCounting", "SensorFiles", "TestSupport", "VigilCore", "VigilRecording"],
            exclude: ["Data"]),
        .testTarget(
            name: "DesktopDetectorTests",
            dependencies: [
                "X11Detector", "I3Detector", "HyprlandDetector", "WaylandDetector", "DesktopPresence", "DetectorSupport", "TestSupport", "VigilCore",
            ],
            exclude: ["Data"]),
        .testTarget(name: "DesktopNotifierTests", dependencies: ["DesktopNotifier", "TestSupport"], exclude: ["Data"]),
        .testTarget(name: "DBusSupportTests", dependencies: ["DBusSupport", "TestSupport"]),
        .testTarget(name: "DesktopPresenceTests", dependencies: ["DesktopPresence", "DBusSupport", "TestSupport", "VigilCore"]),
        .testTarget(name: "VigilAudioTests", dependencies: ["VigilAudio"], exclude: ["Data"]),
        .testTarget(name: "VigilRecordingTests", dependencies: ["VigilCore", "VigilRecording"]),
        .testTarget(name: "VigilConfigTests", dependencies: ["VigilCore", "VigilConfig", "VigilPlanner"]),
        .testTarget(name: "VigilStatsTests", dependencies: ["VigilStats", "ReportViews", "VigilCore"]),
        .testTarget(name: "VigilPlannerTests", dependencies: ["VigilPlanner", "VigilStats", "VigilCore"]),
        .testTarget(name: "VigilImportsTests", dependencies: ["VigilImports", "VigilStore", "VigilPlanner", "VigilCore"]),
        .testTarget(name: "VigilStoreTests", dependencies: ["VigilCore", "VigilStore", "VigilStats", "VigilPlanner", "VigilTesting"]),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "VigilCore", "VigilTesting", "VigilRecording", "RecordingFormats", "VigilConfig", "VigilStore", "VigilStats", "SessionViews",
                "ReportViews",
                "DisplayWidth", "SessionRuntime", "LogServices", "HistorySimulation", "TestSupport", "MicrophoneDetector", "LocationDetector",
                "InputDetector", "DesktopNotifier", "I3Detector", "X11Detector", "DesktopPresence", "WaylandDetector",
                "VigilPlanner",
                "DetectorSupport", "TestPlugIns",
            ]),
        .testTarget(
            name: "VigilSyncTests",
            dependencies: ["VigilSync", "VigilStore", "LogServices", "HistorySimulation", "VigilCore", "VigilStats", "VigilPlanner", "TestSupport"]),
        // A signal and an action from outside the product, as a new module would add them, and a
        // `vigil` composed with them the way the product's main composes its own (PluggableCLITests).
        .target(name: "TestPlugIns", dependencies: ["VigilCore", "SessionRuntime"], path: "Tests/Fixtures/TestPlugIns"),
        .executableTarget(
            name: "vigil-with-test-plugins", dependencies: ["VigilCLI", "SessionRuntime", "TestPlugIns"],
            path: "Tests/Fixtures/vigil-with-test-plugins"),
        .testTarget(
            name: "VigilCLITests", dependencies: ["vigil", "vigil-with-test-plugins", "TestSupport", "DisplayWidth"], exclude: ["Data"]),
    ],
    swiftLanguageModes: [.v6]
)

// Upcoming features for every target in one place, as swift-log does.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
