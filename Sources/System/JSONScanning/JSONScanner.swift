/// A strict, allocation-free scanner of one JSON object on one line: Vigil's recordings and gpsd's
/// reports are read with it.
///
/// Hand-written because both are hot paths: Foundation's JSONDecoder reads about a tenth of the 2
/// million samples per second a replay aims for, and JSONSerialization builds a dictionary per gpsd
/// report (a million reports took 16 s). Strings without escapes are returned as their place in the
/// line, numbers are converted without allocating, nested values of keys the caller does not want
/// are skipped, and anything that is not JSON is refused with a column and a reason.
///
/// The members of the object are read one by one (`beginObject`, `nextKey`, then the caller reads
/// or skips the value), so a reader switches on the keys it knows without building anything.
///
/// Everything here is `@inlinable`: the readers call it for every byte of a file, and a call across
/// the module boundary per value would cost more than the value.
public struct JSONScanner {
    /// What the scanner accepts beyond strict JSON, and how deep it goes.
    public struct Rules: Sendable {
        /// Bytes of 0x80 and above inside strings must be well-formed UTF-8.
        public var validatesUTF8: Bool
        /// A `\u` escape of half a surrogate pair is refused (otherwise it reads as U+FFFD).
        public var refusesUnpairedSurrogates: Bool
        /// A `,` right before `}` or `]` is accepted, as Foundation's JSONSerialization does.
        public var allowsTrailingCommas: Bool
        /// Values nested deeper than this (the object's own members are at depth 0) are refused.
        public var deepestValue: Int
        /// Arrays and objects nested deeper than this are refused.
        public var deepestContainer: Int
        /// A number too large for a Double (`1e400`) is refused wherever it is, even in a skipped value.
        public var refusesInfiniteNumbers: Bool

        @inlinable public init(
            validatesUTF8: Bool, refusesUnpairedSurrogates: Bool, allowsTrailingCommas: Bool, deepestValue: Int, deepestContainer: Int,
            refusesInfiniteNumbers: Bool
        ) {
            self.validatesUTF8 = validatesUTF8
            self.refusesUnpairedSurrogates = refusesUnpairedSurrogates
            self.allowsTrailingCommas = allowsTrailingCommas
            self.deepestValue = deepestValue
            self.deepestContainer = deepestContainer
            self.refusesInfiniteNumbers = refusesInfiniteNumbers
        }

        /// Vigil's recordings, as they have always been read: bytes inside strings are taken as
        /// they are, half a surrogate pair reads as U+FFFD, values nest at most 64 deep, and a number
        /// too large for a Double is the caller's to refuse.
        public static let permissive = Rules(
            validatesUTF8: false, refusesUnpairedSurrogates: false, allowsTrailingCommas: false, deepestValue: 63, deepestContainer: 63,
            refusesInfiniteNumbers: false)

        /// Exactly what Foundation's JSONSerialization accepts on Linux (gpsd logs were read with it,
        /// and must be refused or accepted as they were): well-formed UTF-8, surrogates in pairs, a
        /// trailing comma before `}` or `]`, 512 levels of nesting counting the object itself, and
        /// every number within a Double's range.
        public static let foundation = Rules(
            validatesUTF8: true, refusesUnpairedSurrogates: true, allowsTrailingCommas: true, deepestValue: 511, deepestContainer: 510,
            refusesInfiniteNumbers: true)
    }

    /// Why a line is not what was expected, and where.
    public struct Failure: Error, Sendable {
        /// 1-based byte column.
        public var column: Int
        public var message: String

        @inlinable public init(column: Int, message: String) {
            self.column = column
            self.message = message
        }
    }

    /// A string's place in the line, or its text when it had escapes to decode.
    public typealias Text = (start: Int, end: Int, decoded: String?)

    /// A number as it is written, and its value when that was converted exactly on the way.
    public struct NumberToken: Sendable {
        /// Where its text is in the line.
        public var start: Int
        public var end: Int
        /// The value, when the number has at most 15 significant digits and no exponent (one
        /// correctly rounded operation); nil when only a full decimal parser gives the right value.
        public var simple: Double?
        /// Written without a fraction or an exponent.
        public var isInteger: Bool

        @inlinable public init(start: Int, end: Int, simple: Double?, isInteger: Bool) {
            self.start = start
            self.end = end
            self.simple = simple
            self.isInteger = isInteger
        }
    }

    public let base: UnsafePointer<UInt8>
    public let count: Int
    public var pos = 0
    public let rules: Rules
    /// For `nextKey()`: the object's first member is next.
    @usableFromInline var atFirstMember = true

    @inlinable public init(_ line: UnsafeBufferPointer<UInt8>, rules: Rules = .permissive) {
        base = line.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = line.count
        self.rules = rules
    }

    @inlinable @inline(__always) public func peek() -> UInt8? { pos < count ? base[pos] : nil }

    @inlinable @inline(__always) public mutating func skipSpace() {
        var i = pos
        while i < count {
            let c = base[i]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { i += 1 } else { break }
        }
        pos = i
    }

    @inlinable public func fail(_ message: String) -> Failure { Failure(column: pos + 1, message: message) }

