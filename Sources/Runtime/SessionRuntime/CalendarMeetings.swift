import DetectorSupport
import Foundation
import VigilCalendar
import VigilCore

/// Meetings from the person's calendars (`calendar.files`) as a session's signal: a reading of 1
/// when one begins and 0 when it ends, which the presence and noise scorers take as a call (a
/// meeting is presence; its talk is no noisy room). A meeting is busy time that is neither a
/// scheduled focus block nor all day nor marked free. Nothing of it is kept: not its summary, not
/// its place. The calendars are read again every `refresh` seconds, so an event added during the
/// session counts from then on.
public final class CalendarMeetingDetector: Detector, Sendable {
    public let sensor = SensorKind.calendar
    let files: [String]
    let zone: TimeZone
    let refresh: Double
    let now: @Sendable () -> Timestamp

    public init(
        files: [String], zone: TimeZone = .current, refresh: Double = 300,
        now: @escaping @Sendable () -> Timestamp = { Timestamp(seconds: Date().timeIntervalSince1970) }
    ) {
        self.files = files
        self.zone = zone
        self.refresh = max(1, refresh)
        self.now = now
    }

    /// On a thread of its own, as every detector (`DetectorContext`): its waits never depend on the
    /// session's task pool, and end at once when the session stops.
    public func readings() -> AsyncStream<SamplePayload> {
        DetectorSupport.DetectorContext.readings(sensor: .calendar, threadName: "vigil-calendar") { [self] context in
            var inMeeting: Bool?
            while !context.isStopped {
                let start = now()
                var meetings: [(start: Timestamp, end: Timestamp)] = []
                do {
                    let read = try CalendarReader.occurrences(paths: files, from: start - 60, to: start + refresh + 60, zone: zone)
                    meetings = read.events.filter { !$0.free && !$0.allDay && $0.focusSubject == nil }.map { ($0.start, $0.end) }
                    let files = "\(self.files.count) calendar\(self.files.count == 1 ? "" : "s") of calendar.files"
                    context.report(.available, "meetings from \(files)" + (read.problems.isEmpty ? "" : "; " + read.problems.joined(separator: "; ")))
                } catch {
                    context.reportFailure("\(error)")
                }
                // Each change until the next read: at a meeting's start and end.
                let deadline = start + refresh
                var t = start
                while t < deadline, !context.isStopped {
                    let running = meetings.contains { $0.start <= t && $0.end > t }
                    if running != inMeeting {
                        context.emit(.reading(SignalReading(sensor: .calendar, value: running ? 1 : 0)))
                        inMeeting = running
                    }
                    let next = meetings.flatMap { [$0.start, $0.end] }.filter { $0 > t }.min() ?? deadline
                    context.sleep(seconds: max(0.05, min(next, deadline) - t))
                    t = now()
                }
            }
        }
    }
}
