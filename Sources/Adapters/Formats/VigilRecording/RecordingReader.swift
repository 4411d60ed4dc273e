import JSONScanning
import SystemCalls
import VigilCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The keys of a sample line. Values are kept by slot so a line is decoded without allocating.
private enum Key: Int {
    case t, kind, window, keys, travel, clicks, scroll, altTab, superKey, ctrlTab, workspace, swipes, idle
    case rms, peak, lufs, momentary, lat, lon, acc, speed, mode, dist, cell, sensor, state, detail, action
    /// A plug-in signal's reading (`SignalReading`).
    case value, label
    /// The application in front (`AppFocus`) and calls and playback (`MediaActivity`).
    case appClass, category, rule, title, calls, playing

    static let count = 36

    /// Keys whose values are strings.
    var isText: Bool {
        switch self {
        case .kind, .sensor, .state, .detail, .action, .label, .appClass, .category, .rule, .title: true
        default: false
        }
    }

    /// The key as it is written in a recording, for messages.
    var jsonName: String {
        switch self {
        case .altTab: "alt_tab"
        case .superKey: "super"
        case .ctrlTab: "ctrl_tab"
        case .appClass: "class"
        default: "\(self)"
        }
    }

    /// Matches a key's bytes; `nil` for keys this version does not know (they are skipped).
    /// Keys of up to 8 bytes are read as one little-endian integer and matched in a single switch:
    /// this runs for every key of every line.
    @inline(__always) static func match(_ p: UnsafePointer<UInt8>, _ n: Int) -> Key? {
        if n == 9 {
            if memoryEqual(p, ("workspace" as StaticString).utf8Start, 9) { return .workspace }
            if memoryEqual(p, ("momentary" as StaticString).utf8Start, 9) { return .momentary }
            return nil
        }
        guard n > 0, n <= 8 else { return nil }
        var word: UInt64 = 0
        for i in 0..<n { word |= UInt64(p[i]) << (8 * UInt64(i)) }
        return fromWord(word)
    }

    /// The key whose bytes, read as a little-endian integer, are `word` (keys of up to 8 bytes).
    /// A perfect hash of the word picks the one key it can be, which is then compared: one
    /// multiplication, two loads and one comparison, where a switch over the words took a branch
    /// at every level of its search (mispredicted, as lines of three kinds interleave).
    @inline(__always) static func fromWord(_ word: UInt64) -> Key? {
        let slot = Int(truncatingIfNeeded: (word &* 0xbd33_7be8_de9a_5fb1) &>> 58)
        return keyWords[slot] == word ? keysBySlot[slot] : nil
    }
}

/// The keys of up to 8 bytes by their slot in `Key.fromWord`'s hash (no two share one), and each
/// one's word.
private let keysBySlot: [Key?] = [
    nil, .detail, nil, .title, nil, .scroll, nil, .action,
    nil, .clicks, .mode, nil, .calls, .dist, .speed, .value,
    nil, nil, nil, nil, nil, .lufs, nil, .peak,
    .lon, .kind, .sensor, nil, .appClass, .category, .lat, .ctrlTab,
    nil, .acc, .label, .window, .keys, nil, nil, .state,
    nil, .playing, nil, nil, nil, nil, .t, .superKey,
    nil, nil, nil, .swipes, nil, .rms, nil, .idle,
    nil, .travel, nil, .rule, nil, .altTab, nil, .cell,
]
private let keyWords: [UInt64] = [
    0,
    0x6c69_6174_6564,  // detail
    0,
    0x65_6c74_6974,  // title
    0,
    0x6c6c_6f72_6373,  // scroll
    0,
    0x6e6f_6974_6361,  // action
    0,
    0x736b_6369_6c63,  // clicks
    0x6564_6f6d,  // mode
    0,
    0x73_6c6c_6163,  // calls
    0x7473_6964,  // dist
    0x64_6565_7073,  // speed
    0x65_756c_6176,  // value
    0,
    0,
    0,
    0,
    0,
    0x7366_756c,  // lufs
    0,
    0x6b61_6570,  // peak
    0x6e6f6c,  // lon
    0x646e_696b,  // kind
    0x726f_736e_6573,  // sensor
    0,
    0x73_7361_6c63,  // class
    0x7972_6f67_6574_6163,  // category
    0x74616c,  // lat
    0x6261_745f_6c72_7463,  // ctrl_tab
    0,
    0x636361,  // acc
    0x6c_6562_616c,  // label
    0x776f_646e_6977,  // window
    0x7379_656b,  // keys
    0,
    0,
    0x65_7461_7473,  // state
    0,
    0x676e_6979_616c_70,  // playing
    0,
    0,
    0,
    0,
    0x74,  // t
    0x72_6570_7573,  // super
    0,
    0,
    0,
    0x7365_7069_7773,  // swipes
    0,
    0x736d72,  // rms
    0,
    0x656c_6469,  // idle
    0,
    0x6c65_7661_7274,  // travel
    0,
    0x656c_7572,  // rule
    0,
    0x62_6174_5f74_6c61,  // alt_tab
    0,
    0x6c6c_6563,  // cell
]

