import Foundation
import VigilCore

/// A record of an export that cannot be imported: the file, the record (counted from 1), the
/// field, and why. One is enough to refuse the whole file (nothing is imported).
public struct ImportProblem: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var record: Int?
    public var field: String?
    public var reason: String

    public init(file: String, record: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.record = record
        self.field = field
        self.reason = reason
    }

    /// `FILE, record 3, field 'due': why`, on one line and inert in a terminal.
    public var description: String {
        var place = file
        if let record { place += ", record \(record)" }
        if let field { place += ", field '\(field)'" }
        return (place + ": " + reason).terminalSafe
    }
}

/// One JSON object of an export, with what it takes to say which record and field is wrong.
struct JSONRecord {
    let fields: [String: Any]
    let file: String
    let number: Int

    func problem(_ field: String?, _ reason: String) -> ImportProblem { ImportProblem(file: file, record: number, field: field, reason: reason) }

    /// A string field; nil when absent. Another type is a problem, and so is a NUL in it
    /// (`TextRules`).
    func string(_ name: String) throws(ImportProblem) -> String? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw problem(name, "expected a string") }
        if let reason = TextRules.problem(text) { throw problem(name, reason) }
        return text
    }

    func requiredString(_ name: String) throws(ImportProblem) -> String {
        guard let text = try string(name) else { throw problem(name, "missing") }
        return text
    }

    /// A time field (`20261120T090000Z`, as Taskwarrior and Timewarrior write them); nil when absent.
    func time(_ name: String) throws(ImportProblem) -> Timestamp? {
        guard let text = try string(name) else { return nil }
        guard let t = exportTime(text) else {
            throw problem(name, "'\(text)' is not a time like 20261120T090000Z (UTC), \(SupportedDates.range)")
        }
        return t
    }

    /// A list of strings; empty when absent.
    func strings(_ name: String) throws(ImportProblem) -> [String] {
        guard let value = fields[name], !(value is NSNull) else { return [] }
        guard let list = value as? [Any], let texts = list as? [String] else { throw problem(name, "expected a list of strings") }
        for text in texts {
            if let reason = TextRules.problem(text) { throw problem(name, "'\(text)' " + reason) }
        }
        return texts
    }
}

/// The objects of a JSON export: a JSON array of objects (what `task export` and `timew export`
/// print), or one object a line (JSON Lines, what older Taskwarriors printed and `task import`
/// takes). Numbered from 1, in the file's order.
func jsonRecords(_ data: Data, file: String) throws(ImportProblem) -> [JSONRecord] {
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return [] }
    if text.hasPrefix("[") {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw ImportProblem(file: file, reason: "not valid JSON (\(jsonReason(error))); expected the output of `task export` or `timew export`")
        }
        guard let list = parsed as? [Any] else { throw ImportProblem(file: file, reason: "expected a JSON array of objects") }
        var out: [JSONRecord] = []
        for (i, item) in list.enumerated() {
            guard let object = item as? [String: Any] else { throw ImportProblem(file: file, record: i + 1, reason: "expected a JSON object") }
            out.append(JSONRecord(fields: object, file: file, number: i + 1))
        }
        return out
    }
    var out: [JSONRecord] = []
    for line in text.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
        let number = out.count + 1
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            throw ImportProblem(
                file: file, record: number,
                reason: "not a JSON object; expected a JSON array (the output of `task export` or `timew export`) or one object a line")
        }
        out.append(JSONRecord(fields: object, file: file, number: number))
    }
    return out
}

private func jsonReason(_ error: any Error) -> String {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return text ?? "unreadable"
}

/// A time as Taskwarrior and Timewarrior export them, `YYYYMMDDTHHMMSSZ` (UTC), or in RFC 3339;
/// nil when it is neither or outside `SupportedDates`.
public func exportTime(_ text: String) -> Timestamp? {
    let b = Array(text.utf8)
    if b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") {
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let y = number(0..<4), let mo = number(4..<6), let d = number(6..<8), let h = number(9..<11), let mi = number(11..<13),
            let s = number(13..<15), SupportedDates.years.contains(y), (1...12).contains(mo), (1...daysIn(month: mo, year: y)).contains(d),
            h < 24, mi < 60, s < 60
        else { return nil }
        let days = CivilTime.daysFromCivil(year: y, month: mo, day: d)
        return Timestamp(nanoseconds: (days * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1_000_000_000)
    }
    guard let t = parseRFC3339(text), SupportedDates.seconds.contains(t.nanoseconds / 1_000_000_000) else { return nil }
    return t
}

/// The local day and second of the day at `t` in `zone`.
func localDayAndSecond(_ t: Timestamp, zone: TimeZone) -> (day: Int, second: Int) {
    let seconds = t.nanoseconds / 1_000_000_000
    let local = seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return (Int(day), Int(local - day * 86_400))
}
