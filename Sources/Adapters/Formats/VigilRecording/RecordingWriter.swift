import SystemCalls
import VigilCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Formats samples as recording lines. Pure: `RecordingWriter` adds the file.
public struct RecordingEncoder: Sendable {
    public let header: RecordingHeader

    public init(header: RecordingHeader) { self.header = header }

    public func headerLine() -> String {
        var fields = ["\"vigil\":\"recording\"", "\"version\":\(header.version)", "\"start\":\(jsonString(header.start.description))"]
        if let s = header.source { fields.append("\"source\":\(jsonString(s))") }
        if let n = header.note { fields.append("\"note\":\(jsonString(n))") }
        if let t = header.task { fields.append("\"task\":\(jsonString(t))") }
        if let p = header.plannedSeconds { fields.append("\"planned\":\(jsonNumber(p))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// One sample line (without the newline). Zero counts are left out: readers default them to 0.
    public func line(for sample: Sample) -> String {
        let t = jsonNumber(Double(sample.time.nanoseconds - header.start.nanoseconds) / 1e9)
        var out = "{\"t\":\(t),"
        switch sample.payload {
        case .input(let a):
            out += "\"kind\":\"input\",\"window\":\(jsonNumber(a.window))"
            func add(_ key: String, _ v: Int) { if v != 0 { out += ",\"\(key)\":\(v)" } }
            add("keys", a.keyPresses)
            if a.pointerTravel != 0 { out += ",\"travel\":\(jsonNumber(a.pointerTravel))" }
            add("clicks", a.clicks)
            add("scroll", a.scrollTicks)
            add("alt_tab", a.switches.altTab)
            add("super", a.switches.superKey)
            add("ctrl_tab", a.switches.ctrlTab)
            add("workspace", a.switches.workspace)
            add("swipes", a.switches.swipes)
            out += ",\"idle\":\(jsonNumber(a.idle))"
        case .audio(let l):
            out += "\"kind\":\"audio\",\"rms\":\(jsonNumber(l.rms)),\"peak\":\(jsonNumber(l.peak))"
            if let v = l.shortTermLUFS { out += ",\"lufs\":\(jsonNumber(v))" }
            if let v = l.momentaryLUFS { out += ",\"momentary\":\(jsonNumber(v))" }
        case .location(let f):
            out += "\"kind\":\"location\",\"lat\":\(jsonNumber(f.latitude)),\"lon\":\(jsonNumber(f.longitude))"
            if let v = f.horizontalAccuracy { out += ",\"acc\":\(jsonNumber(v))" }
            if let v = f.speed { out += ",\"speed\":\(jsonNumber(v))" }
            out += ",\"mode\":\(f.mode.rawValue)"
            if let v = f.distanceFromWorkplace { out += ",\"dist\":\(jsonNumber(v))" }
            if let v = f.cellSize { out += ",\"cell\":\(jsonNumber(v))" }
        case .desktop(let e):
            out += "\"kind\":\"desktop\""
            if case .idle(let seconds) = e { out += ",\"idle\":\(jsonNumber(seconds))" }
            if let state = e.stateName { out += ",\"state\":\"\(state)\"" }
        case .app(let f):
            out += "\"kind\":\"app\",\"class\":\(jsonString(f.appClass)),\"category\":\"\(f.category.rawValue)\""
            if let r = f.rule { out += ",\"rule\":\(jsonString(r))" }
            if let title = f.title { out += ",\"title\":\(jsonString(title))" }
        case .media(let m):
            out += "\"kind\":\"media\",\"calls\":\(m.calls),\"playing\":\(m.playing)"
        case .reading(let r):
            out += "\"kind\":\(jsonString(r.sensor.rawValue))"
            if let v = r.value { out += ",\"value\":\(jsonNumber(v))" }
            if let l = r.label { out += ",\"label\":\(jsonString(l))" }
        case .status(let s):
            out += "\"kind\":\"status\",\"sensor\":\(jsonString(s.sensor.rawValue)),\"state\":\"\(s.state.rawValue)\""
            if !s.detail.isEmpty { out += ",\"detail\":\(jsonString(s.detail))" }
        case .control(.alive):
            out += "\"kind\":\"alive\""
        case .control(let a):
            out += "\"kind\":\"control\",\"action\":\"\(a.rawValue)\""
        }
        return out + "}"
    }
}

/// Writes a recording file through `OutputFile`: a temporary renamed into place by `close()` (or
/// a FIFO or device written where it is), 0600, as recordings describe a person's behaviour. Lines
/// are gathered in a buffer of its own and written in blocks.
public final class RecordingWriter {
    public let path: String
    public let encoder: RecordingEncoder
    private var file: OutputFile?
    private var buffer: [UInt8] = []

    /// - Parameter journal: where the temporary's path is kept while it is written (see `OutputFile`).
    public init(path: String, header: RecordingHeader, journal: String? = nil) throws(RecordingError) {
        self.path = path
        encoder = RecordingEncoder(header: header)
        do {
            file = try OutputFile(path: path, journal: journal)
        } catch {
            throw RecordingError(file: path, line: 0, message: "cannot create: \(error.reason); choose another file", kind: .cannotCreate)
        }
        try write(encoder.headerLine())
    }

    public func append(_ sample: Sample) throws(RecordingError) {
        try write(encoder.line(for: sample))
    }

    private func write(_ line: String) throws(RecordingError) {
        guard file != nil else { throw RecordingError(file: path, line: 0, message: "already closed") }
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws(RecordingError) {
        guard let file, !buffer.isEmpty else { return }
        do {
            try file.write(buffer)
        } catch {
            // OutputFile has discarded it: the recording is not kept half-written.
            self.file = nil
            throw RecordingError(file: path, line: 0, message: "write failed: \(error.reason)", kind: .io)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left, syncs and puts the file in place. A recording is complete only after this returns.
    public func close() throws(RecordingError) {
        try flush()
        guard let file else { return }
        self.file = nil
        do {
            try file.commit(sync: true)
        } catch {
            throw RecordingError(file: path, line: 0, message: "could not finish writing: \(error.reason)", kind: .io)
        }
    }
}
