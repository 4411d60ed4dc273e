import Foundation
import ReportViews
import Testing
import VigilCore

@testable import VigilStats

/// Sessions at the same time (on several devices after sync, or a replay logged during a live
/// session) count the person's time once (docs/sync.md, "Merging"). Every figure here is checked
/// against `Minutes`, a count minute by minute over the sessions as the test writes them, which
/// shares no code with the statistics.
@Suite struct CountedOnceTests {
    let utc = TimeZone(identifier: "UTC")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func ms(_ text: String) -> Int64 { parseRFC3339(text)!.millisecondsSinceEpoch }
    func day(_ text: String) -> Int { Statistics.day(from: text)! }

    /// A session as the test plans it: minutes from `Planned.origin`, half-open, pauses and
    /// episodes ascending and disjoint.
    struct Planned {
        static let origin: Int64 = 1_780_264_800_000  // 2026-05-31T22:00:00Z: the sessions cross midnight
        var device: String?
        var task: String?
        var from: Int64
        var to: Int64
        var pauses: [(Int64, Int64)] = []
        var episodes: [(Int64, Int64)] = []

        static func instant(_ minute: Int64) -> Int64 { origin + minute * 60_000 }
        func paused(_ m: Int64) -> Bool { pauses.contains { $0.0 <= m && m < $0.1 } }
        func distracted(_ m: Int64) -> Bool { episodes.contains { $0.0 <= m && m < $0.1 } }
        func active(_ m: Int64) -> Bool { from <= m && m < to && !paused(m) }
    }

    /// The facts of `plan` in start order (ids in that order), one alarm per episode.
    func facts(_ plan: [Planned]) -> StatisticsFacts {
        var facts = StatisticsFacts()
        for (i, p) in sorted(plan).enumerated() {
            let whole = [Span(Planned.instant(p.from), Planned.instant(p.to))]
            let active = subtract(p.pauses.map { Span(Planned.instant($0.0), Planned.instant($0.1)) }, from: whole)
            let episodes = p.episodes.enumerated().map {
                EpisodeFacts(number: $0.offset + 1, span: Span(Planned.instant($0.element.0), Planned.instant($0.element.1)), cause: .away)
            }
            let alarms = p.episodes.enumerated().map {
                AlarmFacts(episode: $0.offset + 1, at: Planned.instant($0.element.0) + 30_000, repeatCount: 0, back: Planned.instant($0.element.1))
            }
            facts.append(
                id: Int64(i + 1), task: p.task, device: p.device, start: Planned.instant(p.from), end: Planned.instant(p.to),
                outcome: .completed, active: active, episodes: episodes, alarms: alarms)
        }
        return facts
    }

    func sorted(_ plan: [Planned]) -> [Planned] {
        plan.enumerated().sorted { ($0.element.from, $0.offset) < ($1.element.from, $1.offset) }.map(\.element)
    }

    /// The rule, minute by minute: distracted if any session is in an episode, else focused if any
    /// is judged outside its episodes; the minute goes to the first session (in start order) that
    /// says so. Overlap: two or more sessions judged (or in an episode) at once. Hours and days in UTC.
    struct Minutes {
        var focused = 0
        var distracted = 0
        var overlap = 0
        var hourFocused = [Int](repeating: 0, count: 24)
        var hourDistracted = [Int](repeating: 0, count: 24)
        var dayFocused: [Int: Int] = [:]
        var dayDistracted: [Int: Int] = [:]
        var taskFocused: [String: Int] = [:]
        var taskDistracted: [String: Int] = [:]
        /// Each device's own sessions, not counted once.
        var deviceFocused: [String: Int] = [:]
        var deviceDistracted: [String: Int] = [:]
        var deviceSessions: [String: Int] = [:]

