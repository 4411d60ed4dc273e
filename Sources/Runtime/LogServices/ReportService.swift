import Foundation
import VigilCore
import VigilPlanner
import VigilStats
import VigilStore

/// What `vigil report` asks for: a period of local days, and which sessions count.
public struct ReportQuery: Sendable {
    /// The first day, or nil for all of the log; the last day (today at the latest).
    public var from: Int?
    public var to: Int
    /// The zone the days and hours are in.
    public var zone: TimeZone
    /// Today: judged once it is over, so the report says how it stands so far.
    public var today: Int
    /// A task's number or title, or a session's own name (`ReportService` resolves it).
    public var task: String?
    /// A tag, normalised by the service.
    public var tag: String?
    /// A device's name (`vigil device`).
    public var device: String?
    public var sources: Set<SessionSource>
    /// The local days the person taught Vigil a rule, set beside the false alarms they marked.
    public var learnedDays: [Int] = []
    /// The config's limits and goals, judged over the period.
    public var goals: [Goal] = []
    /// The all-day watch's stretch in progress (the daemon's own, not yet in the log), counted
    /// with the logged ones: a limit is crossed while the person is still in the application.
    public var openStretch: DayStretch? = nil
    /// Calendars whose focus blocks the report sets against the sessions (`calendar.files`).
    public var calendarFiles: [String] = []
    /// Now: blocks that have not begun are not counted yet.
    public var now: Timestamp? = nil
    /// Told each calendar file that could not be read (the report goes on without it).
    public var calendarProblem: (@Sendable (String) -> Void)? = nil

    public init(
        from: Int?, to: Int, zone: TimeZone, today: Int, task: String? = nil, tag: String? = nil, device: String? = nil,
        sources: Set<SessionSource> = SessionSource.own
    ) {
        self.from = from
        self.to = to
        self.zone = zone
        self.today = today
        self.task = task
        self.tag = tag
        self.device = device
        self.sources = sources
    }
}

/// Why a report was refused.
public enum ReportError: Error, Equatable, Sendable {
    /// No session has this task; `known`: the names sessions have (empty when none has one);
    /// `logExists` false when there is no log at all.
    case noTask(String, known: [String], logExists: Bool)
    /// No device has this name; `known`: the devices there are.
    case noDevice(String, known: [String])
}

/// The statistics report as `vigil report` asks for it: the task and device resolved, the
/// period's facts read in one pass (with the sessions by source counted in the same read), and
/// the figures computed. Reading never creates anything: without a log (`store` nil) the report
/// is empty.
public struct ReportService: Sendable {
    public let store: EventStore?

    public init(store: EventStore?) { self.store = store }

    /// Reports before anything was logged: empty, and nothing is created to make them.
    public static let withoutLog = ReportService(store: nil)

    /// Time in each application and on calls within [from, to), longest first (`vigil apps`).
    public func activityTotals(from: Timestamp, to: Timestamp, sources: Set<SessionSource>) throws -> [ActivityTotal] {
        try store?.activityTotals(from: from, to: to, sources: sources) ?? []
    }

    /// Today so far, as a report of the one day (what a session's end compares against); nil
    /// when the log cannot be read.
    public func todaySoFar(_ now: LocalNow) -> Report? {
        guard let facts = try? store?.statisticsFacts(before: now.startOfDay(now.day + 1)) else { return nil }
        return Statistics.report(facts, timeZone: now.zone, from: now.day, to: now.day, openDay: now.day)
    }

    /// The watch's stretches in the period (and the one in progress), oldest first.
    private func stretches(_ store: EventStore, _ query: ReportQuery) throws -> [DayStretch] {
        let clock = LocalClock(timeZone: query.zone, days: min(query.from ?? query.to, query.to)...query.to)
        let end = clock.startOfDay(query.to + 1)
        var stretches = try store.dayStretches(from: query.from.map(clock.startOfDay) ?? Timestamp(nanoseconds: 0), to: end)
        if var open = query.openStretch, open.end > open.start, open.start < end {
            open.end = min(open.end, end)
            stretches.append(open)
        }
        return stretches
    }

    /// The period's days as the report has them: its first (for `--last all`, the history's) to its last.
    private func days(_ report: Report, _ query: ReportQuery) -> ClosedRange<Int>? {
        guard let first = report.from.flatMap(Statistics.day(from:)) else { return nil }
        return min(first, query.to)...query.to
    }

    /// The whole day where the all-day watch ran: its stretches beside the sessions.
    private func wholeDay(_ stretches: [DayStretch], _ query: ReportQuery, facts: StatisticsFacts) -> Report.WholeDayFigures? {
        guard let earliest = [stretches.first?.start, facts.sessions.first.map { Timestamp(milliseconds: $0.start) }].compactMap({ $0 }).min()
        else { return nil }
        let clock = LocalClock(
            timeZone: query.zone, from: earliest, to: LocalClock(timeZone: query.zone, days: query.to...query.to).startOfDay(query.to + 1))
        let first = query.from ?? clock.slot(at: earliest).day
        return WholeDay.figures(stretches: stretches, facts: facts, timeZone: query.zone, days: min(first, query.to)...query.to)
    }

