import SessionRuntime
import VigilCore
import VigilPlanner

extension LocalLog {
    // The services over the log, one per family of commands.

    public func history(now: Timestamp) -> HistoryService { HistoryService(store: store, now: now) }
    public func planner(now: LocalNow) -> PlannerService { PlannerService(store: store, now: now) }
    public var reports: ReportService { ReportService(store: store) }
    public var imports: ImportService { ImportService(store: store) }
    public var calendarExport: CalendarExportService { CalendarExportService(store: store) }
    /// With `goals`, their thresholds are told as they are crossed; `watch`: the same daemon's
    /// all-day watch, whose stretch in progress counts.
    public func reminders(
        _ configuration: VigilConfiguration.Reminders, goals: [Goal] = [], calendars: [String] = [], watch: DayWatchState? = nil,
        weekly: WeeklySummary? = nil, sink: any ReminderSink
    ) -> ReminderRound {
        var round = ReminderRound(store: store, configuration: configuration, sink: sink)
        round.weekly = weekly
        round.goals = goals
        round.calendarFiles = calendars
        round.watch = watch
        return round
    }
    public func launcher(dataDirectory: String) -> SessionLauncher { SessionLauncher(store: store, dataDirectory: dataDirectory) }
}