        init(_ unsorted: [Planned]) {
            let plan = unsorted.enumerated().sorted { ($0.element.from, $0.offset) < ($1.element.from, $1.offset) }.map(\.element)
            let first = plan.flatMap { [$0.from] + $0.episodes.map(\.0) }.min() ?? 0
            let last = plan.flatMap { [$0.to] + $0.episodes.map(\.1) }.max() ?? 0
            for m in first..<max(first, last) {
                let minute = Planned.origin / 60_000 + m
                let hour = Int(minute / 60 % 24)
                let day = Int(minute / 1440)
                let judged = plan.filter { $0.active(m) || $0.distracted(m) }.count
                if judged >= 2 { overlap += 1 }
                if let p = plan.first(where: { $0.distracted(m) }) {
                    distracted += 1
                    hourDistracted[hour] += 1
                    dayDistracted[day, default: 0] += 1
                    taskDistracted[p.task ?? "", default: 0] += 1
                } else if let p = plan.first(where: { $0.active(m) && !$0.distracted(m) }) {
                    focused += 1
                    hourFocused[hour] += 1
                    dayFocused[day, default: 0] += 1
                    taskFocused[p.task ?? "", default: 0] += 1
                }
                for p in plan {
                    if p.distracted(m) {
                        deviceDistracted[p.device ?? "", default: 0] += 1
                    } else if p.active(m) {
                        deviceFocused[p.device ?? "", default: 0] += 1
                    }
                }
            }
            for p in plan { deviceSessions[p.device ?? "", default: 0] += 1 }
        }
    }

    func report(_ plan: [Planned], timeZone: TimeZone? = nil) -> Report {
        let first = Int(Planned.origin / 86_400_000)
        return Statistics.report(facts(plan), timeZone: timeZone ?? utc, from: first, to: first + 2)
    }

