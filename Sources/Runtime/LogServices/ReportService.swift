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

    /// The whole day where the all-day watch ran: its stretches in the period beside the sessions.
    private func wholeDay(_ store: EventStore, _ query: ReportQuery, facts: StatisticsFacts) throws -> Report.WholeDayFigures? {
        var clock = LocalClock(timeZone: query.zone, days: min(query.from ?? query.to, query.to)...query.to)
        let end = clock.startOfDay(query.to + 1)
        let stretches = try store.dayStretches(from: query.from.map(clock.startOfDay) ?? Timestamp(nanoseconds: 0), to: end)
        guard let earliest = [stretches.first?.start, facts.sessions.first.map { Timestamp(milliseconds: $0.start) }].compactMap({ $0 }).min()
        else { return nil }
        clock = LocalClock(timeZone: query.zone, from: earliest, to: end)
        let first = query.from ?? clock.slot(at: earliest).day
        return WholeDay.figures(stretches: stretches, facts: facts, timeZone: query.zone, days: min(first, query.to)...query.to)
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
            if task == nil, tag == nil, query.device == nil { report.wholeDay = try wholeDay(store, query, facts: facts) }
        }
        return report
    }
}
