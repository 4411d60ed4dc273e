import SessionRuntime
import SessionViews
import Synchronization
import Testing
import VigilConfig
import VigilCore

/// What a channel module's sink was asked to do.
final class NoteTakingSink: AlarmSink, Sendable {
    let channel: AlarmChannel
    let fired = Mutex<[AlarmNotice]>([])
    let cleared = Mutex<[Int]>([])

    init(_ name: String) { channel = AlarmChannel(rawValue: name) }

    func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) { fired.withLock { $0.append(alarm) } }
    func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        cleared.withLock { $0.append(episode) }
        return true
    }
}

/// An output added from outside, as an action of issue 36 will be: one `ChannelModule`, added to
/// the registry as the composition file adds one. The config may then name it for a level, and
/// the session's alarms reach it at that level, beside the built-in channels.
@Suite struct PluggableChannelTests {
    @Test func aChannelModuleIsNamedInTheConfigAndReachedAtItsLevels() throws {
        let journal = NoteTakingSink("journal")
        let terminal = NoteTakingSink("terminal")
        let registry = PlugInRegistry.builtIn.adding(ChannelModule(channel: journal.channel) { _, _ in journal })
        #expect(registry.channelNames.map(\.rawValue) == ["terminal", "desktop", "sound", "pause_media", "dim", "hide", "refocus", "journal"])
        let yaml = """
            alarms:
              escalation: [5, 10]
              channels: [[terminal], [terminal, journal]]

            """
        // Without the module the name is unknown, said with its file and line.
        #expect {
            _ = try ConfigLoader.load(yaml: yaml, file: "config.yaml")
        } throws: { error in
            "\(error)".contains("config.yaml:3") && "\(error)".contains("level 2: unknown channel 'journal'")
        }
        let config = try ConfigLoader.load(yaml: yaml, file: "config.yaml", plugIns: registry.config)
        #expect(config.alarms.channels == [[.terminal], [.terminal, journal.channel]])

        let deliveries = Mutex<[AlarmDelivery]>([])
        let sinks = registry.sinks(configuration: config, context: ChannelContext(terminal: terminal))
        #expect(sinks.map(\.channel) == registry.channelNames)
        let dispatcher = AlarmDispatcher(
            configuration: config.alarms, task: "essay", sinks: sinks, onDelivery: { d in deliveries.withLock { $0.append(d) } },
            report: { Issue.record("a channel failed: \($0)") })
        let t = Timestamp(seconds: 1_790_000_000)
        dispatcher.handle([
            SessionEvent(time: t, kind: .alarm(level: 1, repeat: 0, episode: 1, cause: .away, reason: "no input for 2 min")),
            SessionEvent(time: t + 5, kind: .alarm(level: 2, repeat: 0, episode: 1, cause: .away, reason: "no input for 3 min")),
            SessionEvent(time: t + 9, kind: .alarmCleared(level: 2, episode: 1, closedBy: .back, recoverySeconds: 9)),
        ])
        dispatcher.drain()
        // Level 1 is the terminal's alone; level 2 reaches the journal too, which then clears.
        #expect(terminal.fired.withLock { $0.map(\.level) } == [1, 2])
        #expect(journal.fired.withLock { $0.map(\.level) } == [2])
        #expect(journal.cleared.withLock { $0 } == [1])
        #expect(
            deliveries.withLock { $0.filter { $0.channel == journal.channel }.map(\.action) } == [.fired, .cleared])
    }
}

/// A replay never acts: it says what the actions would have done, by the channels the config
/// gives each level and the causes each action acts on (`ChannelModule.actsOn`).
@Suite struct WouldActTests {
    @Test func anAlarmSaysTheActionsItWouldHaveSetOff() {
        var alarms = VigilConfiguration.default.alarms
        alarms.channels = [[.terminal], [.terminal, .hide, .pauseMedia, .refocus]]
        let wouldAct = PlugInRegistry.builtIn.actions(alarms)
        #expect(wouldAct(1, .app) == [])
        #expect(wouldAct(2, .app) == [.hide, .pauseMedia, .refocus])
        // Away from the computer: no window to hide, the media paused all the same.
        #expect(wouldAct(2, .away) == [.pauseMedia])
        #expect(wouldAct(7, .app) == [.hide, .pauseMedia, .refocus], "levels past the last list use it")
        // A channel of a plug-in that tells is no action.
        let told = PlugInRegistry.builtIn.adding(ChannelModule(channel: AlarmChannel(rawValue: "journal")) { _, _ in NoteTakingSink("journal") })
        alarms.channels = [[AlarmChannel(rawValue: "journal"), .pauseMedia]]
        #expect(told.actions(alarms)(1, .switching) == [.pauseMedia])

        let t = Timestamp(seconds: 1_790_000_000)
        let renderer = TimelineRenderer(sessionStart: t, wouldAct: wouldAct)
        let alarm = SessionEvent(time: t + 90, kind: .alarm(level: 2, repeat: 0, episode: 1, cause: .app, reason: "2 min in videos"))
        #expect(renderer.text(alarm) == "00:01:30  alarm 2       2 min in videos · would hide, pause media, refocus")
        #expect(
            renderer.json(alarm).hasSuffix(#","reason":"2 min in videos","would_act":["hide","pause_media","refocus"]}"#), "\(renderer.json(alarm))")
        // A live session's lines (no `wouldAct`) say nothing of the kind.
        #expect(TimelineRenderer(sessionStart: t).text(alarm) == "00:01:30  alarm 2       2 min in videos")
    }
}