    /// Every time figure of `r` against the count minute by minute.
    func expectAgrees(_ r: Report, _ plan: [Planned], _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let want = Minutes(plan)
        let focused = r.totals.focusedMinutes
        let distracted = r.totals.distractedMinutes
        let active = r.totals.activeMinutes
        let overlap = r.totals.overlapMinutes ?? 0
        #expect(focused == Double(want.focused), "focused \(label)", sourceLocation: sourceLocation)
        #expect(distracted == Double(want.distracted), "distracted \(label)", sourceLocation: sourceLocation)
        #expect(active == Double(want.focused + want.distracted), "active \(label)", sourceLocation: sourceLocation)
        #expect(overlap == Double(want.overlap), "overlap \(label)", sourceLocation: sourceLocation)
        let hourFocused = r.hours.map(\.focusedMinutes)
        let hourDistracted = r.hours.map(\.distractedMinutes)
        #expect(hourFocused == want.hourFocused.map(Double.init), "hours focused \(label)", sourceLocation: sourceLocation)
        #expect(hourDistracted == want.hourDistracted.map(Double.init), "hours distracted \(label)", sourceLocation: sourceLocation)
        let days = r.days.map { d in [d.focusedMinutes, d.distractedMinutes] }
        let wantDays = r.days.map { d in
            let n = Statistics.day(from: d.date)!
            return [Double(want.dayFocused[n] ?? 0), Double(want.dayDistracted[n] ?? 0)]
        }
        #expect(days == wantDays, "days \(label)", sourceLocation: sourceLocation)
        let tasks = Dictionary(uniqueKeysWithValues: r.tasks.map { ($0.task, [$0.focusedMinutes, $0.distractedMinutes]) })
        for task in Set(want.taskFocused.keys).union(want.taskDistracted.keys).union(tasks.keys) {
            let got = tasks[task] ?? [0, 0]
            let expected = [Double(want.taskFocused[task] ?? 0), Double(want.taskDistracted[task] ?? 0)]
            #expect(got == expected, "task '\(task)' \(label)", sourceLocation: sourceLocation)
        }
        let named = Set(plan.map { $0.device ?? "" })
        if named.count >= 2 {
            let devices = Dictionary(
                uniqueKeysWithValues: (r.devices ?? []).map { ($0.device, [$0.focusedMinutes, $0.distractedMinutes, Double($0.sessions)]) })
            let wantDevices = Dictionary(
                uniqueKeysWithValues: named.map { d in
                    (d, [Double(want.deviceFocused[d] ?? 0), Double(want.deviceDistracted[d] ?? 0), Double(want.deviceSessions[d] ?? 0)])
                })
            #expect(devices == wantDevices, "devices \(label)", sourceLocation: sourceLocation)
        } else {
            let devices = r.devices
            #expect(devices == nil, "one device: no breakdown \(label)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Cases worked out by hand

    /// The laptop focused 09:00-10:00; the desktop from 09:30 to 10:30 with an episode 09:40-09:50.
    /// The person was distracted those ten minutes, whatever the laptop said, and focused the rest.
    @Test func aDistractedDeviceOutweighsAFocusedOneAtTheSameInstant() {
        let plan = [
            Planned(device: "laptop", task: "thesis", from: 660, to: 720),
            Planned(device: "desktop", task: "email", from: 690, to: 750, episodes: [(700, 710)]),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        let totals = [r.totals.focusedMinutes, r.totals.distractedMinutes, r.totals.overlapMinutes]
        #expect(totals == [80, 10, 30])
        // 09:00-09:40 and 09:50-10:00 are the laptop's (it started first); the episode and
        // 10:00-10:30 the desktop's.
        let thesis = r.tasks.first { $0.task == "thesis" }.map { [$0.focusedMinutes, $0.distractedMinutes] }
        let email = r.tasks.first { $0.task == "email" }.map { [$0.focusedMinutes, $0.distractedMinutes] }
        #expect(thesis == [50, 0])
        #expect(email == [30, 10])
        // Each device's own figures add up to more than the totals.
        let devices = r.devices?.map { "\($0.device) \($0.sessions) \($0.focusedMinutes) \($0.distractedMinutes) \($0.episodes)" }
        #expect(devices == ["laptop 1 60.0 0.0 0", "desktop 1 50.0 10.0 1"])
        let episodes = r.episodes.count
        #expect(episodes == 1)
    }

    /// The laptop paused 09:30-10:30 while the desktop judged 09:45-10:15: the desktop's half hour
    /// counts, and nothing overlapped.
    @Test func aPauseOnOneDeviceHidesNothingAnotherJudged() {
        let plan = [
            Planned(device: "laptop", task: "thesis", from: 660, to: 780, pauses: [(690, 750)]),
            Planned(device: "desktop", task: "email", from: 705, to: 735),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        let figures = [r.totals.focusedMinutes, r.totals.distractedMinutes, r.totals.overlapMinutes]
        #expect(figures == [90, 0, 0])
    }

    /// Three devices, one of them across midnight, with pauses and episodes overlapping each other's.
    @Test func threeDevices() {
        let plan = [
            Planned(device: "laptop", task: "thesis", from: 60, to: 240, pauses: [(100, 130)], episodes: [(70, 80), (150, 165)]),
            Planned(device: "desktop", task: "email", from: 90, to: 200, pauses: [(160, 170)], episodes: [(95, 105), (140, 155)]),
            Planned(device: "phone", task: nil, from: 120, to: 300, pauses: [(180, 230)], episodes: [(125, 135), (235, 250)]),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        let names = r.devices?.map(\.device).sorted()
        #expect(names == ["desktop", "laptop", "phone"])
        // Events stay each session's: all six episodes and their alarms.
        let events = [r.episodes.count, r.totals.alarms]
        #expect(events == [6, 6])
    }

    /// A session logged twice (the same time, two ids; say a replay of it logged with --source all)
    /// counts its time exactly once, on one device or two; its episodes and alarms are each
    /// session's events, so they count twice.
    @Test(arguments: [("laptop", "laptop"), ("laptop", "desktop")])
    func aDuplicatedSessionCountsOnce(_ devices: (String, String)) {
        let once = [Planned(device: devices.0, task: "thesis", from: 60, to: 420, pauses: [(200, 215)], episodes: [(100, 112), (300, 301)])]
        var twice = once
        twice.append(once[0])
        twice[1].device = devices.1
        let single = report(once)
        let double = report(twice)
        expectAgrees(double, twice)
        let singleTime = [single.totals.focusedMinutes, single.totals.distractedMinutes] + single.hours.map(\.focusedMinutes)
        let doubleTime = [double.totals.focusedMinutes, double.totals.distractedMinutes] + double.hours.map(\.focusedMinutes)
        #expect(doubleTime == singleTime)
        // Both judged the whole session but its pause.
        let overlap = double.totals.overlapMinutes
        let judged: Double = 360 - 15
        #expect(overlap == judged)
        let events = [double.totals.sessions, double.episodes.count, double.totals.alarms]
        #expect(events == [2, 4, 4])
        // Six hours judged, twice: not ten focused hours.
        let earned = double.achievements.map(\.id)
        #expect(!earned.contains("focused_10h"))
    }

    /// A short session wholly inside a long one, on the same device (a replay logged during a live
    /// session) and on another.
    @Test(arguments: ["laptop", "desktop"])
    func aSessionWhollyInsideAnother(_ device: String) {
        let plan = [
            Planned(device: "laptop", task: "thesis", from: 0, to: 300, pauses: [(50, 60)], episodes: [(200, 210)]),
            Planned(device: device, task: "replayed", from: 40, to: 100, episodes: [(45, 55), (90, 95)]),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        // The outer session started first: every minute it was focused is its own. The inner one
        // keeps the minutes it was distracted, and the five it was focused while the outer one
        // was paused (55-60); both judged 40-50 and 60-100.
        let replayed = r.tasks.first { $0.task == "replayed" }.map { [$0.focusedMinutes, $0.distractedMinutes] }
        #expect(replayed == [5, 15])
        let overlap = r.totals.overlapMinutes
        #expect(overlap == 50)
    }

    /// Two devices through Berlin's fall-back night, the same session on both: the figures of
    /// `StatisticsTests.aSessionThroughTheFallBackNight`, the repeated hour 2 counted once.
    @Test func theSameSessionOnTwoDevicesThroughTheFallBackNight() {
        var facts = StatisticsFacts()
        for (id, device) in [(Int64(1), "laptop"), (2, "desktop")] {
            facts.append(
                id: id, task: nil, device: device, start: ms("2026-10-24T23:30:00Z"), end: ms("2026-10-25T02:30:00Z"), outcome: .completed,
                active: [Span(ms("2026-10-24T23:30:00Z"), ms("2026-10-25T02:30:00Z"))],
                episodes: [EpisodeFacts(number: 1, span: Span(ms("2026-10-25T01:10:00Z"), ms("2026-10-25T01:20:00Z")), cause: .noise)],
                alarms: [])
        }
        let r = Statistics.report(facts, timeZone: berlin, from: day("2026-10-25"), to: day("2026-10-25"))
        let hours = [r.hours[1].focusedMinutes, r.hours[2].focusedMinutes, r.hours[2].distractedMinutes, r.hours[3].focusedMinutes]
        #expect(hours == [30, 110, 10, 30])
        let totals = [r.totals.activeMinutes, r.totals.overlapMinutes]
        #expect(totals == [180, 180])
    }

    /// Unbroken focus is the person's: twenty minutes on the laptop, then twenty on the desktop
    /// that began ten minutes before the laptop stopped, are thirty unbroken minutes.
    @Test func unbrokenFocusRunsAcrossDevices() {
        let plan = [
            Planned(device: "laptop", task: nil, from: 600, to: 620),
            Planned(device: "desktop", task: nil, from: 610, to: 630),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        let deepFocus = r.achievements.first { $0.id == "deep_focus_25" }?.earned
        #expect(deepFocus == "2026-06-01")
    }

    /// An episode dated back before its session's start reaches over a session of a group that
    /// closed before it began: the two groups are one.
    @Test func anEpisodeBeforeItsSessionsStartJoinsTheGroupsItReaches() {
        let plan = [
            Planned(device: "laptop", task: "a", from: 0, to: 30),
            Planned(device: "laptop", task: "b", from: 20, to: 40),
            Planned(device: "desktop", task: "c", from: 50, to: 70),
            Planned(device: "phone", task: "d", from: 80, to: 100, episodes: [(10, 25), (90, 95)]),
        ]
        let r = report(plan)
        expectAgrees(r, plan)
        let d = r.tasks.first { $0.task == "d" }.map { [$0.focusedMinutes, $0.distractedMinutes] }
        #expect(d == [15, 20])
    }

    /// A session over a month with two thousand short ones inside it: one group, resolved in one
    /// sweep (a quadratic search would take minutes).
    @Test func aLongSessionOverThousandsOfOthers() {
        var plan = [Planned(device: "desktop", task: "long", from: 0, to: 30 * 1440)]
        for i in 0..<2000 {
            let start = Int64(i) * 21
            plan.append(Planned(device: "laptop", task: "short", from: start, to: start + 20, episodes: [(start + 5, start + 8)]))
        }
        let r = Statistics.report(facts(plan), timeZone: utc, from: nil, to: Int(Planned.origin / 86_400_000) + 31)
        let totals = [r.totals.focusedMinutes, r.totals.distractedMinutes, r.totals.overlapMinutes]
        let distracted: Double = 2000 * 3
        let judgedTogether: Double = 2000 * 20
        let expected: [Double?] = [30 * 1440 - distracted, distracted, judgedTogether]
        #expect(totals == expected)
        let short = r.tasks.first { $0.task == "short" }.map { [$0.focusedMinutes, $0.distractedMinutes] }
        #expect(short == [0, distracted])
    }

    // MARK: Many random logs

    /// A small deterministic generator (SplitMix64): the same cases every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int64>) -> Int64 { range.lowerBound + Int64(next() % UInt64(range.count)) }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        /// Up to `most` disjoint ascending spans in [from, to), none empty.
        mutating func spans(in from: Int64, _ to: Int64, most: Int) -> [(Int64, Int64)] {
            let points = (0..<(2 * Int(int(0...Int64(most))))).map { _ in int(from...to) }.sorted()
            return stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) }.filter { $0.0 < $0.1 }
        }
    }

    @Test func randomLogsAgreeWithTheMinuteByMinuteCount() {
        var g = Generator(state: 19)
        for n in 0..<300 {
            var plan: [Planned] = []
            for _ in 0..<g.int(1...5) {
                if let last = plan.last, g.int(0...4) == 0 {
                    var copy = last
                    copy.device = g.pick(["laptop", "desktop", "phone", nil])
                    plan.append(copy)
                    continue
                }
                let from = g.int(0...240)
                let to = from + g.int(1...180)
                var episodes = g.spans(in: from, to, most: 3)
                // Now and then one dated back before its session's start, which the engine never
                // logs but the facts allow: it counts, and can join its session to earlier ones.
                if g.int(0...9) == 0 { episodes.insert((from - g.int(1...90), from), at: 0) }
                plan.append(
                    Planned(
                        device: g.pick(["laptop", "desktop", "phone", nil]), task: g.pick(["thesis", "email", nil]), from: from, to: to,
                        pauses: g.spans(in: from, to, most: 2), episodes: episodes))
            }
            expectAgrees(report(plan), plan, "case \(n)")
        }
    }

    /// Sessions on two devices that never overlap: every figure is what the same sessions give
    /// without devices; the report only adds the breakdown and the (zero) overlap.
    @Test func devicesThatNeverOverlapChangeNoFigure() {
        var plan = [
            Planned(device: "laptop", task: "thesis", from: 60, to: 120, pauses: [(80, 90)], episodes: [(100, 110)]),
            Planned(device: "desktop", task: "email", from: 120, to: 200, episodes: [(130, 131)]),
            Planned(device: "laptop", task: nil, from: 300, to: 420),
        ]
        var withDevices = report(plan)
        for i in plan.indices { plan[i].device = nil }
        let without = report(plan)
        let overlap = withDevices.totals.overlapMinutes
        #expect(overlap == 0)
        #expect(withDevices.devices?.count == 2)
        withDevices.totals.overlapMinutes = nil
        withDevices.devices = nil
        let same = withDevices.json() == without.json()
        #expect(same)
    }

    // MARK: The breakdown by device in every format

    @Test func theBreakdownByDeviceIsInEveryFormatOnlyWithTwoDevicesOrMore() throws {
        let one = [
            Planned(device: nil, task: "thesis", from: 60, to: 120, episodes: [(70, 75)]),
            Planned(device: nil, task: "email", from: 200, to: 260),
        ]
        var named = one
        for i in named.indices { named[i].device = "laptop" }
        var two = one
        two[1].device = "desk, \"top\""
        two.append(Planned(device: "laptop", task: "email", from: 90, to: 150))

        for (plan, several) in [(one, false), (named, false), (two, true)] {
            let r = report(plan)
            let text = r.rendered(as: .text)
            let markdown = r.rendered(as: .markdown)
            let csv = r.csv(.devices)
            let json = r.json()
            let html = r.rendered(as: .html)
            let counted = "overlapping time is counted once in the totals"
            if several {
                #expect(text.contains("By device") && text.contains(counted) && text.contains("(unnamed)"))
                #expect(text.contains("Overlap") && text.contains("30 min when two or more sessions ran at once"))
                #expect(markdown.contains("## By device") && markdown.contains(counted) && markdown.contains("| laptop | 1 | 1 h 00 min |"))
                let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
                #expect(
                    rows == [
                        "device,sessions,focused_minutes,distracted_minutes,episodes", "\"desk, \"\"top\"\"\",1,60,0,0", "laptop,1,60,0,0",
                        ",1,55,5,1",
                    ])
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let devices = try #require(object["devices"] as? [[String: Any]])
                #expect(devices.map { $0["device"] as? String } == ["desk, \"top\"", "laptop", ""])
                #expect(
                    devices.map { Set($0.keys) }
                        == Array(repeating: ["device", "sessions", "focused_minutes", "distracted_minutes", "episodes"], count: 3))
                let overlap = (object["totals"] as? [String: Any])?["overlap_minutes"] as? Double
                #expect(overlap == 30)
                #expect(html.contains("id=\"card-devices\"") && html.contains(counted) && html.contains("<dt>Overlap</dt>"))
                #expect(html.contains("desk, &quot;top&quot;"))
            } else {
                #expect(!text.contains("By device") && !text.contains("Overlap"))
                #expect(!markdown.contains("By device") && !markdown.contains("Overlap"))
                #expect(csv == "device,sessions,focused_minutes,distracted_minutes,episodes\r\n")
                #expect(json.contains("\"devices\": null") && json.contains("\"overlap_minutes\": null"))
                #expect(!html.contains("card-devices") && !html.contains("Overlap"))
            }
        }
    }

    /// A device's name comes from another machine: inert in every format, as a task's is.
    @Test func deviceNamesAreInertInEveryFormat() {
        let hostile = "\u{1B}]0;owned\u{07}<b>desk|*top*</b>"
        let plan = [Planned(device: hostile, task: nil, from: 0, to: 60), Planned(device: "laptop", task: nil, from: 100, to: 160)]
        let r = report(plan)
        let outputs = [r.rendered(as: .text), r.rendered(as: .markdown), r.csv(.devices), r.json(), r.rendered(as: .html)]
        for output in outputs {
            let raw = output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }
            #expect(!raw)
        }
        let markdown = outputs[1]
        let html = outputs[4]
        #expect(markdown.contains("&lt;b&gt;desk\\|\\*top\\*&lt;/b&gt;"))
        #expect(!html.contains("<b>desk"))
    }

    /// One device's sessions overlapping each other (a replay logged during a live session): the
    /// report says how long, and has no breakdown by device.
    @Test func oneDevicesOverlapIsSaidWithoutABreakdown() {
        let plan = [Planned(device: nil, task: nil, from: 0, to: 60), Planned(device: nil, task: nil, from: 30, to: 90)]
        let r = report(plan)
        expectAgrees(r, plan)
        let text = r.rendered(as: .text)
        #expect(text.contains("Overlap") && text.contains("30 min when two or more sessions ran at once, counted once"))
        #expect(!text.contains("By device"))
    }

    @Test func factsWithoutDevicesAreOneUnnamedDevice() {
        let session = SessionFacts(id: 1, task: -1, start: 0, end: 60_000, outcome: .completed)
        let flat = StatisticsFacts(sessions: [session], tasks: [], active: [Span(0, 60_000)], episodes: [], alarms: [])
        let unnamed = [flat.devices.count, Int(flat.sessions[0].device)]
        #expect(unnamed == [0, -1])
        #expect(!flat.holdsSeveralDevices)
        var facts = StatisticsFacts()
        facts.append(id: 1, task: nil, start: 0, end: 1, outcome: .completed, active: [], episodes: [], alarms: [])
        #expect(!facts.holdsSeveralDevices)
        facts.append(id: 2, task: nil, device: "laptop", start: 2, end: 3, outcome: .completed, active: [], episodes: [], alarms: [])
        #expect(facts.holdsSeveralDevices, "the unnamed device and the laptop")
        facts.append(id: 3, task: nil, device: "laptop", start: 4, end: 5, outcome: .completed, active: [], episodes: [], alarms: [])
        let devices = facts.sessions.map { facts.device(of: $0) }
        #expect(devices == [nil, "laptop", "laptop"])
    }
}

extension HTMLReportTests {
    /// The devices' bars, with long and hostile names, fit their chart.
    @Test func theDevicesChartFitsItsCard() throws {
        var facts = StatisticsFacts()
        let first = day("2026-11-10")
        for (i, device) in ["laptop", Self.hostileTask, "a-desktop-with-a-very-long-host-name.example.org"].enumerated() {
            let start = Int64(first) * 86_400_000 + 9 * 3_600_000 + Int64(i) * 600_000
            facts.append(
                id: Int64(i + 1), task: nil, device: device, start: start, end: start + 3_600_000, outcome: .completed,
                active: [Span(start, start + 3_600_000)], episodes: [], alarms: [])
        }
        let html = Statistics.report(facts, timeZone: utc, from: first, to: first).rendered(as: .html)
        let chart = try #require(try charts(html).first { $0.id == "devices" })
        #expect(clipped(chart).isEmpty, "\(clipped(chart))")
        #expect(chart.tooltips == 3)
        #expect(!html.contains("<img"))
    }
}
