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
        case .control(let a):
            out += "\"kind\":\"control\",\"action\":\"\(a.rawValue)\""
        }
        return out + "}"
    }
}

/// Writes a recording file. Lines go through stdio's buffer; `close()` flushes and syncs.
public final class RecordingWriter {
    public let path: String
    public let encoder: RecordingEncoder
    private var file: UnsafeMutablePointer<FILE>?

    public init(path: String, header: RecordingHeader) throws(RecordingError) {
        self.path = path
        encoder = RecordingEncoder(header: header)
        do {
            file = try createPrivately(path)
        } catch {
            throw RecordingError(file: path, line: 0, message: "cannot create: \(error.reason); choose another file", kind: .cannotCreate)
        }
        try write(encoder.headerLine())
    }

    deinit { if let f = file { fclose(f) } }

    public func append(_ sample: Sample) throws(RecordingError) {
        try write(encoder.line(for: sample))
    }

    private func write(_ line: String) throws(RecordingError) {
        guard let f = file else { throw RecordingError(file: path, line: 0, message: "already closed") }
        var text = line
        text.append("\n")
        let failure = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count ? nil : SystemError.current(call: "fwrite", path: path) }
        if let failure { throw RecordingError(file: path, line: 0, message: "write failed: \(failure.reason)", kind: .io) }
    }

    /// Flushes to disk. A recording is complete only after this returns.
    public func close() throws(RecordingError) {
        guard let f = file else { return }
        file = nil
        var failure: SystemError?
        if fflush(f) != 0 {
            failure = .current(call: "fflush", path: path)
        } else {
            do { try syscall("fsync", path: path) { fsync(fileno(f)) } } catch { failure = error }
        }
        fclose(f)
        if let failure { throw RecordingError(file: path, line: 0, message: "could not finish writing: \(failure.reason)", kind: .io) }
    }
}

/// Creates (or truncates) `path` for writing, readable by its owner only: recordings describe a
/// person's behaviour.
private func createPrivately(_ path: String) throws(SystemError) -> UnsafeMutablePointer<FILE> {
    let fd = try syscall("open", path: path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
    do {
        // An existing file keeps its mode through O_TRUNC: make it private too.
        try syscall("fchmod", path: path) { fchmod(fd, 0o600) }
        return try syscallPointer("fdopen", path: path) { fdopen(fd, "wb") }
    } catch {
        close(fd)
        throw error
    }
}