    @inlinable @inline(__always) public mutating func expect(_ c: UInt8, _ what: @autoclosure () -> String) throws(Failure) {
        skipSpace()
        guard pos < count, base[pos] == c else {
            throw pos < count ? fail("expected \(what())") : fail("line ends early: expected \(what()) (is the file truncated?)")
        }
        pos += 1
    }

    // MARK: Objects

    /// Reads the `{` that opens the object; `nextKey()` then reads its members.
    @inlinable public mutating func beginObject() throws(Failure) {
        try expect(0x7B, "'{' at the start of the line")
        atFirstMember = true
    }

    /// The next member's key, with the `:` after it read: the caller reads or skips its value. Nil
    /// after the `}` that closes the object.
    @inlinable public mutating func nextKey() throws(Failure) -> Text? {
        skipSpace()
        if atFirstMember {
            atFirstMember = false
            if peek() == 0x7D {
                pos += 1
                return nil
            }
        } else {
            guard let c = peek() else { throw fail("line ends early: expected ',' or '}' (is the file truncated?)") }
            guard c == 0x2C else {
                guard c == 0x7D else { throw fail("expected ',' or '}'") }
                pos += 1
                return nil
            }
            pos += 1
            if rules.allowsTrailingCommas {
                skipSpace()
                if peek() == 0x7D {
                    pos += 1
                    return nil
                }
            }
        }
        let key = try string()
        try expect(0x3A, "':' after a key")
        return key
    }

