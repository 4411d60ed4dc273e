import JSONScanning
import VigilCore

extension ActivityWatchExport {
    /// The `apps:` rules, as `VigilConfiguration.Apps.categorize` applies them, worked out once per
    /// application and matched against titles as bytes: the case-insensitive search of a title in
    /// ASCII is a byte search, and anything else goes to `categorize` itself.
    struct WindowCategorizer {
        let apps: VigilConfiguration.Apps
        let names: Names
        var storeTitles: Bool { apps.storeTitles }
        /// Each rule's title piece, lower case, as bytes when it is ASCII.
        let patterns: [[UInt8]?]
        let asciiPatterns: Bool
        /// For each application (by index): the rules its class matches, in order, up to and
        /// including the first without a title piece (which always matches).
        var candidates: [[Int32]] = []

        init(_ apps: VigilConfiguration.Apps) {
            self.apps = apps
            names = Names(apps)
            patterns = apps.rules.map { r in r.title.map { Array($0.lowercased().utf8) } }
            asciiPatterns = patterns.allSatisfy { $0?.allSatisfy { $0 < 0x80 } ?? true }
        }

        mutating func rules(for app: Int32) -> [Int32] {
            while candidates.count <= Int(app) { candidates.append(Self.classRules(apps, appClass: names.apps[candidates.count])) }
            return candidates[Int(app)]
        }

        /// The rules an application's class matches, in order, up to and including the first
        /// without a title piece or sites (which always matches).
        static func classRules(_ apps: VigilConfiguration.Apps, appClass: String) -> [Int32] {
            let cls = appClass.lowercased()
            var list: [Int32] = []
            for (i, rule) in apps.rules.enumerated() {
                guard rule.classes.isEmpty || rule.classes.contains(where: { AppRule.matches(pattern: $0, cls) }) else { continue }
                list.append(Int32(i))
                if !rule.readsTitles { break }
            }
            return list
        }

        /// The index of the rule that matches, or -1 (the fallback).
        mutating func rule(app: Int32, title: JSONScanner.Text?, in s: JSONScanner) -> Int32 {
            let list = rules(for: app)
            // No title piece to look for: the class decides.
            guard list.contains(where: { apps.rules[Int($0)].readsTitles }) else { return list.first ?? -1 }
            // Sites are found in the title's words: only `categorize` tells.
            let bySites = list.contains { !apps.rules[Int($0)].sites.isEmpty }
            if asciiPatterns, !bySites, let answer = byBytes(title, in: s, list) { return answer }
            // What only `categorize` itself can tell.
            let (category, name) = apps.categorize(appClass: names.apps[Int(app)], title: title.map { s.text($0) })
            return list.first { apps.rules[Int($0)].name == name && apps.rules[Int($0)].category == category } ?? -1
        }

        /// The rule by a search of the title's bytes for the (ASCII) pieces without regard to
        /// ASCII case, when that is what `categorize` finds; nil when only it can tell. In ASCII
        /// (without CR, which Swift joins with LF into one character) the search is exact. In other
        /// text a piece found may still not be there as characters (a letter with a combining mark
        /// after it is another character), so `categorize` confirms it; a piece not found is not
        /// there, as no character but İ (U+0130) and the Kelvin sign (U+212A) lowercases to ASCII.
        func byBytes(_ title: JSONScanner.Text?, in s: JSONScanner, _ list: [Int32]) -> Int32? {
            func search(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
                let exact = b.allSatisfy { $0 < 0x80 && $0 != 0x0D }
                if !exact {
                    for i in b.indices.dropLast() where (b[i] == 0xC4 && b[i + 1] == 0xB0) || (b[i] == 0xE2 && b[i + 1] == 0x84) {
                        return nil
                    }
                }
                for r in list {
                    guard let p = patterns[Int(r)] else { return r }
                    if Self.contains(b, lowercased: p) { return exact ? r : nil }
                }
                return -1
            }
            guard let t = title else { return search(UnsafeBufferPointer(start: nil, count: 0)) }
            if var decoded = t.decoded { return decoded.withUTF8 { search($0) } }
            return search(UnsafeBufferPointer(start: s.base + t.start, count: t.end - t.start))
        }

        /// Whether `text` holds the bytes of `piece` (ASCII, lower case) without regard to ASCII case.
        static func contains(_ text: UnsafeBufferPointer<UInt8>, lowercased piece: [UInt8]) -> Bool {
            let n = piece.count
            guard n > 0 else { return true }
            guard text.count >= n else { return false }
            let first = piece[0]
            var i = 0
            while i <= text.count - n {
                if text[i] | (text[i] &- 0x41 < 26 ? 0x20 : 0) == first {
                    var k = 1
                    while k < n {
                        let c = text[i + k]
                        if c | (c &- 0x41 < 26 ? 0x20 : 0) != piece[k] { break }
                        k += 1
                    }
                    if k == n { return true }
                }
                i += 1
            }
            return false
        }
    }
}
