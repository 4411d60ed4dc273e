import CPulse
import DetectorSupport
import Foundation
import VigilCore

/// Calls and playback from PulseAudio (or PipeWire's pulse server): how many other programs record
/// from a microphone (a call or a meeting: the person is there and busy) and how many streams play.
///
/// Event-driven through libpulse's asynchronous API on its own threaded main loop: the stream lists
/// are read once at the start, then again whenever the server says a recording or playing stream
/// appeared, changed (paused, moved) or went away. Emits `.media(MediaActivity)` at the start and
/// whenever the two counts change, nothing in between.
///
/// Only the counts leave this detector: the programs' names, their streams' names and titles are
/// read on the main loop's thread to tell a call from a level meter and dropped there.
///
/// When the server goes away, the detector reports the loss once and reconnects with a growing
/// delay, as the microphone detector does (they share `PulseConnection`).
public final class PulseMediaDetector: Detector, Sendable {
    public let sensor = SensorKind.media
    /// Server address as libpulse takes it; nil is libpulse's default. The same server as the
    /// microphone (`audio.server` in the config).
    public let server: String?
    private let retry: Backoff

    public init(server: String? = nil, retry: Backoff = .reconnect) {
        self.server = server
        self.retry = retry
    }

    /// The detector the configuration asks for: nil when `media.enabled` is false; the server is the
    /// microphone's (`audio.server`).
    public convenience init?(configuration: VigilConfiguration) {
        guard configuration.media.enabled else { return nil }
        self.init(server: configuration.audio.server)
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .media, threadName: "vigil-pulse-media") { [self] context in
            PulseConnection.run(context, server: server, retry: retry, doing: "watch the streams of", settings: "audio.server") {
                PulseStreamWatch(server: server, context: context)
            }
        }
    }
}

/// What decides whether a stream counts, read from one stream's info and dropped after the decision.
struct StreamFacts: Equatable {
    /// Owned by a client (a program), not by a module of the server (a loopback, a combine sink).
    var hasClient: Bool
    /// `application.process.id`: the process that opened it.
    var processID: String?
    /// `media.name`.
    var mediaName: String?
    var corked: Bool
    /// A source output recording a monitor source (what a sink plays), not a microphone.
    var recordsMonitor = false

    /// A call: another program recording from a microphone. Not Vigil's own level stream (a
    /// session's microphone detector), not a module's, not a level meter (pavucontrol's "Peak
    /// detect" streams, anything recording a monitor), not paused.
    func isCall(ownProcess: String) -> Bool {
        hasClient && processID != ownProcess && mediaName != "Peak detect" && !recordsMonitor && !corked
    }

    /// Playing: a program's stream (not a module's, such as a loopback) that is not paused and not
    /// Vigil's own alarm tone.
    func isPlaying(ownProcess: String) -> Bool {
        hasClient && processID != ownProcess && !corked
    }
}

/// One connection that counts the server's streams. A refresh asks for the sources (which are
/// monitors), the source outputs and the sink inputs, in that order; libpulse answers requests on
/// one connection in the order they were made, so the sink inputs' last reply ends the refresh with
/// a consistent picture. An event during a refresh asks for one more refresh after it, so bursts of
/// events cost at most two.
///
/// Everything but `state` is touched only on the main loop's thread.
final class PulseStreamWatch: PulseConnection, @unchecked Sendable {
    private let ownProcess = String(getpid())
    private var refreshing = false
    private var again = false
    private var monitors: Set<UInt32> = []
    /// The source outputs of this refresh with the source each records, decided when the refresh
    /// ends (a monitor is known by then).
    private var recordings: [(facts: StreamFacts, source: UInt32)] = []
    private var playing = 0
    private var last: MediaActivity?

    override func ready(_ c: OpaquePointer?) {
        pa_context_set_subscribe_callback(c, { c, _, _, userdata in PulseStreamWatch.from(userdata).changed(c) }, me)
        let mask = pa_subscription_mask_t(PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue)
        let subscribed = pa_context_subscribe(
            c, mask, { c, success, userdata in if success == 0 { PulseStreamWatch.from(userdata).fail(PulseError(context: c)) } }, me)
        guard let subscribed else { return fail(PulseError(context: c)) }
        pa_operation_unref(subscribed)
        refresh(c)
    }

