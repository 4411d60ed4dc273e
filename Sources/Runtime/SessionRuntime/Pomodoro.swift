/// A Pomodoro plan: work, then a short break, and after every `rounds` work periods a long break.
/// `25/5/15x4` is the classic: 25 minutes of work, 5-minute breaks, 15 after the fourth.
public struct PomodoroPlan: Hashable, Sendable {
    public var work: Double
    public var shortBreak: Double
    public var longBreak: Double
    public var rounds: Int

    public static let classic = PomodoroPlan(work: 25 * 60, shortBreak: 5 * 60, longBreak: 15 * 60, rounds: 4)

    public init(work: Double, shortBreak: Double, longBreak: Double, rounds: Int) {
        self.work = work
        self.shortBreak = shortBreak
        self.longBreak = longBreak
        self.rounds = rounds
    }

    /// `W/S/LxN` in minutes (fractions allowed: `0.5/0.25/1x2`), or `classic`.
    public static func parse(_ text: String) -> PomodoroPlan? {
        if text == "classic" { return .classic }
        let parts = text.split(separator: "x")
        guard parts.count == 2, let n = Int(parts[1]), (1...100).contains(n) else { return nil }
        let times = parts[0].split(separator: "/").compactMap { Double($0) }
        // Each period more than nothing and at most a day (no inf, no 1e300 minutes).
        guard times.count == 3, times.allSatisfy({ $0 > 0 && $0 <= 1440 }) else { return nil }
        return PomodoroPlan(work: times[0] * 60, shortBreak: times[1] * 60, longBreak: times[2] * 60, rounds: n)
    }

    /// One set: `rounds` work periods with the short breaks between them.
    public var setLength: Double { Double(rounds) * work + Double(rounds - 1) * shortBreak }

    /// The break after work period `n` (1-based): long after every `rounds`-th, else short.
    public func breakLength(after n: Int) -> Double { n % rounds == 0 ? longBreak : shortBreak }

    public var text: String {
        func m(_ s: Double) -> String { s.truncatingRemainder(dividingBy: 60) == 0 ? String(Int(s / 60)) : String(s / 60) }
        return "\(m(work))/\(m(shortBreak))/\(m(longBreak))x\(rounds)"
    }
}
