/// Vigil's one JSON writer: every JSON it prints or writes (reports, listings, timelines,
/// inspections, recordings' lines, the status file, the export) goes through it, so strings are
/// escaped one way (controls a terminal would act on as `\u` escapes) and numbers are written one
/// way for what they mean (docs/json.md).
///
/// It streams into bytes: building Strings piece by piece was a fifth of a whole report's time
/// for years of days, and Foundation's JSONEncoder drops nil fields and orders keys its own way.
public struct JSONWriter {
    /// How the text is laid out.
    public enum Style: Sendable {
        /// Two-space indents, a field a line, arrays of numbers on one line (the report).
        case pretty
        /// No spaces at all: a value a line (timelines, listings' elements, recordings).
        case compact
    }

    public private(set) var bytes: [UInt8] = []
    public let style: Style
    private var depth = 0
    private var first = true

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public init(style: Style = .pretty, capacity: Int = 1 << 16) {
        self.style = style
        bytes.reserveCapacity(capacity)
    }

    /// A field of the object being written: its key, then `value`.
    public mutating func field(_ key: StaticString, _ value: some JSONWritable) {
        key.withUTF8Buffer { fieldKey($0) }
        value.write(&self)
    }

    /// A field whose key is known only when written (a table's column, a label).
    public mutating func field(_ key: String, _ value: some JSONWritable) {
        var key = key
        key.withUTF8 { fieldKey($0) }
        value.write(&self)
    }

