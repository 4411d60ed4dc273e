// swift-tools-version: 6.1
//
// Coverage-guided fuzzing of Vigil's parsers with libFuzzer (swiftc -sanitize=fuzzer). Its own
// package, like Benchmarks/, so the main build and CI do not compile it. See FUZZING.md.
import PackageDescription

let package = Package(
    name: "VigilFuzz",
    dependencies: [.package(name: "Vigil", path: "..")],
    targets: [
        .executableTarget(
            name: "vigil-fuzz",
            dependencies: [
                .product(name: "VigilRecording", package: "Vigil"),
                .product(name: "VigilAudio", package: "Vigil"),
                .product(name: "VigilConfig", package: "Vigil"),
                .product(name: "SensorFiles", package: "Vigil"),
                .product(name: "SessionViews", package: "Vigil"),
                .product(name: "SessionRuntime", package: "Vigil"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
