import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WAV file that cannot be read, with the reason and what to do.
public struct WAVError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
    public var description: String { "\(file): \(message)" }
}

/// Reads RIFF/WAVE files: PCM 8/16/24/32-bit and IEEE float 32/64-bit (plain or
/// WAVE_FORMAT_EXTENSIBLE), any rate, any channel count, streamed in blocks as Float samples.
public final class WAVReader {
    public enum Encoding: Sendable, Equatable {
        case pcm(bits: Int)
        case float(bits: Int)
    }

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    public let encoding: Encoding
    /// Frames in the data chunk, as its header says (fewer may be read if the file is truncated).
    public let frameCount: Int
    /// Frames the file holds after the header: the header's count, or fewer when the header
    /// overstates it (a truncated copy, a writer that never fixed the size). Nil when the length
    /// cannot be known in advance (a pipe).
    public let framesInFile: Int?
    /// The recording's start from a Broadcast Wave `bext` chunk (`YYYY-MM-DD`, `HH:MM:SS`), if any,
    /// as text in the recorder's local time.
    public let originationDateTime: String?

    private let file: UnsafeMutablePointer<FILE>
    private let bytesPerSample: Int
    private var framesLeft: Int
    private var raw: [UInt8] = []

    public var duration: Double { Double(frameCount) / Double(sampleRate) }
    /// How long the audio the file holds lasts: what its place on a timeline is worked out from.
    public var playableDuration: Double { Double(framesInFile.map { min($0, frameCount == 0 ? $0 : frameCount) } ?? frameCount) / Double(sampleRate) }

    public init(path: String) throws(WAVError) {
        self.path = path
        let f: UnsafeMutablePointer<FILE>
        do {
            f = try syscallPointer("fopen", path: path) { fopen(path, "rb") }
        } catch {
            throw WAVError(file: path, message: "cannot open: \(error.reason)")
        }
        file = f
        // Parse the chunks up to "data" with locals, then initialise every property.
        func fail(_ m: String) -> WAVError {
            fclose(f)
            return WAVError(file: path, message: m)
        }
        func read(_ n: Int) -> [UInt8]? {
            var b = [UInt8](repeating: 0, count: n)
            let got = b.withUnsafeMutableBytes { fread($0.baseAddress, 1, n, f) }
            return got == n ? b : nil
        }
        func u16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ b: [UInt8], _ o: Int) -> Int { u16(b, o) | u16(b, o + 2) << 16 }