    private mutating func fieldKey(_ key: UnsafeBufferPointer<UInt8>) {
        if !first { bytes.append(0x2C) }
        if style == .pretty {
            bytes.append(0x0A)
            indent()
        }
        first = false
        if key.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 < 0x7F }) {
            bytes.append(0x22)
            bytes.append(contentsOf: key)
            bytes.append(0x22)
        } else {
            string(String(decoding: key, as: UTF8.self))
        }
        bytes.append(0x3A)
        if style == .pretty { bytes.append(0x20) }
    }

    /// An object whose fields `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(0x7B)
        depth += 1
        first = true
        body(&self)
        depth -= 1
        if !first, style == .pretty {
            bytes.append(0x0A)
            indent()
        }
        bytes.append(0x7D)
        first = false
    }

    /// An array of `items`; pretty, numbers stay on one line and anything else gets a line each.
    public mutating func array<C: Collection>(_ items: C) where C.Element: JSONWritable {
        if items.isEmpty {
            raw("[]")
            return
        }
        bytes.append(0x5B)
        if style == .compact {
            var separate = false
            for item in items {
                if separate { bytes.append(0x2C) }
                item.write(&self)
                separate = true
            }
        } else if C.Element.self == Double.self || C.Element.self == Int.self || C.Element.self == Double?.self {
            var separate = false
            for item in items {
                if separate {
                    bytes.append(0x2C)
                    bytes.append(0x20)
                }
                item.write(&self)
                separate = true
            }
        } else {
            depth += 1
            var separate = false
            for item in items {
                if separate { bytes.append(0x2C) }
                bytes.append(0x0A)
                indent()
                item.write(&self)
                separate = true
            }
            depth -= 1
            bytes.append(0x0A)
            indent()
        }
        bytes.append(0x5D)
        first = false
    }

    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
        first = false
    }

    public mutating func null() { raw("null") }

    public mutating func bool(_ v: Bool) { if v { raw("true") } else { raw("false") } }

    public mutating func integer(_ v: Int64) {
        if v < 0 { bytes.append(0x2D) }
        digits(of: v.magnitude)
        first = false
    }

    private mutating func digits(of value: UInt64) {
        var m = value
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(m % 10) + 0x30
                m /= 10
                n += 1
            } while m > 0
            for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// A measured figure: at most four decimals, no trailing zeros, never exponent notation (the
    /// report's minutes, shares and rates); not finite, `null`.
    public mutating func decimal(_ v: Double) {
        guard v.isFinite else {
            raw("null")
            return
        }
        guard abs(v) < 1e14 else {
            wholeNumber(v)
            return
        }
        let scaled = Int64((abs(v) * 10_000).rounded())
        if v < 0 && scaled != 0 { bytes.append(0x2D) }
        integer(scaled / 10_000)
        var fraction = scaled % 10_000
        guard fraction != 0 else { return }
        var digits = 4
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(0x2E)
        var scale: Int64 = 1
        for _ in 1..<digits { scale *= 10 }
        while scale > 0 {
            bytes.append(UInt8(fraction / scale % 10) + 0x30)
            scale /= 10
        }
    }

    /// A finite number beyond 1e14 to the unit, every digit written (as printf's `%.0f`): such a
    /// double is an integer times a power of two, expanded exactly.
    private mutating func wholeNumber(_ v: Double) {
        let r = v.rounded(.toNearestOrEven)
        if r < 0 { bytes.append(0x2D) }
        let magnitude = r.magnitude
        if magnitude < 1.8e19 {
            digits(of: UInt64(magnitude))
            first = false
            return
        }
        // significand × 2^exponent in base 1e9 limbs, least significant first.
        var limbs: [UInt64] = [magnitude.significandBitPattern | (1 << 52)]
        limbs = [limbs[0] % 1_000_000_000, limbs[0] / 1_000_000_000]
        for _ in 0..<(Int(magnitude.exponent) - 52) {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let x = limbs[i] * 2 + carry
                limbs[i] = x % 1_000_000_000
                carry = x / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        digits(of: limbs.last!)
        for limb in limbs.dropLast().reversed() {
            var part: [UInt8] = Array(repeating: 0x30, count: 9)
            var x = limb
            for i in stride(from: 8, through: 0, by: -1) {
                part[i] = UInt8(x % 10) + 0x30
                x /= 10
            }
            bytes.append(contentsOf: part)
        }
        first = false
    }

    /// A number in the shortest form that reads back to the same value, integers without a
    /// fraction (`jsonNumber`); not finite, `null`.
    public mutating func number(_ v: Double) {
        guard v.isFinite else {
            raw("null")
            return
        }
        if v == v.rounded(), abs(v) < 1e15 {
            integer(Int64(v))
        } else {
            bytes.append(contentsOf: v.description.utf8)
            first = false
        }
    }

    /// A string literal. Besides the C0 controls JSON requires escaped, DEL, the C1 and the bidi
    /// controls are `\u` escapes too (`isTerminalControl`): a reader gets the same string back, and
    /// JSON printed to a terminal cannot drive it.
    public mutating func string(_ s: String) {
        bytes.append(0x22)
        for scalar in s.unicodeScalars {
            guard scalar.isASCII else {
                if scalar.isTerminalControl { unicodeEscape(scalar.value) } else { bytes.append(contentsOf: UTF8.encode(scalar)!) }
                continue
            }
            let u = UInt8(scalar.value)
            switch u {
            case 0x22:
                bytes.append(0x5C)
                bytes.append(0x22)
            case 0x5C:
                bytes.append(0x5C)
                bytes.append(0x5C)
            case 0x0A:
                bytes.append(0x5C)
                bytes.append(0x6E)
            case 0x0D:
                bytes.append(0x5C)
                bytes.append(0x72)
            case 0x09:
                bytes.append(0x5C)
                bytes.append(0x74)
            case ..<0x20, 0x7F: unicodeEscape(scalar.value)
            default: bytes.append(u)
            }
        }
        bytes.append(0x22)
        first = false
    }

    /// `\u001b`: four hex digits (every control is in the Basic Multilingual Plane).
    private mutating func unicodeEscape(_ value: UInt32) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, 0x75])
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int(value >> UInt32(shift) & 15)]) }
    }

    private mutating func indent() {
        for _ in 0..<depth {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }
}

/// A value the writer can write.
public protocol JSONWritable {
    func write(_ w: inout JSONWriter)
}

/// A value written as an object of its fields, in the order `writeFields` gives them.
public protocol JSONObject: JSONWritable {
    func writeFields(_ w: inout JSONWriter)
}

extension JSONObject {
    public func write(_ w: inout JSONWriter) { w.object { writeFields(&$0) } }
}

extension Int: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.integer(Int64(self)) }
}

extension Int64: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.integer(self) }
}

/// A Double on its own is a measured figure (`decimal`: at most four places); a value that means
/// something else says how it is written (`JSONValue.number(_:decimals:)`, `w.number`).
extension Double: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.decimal(self) }
}

extension Bool: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.bool(self) }
}

extension String: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.string(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    public func write(_ w: inout JSONWriter) {
        if let v = self { v.write(&w) } else { w.null() }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(_ w: inout JSONWriter) { w.array(self) }
}
