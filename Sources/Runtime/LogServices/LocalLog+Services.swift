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
    public func reminders(_ configuration: VigilConfiguration.Reminders, sink: any ReminderSink) -> ReminderRound {
        ReminderRound(store: store, configuration: configuration, sink: sink)
    }
    public func launcher(dataDirectory: String) -> SessionLauncher { SessionLauncher(store: store, dataDirectory: dataDirectory) }
}
