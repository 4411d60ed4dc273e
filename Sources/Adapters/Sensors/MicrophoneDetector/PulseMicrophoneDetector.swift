import CPulse
import DetectorSupport
import Foundation
import VigilAudio
import VigilCore

/// Microphone loudness from PulseAudio (or PipeWire's pulse server) through libpulse's asynchronous
/// API on its own threaded main loop.
///
/// The only module that imports `CPulse`. Records the default source (or a named one) as mono float
/// at a low rate (16 kHz: speech and room noise are below 8 kHz, and it is a third of the work of
/// 48 kHz), and turns every `window` seconds of audio into one level sample: RMS and peak in dBFS,
/// BS.1770 momentary and short-term loudness in LUFS. Audio is processed in the callback and
/// dropped: only levels leave this module.
///
/// When the server goes away or the source disappears, the detector reports the loss once and
/// reconnects with a growing delay; a server that comes back is picked up without restarting the
/// session.
public final class PulseMicrophoneDetector: Detector, Sendable {
    public let sensor = SensorKind.audio
    /// Server address as libpulse takes it (`unix:/run/user/1000/pulse/native`, `tcp:host`); nil is
    /// libpulse's default ($PULSE_SERVER, then the session's server).
    public let server: String?
    /// Source name (`pactl list short sources`); nil records the server's default source.
    public let source: String?
    public let sampleRate: Int
    public let window: Double
    private let retry: Backoff

    public init(
        server: String? = nil, source: String? = nil, sampleRate: Int = 16_000, window: Double = 1,
        retry: Backoff = .reconnect
    ) {
        self.server = server
        self.source = source
        self.sampleRate = sampleRate
        self.window = window
        self.retry = retry
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .audio, threadName: "vigil-pulse-control") { [self] context in
            self.run(context)
        }
    }

    func run(_ context: DetectorContext) {
        PulseConnection.run(context, server: server, retry: retry, doing: "record from", settings: "audio.server or audio.source") {
            PulseCapture(detector: self, context: context)
        }
    }
}

/// One connection to the server and one record stream. Frees the stream in `release()`; the
/// connection frees the rest.
///
/// `levels` and `stream` are only touched on the main loop's thread.
final class PulseCapture: PulseConnection, @unchecked Sendable {
    private let detector: PulseMicrophoneDetector
    private var stream: OpaquePointer?
    private var levels: WindowedLevels

    init(detector: PulseMicrophoneDetector, context: DetectorContext) {
        self.detector = detector
        levels = WindowedLevels(sampleRate: Double(detector.sampleRate), channels: 1, window: detector.window)
        super.init(server: detector.server, context: context)
    }

    override func ready(_ c: OpaquePointer?) { openStream(c) }

    private func openStream(_ c: OpaquePointer?) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(detector.sampleRate), channels: 1)
        guard let s = pa_stream_new(c, "Vigil microphone level", &spec, nil) else { return fail(PulseError(context: c)) }
        stream = s
        pa_stream_set_state_callback(s, { s, userdata in PulseCapture.from(userdata).streamChanged(s) }, me)
        pa_stream_set_read_callback(s, { s, _, userdata in PulseCapture.from(userdata).read(s) }, me)
        // One fragment per level window (0.1 to 1 s): a level is due once a window anyway, so the
        // process (and, with ADJUST_LATENCY, the server's source) wakes once for each. (uint32)-1
        // leaves the other fields to the server.
        let fragmentSeconds = min(1, max(0.1, detector.window))
        let fragment = UInt32((Double(detector.sampleRate) * fragmentSeconds).rounded()) * UInt32(MemoryLayout<Float>.size)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: fragment)
        guard pa_stream_connect_record(s, detector.source, &attr, PA_STREAM_ADJUST_LATENCY) >= 0 else {
            return fail(PulseError(context: c))
        }
    }

    private func streamChanged(_ s: OpaquePointer?) {
        let st = pa_stream_get_state(s)
        if st == PA_STREAM_READY {
            let name = pa_stream_get_device_name(s).map { String(cString: $0) } ?? detector.source ?? "the default source"
            guard markWorking() else { return }
            context.report(.available, "recording levels of \(name) at \(detector.sampleRate / 1000) kHz mono (levels only, never audio)")
        } else if st == PA_STREAM_FAILED {
            let what = detector.source.map { "source \($0)" } ?? "the default source"
            fail("cannot record \(what): \(PulseError(context: pa_stream_get_context(s)))")
        } else if st == PA_STREAM_TERMINATED {
            fail("the source went away")
        }
    }

    /// The audio: fed to the meter and dropped.
    private func read(_ s: OpaquePointer?) {
        while pa_stream_readable_size(s) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(s, &data, &bytes) == 0, bytes > 0 else { return }
            if let data {
                let samples = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: bytes / MemoryLayout<Float>.size)
                levels.process(samples) { l in
                    context.emit(.audio(AudioLevel(rms: l.rms, peak: l.peak, shortTermLUFS: l.shortTerm, momentaryLUFS: l.momentary)))
                }
            }
            // A hole (data == nil, bytes > 0) is dropped like data.
            pa_stream_drop(s)
        }
    }

    override func release() {
        guard let stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }
}
