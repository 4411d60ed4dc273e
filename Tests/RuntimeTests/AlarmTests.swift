import DesktopNotifier
import Foundation
import RecordingFormats
import SessionRuntime
import SessionViews
import SoundAlarm
import Synchronization
import TestSupport
import Testing
import VigilCore
import VigilRecording
import VigilStore

/// Alarms delivered through real channels: desktop notifications to a real notification service
/// on a private D-Bus, driven by a replayed session.
@Suite(.serialized) struct AlarmTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    /// Typing for 2 minutes, away for `awayMinutes`, typing again for 3 minutes: input windows
    /// every 5 s, as the input detector sends them.
    func awaySession(awayMinutes: Double) -> SampleArray {
        var samples: [Sample] = []
        var lastInput = 0.0
        let end = (2 + awayMinutes + 3) * 60
        for t in stride(from: 5.0, through: end, by: 5) {
            let typing = t <= 120 || t > (2 + awayMinutes) * 60
            if typing { lastInput = t - 0.5 }
            samples.append(Sample(time: t0 + t, payload: .input(InputActivity(window: 5, keyPresses: typing ? 12 : 0, idle: t - lastInput))))
        }
        return SampleArray(path: "away.jsonl", start: t0, samples: samples)
    }

    /// The sounds in a recording, cut at silences of at least `silence` seconds by sox, each
    /// measured by sox's `stat`: peak in dBFS and rough frequency. Pieces shorter than `shortest`
    /// (the edges of a cut) are left out.
    static func soundsIn(_ recording: String, silence: Double, shortest: Double) throws -> [(peak: Double, frequency: Double)] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-sounds-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let split = runTool(
            "/usr/bin/sox",
            [
                recording, dir + "/part.wav", "silence", "1", "0.01", "0.5%", "1", String(silence), "0.5%",
                ":", "newfile", ":", "restart",
            ])
        guard split.status == 0 else { throw TestFailure("sox could not split \(recording): \(split.output)") }
        var out: [(peak: Double, frequency: Double)] = []
        for part in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
            let stat = runTool("/usr/bin/sox", [dir + "/" + part, "-n", "stat"]).output
            func value(_ label: String) -> Double? {
                stat.split(separator: "\n").first { $0.hasPrefix(label) }.flatMap { $0.split(separator: ":").last }
                    .flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            }
            guard let length = value("Length (seconds)"), length >= shortest, let amplitude = value("Maximum amplitude"),
                let frequency = value("Rough   frequency")
            else { continue }
            out.append((20 * log10(amplitude), frequency))
        }
        return out
    }

    final class Reports: Sendable {
        let all = Mutex<[String]>([])
        func add(_ s: String) { all.withLock { $0.append(s) } }
    }

    final class Deliveries: Sendable {
        let all = Mutex<[AlarmDelivery]>([])
        func add(_ d: AlarmDelivery) { all.withLock { $0.append(d) } }
    }

    /// Away for twenty minutes: the alarm escalates, the last level comes back every minute until
    /// the person types again, then a clear. Level 1 is terminal-only by default, so the desktop
    /// sees levels 2 to 4, updated in place, each more urgent, then "back at work".
    @Test func aLongAbsenceEscalatesRepeatsUntilBackAndClears() throws {
        var events: [SessionEvent] = []
        _ = try Replayer(configuration: .default, signals: .builtIn, task: "thesis").run(MergedRecordings([awaySession(awayMinutes: 20)])) {
            events.append($0)
        }
        let repeats = events.compactMap { if case .alarm(4, let r, _, _, _) = $0.kind, r > 0 { r } else { nil } }
        #expect(repeats.count >= 5, "the persistent level repeats while away: \(repeats)")
        #expect(repeats == Array(1...repeats.count))
        let cleared = events.firstIndex { if case .alarmCleared(4, _, _, _) = $0.kind { true } else { false } }
        let lastAlarm = events.lastIndex { if case .alarm = $0.kind { true } else { false } }
        #expect(cleared != nil && lastAlarm != nil && cleared! > lastAlarm!, "cleared after the last alarm")

        let bus = try SessionBus()
        let (service, log) = try bus.startNotificationService()
        defer { service.kill(SIGKILL) }
        let reports = Reports()
        let deliveries = Deliveries()
        let dispatcher = AlarmDispatcher(
            configuration: VigilConfiguration.default.alarms, task: "thesis",
            sinks: [
                TerminalAlarmSink(fd: -1), DesktopAlarmSink(notifier: DesktopNotifier(busAddress: bus.address)),
                SoundAlarmSink(configuration: VigilConfiguration.default.alarms, player: TonePlayer(server: "unix:/nonexistent/pulse")),
                // No media player on this bus: nothing to pause, nothing said.
                MediaPauseSink(address: bus.address),
            ],
            onDelivery: { deliveries.add($0) }, motivation: { "Five focused minutes beat an hour of meaning to." },
            report: { reports.add($0) })
        dispatcher.handle(events)
        dispatcher.drain()

        let calls = SessionBus.notifications(log)
        let urgencies = calls.map { ($0["hints"] as? [String: Any])?["urgency"] as? Int }
        let summaries = calls.map { $0["summary"] as? String ?? "" }
        // Levels 2, 3, 4, the repeats of 4, then back.
        #expect(calls.count == 3 + repeats.count + 1, "\(summaries)")
        #expect(summaries.first == "Back to work? (alarm 2)")
        #expect(summaries[1] == "You have been away a while (alarm 3)")
        #expect(summaries[2] == "Still away from your work (alarm 4)")
        #expect(summaries.last == "Back at work")
        #expect(urgencies.first == 1 && urgencies[1] == 2 && urgencies[2] == 2)
        #expect(urgencies.last == 0)
        #expect((calls.first?["body"] as? String)?.contains("no input for") == true)
        #expect((calls.first?["body"] as? String)?.contains("thesis") == true)
        // A motivating line goes with each new level, not with the repeats.
        let bodies = calls.map { $0["body"] as? String ?? "" }
        #expect(bodies.prefix(3).allSatisfy { $0.hasSuffix("\n\nFive focused minutes beat an hour of meaning to.") })
        #expect(bodies.dropFirst(3).allSatisfy { !$0.contains("Five focused minutes") })
        // One notification for the episode, updated in place; the persistent one stays until dismissed.
        #expect(calls.dropFirst().allSatisfy { $0["replaces_id"] as? Int == 1 })
        #expect(calls[2]["expire_timeout"] as? Int == 0)
        // Not a terminal here, and no sound server: each said once, not per alarm.
        let said = reports.all.withLock { $0 }
        #expect(said.filter { $0.hasPrefix("terminal alarms unavailable: not running in a terminal") }.count == 1, "\(said)")
        #expect(said.filter { $0.hasPrefix("sound alarms unavailable: cannot play through the PulseAudio server") }.count == 1, "\(said)")
        #expect(said.count == 2, "\(said)")

        // Every alarm on every channel is in the log: delivered or not, and why not.
        let logged = deliveries.all.withLock { $0 }
        let desktop = logged.filter { $0.channel == .desktop }
        #expect(desktop.filter { $0.action == .fired && $0.delivered }.map(\.level) == [2, 3, 4] + repeats.map { _ in 4 })
        #expect(desktop.last?.action == .cleared && desktop.last?.delivered == true)
        let terminal = logged.filter { $0.channel == .terminal && $0.action == .fired }
        #expect(terminal.count == 4 + repeats.count && terminal.allSatisfy { !$0.delivered && $0.detail == "not running in a terminal" })
        #expect(logged.filter { $0.channel == .sound }.allSatisfy { !$0.delivered && $0.detail.contains("PulseAudio") })
        let store = EventStore()
        let session = try #require(try store.appendSession(events, source: .replay, recording: nil))
        try store.appendDeliveries(logged, session: session)
        #expect(try store.deliveries(session: session) == logged)
    }

    /// The channels of each level come from the config; a missing notification daemon is reported
    /// once, and the session's alarms go on through the other channels.
    @Test func channelsFollowTheConfigAndAMissingDaemonIsReportedOnce() throws {
        var config = VigilConfiguration.default.alarms
        config.channels = [[.desktop]]
        var events: [SessionEvent] = []
        _ = try Replayer(configuration: .default, signals: .builtIn).run(MergedRecordings([awaySession(awayMinutes: 15)])) { events.append($0) }
        let bus = try SessionBus()  // a bus with no notification daemon on it
        let reports = Reports()
        let dispatcher = AlarmDispatcher(
            configuration: config, task: nil,
            sinks: [DesktopAlarmSink(notifier: DesktopNotifier(busAddress: bus.address))]
        ) { reports.add($0) }
        dispatcher.handle(events)
        dispatcher.drain()
        let said = reports.all.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("desktop alarms unavailable: no notification daemon") == true, "\(said)")
    }

    /// The audible alarm through a real PulseAudio: a private server with a null sink, its monitor
    /// recorded by parecord while a replayed absence escalates to levels 3 and 4, and the recording
    /// measured by sox: the configured pitch, louder at level 4 than at level 3.
    @Test func theToneIsHeardAtItsPitchAndGetsLouder() throws {
        let pulse = try PulseServer()
        try pulse.start()
        var config = VigilConfiguration.default.alarms
        config.channels = [[], [], [.sound], [.sound]]
        config.tone = 660
        config.toneLevels = [-30, -24, -18, -6]
        var events: [SessionEvent] = []
        _ = try Replayer(configuration: .default, signals: .builtIn).run(MergedRecordings([awaySession(awayMinutes: 16)])) { events.append($0) }
        let fired = events.compactMap { if case .alarm(let l, _, _, _, _) = $0.kind, l >= 3 { l } else { nil } }
        #expect(fired.first == 3 && fired.dropFirst().allSatisfy { $0 == 4 } && fired.count >= 2, "\(fired)")

        let dir = pulse.directory
        let recording = dir + "/monitor.wav"
        let recorder = try ChildProcess(
            "/usr/bin/parecord",
            [
                "--server", pulse.address, "-d", "vigiltest.monitor", "--file-format=wav",
                "--format=float32le", "--rate=48000", "--channels=1", recording,
            ])
        usleep(500_000)
        let reports = Reports()
        let dispatcher = AlarmDispatcher(
            configuration: config, task: nil,
            sinks: [SoundAlarmSink(configuration: config, player: TonePlayer(server: pulse.address))]
        ) { reports.add($0) }
        dispatcher.handle(events)
        dispatcher.drain()
        usleep(300_000)
        recorder.kill(SIGINT)
        _ = recorder.wait()
        #expect(reports.all.withLock { $0 }.isEmpty, "\(reports.all.withLock { $0 })")

        // Cut the recording at its silences (each beep its own file), and measure each beep.
        let beeps = try Self.soundsIn(recording, silence: 0.05, shortest: 0.1)
        #expect(beeps.allSatisfy { abs($0.frequency - 660) < 15 }, "\(beeps)")
        let peaks = beeps.map(\.peak)
        // Three beeps per alarm: level 3's at -18 dBFS, then level 4's (and its repeats) at -6.
        #expect(peaks.count == 3 * fired.count, "\(peaks)")
        #expect(peaks.prefix(3).allSatisfy { abs($0 - (-18)) < 1 }, "\(peaks)")
        #expect(peaks.dropFirst(3).allSatisfy { abs($0 - (-6)) < 1 }, "\(peaks)")
    }

    /// A sound file from the config instead of the tone: played at the level's loudness (its peak
    /// brought to `tone_levels`), heard on the sink's monitor at the file's own pitch.
    @Test func aSoundFileIsPlayedLouderAtEachLevel() throws {
        let pulse = try PulseServer()
        try pulse.start()
        let dir = pulse.directory
        let chime = dir + "/chime.wav"
        // A stereo 440 Hz chime at an arbitrary level: what it sounds like is the file's, how loud is Vigil's.
        let made = runTool("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", chime, "synth", "0.6", "sine", "440", "vol", "0.3"])
        try #require(made.status == 0, "\(made.output)")
        var config = VigilConfiguration.default.alarms
        config.soundFile = chime
        config.toneLevels = [-30, -24, -20, -8]
        let sink = SoundAlarmSink(configuration: config, player: TonePlayer(server: pulse.address))

        let recording = dir + "/monitor.wav"
        let recorder = try ChildProcess(
            "/usr/bin/parecord",
            [
                "--server", pulse.address, "-d", "vigiltest.monitor", "--file-format=wav",
                "--format=float32le", "--rate=44100", "--channels=1", recording,
            ])
        usleep(500_000)
        for level in [3, 4] {
            try sink.fire(
                AlarmNotice(time: t0, level: level, repeatCount: 0, episode: 1, cause: .away, reason: "away", task: nil, isPersistent: level == 4))
            usleep(300_000)
        }
        recorder.kill(SIGINT)
        _ = recorder.wait()

        let sounds = try Self.soundsIn(recording, silence: 0.1, shortest: 0.3)
        #expect(sounds.allSatisfy { abs($0.frequency - 440) < 15 }, "\(sounds)")
        let peaks = sounds.map(\.peak)
        #expect(peaks.count == 2, "\(peaks)")
        #expect(abs((peaks.first ?? 0) - (-20)) < 1 && abs((peaks.last ?? 0) - (-8)) < 1, "\(peaks)")
    }

    /// The terminal channel on a real pseudo-terminal: the bell, the banner with the reason, the
    /// motivating line; plain text under NO_COLOR.
    @Test func theTerminalNudgeRingsTheBellWithTheReason() throws {
        // A pty pair the Linux way (posix_openpt is not in Swift's Glibc module): /dev/ptmx, unlock,
        // and the number of the slave side.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int) (asm-generic
        // ioctl numbering, x86_64 and arm64): macros Swift does not import.
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        let sink = TerminalAlarmSink(fd: slave, environment: ["NO_COLOR": "1"])
        try sink.fire(
            AlarmNotice(
                time: t0, level: 2, repeatCount: 0, episode: 1, cause: .away, reason: "no input for 5 min", task: nil,
                isPersistent: false, motivation: "Open the file."))
        #expect(try sink.clear(episode: 1, level: 2, closedBy: .back, recoverySeconds: 95))
        // The terminal hands the writes over in as many reads as it likes: read until the last
        // line has come, or until nothing more comes for 10 s.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: bytes, as: UTF8.self).contains("[BACK]") {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) > 0 else { break }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer.prefix(n)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{07}[ALARM 2] no input for 5 min · time to get back to it"), "\(text.debugDescription)")
        #expect(text.contains("Open the file."))
        #expect(text.contains("[BACK] back at work after 1 min 35 s"), "\(text.debugDescription)")
        #expect(!text.contains("\u{1B}["), "no colour under NO_COLOR")
    }
}
