import Foundation
import InputDetector
import LocationDetector
import VigilAudio
import VigilConfig
import VigilRecording

/// One libFuzzer entry point for all of Vigil's parsers; VIGIL_FUZZ_TARGET chooses which:
/// jsonl (our recordings), libinput (libinput record YAML), gpsd (gpsd JSON logs), wav (WAV files),
/// config (the YAML config). A parser may reject its input with an error; it must never crash,
/// hang or read out of bounds (the fuzzer runs with AddressSanitizer).
enum Target: String {
    case jsonl, libinput, gpsd, wav, config
}

nonisolated(unsafe) let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["VIGIL_FUZZ_TARGET"], let t = Target(rawValue: name) else {
        FileHandle.standardError.write(Data("set VIGIL_FUZZ_TARGET to jsonl, libinput, gpsd, wav or config\n".utf8))
        exit(2)
    }
    return t
}()

/// The readers of files take a path: inputs go through one file in memory-backed /dev/shm.
nonisolated(unsafe) let scratch = "/dev/shm/vigil-fuzz-\(getpid())"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    switch target {
    case .jsonl:
        FileManager.default.createFile(atPath: scratch, contents: data)
        if let reader = try? RecordingReader(path: scratch) {
            while let sample = try? reader.next() { _ = sample }
        }
    case .libinput:
        _ = try? LibinputRecording.parse(String(decoding: data, as: UTF8.self), start: .fromFile)
    case .gpsd:
        _ = try? GPSDLog.parse(data, name: "fuzz")
    case .wav:
        FileManager.default.createFile(atPath: scratch, contents: data)
        if let reader = try? WAVReader(path: scratch) {
            var buffer: [Float] = []
            repeat { reader.read(maxFrames: 4096, into: &buffer) } while !buffer.isEmpty
        }
    case .config:
        _ = try? ConfigLoader.load(yaml: String(decoding: data, as: UTF8.self), file: "fuzz.yaml")
    }
    return 0
}
