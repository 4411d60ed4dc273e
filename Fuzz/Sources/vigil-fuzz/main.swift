import Foundation
import SensorFiles
import SessionRuntime
import SessionViews
import VigilConfig
import VigilCore
import VigilRecording

/// One libFuzzer entry point for all of Vigil's parsers; VIGIL_FUZZ_TARGET chooses which:
/// jsonl (our recordings), libinput (libinput record YAML), gpsd (gpsd JSON logs), wav (WAV files),
/// config (the YAML config). A parser may reject its input with an error; it must never crash,
/// hang or read out of bounds (the fuzzer runs with AddressSanitizer).
///
/// What a parser accepts goes on as a replay takes it: through the focus session (the scorers,
/// the state machine) and onto the live screen, because a reading a parser lets through can
/// still trap further on (issue 17: an `"rms": 1e19` that the reader took crashed the scorer and
/// the screen, where a parse-only fuzzer never looked).
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

/// Replays `samples` as `vigil replay` does and shows each on the live screen, as a rehearsal
/// does; the screen is drawn once at the end, at two widths.
func session(_ samples: [Sample], start: Timestamp) {
    guard !samples.isEmpty else { return }
    let config = VigilConfiguration.default
    var view = LiveView(task: "fuzz", planned: 1500, workplace: config.location.workplace)
    guard let merged = try? MergedRecordings([SampleArray(path: "fuzz", start: start, samples: samples)]) else { return }
    _ = try? Replayer(configuration: config, plannedSeconds: 1500).run(merged) { event in view.apply(event, line: nil) }
    for sample in samples { view.apply(sample) }
    for width in [20, 100] { _ = view.lines(.init(color: width == 100, width: width)) }
    _ = view.statusLine()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    switch target {
    case .jsonl:
        FileManager.default.createFile(atPath: scratch, contents: data)
        if let reader = try? RecordingReader(path: scratch) {
            var samples: [Sample] = []
            while let sample = try? reader.next() { samples.append(sample) }
            session(samples, start: reader.header.start)
        }
    case .libinput:
        if let r = try? LibinputRecording.parse(String(decoding: data, as: UTF8.self), start: .fromFile) {
            session(r.samples, start: r.start)
        }
    case .gpsd:
        if let log = try? GPSDLog.parse(data, name: "fuzz") { session(log.samples, start: log.start) }
    case .wav:
        FileManager.default.createFile(atPath: scratch, contents: data)
        if let r = try? AudioFileRecording.read(path: scratch, start: Timestamp(seconds: 1_700_000_000)) {
            session(r.samples, start: r.start)
        }
    case .config:
        _ = try? ConfigLoader.load(yaml: String(decoding: data, as: UTF8.self), file: "fuzz.yaml")
    }
    return 0
}
