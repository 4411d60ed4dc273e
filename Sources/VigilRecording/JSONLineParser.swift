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
        while pos < count {
            let c = base[pos]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { pos += 1 } else { break }
        }
    }

    func fail(_ message: String) -> Failure { Failure(column: pos + 1, message: message) }

    mutating func expect(_ c: UInt8, _ what: String) throws(Failure) {
        skipSpace()
        guard pos < count, base[pos] == c else {
            throw pos < count ? fail("expected \(what)") : fail("line ends early: expected \(what) (is the file truncated?)")
        }
        pos += 1
    }

    /// Reads a string without escapes in place, returning its byte range; strings with escapes are
    /// decoded into `decoded`.
    mutating func string() throws(Failure) -> (start: Int, end: Int, decoded: String?) {
        try expect(0x22, "a string")
        let start = pos
        while pos < count {
            let c = base[pos]
            if c == 0x22 {
                pos += 1
                return (start, pos - 1, nil)
            }
            if c == 0x5C { return (start, start, try decodeEscaped(from: start)) }
            if c < 0x20 { throw fail("control character inside a string") }
            pos += 1
        }
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

    /// Powers of ten that a Double holds exactly: the fast path of `number()`.
    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads a JSON number. Up to 15 significant digits and small exponents are converted exactly
    /// (Clinger's fast path: one correctly rounded multiplication or division); anything else goes
    /// through the standard library's correctly rounded parser.
    mutating func number() throws(Failure) -> Double {
        skipSpace()
        let start = pos
        var negative = false
        if pos < count, base[pos] == 0x2D { negative = true; pos += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var intDigits = 0
        while pos < count, base[pos] &- 0x30 < 10 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[pos] &- 0x30) }
            digits += 1
            intDigits += 1
            pos += 1
        }
        guard intDigits > 0 else { throw fail(pos < count ? "expected a number" : "line ends early: expected a number") }
        if intDigits > 1, base[start + (negative ? 1 : 0)] == 0x30 { throw fail("numbers may not start with 0") }
        var fractionDigits = 0
        if pos < count, base[pos] == 0x2E {
            pos += 1
            while pos < count, base[pos] &- 0x30 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[pos] &- 0x30); fractionDigits += 1 }
                digits += 1
                pos += 1
            }
            guard fractionDigits > 0 || digits > intDigits else { throw fail("expected digits after the decimal point") }
        }
        var exponent = 0
        var hasExponent = false
        if pos < count, base[pos] | 0x20 == 0x65 {
            hasExponent = true
            pos += 1
            var expNegative = false
            if pos < count, base[pos] == 0x2D || base[pos] == 0x2B { expNegative = base[pos] == 0x2D; pos += 1 }
            var expDigits = 0
            while pos < count, base[pos] &- 0x30 < 10 {
                if exponent < 10_000 { exponent = exponent * 10 + Int(base[pos] &- 0x30) }
                expDigits += 1
                pos += 1
            }
            guard expDigits > 0 else { throw fail("expected digits in the exponent") }
            if expNegative { exponent = -exponent }
        }
        if digits <= 15 && !hasExponent {
            let m = Double(mantissa)
            let v = fractionDigits == 0 ? m : m / Self.exactPowers[fractionDigits]
            return negative ? -v : v
        }
        let scale = exponent - fractionDigits
        if digits <= 15, scale >= -22, scale <= 22 {
            let m = Double(mantissa)
            let v = scale >= 0 ? m * Self.exactPowers[scale] : m / Self.exactPowers[-scale]
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
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
            if peek() == close { pos += 1; return }
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
                guard n == 0x2C else { pos -= 1; throw fail("expected ',' or the end of a nested value") }
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
    mutating func takeNull() -> Bool {
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
