import Foundation
import SessionRuntime
import VigilCore

/// An action added from outside, as issue 36's actions will be: an output module named in
/// `alarms.channels` for the levels that use it. It writes what it was asked to do, one line each,
/// to the file `$VIGIL_TEST_JOURNAL` names (nothing when unset), for a test to read.
public final class JournalSink: AlarmSink {
    public let channel = AlarmChannel.journal
    let path: String?

    public init(path: String?) { self.path = path }

    public func fire(_ alarm: AlarmNotice) throws(AlarmChannelUnavailable) {
        write("fired level \(alarm.level) episode \(alarm.episode) cause \(alarm.cause.rawValue): \(alarm.reason)")
    }

    public func clear(episode: Int, level: Int, closedBy: EpisodeCloser, recoverySeconds: Double?) throws(AlarmChannelUnavailable) -> Bool {
        write("cleared episode \(episode) by \(closedBy.rawValue)")
        return true
    }

    private func write(_ line: String) {
        guard let path, let handle = FileHandle(forWritingAtPath: path) ?? create(path) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data((line + "\n").utf8))
    }

    private func create(_ path: String) -> FileHandle? {
        FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }
}

extension AlarmChannel { public static let journal = AlarmChannel(rawValue: "journal") }

extension ChannelModule {
    /// Registered as the product registers a channel: `PlugInRegistry.builtIn.adding(.journal)`.
    public static let journal = ChannelModule(channel: .journal) { _, _ in
        JournalSink(path: ProcessInfo.processInfo.environment["VIGIL_TEST_JOURNAL"])
    }
}