    /// Nothing but spaces after the object.
    @inlinable public mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard pos == count else { throw fail("unexpected text after the closing '}'") }
    }

    // MARK: Strings

    /// Reads a string without escapes in place, returning its byte range; strings with escapes are
    /// decoded into `decoded`.
    @inlinable @inline(__always) public mutating func string() throws(Failure) -> Text {
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
            if c >= 0x80, rules.validatesUTF8 {
                i = try validUTF8(at: i)
                continue
            }
            i += 1
        }
        pos = i
        throw fail("unterminated string (is the file truncated?)")
    }

    /// The index after the well-formed UTF-8 sequence that starts with a byte of 0x80 or above at
    /// `i` (no overlong forms, no surrogates, nothing above U+10FFFF).
    @inlinable mutating func validUTF8(at i: Int) throws(Failure) -> Int {
        let lead = base[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            pos = i
            throw fail("invalid UTF-8 inside a string")
        }
        guard i + length <= count else {
            pos = i
            throw fail("invalid UTF-8 inside a string")
        }
        for k in 1..<length {
            let c = base[i + k]
            let inRange = k == 1 ? (c >= low && c <= high) : (c >= 0x80 && c <= 0xBF)
            guard inRange else {
                pos = i
                throw fail("invalid UTF-8 inside a string")
            }
        }
        return i + length
    }

    @usableFromInline mutating func decodeEscaped(from start: Int) throws(Failure) -> String {
        var bytes = Array(UnsafeBufferPointer(start: base + start, count: pos - start))
        while pos < count {
            let c = base[pos]
            if c == 0x22 {
                pos += 1
                return String(decoding: bytes, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character inside a string") }
            if c != 0x5C {
                if c >= 0x80, rules.validatesUTF8 {
                    let end = try validUTF8(at: pos)
                    bytes.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: end - pos))
                    pos = end
                    continue
                }
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
                } else if rules.refusesUnpairedSurrogates, (0xD800..<0xE000).contains(scalar) {
                    throw fail("half a surrogate pair in \\u escape")
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape \\\(Character(Unicode.Scalar(e)))")
            }
        }
        throw fail("unterminated string (is the file truncated?)")
    }

    @usableFromInline mutating func hex4() throws(Failure) -> UInt32 {
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

    /// The text of a string read by `string()`.
    @inlinable public func text(_ r: Text) -> String {
        r.decoded ?? String(decoding: UnsafeBufferPointer(start: base + r.start, count: r.end - r.start), as: UTF8.self)
    }

    /// Whether a string read by `string()` is `word`.
    @inlinable public func equals(_ r: Text, _ word: StaticString) -> Bool {
        if let d = r.decoded { return d == word.description }
        let n = word.utf8CodeUnitCount
        return r.end - r.start == n && memoryEqual(base + r.start, word.utf8Start, n)
    }

    // MARK: Numbers

    /// Powers of ten that a Double holds exactly: the fast path of `number()`. A switch rather than
    /// a static array, which would cost a lazy-initialisation check and a bounds check per number.
    @inlinable @inline(__always) public static func exactPower(_ n: Int) -> Double {
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

    /// Reads a JSON number's text, checking its grammar. Up to 15 significant digits without an
    /// exponent are also converted, exactly (Clinger's fast path: one correctly rounded
    /// multiplication or division); the value of anything else is left to a full parser.
    @inlinable public mutating func numberToken() throws(Failure) -> NumberToken {
        let n = try scanNumber(accumulating: true)
        guard !n.hasExponent, n.digits <= 15 else {
            return NumberToken(start: n.start, end: pos, simple: nil, isInteger: !n.hasExponent && n.fractionDigits == 0)
        }
        let m = Double(n.mantissa)
        let v = n.fractionDigits == 0 ? m : m / Self.exactPower(n.fractionDigits)
        return NumberToken(start: n.start, end: pos, simple: n.negative ? -v : v, isInteger: n.fractionDigits == 0)
    }

    /// What `scanNumber` saw of a number.
    @usableFromInline struct ScannedNumber {
        @usableFromInline var start: Int
        @usableFromInline var negative: Bool
        @usableFromInline var mantissa: UInt64
        @usableFromInline var digits: Int
        @usableFromInline var fractionDigits: Int
        @usableFromInline var hasExponent: Bool

        @inlinable init(start: Int, negative: Bool, mantissa: UInt64, digits: Int, fractionDigits: Int, hasExponent: Bool) {
            self.start = start
            self.negative = negative
            self.mantissa = mantissa
            self.digits = digits
            self.fractionDigits = fractionDigits
            self.hasExponent = hasExponent
        }
    }

    /// Reads a number's text up to its end, checking the grammar; with `accumulating`, its digits
    /// are also gathered into the mantissa (wrapping past 19 digits: only up to 15 are used).
    @inlinable @inline(__always) mutating func scanNumber(accumulating: Bool) throws(Failure) -> ScannedNumber {
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
        /// Reads the digits from `i` on; their count.
        @inline(__always) func digits() -> Int {
            let from = i
            while i < count {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                if accumulating { mantissa = mantissa &* 10 &+ UInt64(d) }
                i += 1
            }
            return i - from
        }
        let intStart = i
        let intDigits = digits()
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
            fractionDigits = digits()
            guard fractionDigits > 0 else {
                pos = i
                throw fail("expected digits after the decimal point")
            }
        }
        var hasExponent = false
        if i < count, base[i] | 0x20 == 0x65 {
            // An exponent: rare in these files, so its value is left to the slow path.
            hasExponent = true
            i += 1
            if i < count, base[i] == 0x2D || base[i] == 0x2B { i += 1 }
            let expStart = i
            while i < count, base[i] &- 0x30 < 10 { i += 1 }
            guard i > expStart else {
                pos = i
                throw fail("expected digits in the exponent")
            }
        }
        pos = i
        return ScannedNumber(
            start: start, negative: negative, mantissa: mantissa, digits: intDigits + fractionDigits, fractionDigits: fractionDigits,
            hasExponent: hasExponent)
    }

    /// Reads a JSON number: exactly, as the standard library's correctly rounded parser reads it
    /// (which it is asked only when the fast path cannot answer). Too large a number is infinite.
    @inlinable public mutating func number() throws(Failure) -> Double {
        let token = try numberToken()
        if let v = token.simple { return v }
        return try slowValue(token)
    }

    @usableFromInline func slowValue(_ token: NumberToken) throws(Failure) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self)
        guard let v = Double(text) else { throw Failure(column: token.start + 1, message: "unreadable number \(text)") }
        return v
    }

    // MARK: Other values

    /// Skips any JSON value (for keys the caller does not read).
    @inlinable public mutating func skipValue(depth: Int = 0) throws(Failure) {
        guard depth <= rules.deepestValue else { throw fail("values nested too deeply") }
        skipSpace()
        guard let c = peek() else { throw fail("line ends early: expected a value (is the file truncated?)") }
        switch c {
        case 0x22: _ = try string()
        case 0x7B, 0x5B:
            guard depth <= rules.deepestContainer else { throw fail("values nested too deeply") }
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
                if rules.allowsTrailingCommas {
                    skipSpace()
                    if peek() == close {
                        pos += 1
                        return
                    }
                }
            }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default: try skipNumber()
        }
    }

    /// Skips a number, checking its grammar (and, by the rules, that it fits a Double) without
    /// converting it when that cannot fail: most values skipped are numbers.
    @inlinable mutating func skipNumber() throws(Failure) {
        let n = try scanNumber(accumulating: false)
        // Up to 15 digits without an exponent always read as a finite Double; anything else is
        // converted as `number()` converts it, to refuse what cannot be read or is infinite.
        guard n.hasExponent || n.digits > 15 else { return }
        let v = try slowValue(NumberToken(start: n.start, end: pos, simple: nil, isInteger: false))
        if rules.refusesInfiniteNumbers, !v.isFinite {
            throw Failure(column: n.start + 1, message: "number too large for a Double")
        }
    }

    @inlinable public mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard pos + n <= count, memoryEqual(base + pos, word.utf8Start, n) else { throw fail("expected \(word)") }
        pos += n
    }

    /// `null` where a value may be missing.
    @inlinable @inline(__always) public mutating func takeNull() -> Bool {
        skipSpace()
        if pos + 4 <= count, base[pos] == 0x6E, base[pos + 1] == 0x75, base[pos + 2] == 0x6C, base[pos + 3] == 0x6C {
            pos += 4
            return true
        }
        return false
    }
}

/// Whether `n` bytes at `a` and `b` are the same.
@inlinable @inline(__always) public func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
