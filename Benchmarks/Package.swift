// swift-tools-version: 6.1
//
// Benchmarks for Vigil, kept in their own package so the main build and CI do not compile the
// benchmark harness. Run from the repository root:
//   swift run -c release --package-path Benchmarks vigil-benchmarks
// and, for the loudness analyser against ffmpeg on a one-hour WAV:
//   scripts/bench-loudness.sh
// See BENCHMARKS.md for the figures and the method.
import PackageDescription

let package = Package(
    name: "VigilBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Vigil", path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
    ],
    targets: [
        .executableTarget(
            name: "vigil-benchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "swift-benchmark"),
                .product(name: "VigilCore", package: "Vigil"),
                .product(name: "VigilRecording", package: "Vigil"),
                .product(name: "SessionRuntime", package: "Vigil"),
                .product(name: "VigilAudio", package: "Vigil"),
            ],
            path: "Sources"
        )
    ],
    swiftLanguageModes: [.v6]
)