    /// The calendars' focus blocks that began in the period, against the sessions that started for them.
    private func scheduledBlocks(_ store: EventStore, _ query: ReportQuery) throws -> Report.BlockFigures? {
        guard !query.calendarFiles.isEmpty, let from = query.from else { return nil }
        let clock = LocalClock(timeZone: query.zone, days: from...query.to)
        let (start, end) = (clock.startOfDay(from), clock.startOfDay(query.to + 1))
        let listing: CalendarService.Listing
        do {
            listing = try CalendarService(files: query.calendarFiles).events(from: start, to: end, zone: query.zone)
        } catch {
            query.calendarProblem?("the calendars could not be read: \(error)")
            return nil
        }
        for p in listing.problems { query.calendarProblem?(p) }
        let blocks = listing.events.compactMap { e in
            e.focusSubject.flatMap { e.start >= start ? ScheduledBlocks.Block(subject: $0, start: e.start, end: e.end) : nil }
        }
        guard !blocks.isEmpty else { return nil }
        let sessions = try store.sessionRecords(from: start - ScheduledBlocks.early, to: end, sources: query.sources).map {
            ScheduledBlocks.SessionStart(task: $0.task, tags: $0.tags, start: $0.started)
        }
        return ScheduledBlocks.figures(
            blocks: blocks, sessions: sessions, now: query.now ?? Timestamp(seconds: Date().timeIntervalSince1970), timeZone: query.zone)
    }

    /// Each goal over the period, from its measure's minutes on each day.
    private func goals(_ query: ReportQuery, report: Report, stretches: [DayStretch], facts: StatisticsFacts) throws -> [Report.GoalFigures] {
        guard !query.goals.isEmpty, let days = days(report, query) else { return [] }
        let focusByDate = Dictionary(report.days.map { ($0.date, $0.focusedMinutes) }, uniquingKeysWith: { a, _ in a })
        let openDay = days.contains(query.today) ? query.today : nil
        return try query.goals.map { goal in
            let minutes: [Double]
            switch goal.measure {
            case .focus: minutes = days.map { focusByDate[civilDate($0)] ?? 0 }
            case .category(let c): minutes = WholeDay.minutesByDay(of: c, stretches: stretches, facts: facts, timeZone: query.zone, days: days)
            case .task, .tag:
                var sub = ReportQuery(from: days.lowerBound, to: days.upperBound, zone: query.zone, today: query.today, sources: query.sources)
                if case .task(let t) = goal.measure { sub.task = t }
                if case .tag(let t) = goal.measure { sub.tag = t }
                let byDate: [String: Double]
                do {
                    byDate = Dictionary(try self.report(sub).days.map { ($0.date, $0.focusedMinutes) }, uniquingKeysWith: { a, _ in a })
                } catch ReportError.noTask {
                    byDate = [:]  // no session of that task yet: nothing done toward it
                }
                minutes = days.map { byDate[civilDate($0)] ?? 0 }
            }
            return GoalProgress.figures(goal, minutesByDay: minutes, days: days, openDay: openDay)
        }
    }

    public func report(_ query: ReportQuery) throws -> Report {
        let tag = query.tag.flatMap { TaskItem.normalizedTags([$0]).first }
        var facts = StatisticsFacts()
        var sessionsBySource: [SessionSource: Int] = [:]
        var task = query.task
        if let store {
            if let reference = query.task {
                let known = try store.taskNames()
                // A task's number or title (the one resolver), or a session's own name: the name
                // sessions carry is what is selected.
                task = try TaskLookup(store: store).sessionName(reference, among: known)
                if task == nil { throw ReportError.noTask(reference, known: known, logExists: true) }
            }
            if let device = query.device {
                let names = try store.devices().map(\.name)
                guard names.contains(device) else { throw ReportError.noDevice(device, known: names) }
            }
            let first = min(query.from ?? query.to, query.to)
            let clock = LocalClock(timeZone: query.zone, days: first...query.to)
            (facts, sessionsBySource) = try store.reportFacts(
                before: clock.startOfDay(query.to + 1), task: task, tag: tag, device: query.device, sources: query.sources,
                sourcesFrom: query.from == nil ? nil : clock.startOfDay(first), activities: true)
        } else if let task {
            throw ReportError.noTask(task, known: [], logExists: false)
        }
        var report = Statistics.report(
            facts, timeZone: query.zone, from: query.from, to: query.to, task: task, openDay: query.today, learnedDays: query.learnedDays)
        report.tag = tag
        if let store {
            report.sources = Report.SourceFigures(counted: query.sources, sessions: sessionsBySource)
            if task == nil, tag == nil, query.device == nil {
                let stretches = try self.stretches(store, query)
                report.wholeDay = wholeDay(stretches, query, facts: facts)
                report.goals = try goals(query, report: report, stretches: stretches, facts: facts)
                report.scheduledBlocks = try scheduledBlocks(store, query)
            }
        }
        return report
    }
}
