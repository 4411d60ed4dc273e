import CPulse
import DetectorSupport
import Foundation
import Synchronization
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
    private let retry: (first: Double, longest: Double)
    private let now: @Sendable () -> Timestamp

    public init(
        server: String? = nil, source: String? = nil, sampleRate: Int = 16_000, window: Double = 1,
        retry: (first: Double, longest: Double) = (0.5, 30), now: @escaping @Sendable () -> Timestamp
    ) {
        self.server = server
        self.source = source
        self.sampleRate = sampleRate
        self.window = window
        self.retry = retry
        self.now = now
    }

    public func samples() -> AsyncStream<Sample> {
        DetectorContext.samples(sensor: .audio, threadName: "vigil-pulse-control", now: now) { [self] context in
            self.run(context)
        }
    }

    /// The controller: one capture per connection; watches it, and starts a new one after a loss.
    func run(_ context: DetectorContext) {
        var backoff = Backoff(first: retry.first, longest: retry.longest)
        let serverName = server.map { "the PulseAudio server at \($0)" } ?? "the PulseAudio server"
        while !context.isStopped {
            let capture = PulseCapture(detector: self, context: context)
            capture.start()
            // The capture reports `.available` itself, from the stream's ready callback, so the status
            // comes before the first level on the one thread that emits levels.
            var waited = 0.0
            while !context.isStopped, capture.state == .connecting, waited < 10 {
                context.sleep(seconds: 0.05)
                waited += 0.05
            }
            if case .recording = capture.state { backoff.reset() }
            while !context.isStopped, case .recording = capture.state { context.sleep(seconds: 0.1) }
            capture.close()
            if context.isStopped { break }
            let reason: String
            switch capture.state {
            case .failed(let why): reason = why
            default: reason = "no answer within 10 s"
            }
            context.reportFailure(
                context.lastReported == .available
                    ? "lost \(serverName) (\(reason)); reconnecting"
                    : "cannot record from \(serverName) (\(reason)). Is PulseAudio or pipewire-pulse running (`pactl info`)? "
                        + "Set audio.server or audio.source in the config to use another. Retrying.")
            context.sleep(seconds: backoff.next())
        }
    }
}

/// One connection to the server and one record stream. Owns the main loop, context and stream and
/// frees them in `close()`.
///
/// Threading: libpulse calls the callbacks on the main loop's thread; `levels` is only touched there.
/// `state` is read by the controller under a mutex. After `pa_threaded_mainloop_stop` no callback
/// runs, so `close()` can free everything.
final class PulseCapture: @unchecked Sendable {
    enum State: Equatable {
        case connecting
        case recording(source: String)
        case failed(String)
    }

    private let detector: PulseMicrophoneDetector
    private let context: DetectorContext
    private let mainloop: OpaquePointer
    private var pulse: OpaquePointer?
    private var stream: OpaquePointer?
    private var levels: WindowedLevels
    private let stateLock = Mutex<State>(.connecting)
    private var closed = false

    init(detector: PulseMicrophoneDetector, context: DetectorContext) {
        self.detector = detector
        self.context = context
        mainloop = pa_threaded_mainloop_new()
        levels = WindowedLevels(sampleRate: Double(detector.sampleRate), channels: 1, window: detector.window)
    }

    var state: State { stateLock.withLock { $0 } }

    private func fail(_ reason: String) {
        stateLock.withLock { state in
            if case .failed = state { return }
            state = .failed(reason)
        }
    }

    /// libpulse's error, taken at the failing call.
    private func fail(_ error: PulseError) { fail(error.description) }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseCapture {
        Unmanaged<PulseCapture>.fromOpaque(userdata!).takeUnretainedValue()
    }

    func start() {
        pulse = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Vigil")
        guard let pulse else { return fail("libpulse could not create a context") }
        pa_context_set_state_callback(
            pulse,
            { c, userdata in
                PulseCapture.from(userdata).contextChanged(c)
            }, me)
        // No autospawn: a detector must not start a sound server the person did not ask for.
        guard pa_context_connect(pulse, detector.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            return fail(PulseError(context: pulse))
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { return fail("libpulse could not start its main loop") }
    }

    /// On the main loop's thread.
    private func contextChanged(_ c: OpaquePointer?) {
        let s = pa_context_get_state(c)
        if s == PA_CONTEXT_READY {
            openStream(c)
        } else if s == PA_CONTEXT_FAILED || s == PA_CONTEXT_TERMINATED {
            fail(PulseError(context: c))
        }
    }

    private func openStream(_ c: OpaquePointer?) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(detector.sampleRate), channels: 1)
        guard let s = pa_stream_new(c, "Vigil microphone level", &spec, nil) else { return fail(PulseError(context: c)) }
        stream = s
        pa_stream_set_state_callback(s, { s, userdata in PulseCapture.from(userdata).streamChanged(s) }, me)
        pa_stream_set_read_callback(s, { s, _, userdata in PulseCapture.from(userdata).read(s) }, me)
        // Fragments of 100 ms: levels arrive promptly without waking the process more than ten times
        // a second. (uint32)-1 leaves the other fields to the server.
        let fragment = UInt32(detector.sampleRate / 10 * MemoryLayout<Float>.size)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: fragment)
        guard pa_stream_connect_record(s, detector.source, &attr, PA_STREAM_ADJUST_LATENCY) >= 0 else {
            return fail(PulseError(context: c))
        }
    }

    private func streamChanged(_ s: OpaquePointer?) {
        let st = pa_stream_get_state(s)
        if st == PA_STREAM_READY {
            let name = pa_stream_get_device_name(s).map { String(cString: $0) } ?? detector.source ?? "the default source"
            stateLock.withLock { $0 = .recording(source: name) }
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

    /// Stops the loop (no callback runs after this) and frees the stream, context and loop.
    func close() {
        guard !closed else { return }
        closed = true
        pa_threaded_mainloop_stop(mainloop)
        if let stream {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_read_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
        if let pulse {
            pa_context_set_state_callback(pulse, nil, nil)
            pa_context_disconnect(pulse)
            pa_context_unref(pulse)
        }
        pa_threaded_mainloop_free(mainloop)
    }

    deinit { close() }
}
