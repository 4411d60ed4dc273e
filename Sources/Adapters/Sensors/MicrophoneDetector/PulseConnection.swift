import CPulse
import DetectorSupport
import Synchronization
import SystemCalls
import VigilCore

/// One connection to a PulseAudio server (or PipeWire's pulse server) on libpulse's threaded main
/// loop: what the microphone capture and the stream watch share. Owns the main loop and the context
/// and frees them in `close()`; a subclass adds what it does once the context is ready (`ready`) and
/// frees what it made (`release`).
///
/// Threading: libpulse calls the callbacks on the main loop's thread, and a subclass touches its own
/// state only there. `state` is read by the controller (`run`) under a mutex. After
/// `pa_threaded_mainloop_stop` no callback runs, so `close()` can free everything.
class PulseConnection: @unchecked Sendable {
    enum State: Equatable {
        case connecting
        /// Doing its work: recording, or watching the streams.
        case working
        case failed(String)
    }

    let server: String?
    let context: DetectorContext
    private let mainloop: OpaquePointer
    /// The context, from `start()` on.
    private(set) var pulse: OpaquePointer?
    private let stateLock = Mutex<State>(.connecting)
    /// Signalled at every change of `state`: the controller sleeps on it instead of looking.
    private let changed = WakePipe()
    private var closed = false

    init(server: String?, context: DetectorContext) {
        self.server = server
        self.context = context
        mainloop = pa_threaded_mainloop_new()
    }

    var state: State { stateLock.withLock { $0 } }

    /// The first failure is the one reported; what follows from it (a stream failing because its
    /// context did) says nothing new.
    func fail(_ reason: String) {
        let changedNow = stateLock.withLock { state in
            if case .failed = state { return false }
            state = .failed(reason)
            return true
        }
        if changedNow { changed.signal() }
    }

    /// libpulse's error, taken at the failing call.
    func fail(_ error: PulseError) { fail(error.description) }

    /// Tells the controller the connection works (called on the main loop's thread); false, and
    /// nothing changes, when it already failed (a refused request answered before this one).
    @discardableResult
    func markWorking() -> Bool {
        let changedNow = stateLock.withLock { state in
            guard case .connecting = state else { return false }
            state = .working
            return true
        }
        if changedNow { changed.signal() }
        return changedNow
    }

    /// Sleeps until `state` changes, the session stops, or `seconds` pass (`.infinity`: no limit).
    private func waitForChange(_ context: DetectorContext, seconds: Double) {
        waitReadable(changed.descriptor, orStop: context.stopDescriptor, seconds: seconds)
        changed.drain()
    }

    /// The pointer C callbacks get back as their `userdata`.
    var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The connection a C callback's `userdata` points to, as the subclass that registered it.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> Self {
        unsafeDowncast(Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue(), to: self)
    }

    func start() {
        pulse = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Vigil")
        guard let pulse else { return fail("libpulse could not create a context") }
        pa_context_set_state_callback(pulse, { c, userdata in PulseConnection.from(userdata).contextChanged(c) }, me)
        // No autospawn: a detector must not start a sound server the person did not ask for.
        guard pa_context_connect(pulse, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            return fail(PulseError(context: pulse))
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { return fail("libpulse could not start its main loop") }
    }

    /// On the main loop's thread.
    private func contextChanged(_ c: OpaquePointer?) {
        let s = pa_context_get_state(c)
        if s == PA_CONTEXT_READY {
            ready(c)
        } else if s == PA_CONTEXT_FAILED || s == PA_CONTEXT_TERMINATED {
            fail(PulseError(context: c))
        }
    }

    /// The context is connected: start the work. On the main loop's thread.
    func ready(_ c: OpaquePointer?) {}

    /// Frees what `ready` made. The loop is stopped and the context not yet disconnected.
    func release() {}

    /// Stops the loop (no callback runs after this) and frees what the subclass made, the context
    /// and the loop.
    func close() {
        guard !closed else { return }
        closed = true
        pa_threaded_mainloop_stop(mainloop)
        release()
        if let pulse {
            pa_context_set_state_callback(pulse, nil, nil)
            pa_context_disconnect(pulse)
            pa_context_unref(pulse)
        }
        pa_threaded_mainloop_free(mainloop)
    }

    deinit { close() }

    /// The controller both PulseAudio detectors run on their own thread: one connection at a time,
    /// made by `connect`; it watches the connection, and after a loss reports it and makes a new one
    /// with a growing delay, so a server that comes back is picked up without restarting the session.
    ///
    /// The connection reports `.available` itself, on the main loop's thread, before its first
    /// sample, so the status always comes first. `doing` says what the detector does with the server
    /// ("record from"), `settings` which config keys choose another.
    static func run(
        _ context: DetectorContext, server: String?, retry: Backoff, doing: String, settings: String,
        connect: () -> PulseConnection
    ) {
        let serverName = server.map { "the PulseAudio server at \($0)" } ?? "the PulseAudio server"
        context.keepConnecting(retry: retry) {
            // libpulse is opened now, not at Vigil's start (CSensorLibraries).
            if let problem = SensorLibrary.pulse.open(vigil_load_libpulse) { return .failed("cannot \(doing) \(serverName): \(problem). Retrying.") }
            let connection = connect()
            connection.start()
            // Asleep until the connection works or fails (at most 10 s), then until it fails or the
            // session stops: libpulse's callbacks wake this through `changed`, nothing polls.
            let deadline = monotonicSeconds() + 10
            while !context.isStopped, connection.state == .connecting {
                let left = deadline - monotonicSeconds()
                guard left > 0 else { break }
                connection.waitForChange(context, seconds: left)
            }
            let worked = connection.state == .working
            while !context.isStopped, connection.state == .working { connection.waitForChange(context, seconds: .infinity) }
            connection.close()
            if context.isStopped { return .stopped }
            let reason: String
            switch connection.state {
            case .failed(let why): reason = why
            default: reason = "no answer within 10 s"
            }
            let message =
                context.lastReported == .available
                ? "lost \(serverName) (\(reason)); reconnecting"
                : "cannot \(doing) \(serverName) (\(reason)). Is PulseAudio or pipewire-pulse running (`pactl info`)? "
                    + "Set \(settings) in the config to use another. Retrying."
            return worked ? .lost(message) : .failed(message)
        }
    }
}
