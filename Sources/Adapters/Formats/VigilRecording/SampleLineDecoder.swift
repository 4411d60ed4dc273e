import JSONScanning
import SystemCalls
import VigilCore

// One line of a Vigil recording decoded into a sample or the header: the canonical fast path
// (the layout RecordingWriter writes), with the keys and numbers it reads; the general path is in
// SampleLineScanner.swift.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The keys of a sample line. Values are kept by slot so a line is decoded without allocating.
enum Key: Int {
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
let keysBySlot: [Key?] = [
    nil, .detail, nil, .title, nil, .scroll, nil, .action,
    nil, .clicks, .mode, nil, .calls, .dist, .speed, .value,
    nil, nil, nil, nil, nil, .lufs, nil, .peak,
    .lon, .kind, .sensor, nil, .appClass, .category, .lat, .ctrlTab,
    nil, .acc, .label, .window, .keys, nil, nil, .state,
    nil, .playing, nil, nil, nil, nil, .t, .superKey,
    nil, nil, nil, .swipes, nil, .rms, nil, .idle,
    nil, .travel, nil, .rule, nil, .altTab, nil, .cell,
]
let keyWords: [UInt64] = [
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

enum Kind { case input, audio, location, desktop, app, media, status, control, alive, unknown }

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
final class LineExtras {
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
struct LineFields {
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

func decodeSampleLine(
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
func scanCanonical(_ line: UnsafeBufferPointer<UInt8>, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Bool {
    guard let p = line.baseAddress else { return false }
    return scanCanonicalObject(p, line.count, slots: slots, into: &f) == line.count
}

/// The replay's fast path over the reader's buffer: the first line of `p[0..<n]` (the bytes read
/// and not yet taken), if it is in the writer's canonical form and whole, ended by LF or CR LF.
/// Returns its length with the line end, or 0 when the line must be read the general way (it is
/// not canonical, or it runs past `n`). One pass: the line's end is found by the scan itself.
@inline(__always)
func scanCanonicalLine(_ p: UnsafePointer<UInt8>, _ n: Int, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Int {
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
func scanCanonicalObject(_ p: UnsafePointer<UInt8>, _ n: Int, slots: UnsafeMutablePointer<Double>, into f: inout LineFields) -> Int? {
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
@inline(__always) func builtInKind(_ word: UInt64) -> Kind? {
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
@inline(__always) func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
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
@inline(__always) func lowBytes(_ count: Int) -> UInt64 { (1 &<< UInt64(8 &* count)) &- 1 }

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
@inline(__always) func tenToThe(_ n: Int) -> UInt64 {
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
func canonicalNumberWide(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Double? {
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
func canonicalNumber(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Double? {
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
