import JSONScanning
import SystemCalls

/// One JSON document read from a file value by value through `LineReader`'s buffer, so memory
/// holds the largest single value read at once, never the document: ActivityWatch's export is
/// one line of tens of megabytes.
///
/// The structure (objects and arrays whose members are read one by one) is walked here; each
/// value read whole is handed to `JSONScanner`, which checks it as Foundation's JSONSerialization
/// would (`JSONScanner.Rules.foundation`), as the export was read before it was streamed.
final class JSONStream {
    typealias Failure = ActivityWatchExport.Failure
    let reader: LineReader

    init(_ reader: LineReader) { self.reader = reader }

    /// A failure at the next unread byte (`ahead` bytes further), named by its place in the file.
    func failure(_ message: String, ahead: Int = 0) -> Failure {
        Failure(message: "not valid JSON at byte \(reader.offset + ahead + 1): \(message)")
    }

    /// Reads more of the file; false at its end.
    private func more() throws(Failure) -> Bool {
        do throws(LineReader.Failure) {
            return try reader.readMore()
        } catch {
            switch error {
            case .lineTooLong(let limit):
                throw failure("a single value longer than \(limit >> 20) MiB, more than an export's event ever is")
            case .cannotRead(let e):
                throw Failure(message: "read error: \(e.reason)", isReadFailure: true)
            }
        }
    }

    /// The next byte that is not a space, left unread; nil at the end of the file.
    func peek() throws(Failure) -> UInt8? {
        while true {
            let b = reader.unread
            var i = 0
            while i < b.count {
                let c = b[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                    i += 1
                    continue
                }
                reader.consume(i)
                return c
            }
            reader.consume(i)
            guard try more() else { return nil }
        }
    }

    func consume(_ count: Int) { reader.consume(count) }

    /// Reads the members of an object whose `{` was read: each key, then `body` reads its value.
    func members(_ body: (String) throws(Failure) -> Void) throws(Failure) {
        guard try !closes(UInt8(ascii: "}")) else { return }
        repeat {
            guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a key (a string)") }
            let key = try value { (s: inout JSONScanner) throws(JSONScanner.Failure) in s.text(try s.string()) }
            guard try peek() == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            consume(1)
            try body(key)
        } while try !ended(by: UInt8(ascii: "}"), inside: "an object")
    }

    /// Reads the elements of an array whose `[` was read: `body` reads each, given its index.
    func elements(_ body: (Int) throws(Failure) -> Void) throws(Failure) {
        guard try !closes(UInt8(ascii: "]")) else { return }
        var i = 0
        repeat {
            try body(i)
            i += 1
        } while try !ended(by: UInt8(ascii: "]"), inside: "a list")
    }

    /// Whether `close` is next, and then takes it: an empty object or list.
    private func closes(_ close: UInt8) throws(Failure) -> Bool {
        guard try peek() == close else { return false }
        consume(1)
        return true
    }

    /// After a member or an element: true when `close` ended the object or list, false when a
    /// `,` says another follows.
    private func ended(by close: UInt8, inside what: String) throws(Failure) -> Bool {
        switch try peek() {
        // A trailing comma before the end, as JSONSerialization takes.
        case UInt8(ascii: ","):
            consume(1)
            return try closes(close)
        case close:
            consume(1)
            return true
        case nil: throw failure("the file ends inside \(what): is the export complete?")
        default: throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
    }

    /// Skips the next value, checking it.
    func skipValue() throws(Failure) {
        try value { (s: inout JSONScanner) throws(JSONScanner.Failure) in try s.skipValue() }
    }

    /// The next value if it is a string; otherwise it is skipped and the answer is nil.
    func stringValue() throws(Failure) -> String? {
        try value { (s: inout JSONScanner) throws(JSONScanner.Failure) -> String? in
            s.skipSpace()
            guard s.peek() == UInt8(ascii: "\"") else {
                try s.skipValue()
                return nil
            }
            return s.text(try s.string())
        }
    }

    /// Runs `body` with a scanner over the whole next value (read into the buffer first), then
    /// takes it as read. The scanner must read the value to its end.
    func value<T>(_ body: (inout JSONScanner) throws(JSONScanner.Failure) -> T) throws(Failure) -> T {
        guard try peek() != nil else { throw failure("the file ends where a value should be: is the export complete?") }
        let length = try valueLength()
        let b = reader.unread
        var scanner = JSONScanner(UnsafeBufferPointer(start: b.baseAddress, count: length), rules: .foundation)
        let result: T
        do throws(JSONScanner.Failure) {
            result = try body(&scanner)
            scanner.skipSpace()
            guard scanner.pos == length else { throw scanner.fail("unexpected text after a value") }
        } catch {
            throw failure(error.message, ahead: error.column - 1)
        }
        consume(length)
        return result
    }

    /// The length of the value at the start of the unread bytes (which is not a space), reading
    /// more of the file until it is whole. Only its extent is found here; `JSONScanner` checks it.
    private func valueLength() throws(Failure) -> Int {
        var i = 0
        var depth = 0
        var inString = false
        var escaped = false
        var scalar = false
        while true {
            let b = reader.unread
            while i < b.count {
                let c = b[i]
                i += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if c == 0x5C {
                        escaped = true
                    } else if c == 0x22 {
                        inString = false
                        if depth == 0 { return i }
                    }
                    continue
                }
                if scalar {
                    switch c {
                    case 0x2C, 0x5D, 0x7D, 0x20, 0x0A, 0x0D, 0x09, 0x3A: return i - 1
                    default: continue
                    }
                }
                switch c {
                case 0x22: inString = true
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D:
                    depth -= 1
                    if depth <= 0 { return i }
                default:
                    if depth == 0 { scalar = true }
                }
            }
            guard try more() else {
                if scalar { return i }
                throw failure("the file ends inside a value: is the export complete?", ahead: i)
            }
        }
    }
}
