// Every command is a VigilCommand: a config file with a problem stops it before it runs
// (`Vigil.main`). Declared here, in one list, so that a new command is added to it where the
// rule is visible; `everyCommandRefusesABadConfig` (CLIConformanceTests) fails for one left out.

extension Start: VigilCommand {}
extension Replay: VigilCommand {}
extension Record: VigilCommand {}
extension Inspect: VigilCommand {}
extension Sensors: VigilCommand {}
extension Log: VigilCommand {}
extension StatusCommand: VigilCommand {}
extension StopCommand: VigilCommand {}
extension ReportCommand: VigilCommand {}
extension TaskCommand.Add: VigilCommand {}
extension TaskCommand.List: VigilCommand {}
extension TaskCommand.Show: VigilCommand {}
extension TaskCommand.Edit: VigilCommand {}
extension TaskCommand.Done: VigilCommand {}
extension TaskCommand.Reopen: VigilCommand {}
extension TaskCommand.Delete: VigilCommand {}
extension TaskCommand.Why: VigilCommand {}
extension NextCommand: VigilCommand {}
extension HabitCommand.Add: VigilCommand {}
extension HabitCommand.List: VigilCommand {}
extension HabitCommand.Show: VigilCommand {}
extension HabitCommand.Check: VigilCommand {}
extension HabitCommand.Fail: VigilCommand {}
extension HabitCommand.Skip: VigilCommand {}
extension HabitCommand.SetDay: VigilCommand {}
extension HabitCommand.Edit: VigilCommand {}
extension HabitCommand.Note: VigilCommand {}
extension HabitCommand.Continue: VigilCommand {}
extension HabitCommand.Finish: VigilCommand {}
extension HabitCommand.Delete: VigilCommand {}
extension TodayCommand: VigilCommand {}
extension MotivateCommand: VigilCommand {}
extension DaemonCommand: VigilCommand {}
extension ExportCommand: VigilCommand {}
extension CalendarCommand: VigilCommand {}
extension ForgetCommand: VigilCommand {}
extension Simulate: VigilCommand {}
extension AppsCommand: VigilCommand {}
extension SyncCommand: VigilCommand {}
extension DeviceCommand: VigilCommand {}
extension ImportCommand.Taskwarrior: VigilCommand { var common: CommonOptions { options.common } }
extension ImportCommand.Timewarrior: VigilCommand { var common: CommonOptions { options.common } }
extension ImportCommand.Loop: VigilCommand { var common: CommonOptions { options.common } }
extension SessionCommand.List: VigilCommand {}
extension SessionCommand.Show: VigilCommand {}
extension SessionCommand.Edit: VigilCommand {}
extension SessionCommand.Tag: VigilCommand {}
extension SessionCommand.Intent: VigilCommand {}
extension EpisodeCommand: VigilCommand {}
extension SessionCommand.Delete: VigilCommand {}
extension SessionCommand.Add: VigilCommand {}
extension UndoCommand: VigilCommand {}
extension RulesCommand.List: VigilCommand {}
extension RulesCommand.Forget: VigilCommand {}
extension PauseCommand: VigilCommand {}
extension ResumeCommand: VigilCommand {}
extension BreakCommand: VigilCommand {}
extension SnoozeCommand: VigilCommand {}
extension AttachCommand: VigilCommand {}
