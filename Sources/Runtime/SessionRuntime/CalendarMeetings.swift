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

    public func readings() -> AsyncStream<SamplePayload> {
        AsyncStream { continuation in
            let task = Task { [self] in
                var said: SensorStatus?
                var inMeeting: Bool?
                while !Task.isCancelled {
                    let start = now()
                    var meetings: [(start: Timestamp, end: Timestamp)] = []
                    var status: SensorStatus
                    do {
                        let read = try CalendarReader.occurrences(paths: files, from: start - 60, to: start + refresh + 60, zone: zone)
                        meetings = read.events.filter { !$0.free && !$0.allDay && $0.focusSubject == nil }.map { ($0.start, $0.end) }
                        let files = "\(self.files.count) calendar\(self.files.count == 1 ? "" : "s") of calendar.files"
                        status = SensorStatus(
                            sensor: .calendar, state: .available,
                            detail: "meetings from \(files)" + (read.problems.isEmpty ? "" : "; " + read.problems.joined(separator: "; ")))
                    } catch {
                        status = SensorStatus(sensor: .calendar, state: .unavailable, detail: "\(error)")
                    }
                    if status != said {
                        continuation.yield(.status(status))
                        said = status
                    }
                    // Each change until the next read: at a meeting's start and end.
                    let deadline = start + refresh
                    var t = start
                    while t < deadline, !Task.isCancelled {
                        let running = meetings.contains { $0.start <= t && $0.end > t }
                        if running != inMeeting {
                            continuation.yield(.reading(SignalReading(sensor: .calendar, value: running ? 1 : 0)))
                            inMeeting = running
                        }
                        let next = meetings.flatMap { [$0.start, $0.end] }.filter { $0 > t }.min() ?? deadline
                        let wait = min(next, deadline) - t
                        do { try await Task.sleep(for: .milliseconds(Int64(max(0.05, wait) * 1000))) } catch { break }
                        t = now()
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