private enum Kind { case input, audio, location, desktop, app, media, status, control, alive, unknown }

/// Decodes one sample line. Returns `nil` for a line of a kind that neither this version nor a
/// signal in `signals` knows.
func decodeSampleLine(_ line: UnsafeBufferPointer<UInt8>, start: Timestamp, signals: SignalCatalog = .builtIn) throws(JSONLineScanner.Failure)
    -> Sample?
{
    // Numeric slots on the stack, NaN meaning "absent".
    try withUnsafeTemporaryAllocation(of: Double.self, capacity: Key.count) { (slots) throws(JSONLineScanner.Failure) -> Sample? in
        slots.initialize(repeating: .nan)
        return try decodeSampleLine(line, start: start, slots: slots.baseAddress!, signals: signals)
    }
}

/// The rarely present parts of a line: string values and a deferred type error. Kept behind one
/// reference so that the common line (numbers only) creates and destroys no strings at all.
private final class LineExtras {
    var sensor: String?, state: String?, detail: String?, action: String?, label: String?
    var appClass: String?, category: String?, rule: String?, title: String?
    /// The `kind` of a line whose kind is not built in: perhaps a plug-in signal's reading.
    var kindName: String?
    /// A value of the wrong type for a key we know: an error only if the line's kind is one we know.
    var deferred: JSONLineScanner.Failure?

    /// Keeps a text key's value.
    func set(_ key: Key, _ text: String) {
        switch key {
        case .sensor: sensor = text
        case .state: state = text
        case .detail: detail = text
        case .label: label = text
        case .appClass: appClass = text
        case .category: category = text
        case .rule: rule = text
        case .title: title = text
        default: action = text
        }
    }
}

/// What a line's keys said, before the sample is built from it.
private struct LineFields {
    var kind = Kind.unknown
    var sawKind = false
    var extras: LineExtras?

    var more: LineExtras {
        mutating get {
            if let e = extras { return e }
            let e = LineExtras()
            extras = e
            return e
        }
    }
    var sensor: String? { extras?.sensor }
    var state: String? { extras?.state }
    var detail: String? { extras?.detail }
    var action: String? { extras?.action }
    var label: String? { extras?.label }
    var appClass: String? { extras?.appClass }
    var category: String? { extras?.category }
    var rule: String? { extras?.rule }
    var title: String? { extras?.title }
    var kindName: String? { extras?.kindName }
    var deferred: JSONLineScanner.Failure? { extras?.deferred }
}

private func decodeSampleLine(
    _ line: UnsafeBufferPointer<UInt8>, start: Timestamp, slots: UnsafeMutablePointer<Double>, signals: SignalCatalog
) throws(JSONLineScanner.Failure) -> Sample? {
    var f = LineFields()
    if !scanCanonical(line, slots: slots, into: &f) {
        // Not in the writer's compact form (spaces, escapes, nested or null values, an error):
        // start again with the general scanner, which also explains what is wrong.
        slots.update(repeating: .nan, count: Key.count)
        f = LineFields()
        try scanGeneral(line, slots: slots, into: &f)
    }
    return try buildSample(f, slots: slots, start: start, signals: signals)
}