        guard let riff = read(12) else { throw fail("too short to be a WAV file") }
        guard riff[0..<4] == [0x52, 0x49, 0x46, 0x46], riff[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw fail("not a WAV file (no RIFF/WAVE header)")
        }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var bext: String?
        var dataSize: Int?
        while dataSize == nil {
            guard let header = read(8) else {
                throw fail(format == nil ? "no \"fmt \" chunk before the end of the file" : "no \"data\" chunk before the end of the file")
            }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let size = u32(header, 4)
            switch id {
            case "fmt ":
                guard size >= 16, size < 1 << 16, let body = read(size) else { throw fail("\"fmt \" chunk is truncated") }
                var tag = u16(body, 0)
                if tag == 0xFFFE {
                    // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
                    guard size >= 40 else { throw fail("extensible \"fmt \" chunk is truncated") }
                    tag = u16(body, 24)
                }
                format = (tag, u16(body, 2), u32(body, 4), u16(body, 14))
                if size % 2 == 1 { _ = read(1) }
            case "bext":
                guard size < 1 << 20, let body = read(size) else { throw fail("\"bext\" chunk is truncated") }
                if size >= 338 {
                    let date = String(decoding: body[320..<330], as: UTF8.self)
                    let time = String(decoding: body[330..<338], as: UTF8.self)
                    if date.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), time.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                        bext = "\(date) \(time)"
                    }
                }
                if size % 2 == 1 { _ = read(1) }
            case "data":
                guard format != nil else { throw fail("\"data\" comes before \"fmt \": not a valid WAV file") }
                dataSize = size
            default:
                // Skip chunks we do not need (LIST, fact, cue...), keeping the word alignment.
                if fseeko(f, off_t(size + size % 2), SEEK_CUR) != 0 { throw fail("chunk \"\(id)\" is truncated") }
            }
        }
        guard let fmt = format, let size = dataSize else { throw fail("no audio data") }
        guard fmt.channels > 0, fmt.channels <= 64 else { throw fail("\(fmt.channels) channels: not a usable WAV file") }
        guard fmt.rate >= 1000, fmt.rate <= 768_000 else { throw fail("sample rate \(fmt.rate) Hz is outside 1 kHz to 768 kHz") }
        let encoding: Encoding
        switch (fmt.tag, fmt.bits) {
        case (1, 8), (1, 16), (1, 24), (1, 32): encoding = .pcm(bits: fmt.bits)
        case (3, 32), (3, 64): encoding = .float(bits: fmt.bits)
        default:
            throw fail(
                "unsupported encoding (format \(fmt.tag), \(fmt.bits) bits): use PCM 8/16/24/32-bit or float 32/64-bit, e.g. `sox in.wav -b 16 out.wav`"
            )
        }
        let bytes = fmt.bits / 8
        self.sampleRate = fmt.rate
        self.channels = fmt.channels
        self.encoding = encoding
        self.bytesPerSample = bytes
        // A streaming writer that never went back to fix the size leaves 0 or 0xFFFFFFFF: read to the end.
        let frames = size == 0 || size == 0xFFFF_FFFF ? Int.max : size / (bytes * fmt.channels)
        self.frameCount = frames == Int.max ? 0 : frames
        var st = stat()
        let here = ftello(f)
        if fstat(fileno(f), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, here >= 0 {
            self.framesInFile = max(0, Int(st.st_size) - Int(here)) / (bytes * fmt.channels)
        } else {
            self.framesInFile = nil
        }
        self.framesLeft = frames
        self.originationDateTime = bext
    }

    deinit { fclose(file) }

    /// 16-bit little-endian PCM to Float, on its own so that the loop is vectorised.
    @inline(never) static func convert16(_ src: UnsafeRawPointer, _ dst: UnsafeMutablePointer<Float>, _ count: Int) {
        for i in 0..<count {
            dst[i] = Float(Int16(littleEndian: src.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) / 32768
        }
    }

    /// Reads up to `maxFrames` frames as interleaved Float samples in [-1, 1]. An empty result means
    /// the end. A file cut short ends early rather than failing: what is there is still audio.
    public func read(maxFrames: Int, into out: inout [Float]) {
        out.removeAll(keepingCapacity: true)
        let frames = min(maxFrames, framesLeft)
        guard frames > 0 else { return }
        let n = frames * channels * bytesPerSample
        if raw.count < n { raw = [UInt8](repeating: 0, count: n) }
        let got = raw.withUnsafeMutableBytes { fread($0.baseAddress, 1, n, file) }
        let whole = got / (channels * bytesPerSample)
        framesLeft = whole < frames ? 0 : framesLeft - whole
        let count = whole * channels
        // Size the output once (a memset), then convert through pointers: no per-sample append
        // with its capacity and uniqueness checks, and loops the compiler can vectorise.
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { dst in
            raw.withUnsafeBytes { b in
                switch encoding {
                case .pcm(8):
                    for i in 0..<count { dst[i] = (Float(b[i]) - 128) / 128 }
                case .pcm(16):
                    Self.convert16(b.baseAddress!, dst.baseAddress!, count)
                case .pcm(24):
                    for i in 0..<count {
                        let v = Int32(bitPattern: UInt32(b[3 * i]) << 8 | UInt32(b[3 * i + 1]) << 16 | UInt32(b[3 * i + 2]) << 24) >> 8
                        dst[i] = Float(v) / 8_388_608
                    }
                case .pcm(_):
                    for i in 0..<count { dst[i] = Float(Double(b.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) / 2_147_483_648) }
                case .float(32):
                    for i in 0..<count { dst[i] = b.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) }
                case .float(_):
                    for i in 0..<count { dst[i] = Float(b.loadUnaligned(fromByteOffset: 8 * i, as: Double.self)) }
                }
            }
        }
    }
}
