import Foundation
import SessionViews
import Testing
import VigilCore

@testable import SessionRuntime
@testable import TestSupport

/// The calendar as a session's signal: a meeting's start and end as readings, from a real .ics
/// file read through libical, when they happen; focus blocks, all-day and free events are no
/// meetings.
@Suite struct CalendarMeetingsTests {
    @Test func aMeetingBeginsAndEndsAsItsFileSays() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-cal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        // Long enough that a loaded machine waking its wait late still finds the meeting running.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.up))
        func event(_ uid: String, _ summary: String, _ from: Date, _ to: Date, extra: [String] = []) -> [String] {
            [
                "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z", "DTSTART:\(f.string(from: from))", "DTEND:\(f.string(from: to))",
                "SUMMARY:\(summary)",
            ]
                + extra + ["END:VEVENT"]
        }
        let ics =
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + event("m", "Standup", start, start.addingTimeInterval(12))
            + event("b", "focus: thesis", start.addingTimeInterval(-60), start.addingTimeInterval(600))
            + event("free", "Lunch?", start.addingTimeInterval(-60), start.addingTimeInterval(600), extra: ["TRANSP:TRANSPARENT"])
            + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        try ics.write(toFile: dir + "/cal.ics", atomically: true, encoding: .utf8)

        let c = Collector(CalendarMeetingDetector(files: [dir]).readings())
        defer { c.stop() }
        let readings = { c.all.compactMap { if case .reading(let r) = $0.payload { r.value } else { nil } } }
        #expect(await c.wait(timeout: 60) { _ in readings() == [0, 1, 0] }, "\(c.all)")
        #expect(c.statuses.first?.state == .available, "\(c.statuses)")
        let begun = try #require(c.all.first { if case .reading(let r) = $0.payload { r.value == 1 } else { false } })
        #expect(begun.time.secondsSinceEpoch >= start.timeIntervalSince1970 - 0.05, "not before it begins")
        // Nothing of the meeting but that it runs: no summary.
        #expect(c.all.allSatisfy { if case .reading(let r) = $0.payload { r.label == nil } else { true } })
    }

    @Test func noCalendarsIsSaidAndACalendarThatCannotBeReadToo() async throws {
        var config = VigilConfiguration.default
        let none = PlugInRegistry.builtIn.availability(configuration: config).first { $0.sensor == .calendar }
        #expect(none?.detector == nil && none?.status?.detail.contains("calendar.files lists none") == true, "\(String(describing: none))")
        config.calendar.files = ["/nonexistent/cal.ics"]
        let detector = try #require(PlugInRegistry.builtIn.availability(configuration: config).first { $0.sensor == .calendar }?.detector)
        let c = Collector(detector.readings())
        defer { c.stop() }
        #expect(await c.wait(timeout: 30) { !$0.statuses.isEmpty })
        #expect(c.statuses.first?.detail.contains("/nonexistent/cal.ics: no such file or directory") == true, "\(c.statuses)")
    }

    /// A meeting is shown as such on the live screen: the calendar's row says so while it runs.
    @Test func theLiveScreenSaysInAMeeting() {
        let t0 = parseRFC3339("2026-11-20T10:00:00Z")!
        var view = LiveView(task: "report", planned: 1500, workplace: nil, signals: .builtIn)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: "report", plannedSeconds: 1500)), line: nil)
        view.apply(Sample(time: t0 + 1, payload: .status(SensorStatus(sensor: .calendar, state: .available, detail: "meetings"))))
        view.apply(Sample(time: t0 + 2, payload: .reading(SignalReading(sensor: .calendar, value: 1))))
        let screen = view.lines(.init(color: false, width: 80))
        #expect(screen.contains { $0.lowercased().contains("calendar") && $0.contains("in a meeting") }, "\(screen)")
        view.apply(Sample(time: t0 + 900, payload: .reading(SignalReading(sensor: .calendar, value: 0))))
        #expect(view.lines(.init(color: false, width: 80)).contains { $0.contains("no meeting now") })
    }
}