    /// A stream appeared, changed or went away (the subscription has only those two kinds).
    private func changed(_ c: OpaquePointer?) {
        if refreshing { again = true } else { refresh(c) }
    }

    private func refresh(_ c: OpaquePointer?) {
        refreshing = true
        monitors = []
        recordings = []
        playing = 0
        let sources = pa_context_get_source_info_list(
            c, { c, info, eol, userdata in PulseStreamWatch.from(userdata).source(c, info, eol) }, me)
        let outputs = pa_context_get_source_output_info_list(
            c, { c, info, eol, userdata in PulseStreamWatch.from(userdata).sourceOutput(c, info, eol) }, me)
        let inputs = pa_context_get_sink_input_info_list(
            c, { c, info, eol, userdata in PulseStreamWatch.from(userdata).sinkInput(c, info, eol) }, me)
        let operations = [sources, outputs, inputs]
        for operation in operations { if let operation { pa_operation_unref(operation) } }
        if operations.contains(nil) { fail(PulseError(context: c)) }
    }

    private func source(_ c: OpaquePointer?, _ info: UnsafePointer<pa_source_info>?, _ eol: Int32) {
        if eol < 0 { return fail(PulseError(context: c)) }
        guard eol == 0, let i = info?.pointee else { return }
        // The name may be missing (libpulse accepts a NULL string from the server).
        if i.monitor_of_sink != Self.invalidIndex || (i.name.map { String(cString: $0).hasSuffix(".monitor") } ?? false) {
            monitors.insert(i.index)
        }
    }

    private func sourceOutput(_ c: OpaquePointer?, _ info: UnsafePointer<pa_source_output_info>?, _ eol: Int32) {
        if eol < 0 { return fail(PulseError(context: c)) }
        guard eol == 0, let i = info?.pointee else { return }
        recordings.append((Self.facts(client: i.client, i.proplist, corked: i.corked), i.source))
    }

    private func sinkInput(_ c: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?, _ eol: Int32) {
        if eol < 0 { return fail(PulseError(context: c)) }
        guard eol == 0 else { return finish(c) }
        guard let i = info?.pointee else { return }
        if Self.facts(client: i.client, i.proplist, corked: i.corked).isPlaying(ownProcess: ownProcess) { playing += 1 }
    }

    /// The refresh is complete: say the counts if they changed (the first time, with the status).
    private func finish(_ c: OpaquePointer?) {
        let calls = recordings.count(where: { r in
            var facts = r.facts
            facts.recordsMonitor = monitors.contains(r.source)
            return facts.isCall(ownProcess: ownProcess)
        })
        recordings = []
        let activity = MediaActivity(calls: calls, playing: playing)
        if last == nil {
            guard markWorking() else { return }
            let at = server.map { " of the PulseAudio server at \($0)" } ?? ""
            context.report(.available, "watching the recording and playing streams\(at) (counts only, never names)")
        }
        if activity != last {
            last = activity
            context.emit(.media(activity))
        }
        refreshing = false
        if again {
            again = false
            refresh(c)
        }
    }

    /// PA_INVALID_INDEX, `((uint32_t) -1)`: a macro with a cast, which Swift does not import.
    static let invalidIndex = UInt32.max

    static func facts(client: UInt32, _ proplist: OpaquePointer?, corked: Int32) -> StreamFacts {
        func property(_ key: String) -> String? { pa_proplist_gets(proplist, key).map { String(cString: $0) } }
        return StreamFacts(
            hasClient: client != invalidIndex, processID: property(PA_PROP_APPLICATION_PROCESS_ID), mediaName: property(PA_PROP_MEDIA_NAME),
            corked: corked != 0)
    }

    override func release() {
        if let pulse { pa_context_set_subscribe_callback(pulse, nil, nil) }
    }
}
