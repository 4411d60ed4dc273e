import VigilCore

/// A strict, allocation-free scanner for the flat JSON objects of our recording lines.
///
/// Hand-written because it is the replay hot path: Foundation's JSONDecoder reads about a tenth of
/// the 2 million samples per second we aim for. It accepts any valid JSON line (nested values of
/// unknown keys are skipped) and rejects anything else with a column and a reason.
struct JSONLineScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var pos = 0

    init(_ line: UnsafeBufferPointer<UInt8>) {
        base = line.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = line.count
    }

    struct Failure: Error {
        var column: Int
        var message: String
    }

    @inline(__always) func peek() -> UInt8? { pos < count ? base[pos] : nil }

    @inline(__always) mutating func skipSpace() {
        var i = pos
        while i < count {
            let c = base[i]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { i += 1 } else { break }
        }
        pos = i
    }

    func fail(_ message: String) -> Failure { Failure(column: pos + 1, message: message) }

    @inline(__always) mutating func expect(_ c: UInt8, _ what: @autoclosure () -> String) throws(Failure) {
        skipSpace()
        guard pos < count, base[pos] == c else {
            throw pos < count ? fail("expected \(what())") : fail("line ends early: expected \(what()) (is the file truncated?)")
        }
        pos += 1
    }

    /// Reads a string without escapes in place, returning its byte range; strings with escapes are
    /// decoded into `decoded`.
    @inline(__always) mutating func string() throws(Failure) -> (start: Int, end: Int, decoded: String?) {
        try expect(0x22, "a string")
        let start = pos
        var i = pos
        while i < count {
            let c = base[i]
            if c == 0x22 {
                pos = i + 1
                return (start, i, nil)
            }
            if c == 0x5C {
                pos = i
                return (start, start, try decodeEscaped(from: start))
            }
            if c < 0x20 {
                pos = i
                throw fail("control character inside a string")
            }
            i += 1
        }
        pos = i
        throw fail("unterminated string (is the file truncated?)")
    }

    private mutating func decodeEscaped(from start: Int) throws(Failure) -> String {
        var bytes = Array(UnsafeBufferPointer(start: base + start, count: pos - start))
        while pos < count {
            let c = base[pos]
            if c == 0x22 {
                pos += 1
                return String(decoding: bytes, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character inside a string") }
            if c != 0x5C {
                bytes.append(c)
                pos += 1
                continue
            }
            pos += 1
            guard pos < count else { break }
            let e = base[pos]
            pos += 1
            switch e {
            case 0x22, 0x5C, 0x2F: bytes.append(e)
            case 0x62: bytes.append(0x08)
            case 0x66: bytes.append(0x0C)
            case 0x6E: bytes.append(0x0A)
            case 0x72: bytes.append(0x0D)
            case 0x74: bytes.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), pos + 1 < count, base[pos] == 0x5C, base[pos + 1] == 0x75 {
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid surrogate pair in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        throw fail("unterminated string (is the file truncated?)")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard pos + 4 <= count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = base[pos]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("bad hex digit in \\u escape")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }

    /// Powers of ten that a Double holds exactly: the fast path of `number()`. A switch rather than
    /// a static array, which would cost a lazy-initialisation check and a bounds check per number.
    @inline(__always) static func exactPower(_ n: Int) -> Double {
        switch n {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// Reads a JSON number. Up to 15 significant digits and small exponents are converted exactly
    /// (Clinger's fast path: one correctly rounded multiplication or division); anything else goes
    /// through the standard library's correctly rounded parser.
    mutating func number() throws(Failure) -> Double {
        skipSpace()
        // Work on locals: reads through `base` could alias `self.pos` as far as the optimiser knows,
        // which would send every step of the digit loops through memory.
        let base = self.base
        let count = self.count
        var i = pos
        let start = i
        var negative = false
        if i < count, base[i] == 0x2D {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        let intStart = i
        while i < count {
            let d = base[i] &- 0x30
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        let intDigits = i - intStart
        guard intDigits > 0 else {
            pos = i
            throw fail(i < count ? "expected a number" : "line ends early: expected a number")
        }
        if intDigits > 1, base[intStart] == 0x30 {
            pos = i
            throw fail("numbers may not start with 0")
        }
        var fractionDigits = 0
        if i < count, base[i] == 0x2E {
            i += 1
            let fracStart = i
            while i < count {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            fractionDigits = i - fracStart
            guard fractionDigits > 0 else {
                pos = i
                throw fail("expected digits after the decimal point")
            }
        }
        let digits = intDigits + fractionDigits
        if i < count, base[i] | 0x20 == 0x65 {
            // An exponent: rare in recordings, so leave it to the slow path below.
            i += 1
            if i < count, base[i] == 0x2D || base[i] == 0x2B { i += 1 }
            let expStart = i
            while i < count, base[i] &- 0x30 < 10 { i += 1 }
            guard i > expStart else {
                pos = i
                throw fail("expected digits in the exponent")
            }
        } else if digits <= 15 {
            pos = i
            let m = Double(mantissa)
            let v = fractionDigits == 0 ? m : m / Self.exactPower(fractionDigits)
            return negative ? -v : v
        }
        pos = i
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let v = Double(text) else { throw Failure(column: start + 1, message: "unreadable number \(text)") }
        return v
    }

    /// Skips any JSON value (for keys we do not know).
    mutating func skipValue(depth: Int = 0) throws(Failure) {
        guard depth < 64 else { throw fail("values nested too deeply") }
        skipSpace()
        guard let c = peek() else { throw fail("line ends early: expected a value (is the file truncated?)") }
        switch c {
        case 0x22: _ = try string()
        case 0x7B, 0x5B:
            let close: UInt8 = c == 0x7B ? 0x7D : 0x5D
            pos += 1
            skipSpace()
            if peek() == close {
                pos += 1
                return
            }
            while true {
                if c == 0x7B {
                    _ = try string()
                    try expect(0x3A, "':'")
                }
                try skipValue(depth: depth + 1)
                skipSpace()
                guard let n = peek() else { throw fail("line ends early inside a nested value (is the file truncated?)") }
                pos += 1
                if n == close { return }
                guard n == 0x2C else {
                    pos -= 1
                    throw fail("expected ',' or the end of a nested value")
                }
            }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default: _ = try number()
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard pos + n <= count, memoryEqual(base + pos, word.utf8Start, n) else { throw fail("expected \(word)") }
        pos += n
    }

    /// `null` where a value may be missing.
    @inline(__always) mutating func takeNull() -> Bool {
        skipSpace()
        if pos + 4 <= count, base[pos] == 0x6E, base[pos + 1] == 0x75, base[pos + 2] == 0x6C, base[pos + 3] == 0x6C {
            pos += 4
            return true
        }
        return false
    }

    func text(_ r: (start: Int, end: Int, decoded: String?)) -> String {
        r.decoded ?? String(decoding: UnsafeBufferPointer(start: base + r.start, count: r.end - r.start), as: UTF8.self)
    }

    func equals(_ r: (start: Int, end: Int, decoded: String?), _ word: StaticString) -> Bool {
        if let d = r.decoded { return d == word.description }
        let n = word.utf8CodeUnitCount
        return r.end - r.start == n && memoryEqual(base + r.start, word.utf8Start, n)
    }
}

@inline(__always) func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