/// The fast path: a line exactly as our writer prints it, `{"t":5,"kind":"input","keys":3,...}`.
/// Returns false at the first thing it does not expect, and the general scanner takes over.
@inline(__always)
private func scanCanonical(_ line: UnsafeBufferPointer<UInt8>, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Bool {
    guard let p = line.baseAddress else { return false }
    return scanCanonicalObject(p, line.count, slots: slots, into: &f) == line.count
}

/// The replay's fast path over the reader's buffer: the first line of `p[0..<n]` (the bytes read
/// and not yet taken), if it is in the writer's canonical form and whole, ended by LF or CR LF.
/// Returns its length with the line end, or 0 when the line must be read the general way (it is
/// not canonical, or it runs past `n`). One pass: the line's end is found by the scan itself.
@inline(__always)
private func scanCanonicalLine(_ p: UnsafePointer<UInt8>, _ n: Int, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Int {
    guard let end = scanCanonicalObject(p, n, slots: slots, into: &f), end < n else { return 0 }
    if p[end] == 0x0A { return end + 1 }
    if p[end] == 0x0D, end + 1 < n, p[end + 1] == 0x0A { return end + 2 }
    return 0
}

/// Scans the canonical object at the start of `p[0..<n]`: one pass, no backtracking, reading
/// eight bytes at a time where at least that many are left (a key and its closing quote, a run
/// of digits). Returns the index just past its closing '}', or nil at the first thing it does not
/// expect. It never reads past `n`, and never past a line's end: a control character (LF, CR)
/// anywhere stops it, so over a buffer of many lines it reads one.
@inline(__always)
private func scanCanonicalObject(_ p: UnsafePointer<UInt8>, _ n: Int, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Int? {
    guard n > 2, p[0] == 0x7B else { return nil }
    var i = 1
    while true {
        guard i < n, p[i] == 0x22 else { return nil }
        i += 1
        var key: Key?
        var known = false
        if n - i >= 8 {
            // A known key of up to 7 bytes and its closing quote in one word.
            let w = load8(p + i)
            let length = firstByte(0x22, in: w)
            if length < 8, let k = Key.fromWord(w & lowBytes(length)) {
                key = k
                known = true
                i += length
            }
        }
        if !known {
            let keyStart = i
            var word: UInt64 = 0
            while i < n {
                let c = p[i]
                if c == 0x22 { break }
                if c == 0x5C || c < 0x20 { return nil }
                if i - keyStart < 8 { word |= UInt64(c) << (8 * UInt64(i - keyStart)) }
                i += 1
            }
            let keyLength = i - keyStart
            key = keyLength <= 8 ? Key.fromWord(word) : Key.match(p + keyStart, keyLength)
        }
        guard i + 2 < n, p[i + 1] == 0x3A else { return nil }
        i += 2
        let c = p[i]
        if c == 0x22 {
            i += 1
            if key == .kind, n - i >= 8 {
                // The kinds built in, of up to 7 bytes, and the closing quote in one word.
                let w = load8(p + i)
                let length = firstByte(0x22, in: w)
                if length < 8, let kind = builtInKind(w & lowBytes(length)) {
                    f.sawKind = true
                    f.kind = kind
                    i += length + 1
                    guard i < n else { return nil }
                    if p[i] == 0x2C {
                        i += 1
                        continue
                    }
                    return p[i] == 0x7D ? i + 1 : nil
                }
            }
            let valueStart = i
            while i < n {
                let v = p[i]
                if v == 0x22 { break }
                if v == 0x5C || v < 0x20 { return nil }
                i += 1
            }
            guard i < n else { return nil }
            let valueLength = i - valueStart
            i += 1
            switch key {
            case nil: break
            case .kind?:
                f.sawKind = true
                var w: UInt64 = 0
                if valueLength <= 8 { for j in 0..<valueLength { w |= UInt64(p[valueStart + j]) << (8 * UInt64(j)) } }
                if let kind = builtInKind(w) {
                    f.kind = kind
                } else {
                    f.kind = .unknown
                    f.more.kindName = String(decoding: UnsafeBufferPointer(start: p + valueStart, count: valueLength), as: UTF8.self)
                }
            case .sensor?, .state?, .detail?, .action?, .label?, .appClass?, .category?, .rule?, .title?:
                let text = String(decoding: UnsafeBufferPointer(start: p + valueStart, count: valueLength), as: UTF8.self)
                f.more.set(key!, text)
            default:
                return nil  // a number expected: let the general scanner decide what that means
            }
        } else {
            guard let v = n - i >= 17 ? canonicalNumberWide(p, &i, n) : canonicalNumber(p, &i, n) else { return nil }
            if let key {
                if key.isText { return nil }
                slots[key.rawValue] = v
            }
        }
        guard i < n else { return nil }
        if p[i] == 0x2C {
            i += 1
            continue
        }
        return p[i] == 0x7D ? i + 1 : nil
    }
}

/// A built-in kind's name, read as a little-endian integer (names of up to 8 bytes).
@inline(__always) private func builtInKind(_ word: UInt64) -> Kind? {
    switch word {
    case 0x74_7570_6e69: .input  // "input"
    case 0x6f_6964_7561: .audio  // "audio"
    case 0x6e6f_6974_6163_6f6c: .location  // "location"
    case 0x7375_7461_7473: .status  // "status"
    case 0x6c_6f72_746e_6f63: .control  // "control"
    case 0x70_6f74_6b73_6564: .desktop  // "desktop"
    case 0x707061: .app  // "app"
    case 0x61_6964_656d: .media  // "media"
    case 0x65_7669_6c61: .alive  // "alive"
    default: nil
    }
}

/// The 8 bytes at `p` as a little-endian integer: the first byte lowest. The caller makes sure
/// they are there.
@inline(__always) private func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
}

/// The index (0-7) of the first byte equal to `byte` in `w` (first byte lowest), or 8 if none is.
@inline(__always) func firstByte(_ byte: UInt8, in w: UInt64) -> Int {
    let x = w ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    // The lowest high bit set marks the first zero byte of x exactly (only later ones can be wrong).
    let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    return zero.trailingZeroBitCount >> 3
}

/// A mask of the lowest `count` (0-7) bytes.
@inline(__always) private func lowBytes(_ count: Int) -> UInt64 { (1 &<< UInt64(8 &* count)) &- 1 }

/// How many of the bytes of `w`, from the first (lowest), are ASCII digits: 0-8.
@inline(__always) func digitRun(_ w: UInt64) -> Int {
    let x = w ^ 0x3030_3030_3030_3030
    // A byte of x is a digit's value when it is at most 9: adding 0x76 to it (its high bit clear,
    // so nothing carries into the next byte) sets its high bit exactly when it is 10 or more.
    let notDigit = (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
    return notDigit.trailingZeroBitCount >> 3
}

/// The value of the first `count` (1-8) bytes of `w`, ASCII digits, the first the most significant:
/// shifted so that they end the word behind zeros, then combined in pairs, fours and eights.
@inline(__always) func digitsValue(_ w: UInt64, _ count: Int) -> UInt64 {
    var v = (w & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(64 &- 8 &* count)
    v = (v &* 2561) &>> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
    return ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
}

/// 10^n for n in 1...7, as an integer.
@inline(__always) private func tenToThe(_ n: Int) -> UInt64 {
    switch n {
    case 1: 10
    case 2: 100
    case 3: 1000
    case 4: 10000
    case 5: 100_000
    case 6: 1_000_000
    default: 10_000_000
    }
}

/// `canonicalNumber` with at least 17 bytes left at `i`: the integer and the fraction digits each
/// read as one word, without a loop or a branch per digit. Runs of 8 digits or more (and anything
/// else unusual) go to `canonicalNumber`, which gives the same value for every text both accept.
@inline(__always)
private func canonicalNumberWide(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Double? {
    var j = i
    let negative = p[j] == 0x2D
    if negative { j += 1 }
    let w = load8(p + j)
    let intDigits = digitRun(w)
    guard intDigits > 0, intDigits < 8 else { return canonicalNumber(p, &i, n) }
    guard intDigits == 1 || p[j] != 0x30 else { return nil }
    var mantissa = digitsValue(w, intDigits)
    j += intDigits
    var fractionDigits = 0
    if p[j] == 0x2E {
        let f = load8(p + j + 1)
        fractionDigits = digitRun(f)
        guard fractionDigits > 0, fractionDigits < 8 else { return canonicalNumber(p, &i, n) }
        mantissa = mantissa &* tenToThe(fractionDigits) &+ digitsValue(f, fractionDigits)
        j += 1 + fractionDigits
    }
    // At most 7 + 7 digits: within the 15 that convert exactly.
    guard p[j] | 0x20 != 0x65 else { return nil }
    i = j
    let m = Double(mantissa)
    let v = fractionDigits == 0 ? m : m / JSONLineScanner.exactPower(fractionDigits)
    return negative ? -v : v
}

/// A plain decimal (`-52.125`, `300`): up to 15 significant digits, no exponent, no leading zeros,
/// converted exactly as in `JSONLineScanner.number()`. `nil` sends the line to the general scanner.
@inline(__always)
private func canonicalNumber(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Double? {
    var j = i
    var negative = false
    if j < n, p[j] == 0x2D {
        negative = true
        j += 1
    }
    let intStart = j
    var mantissa: UInt64 = 0
    while j < n {
        let d = p[j] &- 0x30
        if d >= 10 { break }
        mantissa = mantissa &* 10 &+ UInt64(d)
        j += 1
    }
    let intDigits = j - intStart
    guard intDigits > 0, intDigits == 1 || p[intStart] != 0x30 else { return nil }
    var fractionDigits = 0
    if j < n, p[j] == 0x2E {
        j += 1
        let fracStart = j
        while j < n {
            let d = p[j] &- 0x30
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            j += 1
        }
        fractionDigits = j - fracStart
        guard fractionDigits > 0 else { return nil }
    }
    guard intDigits + fractionDigits <= 15, j >= n || p[j] | 0x20 != 0x65 else { return nil }
    i = j
    let m = Double(mantissa)
    let v = fractionDigits == 0 ? m : m / JSONLineScanner.exactPower(fractionDigits)
    return negative ? -v : v
}

/// The general scanner: any valid JSON object, with a column and a reason for anything else.
private func scanGeneral(_ line: UnsafeBufferPointer<UInt8>, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) throws(JSONLineScanner
    .Failure)
{
    var s = JSONLineScanner(line)
    try s.expect(0x7B, "'{' at the start of the line")
    s.skipSpace()
    if s.peek() == 0x7D {
        throw s.fail("empty object: a sample needs at least \"t\" and \"kind\"")
    }
    // A value of the wrong type is an error only for the kinds we know: a newer writer may use a key
    // we know with another type in a kind we do not, and that line must be skipped, not refused.
    do {
        while true {
            let k = try s.string()
            try s.expect(0x3A, "':' after a key")
            var key: Key?
            if let decoded = k.decoded {
                var copy = decoded
                let n = copy.utf8.count
                key = copy.withUTF8 { p in p.baseAddress.flatMap { Key.match($0, n) } }
            } else {
                key = Key.match(s.base + k.start, k.end - k.start)
            }
            s.skipSpace()
            if let known = key {
                let isString = s.peek() == 0x22
                let wantsString = known.isText
                if isString != wantsString {
                    if f.deferred == nil {
                        f.more.deferred = s.fail(
                            wantsString ? "\"\(known.jsonName)\" must be a string" : "expected a number for \"\(known.jsonName)\"")
                    }
                    try s.skipValue()
                    key = .none
                    // Already skipped: go on to the separator.
                    s.skipSpace()
                    guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
                    s.pos += 1
                    if c == 0x7D { break }
                    guard c == 0x2C else {
                        s.pos -= 1
                        throw s.fail("expected ',' or '}'")
                    }
                    continue
                }
            }
            switch key {
            case nil:
                try s.skipValue()
            case .kind?:
                let v = try s.string()
                f.sawKind = true
                // Dispatch on length and first letter, then confirm: this runs for every line.
                let n = v.end - v.start
                let first = v.decoded == nil && n > 0 ? s.base[v.start] : 0
                switch (n, first) {
                case (5, 0x69) where s.equals(v, "input"): f.kind = .input
                case (5, 0x61) where s.equals(v, "audio"): f.kind = .audio
                case (8, 0x6C) where s.equals(v, "location"): f.kind = .location
                case (6, 0x73) where s.equals(v, "status"): f.kind = .status
                case (7, 0x63) where s.equals(v, "control"): f.kind = .control
                case (7, 0x64) where s.equals(v, "desktop"): f.kind = .desktop
                case (3, 0x61) where s.equals(v, "app"): f.kind = .app
                case (5, 0x6D) where s.equals(v, "media"): f.kind = .media
                case (5, 0x61) where s.equals(v, "alive"): f.kind = .alive
                default:
                    f.kind = .unknown
                    f.more.kindName = s.text(v)
                }
            case .sensor?, .state?, .detail?, .action?, .label?, .appClass?, .category?, .rule?, .title?:
                f.more.set(key!, s.text(try s.string()))
            case let key?:
                if !s.takeNull() {
                    let column = s.pos + 1
                    let v = try s.number()
                    guard v.isFinite else { throw JSONLineScanner.Failure(column: column, message: "\"\(key.jsonName)\" is out of range") }
                    slots[key.rawValue] = v
                }
            }
            s.skipSpace()
            guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
            s.pos += 1
            if c == 0x7D { break }
            guard c == 0x2C else {
                s.pos -= 1
                throw s.fail("expected ',' or '}'")
            }
        }
    }
    s.skipSpace()
    guard s.pos == s.count else { throw s.fail("unexpected text after the closing '}'") }

}

private func buildSample(_ f: LineFields, slots: UnsafeMutablePointer<Double>, start: Timestamp, signals: SignalCatalog) throws(JSONLineScanner
    .Failure) -> Sample?
{
    @inline(__always) func value(_ k: Key) -> Double? {
        let v = slots[k.rawValue]
        return v.isNaN ? nil : v
    }
    func required(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Double {
        guard let v = value(k) else { throw JSONLineScanner.Failure(column: 1, message: "missing \"\(name)\"") }
        return v
    }
    func count(_ k: Key, _ name: String) throws(JSONLineScanner.Failure) -> Int {
        guard let v = value(k) else { return 0 }
        guard v >= 0, v < Double(SampleLimits.count.upperBound), v == v.rounded() else {
            throw JSONLineScanner.Failure(
                column: 1, message: "\"\(name)\" must be a whole number from 0 to \(SampleLimits.count.upperBound - 1), got \(v)")
        }
        return Int(v)
    }
    /// Every number the scorers and the live screen compute with lies in a range (`SampleLimits`):
    /// a huge finite value such as 1e19 is refused here, with its line, instead of trapping later.
    func within(_ v: Double, _ k: Key, _ range: ClosedRange<Double>, _ unit: String) throws(JSONLineScanner.Failure) -> Double {
        guard range.contains(v) else {
            throw JSONLineScanner.Failure(
                column: 1,
                message: "\"\(k.jsonName)\" must be from \(whole(range.lowerBound)) to \(whole(range.upperBound))\(unit), got \(v)")
        }
        return v
    }
    func optional(_ k: Key, _ range: ClosedRange<Double>, _ unit: String) throws(JSONLineScanner.Failure) -> Double? {
        guard let v = value(k) else { return nil }
        return try within(v, k, range, unit)
    }

    guard f.sawKind else { throw f.deferred ?? JSONLineScanner.Failure(column: 1, message: "missing \"kind\"") }
    // A kind neither built in nor registered is skipped: a newer writer's, or a signal not loaded.
    var reading: SensorKind?
    if case .unknown = f.kind {
        guard let name = f.kindName, case let sensor = SensorKind(rawValue: name), signals.knows(sensor), !SensorKind.builtIn.contains(sensor) else {
            return nil
        }
        reading = sensor
    }
    if let deferred = f.deferred { throw deferred }
    let t = try required(.t, "t")
    guard t >= 0 else { throw JSONLineScanner.Failure(column: 1, message: "\"t\" is negative (\(t)); times count from the header's start") }
    // 100 years: beyond that the instant would not fit in 64-bit nanoseconds.
    guard t < SampleLimits.span.upperBound else {
        throw JSONLineScanner.Failure(column: 1, message: "\"t\" is \(t) s, more than 100 years after the header's start")
    }
    // t is known to be in [0, 100 years): adding 0.5 and truncating rounds to the nearest nanosecond.
    let time = Timestamp(nanoseconds: start.nanoseconds &+ Int64(t * 1e9 + 0.5))
    switch f.kind {
    case .unknown:
        guard let sensor = reading else { return nil }
        let reading = SignalReading(sensor: sensor, value: try optional(.value, SampleLimits.readingValue, ""), label: f.label)
        return Sample(time: time, payload: .reading(reading))
    case .input:
        let window = try required(.window, "window")
        guard window > 0, window <= SampleLimits.longestWindow else {
            throw JSONLineScanner.Failure(
                column: 1, message: "\"window\" must be greater than 0 and at most a day (86400 s), got \(window)")
        }
        let travel = try optional(.travel, SampleLimits.travel, " units") ?? 0
        let idle = try required(.idle, "idle")
        guard SampleLimits.span.contains(idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"idle\" must be from 0 to 100 years in seconds, got \(idle)")
        }
        let switches = AppSwitches(
            altTab: try count(.altTab, "alt_tab"), superKey: try count(.superKey, "super"), ctrlTab: try count(.ctrlTab, "ctrl_tab"),
            workspace: try count(.workspace, "workspace"), swipes: try count(.swipes, "swipes"))
        return Sample(
            time: time,
            payload: .input(
                InputActivity(
                    window: window, keyPresses: try count(.keys, "keys"), pointerTravel: travel, clicks: try count(.clicks, "clicks"),
                    scrollTicks: try count(.scroll, "scroll"), switches: switches, idle: idle)))
    case .audio:
        let level = SampleLimits.level
        let rms = try within(try required(.rms, "rms"), .rms, level, " dBFS")
        return Sample(
            time: time,
            payload: .audio(
                AudioLevel(
                    rms: rms, peak: try optional(.peak, level, " dBFS") ?? rms, shortTermLUFS: try optional(.lufs, level, " LUFS"),
                    momentaryLUFS: try optional(.momentary, level, " LUFS"))))
    case .location:
        let lat = try required(.lat, "lat")
        let lon = try required(.lon, "lon")
        guard (-90...90).contains(lat) else { throw JSONLineScanner.Failure(column: 1, message: "\"lat\" must be between -90 and 90, got \(lat)") }
        guard (-180...180).contains(lon) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"lon\" must be between -180 and 180, got \(lon)")
        }
        let modeValue = value(.mode) ?? 3
        guard (0...3).contains(modeValue), let mode = FixMode(rawValue: Int(modeValue)), Double(mode.rawValue) == modeValue else {
            throw JSONLineScanner.Failure(column: 1, message: "\"mode\" must be 0, 1, 2 or 3 as in gpsd's TPV, got \(modeValue)")
        }
        let earth = " m (half the Earth's circumference)"
        let accuracy = try optional(.acc, SampleLimits.distance, earth)
        let speed = try optional(.speed, SampleLimits.speed, " m/s")
        let distance = try optional(.dist, SampleLimits.distance, earth)
        let cell = value(.cell)
        if let c = cell, !(c > 0 && c <= 180) {
            throw JSONLineScanner.Failure(column: 1, message: "\"cell\" must be greater than 0 and at most 180 degrees, got \(c)")
        }
        return Sample(
            time: time,
            payload: .location(
                LocationFix(
                    latitude: lat, longitude: lon, horizontalAccuracy: accuracy, speed: speed, mode: mode,
                    distanceFromWorkplace: distance, cellSize: cell)))
    case .desktop:
        if let name = f.state {
            guard let event = DesktopEvent(stateName: name) else {
                throw JSONLineScanner.Failure(
                    column: 1, message: "unknown desktop state \"\(name)\" (expected \(orList(DesktopEvent.stateNames)))")
            }
            return Sample(time: time, payload: .desktop(event))
        }
        guard let idle = value(.idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "a desktop line needs \"idle\" (seconds) or \"state\"")
        }
        guard SampleLimits.span.contains(idle) else {
            throw JSONLineScanner.Failure(column: 1, message: "\"idle\" must be from 0 to 100 years in seconds, got \(idle)")
        }
        return Sample(time: time, payload: .desktop(.idle(idle)))
    case .app:
        guard let appClass = f.appClass else { throw JSONLineScanner.Failure(column: 1, message: "missing \"class\"") }
        guard let name = f.category else { throw JSONLineScanner.Failure(column: 1, message: "missing \"category\"") }
        guard let category = AppCategory(rawValue: name) else {
            throw JSONLineScanner.Failure(
                column: 1, message: "unknown category \"\(name)\" (expected \(orList(AppCategory.allCases.map(\.rawValue))))")
        }
        return Sample(time: time, payload: .app(AppFocus(appClass: appClass, category: category, rule: f.rule, title: f.title)))
    case .media:
        return Sample(time: time, payload: .media(MediaActivity(calls: try count(.calls, "calls"), playing: try count(.playing, "playing"))))
    case .status:
        guard let sensorName = f.sensor else { throw JSONLineScanner.Failure(column: 1, message: "missing \"sensor\"") }
        let sensorKind = SensorKind(rawValue: sensorName)
        // The status of a sensor not registered here is skipped with its readings: a plug-in's
        // not loaded, or a newer writer's.
        guard signals.knows(sensorKind) else { return nil }
        guard let stateName = f.state else { throw JSONLineScanner.Failure(column: 1, message: "missing \"state\"") }
        guard let st = SensorState(rawValue: stateName) else {
            let known = SensorState.allCases.map(\.rawValue).joined(separator: ", ")
            throw JSONLineScanner.Failure(column: 1, message: "unknown sensor state \"\(stateName)\" (expected one of \(known))")
        }
        return Sample(time: time, payload: .status(SensorStatus(sensor: sensorKind, state: st, detail: f.detail ?? "")))
    case .alive:
        return Sample(time: time, payload: .control(.alive))
    case .control:
        guard let name = f.action else { throw JSONLineScanner.Failure(column: 1, message: "missing \"action\"") }
        // A sign of life is a line of its own kind (`alive`), not a control action.
        guard let a = ControlAction(rawValue: name), a != .alive else {
            let known = ControlAction.allCases.filter { $0 != .alive }.map(\.rawValue).joined(separator: ", ")
            throw JSONLineScanner.Failure(column: 1, message: "unknown control action \"\(name)\" (expected one of \(known))")
        }
        return Sample(time: time, payload: .control(a))
    }
}

/// Decodes the header line.
func decodeHeaderLine(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineScanner.Failure) -> RecordingHeader? {
    var s = JSONLineScanner(line)
    var isRecording = false
    var version: Double?
    var start: String?
    var source: String?
    var note: String?
    var task: String?
    var planned: Double?
    // Some editors on other systems start a UTF-8 file with a byte-order mark; JSON Lines has none.
    if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
        throw JSONLineScanner.Failure(
            column: 1,
            message: "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), which JSON Lines does not allow; "
                + "save it as UTF-8 without one (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE removes it)")
    }
    try s.expect(0x7B, "'{' at the start of the line")
    s.skipSpace()
    if s.peek() == 0x7D { return nil }
    while true {
        let k = try s.string()
        try s.expect(0x3A, "':' after a key")
        let key = s.text(k)
        switch key {
        case "vigil":
            s.skipSpace()
            if s.peek() == 0x22 { isRecording = s.equals(try s.string(), "recording") } else { try s.skipValue() }
        case "version":
            version = try s.number()
        case "start": start = s.text(try s.string())
        case "source": source = s.text(try s.string())
        case "note": note = s.text(try s.string())
        case "task": task = s.text(try s.string())
        case "planned":
            let p = try s.number()
            guard p > 0, p <= RecordingHeader.longestPlan else {
                throw s.fail("\"planned\" must be a number of seconds greater than 0 and at most a year (31536000), got \(p)")
            }
            planned = p
        default: try s.skipValue()
        }
        s.skipSpace()
        guard let c = s.peek() else { throw s.fail("line ends early: expected ',' or '}' (is the file truncated?)") }
        s.pos += 1
        if c == 0x7D { break }
        guard c == 0x2C else {
            s.pos -= 1
            throw s.fail("expected ',' or '}'")
        }
    }
    guard isRecording else { return nil }
    guard let v = version else { throw JSONLineScanner.Failure(column: 1, message: "header has no \"version\"") }
    guard v.isFinite, v == v.rounded(), v >= 1, v < 1e6 else {
        throw JSONLineScanner.Failure(column: 1, message: "header \"version\" must be a whole number from 1, got \(v)")
    }
    guard Int(v) <= RecordingFormat.version else {
        throw JSONLineScanner.Failure(
            column: 1, message: "recording format version \(Int(v)) is newer than this Vigil reads (\(RecordingFormat.version)); update Vigil")
    }
    guard let startText = start else {
        throw JSONLineScanner.Failure(column: 1, message: "header has no \"start\" (an RFC 3339 time such as 2026-03-02T09:00:00Z)")
    }
    let startTime: Timestamp
    switch readRFC3339(startText) {
    case .success(let t): startTime = t
    case .failure(let problem): throw JSONLineScanner.Failure(column: 1, message: "header \"start\": " + problem.describe(startText))
    }
    return RecordingHeader(version: Int(v), start: startTime, source: source, note: note, task: task, plannedSeconds: planned)
}

/// Reads a recording line by line, in constant memory, so a day-long file replays as fast as the
/// disk delivers it.
public final class RecordingReader {
    public let path: String
    public private(set) var header: RecordingHeader
    /// Lines of kinds this version does not know, skipped so far.
    @exclusivity(unchecked) public private(set) var skippedLines = 0
    /// The line number of the last sample returned.
    public var lineNumber: Int { lines.lineNumber }

    private let lines: LineReader
    @exclusivity(unchecked) private var lastTime: Timestamp?
    /// The header's start, read for every line.
    @exclusivity(unchecked) private var timeZero: Timestamp
    /// The fast path's numeric slots (see `decodeSampleLine`), NaN between lines.
    private let slots: UnsafeMutablePointer<Double>

    /// The signals whose readings and status lines it accepts, besides the built-in ones.
    public let signals: SignalCatalog

    /// Opens `path` and reads its header.
    public convenience init(path: String, signals: SignalCatalog = .builtIn) throws(RecordingError) {
        try self.init(path: path, signals: signals, bufferSize: 1 << 20)
    }

    /// Opens `path` and reads its header, through a buffer of `bufferSize` bytes at first (tests
    /// make lines fall across its boundaries).
    init(path: String, signals: SignalCatalog, bufferSize: Int) throws(RecordingError) {
        self.path = path
        self.signals = signals
        do {
            lines = try LineReader(path: path, bufferSize: bufferSize)
        } catch {
            throw RecordingError(file: path, line: 0, message: "cannot open: \(error.reason)", kind: .io)
        }
        header = RecordingHeader(start: Timestamp(nanoseconds: 0))
        timeZero = header.start
        slots = .allocate(capacity: Key.count)
        slots.initialize(repeating: .nan, count: Key.count)
        var found: RecordingHeader?
        while let line = try rawLine() {
            if isBlank(line) { continue }
            do {
                found = try decodeHeaderLine(line)
            } catch {
                throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
            }
            break
        }
        guard let h = found else {
            throw RecordingError(
                file: path, line: max(lineNumber, 1),
                message:
                    "not a Vigil recording: the first line must be a header such as {\"vigil\":\"recording\",\"version\":1,\"start\":\"2026-03-02T09:00:00Z\"}"
            )
        }
        header = h
        timeZero = h.start
    }

    deinit { slots.deallocate() }

    /// The next sample, or `nil` at the end of the file.
    public func next() throws(RecordingError) -> Sample? {
        while true {
            let sample: Sample?
            // The usual line, in the writer's form and whole in the buffer, is scanned where it
            // lies, its end found by the scan; any other goes through `LineReader.next()` and the
            // general scanner, which also explains what is wrong with it.
            var fields = LineFields()
            let unread = lines.unread
            let length = unread.baseAddress.map { scanCanonicalLine($0, unread.count, slots: slots, into: &fields) } ?? 0
            if length > 0 {
                lines.consumeLine(length)
                do {
                    sample = try buildSample(fields, slots: slots, start: timeZero, signals: signals)
                } catch {
                    slots.update(repeating: .nan, count: Key.count)
                    throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
                }
                slots.update(repeating: .nan, count: Key.count)
            } else {
                slots.update(repeating: .nan, count: Key.count)
                guard let line = try rawLine() else { return nil }
                if isBlank(line) { continue }
                do {
                    sample = try decodeSampleLine(line, start: timeZero, signals: signals)
                } catch {
                    throw RecordingError(file: path, line: lineNumber, message: "column \(error.column): \(error.message)")
                }
            }
            guard let sample else {
                skippedLines += 1
                continue
            }
            if let last = lastTime, sample.time < last {
                throw RecordingError(
                    file: path, line: lineNumber,
                    message: "\"t\" goes back in time (\(sample.time - header.start) s after \(last - header.start) s); samples must be in time order"
                )
            }
            lastTime = sample.time
            return sample
        }
    }

    /// Every remaining sample.
    public func readAll() throws(RecordingError) -> [Sample] {
        var out: [Sample] = []
        while let s = try next() { out.append(s) }
        return out
    }

    @inline(__always) private func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in line where c != 0x20 && c != 0x09 && c != 0x0D { return false }
        return true
    }

    /// The next line without its newline; the last line may lack one.
    @inline(__always) private func rawLine() throws(RecordingError) -> UnsafeBufferPointer<UInt8>? {
        try lines.next(notA: "a recording line") { line, message, isReadFailure in
            RecordingError(file: path, line: line, message: message, kind: isReadFailure ? .io : .data)
        }
    }
}

/// A range's bound as people write it: `20037509`, `-1000000000000000` (not `1e+15`).
private func whole(_ v: Double) -> String { v == v.rounded() && abs(v) <= 1e15 ? String(Int64(v)) : "\(v)" }

/// `a`, `a or b`, `a, b or c`.
private func orList(_ words: [String]) -> String {
    guard let last = words.last else { return "" }
    return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
}
