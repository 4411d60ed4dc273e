// swift-tools-version: 6.1
//
// Coverage-guided fuzzing of Vigil's parsers with libFuzzer (swiftc -sanitize=fuzzer). Its own
// package, like Benchmarks/, so the main build and CI do not compile it. See FUZZING.md.
import PackageDescription

let package = Package(
    name: "VigilFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "vigil-fuzz",
            dependencies: [
                .product(name: "VigilRecording", package: "main"),
                .product(name: "VigilAudio", package: "main"),
                .product(name: "VigilConfig", package: "main"),
                .product(name: "InputDetector", package: "main"),
                .product(name: "LocationDetector", package: "main"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
