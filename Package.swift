// swift-tools-version: 6.1
//
// Vigil: a procrastination-detection engine for Linux.
//
// Layering (each line depends only on the lines above it):
//   SystemCalls         the one place where errno becomes an error: system calls made, EINTR retried, errno read at the call.
//   VigilCore           samples, scorers, the focus-session state machine, events. C-free, no I/O, no clock.
//   VigilAudio          BS.1770 loudness (K-weighting, momentary/short-term/integrated), a WAV reader. C-free.
//   VigilRecording      our JSON Lines recording format (reader, writer, merge of any sample source).
//   DetectorSupport     what every live detector needs around its C library: a thread, stop, status, backoff.
//   InputDetector       keyboard/mouse/touchpad counts from libinput, and `libinput record` files. Only importer of CLibinput.
//   MicrophoneDetector  levels from PulseAudio, and WAV files. Only importer of CPulse.
//   LocationDetector    fixes from gpsd, and gpsd JSON logs. Only importer of CGPS.
//   DesktopNotifier     freedesktop notifications on the session D-Bus (libdbus). Only importer of CDBus.
//   SoundAlarm          alarm tones through PulseAudio (libpulse-simple). Only importer of CPulseSimple.
//   VigilConfig         the YAML config file -> VigilCore's configuration, with line-precise errors.
//   VigilStats          the statistics: local-time hour slots (DST-correct), figures, streaks, report
//                       rendering (text, JSON, CSV, Markdown, HTML with SVG). C-free, no I/O.
//   VigilPlanner        tasks (urgency), habits (schedules, streaks, strength), reminder planning. C-free, no I/O.
//   VigilStore          the SQLite event log (GRDB), migrations, the facts the statistics read, tasks and habits.
//   VigilEngine         wiring: detectors and recordings of every format -> state machine -> store; replay;
//                       inspect; timeline rendering.
//   vigil               the command line (swift-argument-parser).
import PackageDescription

let package = Package(
    name: "Vigil",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vigil", targets: ["vigil"]),
        .library(name: "VigilCore", targets: ["VigilCore"]),
        .library(name: "VigilRecording", targets: ["VigilRecording"]),
        .library(name: "VigilEngine", targets: ["VigilEngine"]),
        .library(name: "VigilAudio", targets: ["VigilAudio"]),
        // For the fuzzers (Fuzz/): the parsers' modules.
        .library(name: "VigilConfig", targets: ["VigilConfig"]),
        .library(name: "InputDetector", targets: ["InputDetector"]),
        .library(name: "LocationDetector", targets: ["LocationDetector"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "VigilCore",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")]
        ),
        .target(name: "SystemCalls"),
        .target(name: "VigilAudio", dependencies: ["SystemCalls"]),
        // C libraries, one system-library target each; each is imported by exactly one detector module.
        .target(name: "DetectorSupport", dependencies: ["VigilCore"]),
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .target(name: "LocationDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CGPS"]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .target(name: "MicrophoneDetector", dependencies: ["VigilCore", "DetectorSupport", "VigilAudio", "CPulse"]),
        .systemLibrary(name: "CLibinput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .target(name: "InputDetector", dependencies: ["VigilCore", "DetectorSupport", "SystemCalls", "CLibinput"]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "DesktopNotifier", dependencies: ["CDBus"]),
        .systemLibrary(name: "CPulseSimple", pkgConfig: "libpulse-simple", providers: [.apt(["libpulse-dev"])]),
        .target(name: "SoundAlarm", dependencies: ["CPulseSimple"]),
        .target(name: "VigilRecording", dependencies: ["VigilCore", "SystemCalls"]),
        .target(name: "VigilConfig", dependencies: ["VigilCore", "Yams"]),
        .target(name: "VigilStats", dependencies: ["VigilCore"]),
        .target(name: "VigilPlanner", dependencies: ["VigilCore", "VigilStats"]),
        .target(
            name: "VigilStore",
            dependencies: ["VigilCore", "VigilStats", "VigilPlanner", "SystemCalls", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "VigilEngine",
            dependencies: [
                "VigilCore", "VigilRecording", "VigilConfig", "VigilStore", "VigilStats", "VigilPlanner", "SystemCalls",
                "InputDetector", "MicrophoneDetector", "LocationDetector", "VigilAudio", "DesktopNotifier", "SoundAlarm",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vigil",
            dependencies: [
                "VigilCore", "VigilRecording", "VigilConfig", "VigilStore", "VigilStats", "VigilPlanner", "VigilEngine", "SoundAlarm", "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "VigilCoreTests", dependencies: ["VigilCore"]),
        // What the detector tests share: collecting a live stream, a free port, a wall clock.
        .target(name: "TestSupport", dependencies: ["VigilCore"], path: "Tests/Support"),
        .testTarget(name: "MicrophoneDetectorTests", dependencies: ["MicrophoneDetector", "TestSupport", "VigilAudio", "VigilCore"]),
        .testTarget(name: "LocationDetectorTests", dependencies: ["LocationDetector", "TestSupport", "VigilCore"], exclude: ["Data"]),
        .testTarget(name: "InputDetectorTests", dependencies: ["InputDetector", "TestSupport", "VigilCore", "VigilRecording"], exclude: ["Data"]),
        .testTarget(name: "DesktopNotifierTests", dependencies: ["DesktopNotifier", "TestSupport"], exclude: ["Data"]),
        .testTarget(name: "VigilAudioTests", dependencies: ["VigilAudio"], exclude: ["Data"]),
        .testTarget(name: "VigilRecordingTests", dependencies: ["VigilCore", "VigilRecording"]),
        .testTarget(name: "VigilConfigTests", dependencies: ["VigilCore", "VigilConfig"]),
        .testTarget(name: "VigilStatsTests", dependencies: ["VigilStats", "VigilCore"]),
        .testTarget(name: "VigilPlannerTests", dependencies: ["VigilPlanner", "VigilStats", "VigilCore"]),
        .testTarget(name: "VigilStoreTests", dependencies: ["VigilCore", "VigilStore", "VigilStats"]),
        .testTarget(name: "VigilEngineTests", dependencies: ["VigilCore", "VigilRecording", "VigilConfig", "VigilStore", "VigilEngine", "TestSupport",
                                                            "MicrophoneDetector", "LocationDetector", "InputDetector", "DesktopNotifier", "VigilPlanner"]),
        .testTarget(name: "VigilCLITests", dependencies: ["vigil", "TestSupport"], exclude: ["Data"]),
    ],
    swiftLanguageModes: [.v6]
)

// Upcoming features for every target in one place, as swift-log does.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
